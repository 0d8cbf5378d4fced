// FreeType, the rasterizer under WebKitGTK, for the hinted advances WebKit lays text out with. Only
// Prepare/Fonts/FreeTypeFont.swift imports it.
#include <ft2build.h>
#include FT_FREETYPE_H
