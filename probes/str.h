/* str — the few string helpers every layer uses (probes is the bottom of the
 * one-way layering, so they live here; nothing in them reads the machine).
 *
 *  str_copy     bounded copy: always NUL-terminated when len > 0, cuts to
 *               fit, NULL src copies "" (strlcpy without the return value)
 *  str_trim     white space (str_is_space) off both ends, in place; returns the
 *               first kept character
 *  str_in_list  is word one of the space-separated words of list?
 *  str_is_digit, str_is_xdigit, str_is_alnum, str_is_space
 *               ASCII character classes, whatever the locale: ctype's
 *               follow LC_CTYPE, where a Latin-1 locale makes byte 0xE4
 *               a letter and 0xA0 a space; what brisk checks, trims and
 *               writes into config must not depend on the user's locale
 */
#ifndef BRISK_STR_H
#define BRISK_STR_H

#include <stddef.h>

void str_copy(char *dst, size_t len, const char *src);
char *str_trim(char *s);
int str_in_list(const char *list, const char *word);
int str_is_digit(int c);
int str_is_xdigit(int c);
int str_is_alnum(int c);
int str_is_space(int c);

#endif
