/* compare_text — untrusted text in `brisk compare`'s plain-text reports
 * (compare_report, compare_split): ASCII only, never a control byte.
 * text_escape() first (control bytes, invalid UTF-8, a backslash), then
 * every byte above 0x7e as \xHH, so that a label or a process name cannot
 * move the terminal's cursor, and a table keeps its columns.
 */
#ifndef BRISK_COMPARE_TEXT_H
#define BRISK_COMPARE_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* s (NULL: "") escaped to clean, printable ASCII.  malloc'ed; NULL when
 * out of memory. */
char *compare_text_dup(const char *s);
/* s escaped into buf (w + 1 bytes), cut to at most w columns at a whole
 * character or escape ("\\", "\xHH"); "?" when out of memory.  Returns
 * buf. */
const char *compare_text_cell(char *buf, size_t w, const char *s);
/* prefix, then s escaped, wrapped at cols (text_wrap: continuation lines
 * start with cont). */
void compare_text_wrap(FILE *f, const char *prefix, const char *cont, const char *s,
		       size_t cols);

#endif
