#ifndef STRATA_CCAIRO_SHIM_H
#define STRATA_CCAIRO_SHIM_H
#include <cairo/cairo.h>
#include <pango/pangocairo.h>
/* HarfBuzz, for what a font's shaping plan does with the space (WordShapes.swift). */
#include <hb.h>
#include <hb-ot.h>
#include <hb-glib.h>
#endif
