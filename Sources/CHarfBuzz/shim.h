// HarfBuzz, the shaper the browsers use, and its subsetter. Only Prepare/Fonts/HarfBuzzFont.swift imports it.
#include <hb.h>
#include <hb-ot.h>
#include <hb-subset.h>
