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
/* AVERROR(ENOMEM) and friends as functions too. */
static inline int strata_averror(int code) { return AVERROR(code); }
#endif
