// The instantiations of the C kernels this CPU runs, for tests that compare them all.
import CStrataKernels

/// Scalar and SSE2 always; AVX2 and AVX-512VL (sixteen lanes, and eight in its registers) where
/// the CPU has them (a CPU with AVX-512VL has AVX2 as well).
func kernelInstantiations() -> [strata_lanes] {
    let best = strata_best_lanes().rawValue
    var lanes: [strata_lanes] = [STRATA_LANES_SCALAR, STRATA_LANES_SSE2]
    if best >= STRATA_LANES_AVX2.rawValue { lanes.append(STRATA_LANES_AVX2) }
    if best >= STRATA_LANES_AVX512.rawValue { lanes += [STRATA_LANES_AVX512, STRATA_LANES_AVX512_8] }
    return lanes
}
