// libvterm 0.1 does not keep SGR 2 (faint) in its cells, but it does keep the alternative font
// (SGR 10–19) of every cell. This filter, between the program and libvterm, rewrites faint as
// font 1 and "normal intensity" (SGR 22) as "normal intensity, primary font", so that a cell's
// font 1 means faint when read back (`TerminalScreen`). Colour arguments (38/48/58;5;n and
// 38/48/58;2;r;g;b) are skipped so that a 2 inside them is left alone. A program that asks for
// font 1 itself (rare) is shown faint. The filter is streaming: a sequence split between two
// writes is held until its final byte.

/// Rewrites faint (SGR 2, 22) as font 1 / font 0 in a byte stream.
struct FaintCarrier {
    /// The carrier font number.
    static let font: UInt32 = 1

    private enum Phase { case ground, escape, csi }
    private var phase = Phase.ground
    /// `ESC [` and what followed it, while a control sequence is incomplete.
    private var pending: [UInt8] = []
    /// A sequence longer than this is passed on unchanged (it is not an SGR a program writes).
    private static let longestHeld = 128

    /// The bytes to give libvterm for `input` (and the held part of earlier input).
    mutating func filter(_ input: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        for b in input {
            switch phase {
            case .ground:
                if b == 0x1B { phase = .escape } else { out.append(b) }
            case .escape:
                if b == UInt8(ascii: "[") {
                    phase = .csi
                    pending = [0x1B, b]
                } else {
                    out.append(0x1B)
                    if b == 0x1B { continue }
                    out.append(b)
                    phase = .ground
                }
            case .csi:
                if b == 0x1B {
                    out += pending; pending.removeAll(); phase = .escape
                } else if (0x40...0x7E).contains(b) {
                    if b == UInt8(ascii: "m") { out += Self.rewrite(pending.dropFirst(2)) }
                    else { out += pending }
                    out.append(b)
                    pending.removeAll(); phase = .ground
                } else {
                    pending.append(b)
                    if pending.count > Self.longestHeld { out += pending; pending.removeAll(); phase = .ground }
                }
            }
        }
    }

    /// `ESC [` + the rewritten parameters of an SGR (without its final `m`).
    static func rewrite(_ params: ArraySlice<UInt8>) -> [UInt8] {
        let prefix: [UInt8] = [0x1B, UInt8(ascii: "[")]
        // Private or intermediate bytes: not an SGR of the standard form.
        guard params.allSatisfy({ (0x30...0x3B).contains($0) }) else { return prefix + params }
        let fields = params.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var out: [String] = []
        var i = 0
        while i < fields.count {
            let f = fields[i]
            switch f {
            case "38", "48", "58":
                let n = i + 1 < fields.count ? (fields[i + 1] == "5" ? 3 : fields[i + 1] == "2" ? 5 : 1) : 1
                out += fields[i..<min(i + n, fields.count)]
                i += n
                continue
            case "2": out.append("1\(font)")
            case "22": out += ["22", "10"]
            default: out.append(f)
            }
            i += 1
        }
        return prefix + Array(out.joined(separator: ";").utf8)
    }
}
