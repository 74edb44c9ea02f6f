#ifndef STRATA_CVTERM_SHIM_H
#define STRATA_CVTERM_SHIM_H
#include <vterm.h>

// VTERM_COLOR_IS_* are function-like macros, which Swift does not import.
static inline int strata_vterm_color_is_indexed(const VTermColor *c) { return VTERM_COLOR_IS_INDEXED(c); }
static inline int strata_vterm_color_is_default_fg(const VTermColor *c) { return VTERM_COLOR_IS_DEFAULT_FG(c); }
static inline int strata_vterm_color_is_default_bg(const VTermColor *c) { return VTERM_COLOR_IS_DEFAULT_BG(c); }
#endif
