// ICU's line break iterator, for the words of scripts written without spaces (Thai, Lao, Khmer, Burmese),
// found with the dictionaries Chromium's line breaker uses. The only C that touches ICU.
#include "unfold_icu.h"
#include <unicode/ubrk.h>

int32_t unfold_icu_line_breaks(const uint16_t *text, int32_t length, int32_t *boundaries, int32_t capacity) {
  UErrorCode status = U_ZERO_ERROR;
  UBreakIterator *iterator = ubrk_open(UBRK_LINE, "", (const UChar *)text, length, &status);
  if (U_FAILURE(status)) {
    if (iterator) ubrk_close(iterator);
    return -1;
  }
  int32_t count = 0;
  for (int32_t offset = ubrk_next(iterator); offset != UBRK_DONE && offset < length; offset = ubrk_next(iterator)) {
    if (count < capacity) boundaries[count] = offset;
    count += 1;
  }
  ubrk_close(iterator);
  return count;
}
