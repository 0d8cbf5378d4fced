// ICU's line break iterator behind plain C types: Swift's Foundation brings ICU types of its own, which the
// system ICU's headers would clash with.
#include <stdint.h>

/// The UTF-16 offsets (0 < offset < length) where ICU's line break iterator allows a break in `text`, written
/// into `boundaries` (room for `capacity`); returns how many there are, or -1 when ICU fails.
int32_t unfold_icu_line_breaks(const uint16_t *text, int32_t length, int32_t *boundaries, int32_t capacity);

/// The bidi embedding level of each UTF-16 unit of `text` (UAX #9 as ICU resolves it, every paragraph of it at
/// `paragraph_level`: 0 left to right, 1 right to left), written into `levels` (room for `length`); returns 0, or
/// -1 when ICU fails.
int32_t unfold_icu_bidi_levels(const uint16_t *text, int32_t length, uint8_t paragraph_level, uint8_t *levels);
