// ICU's line break iterator, for the words of scripts written without spaces (Thai, Lao, Khmer, Burmese),
// found with the dictionaries Chromium's line breaker uses; ICU's bidi properties, which the engine's own bidi
// algorithm reads; and ICU's bidi algorithm, which Chromium runs and the tests compare the engine's with. The only C
// that touches ICU.
#include "unfold_icu.h"
#include <pthread.h>
#include <string.h>
#include <unicode/ubidi.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/udata.h>

// Opening an iterator loads and checks its rules (microseconds, a Thai comment's whole preparing several times
// over): iterators are kept in a small pool, shared by the threads under a lock, and given new text each time.
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static UBreakIterator *pool[16];
static int pooled = 0;

static UBreakIterator *take_iterator(void) {
  UBreakIterator *iterator = NULL;
  pthread_mutex_lock(&pool_lock);
  if (pooled > 0) iterator = pool[--pooled];
  pthread_mutex_unlock(&pool_lock);
  if (iterator) return iterator;
  UErrorCode status = U_ZERO_ERROR;
  iterator = ubrk_open(UBRK_LINE, "", NULL, 0, &status);
  if (U_FAILURE(status)) {
    if (iterator) ubrk_close(iterator);
    return NULL;
  }
  return iterator;
}

static void give_back(UBreakIterator *iterator) {
  pthread_mutex_lock(&pool_lock);
  if (pooled < (int)(sizeof pool / sizeof pool[0])) {
    pool[pooled++] = iterator;
    iterator = NULL;
  }
  pthread_mutex_unlock(&pool_lock);
  if (iterator) ubrk_close(iterator);
}

int32_t unfold_icu_line_breaks(const uint16_t *text, int32_t length, int32_t *boundaries, int32_t capacity) {
  UBreakIterator *iterator = take_iterator();
  if (!iterator) return -1;
  UErrorCode status = U_ZERO_ERROR;
  ubrk_setText(iterator, (const UChar *)text, length, &status);
  if (U_FAILURE(status)) {
    ubrk_close(iterator);
    return -1;
  }
  int32_t count = 0;
  for (int32_t offset = ubrk_next(iterator); offset != UBRK_DONE && offset < length; offset = ubrk_next(iterator)) {
    if (count < capacity) boundaries[count] = offset;
    count += 1;
  }
  // The iterator keeps no pointer to the text past this call: it is given an empty one.
  status = U_ZERO_ERROR;
  ubrk_setText(iterator, NULL, 0, &status);
  give_back(iterator);
  return count;
}

int32_t unfold_icu_dictionary(const char *name, uint8_t *buffer, int32_t capacity) {
  UErrorCode status = U_ZERO_ERROR;
  UDataMemory *file = udata_open(U_ICUDATA_NAME U_TREE_SEPARATOR_STRING "brkitr", "dict", name, &status);
  if (U_FAILURE(status) || !file) return -1;
  // The dictionary's indexes: the trie's offset, two reserved, the total size, the trie's type, its transform.
  const int32_t *indexes = (const int32_t *)udata_getMemory(file);
  int32_t length = indexes[3];
  if (length > 0 && buffer) memcpy(buffer, indexes, (size_t)(length < capacity ? length : capacity));
  udata_close(file);
  return length;
}

int32_t unfold_icu_bidi_levels(const uint16_t *text, int32_t length, uint8_t paragraph_level, uint8_t *levels) {
  UErrorCode status = U_ZERO_ERROR;
  UBiDi *bidi = ubidi_openSized(length, 0, &status);
  if (U_FAILURE(status)) return -1;
  ubidi_setPara(bidi, (const UChar *)text, length, paragraph_level, NULL, &status);
  const UBiDiLevel *resolved = U_SUCCESS(status) ? ubidi_getLevels(bidi, &status) : NULL;
  if (U_FAILURE(status) || !resolved) {
    ubidi_close(bidi);
    return -1;
  }
  memcpy(levels, resolved, (size_t)length);
  ubidi_close(bidi);
  return 0;
}

void *unfold_icu_bidi_open(void) { return ubidi_open(); }

void unfold_icu_bidi_close(void *bidi) {
  if (bidi) ubidi_close((UBiDi *)bidi);
}

int32_t unfold_icu_bidi_line_runs(void *object, const uint16_t *text, int32_t length, uint8_t paragraph_level,
                                  int32_t *starts, int32_t *lengths, uint8_t *right_to_left, int32_t capacity) {
  UBiDi *bidi = (UBiDi *)object;
  if (!bidi) return -1;
  UErrorCode status = U_ZERO_ERROR;
  ubidi_setPara(bidi, (const UChar *)text, length, paragraph_level, NULL, &status);
  int32_t count = U_SUCCESS(status) ? ubidi_countRuns(bidi, &status) : -1;
  if (U_FAILURE(status) || count < 0) return -1;
  for (int32_t index = 0; index < count && index < capacity; index++) {
    int32_t start = 0, run_length = 0;
    UBiDiDirection direction = ubidi_getVisualRun(bidi, index, &start, &run_length);
    starts[index] = start;
    lengths[index] = run_length;
    right_to_left[index] = direction == UBIDI_RTL;
  }
  return count;
}

// The Bidi_Class of the ASCII characters, read from ICU once.
static uint8_t ascii_classes[128];
static pthread_once_t ascii_classes_once = PTHREAD_ONCE_INIT;

static void read_ascii_classes(void) {
  for (UChar32 c = 0; c < 128; c++) ascii_classes[c] = (uint8_t)u_charDirection(c);
}

// A paired bracket's key: the closing bracket of its pair, U+2329 and U+232A taken as their canonical equivalents
// U+3008 and U+3009 (BD16), shifted left once, the low bit set for an opening bracket.
static uint32_t bracket_key(UChar32 c) {
  UBidiPairedBracketType type = (UBidiPairedBracketType)u_getIntPropertyValue(c, UCHAR_BIDI_PAIRED_BRACKET_TYPE);
  if (type == U_BPT_NONE) return 0;
  UChar32 closing = type == U_BPT_OPEN ? u_getBidiPairedBracket(c) : c;
  if (closing == 0x232A) closing = 0x3009;
  return (uint32_t)closing << 1 | (type == U_BPT_OPEN);
}

int32_t unfold_icu_bidi_classes(const uint8_t *text, int32_t length, uint8_t *classes, int32_t *offsets,
                                uint32_t *brackets, int32_t *stop) {
  pthread_once(&ascii_classes_once, read_ascii_classes);
  int32_t index = 0, count = 0;
  while (index < length) {
    int32_t start = index;
    UChar32 c = text[index];
    UCharDirection direction;
    if (c < 0x80) {
      index++;
      direction = (UCharDirection)ascii_classes[c];
    } else {
      U8_NEXT(text, index, length, c);
      if (c < 0) return -1;
      direction = u_charDirection(c);
    }
    if (stop && direction == U_LEFT_TO_RIGHT && count > 0) {
      *stop = start;
      return count;
    }
    uint32_t bracket = 0;
    if (direction == U_OTHER_NEUTRAL &&
        (c == '(' || c == ')' || c == '[' || c == ']' || c == '{' || c == '}' || c >= 0x80))
      bracket = bracket_key(c);
    classes[count] = (uint8_t)direction;
    offsets[count] = start;
    brackets[count] = bracket;
    count++;
  }
  if (stop) *stop = length;
  return count;
}

int32_t unfold_icu_takes_level(uint32_t code_point) {
  switch (u_charDirection((UChar32)code_point)) {
    case U_RIGHT_TO_LEFT: case U_RIGHT_TO_LEFT_ARABIC: case U_ARABIC_NUMBER: case U_LEFT_TO_RIGHT_EMBEDDING:
    case U_LEFT_TO_RIGHT_OVERRIDE: case U_RIGHT_TO_LEFT_EMBEDDING: case U_RIGHT_TO_LEFT_OVERRIDE:
    case U_POP_DIRECTIONAL_FORMAT: case U_LEFT_TO_RIGHT_ISOLATE: case U_RIGHT_TO_LEFT_ISOLATE:
    case U_FIRST_STRONG_ISOLATE: case U_POP_DIRECTIONAL_ISOLATE:
      return 1;
    default:
      return 0;
  }
}

int32_t unfold_icu_bidi_class(uint32_t code_point) { return (int32_t)u_charDirection((UChar32)code_point); }

int32_t unfold_icu_is_boundary_neutral(uint32_t code_point) {
  return u_charDirection((UChar32)code_point) == U_BOUNDARY_NEUTRAL;
}

uint32_t unfold_icu_mirror(uint32_t code_point) { return (uint32_t)u_charMirror((UChar32)code_point); }
