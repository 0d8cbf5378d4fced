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

/// An ICU bidi object to resolve many lines with (`unfold_icu_bidi_line_runs`), its memory reused from line to line;
/// NULL when ICU fails. Free it with `unfold_icu_bidi_close`.
void *unfold_icu_bidi_open(void);

/// Frees an object of `unfold_icu_bidi_open`.
void unfold_icu_bidi_close(void *bidi);

/// The runs of one direction of `text` (one line, at `paragraph_level`) in visual order, left to right, resolved with
/// an object of `unfold_icu_bidi_open`: each run's first UTF-16 offset, its length and whether it is right to left,
/// written into the arrays (room for `capacity`); returns how many runs there are, or -1 when ICU fails.
int32_t unfold_icu_bidi_line_runs(void *bidi, const uint16_t *text, int32_t length, uint8_t paragraph_level,
                                  int32_t *starts, int32_t *lengths, uint8_t *right_to_left, int32_t capacity);

/// The Bidi_Class of each code point of UTF-8 `text` (ICU's UCharDirection values), the byte offset where it starts
/// and, for a paired bracket, its key (the code point of the pair's closing bracket, U+232A taken as U+3009, shifted
/// left once, the low bit set for an opening one; 0 for any other character), written into `classes`, `offsets` and
/// `brackets` (room for `length`), every class as it is; returns how many code points there are, or -1 for bytes that
/// are not UTF-8. With a `stop`, the classes end before the first character of class L after the first one, whose
/// offset `stop` receives; the text's length when there is none.
int32_t unfold_icu_bidi_classes(const uint8_t *text, int32_t length, uint8_t *classes, int32_t *offsets,
                                uint32_t *brackets, int32_t *stop);

/// 1 when a code point's Bidi_Class is R, AL or AN, or an explicit embedding, override, isolate or their end: what
/// may take a level above a left-to-right paragraph's; 0 otherwise.
int32_t unfold_icu_takes_level(uint32_t code_point);

/// A code point's Bidi_Class (ICU's UCharDirection value).
int32_t unfold_icu_bidi_class(uint32_t code_point);

/// 1 when a code point's Bidi_Class is BN (a joiner, the soft hyphen, a control, a tag); 0 otherwise.
int32_t unfold_icu_is_boundary_neutral(uint32_t code_point);

/// The mirrored form of a code point drawn right to left (`(` for `)`), or the code point itself.
uint32_t unfold_icu_mirror(uint32_t code_point);

/// Copies the system ICU's word dictionary `name` (`thaidict`, `laodict`, `khmerdict`, `burmesedict`: the data of
/// `brkitr/<name>.dict` after its header, whose first 32-bit word is the offset of the trie) into `buffer` (room for
/// `capacity` bytes), up to its length; returns its length, or -1 when ICU has no such dictionary.
int32_t unfold_icu_dictionary(const char *name, uint8_t *buffer, int32_t capacity);
