#ifndef STRATA_CFFMPEG_SHIM_H
#define STRATA_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/opt.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavutil/display.h>
#include <libavutil/channel_layout.h>
#include <libavutil/audio_fifo.h>

/* AVERROR(EAGAIN) and AVERROR_EOF are macros Swift cannot import. */
static inline int strata_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int strata_averror_eof(void) { return AVERROR_EOF; }
static inline int strata_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
/* AVERROR(ENOMEM) and friends as functions too. */
static inline int strata_averror(int code) { return AVERROR(code); }

#include <libavutil/cpu.h>
/* Whether the CPU runs AVX-512 (FFmpeg's detection; AV_CPU_FLAG_AVX512 is a hex macro Swift does
   not import). */
static inline int strata_cpu_has_avx512(void) {
#ifdef AV_CPU_FLAG_AVX512
    return (av_get_cpu_flags() & AV_CPU_FLAG_AVX512) != 0;
#else
    return 0;
#endif
}

/* glibc's allocator raises its mmap threshold each time a large mmapped block is freed, so
   that after an encoder's state is freed (a codec restart at a keyframe interval) the next
   state's frame-sized buffers land in the heap, where they fragment it and are not given back:
   the process grew by tens of MiB a restart. A fixed threshold keeps blocks of `bytes` and more
   mmapped (given back when freed) and turns the adjustment off; a threshold set through
   MALLOC_MMAP_THRESHOLD_ is left alone. malloc_trim gives free heap pages back. Elsewhere
   nothing. */
#if defined(__GLIBC__)
#include <malloc.h>
#include <stdlib.h>
static inline void strata_fix_mmap_threshold(int bytes) {
    if (!getenv("MALLOC_MMAP_THRESHOLD_")) mallopt(M_MMAP_THRESHOLD, bytes);
}
static inline void strata_return_free_memory(void) { malloc_trim(0); }
#else
static inline void strata_fix_mmap_threshold(int bytes) { (void)bytes; }
static inline void strata_return_free_memory(void) {}
#endif
#endif
