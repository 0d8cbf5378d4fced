// HarfBuzz, the shaper the browsers use. Only Prepare/Fonts/HarfBuzzFont.swift imports it.
#include <hb.h>
#include <hb-ot.h>
