/* text — the one rule for text brisk did not write itself.
 *
 * Untrusted text (profile and fio job files, udev properties, sysfs
 * attributes, the mount table, file names) is "clean" when it is valid
 * UTF-8 without control characters and without characters that are
 * invisible or reorder what a terminal shows:
 *   - refused: C0 controls U+0000..U+001F except TAB (U+0009), DEL (U+007F),
 *     C1 controls U+0080..U+009F (UTF-8 \xc2\x80..\xc2\x9f);
 *   - refused: bidirectional controls (U+202A..U+202E embeddings and
 *     overrides, U+2066..U+2069 isolates, U+200E/U+200F/U+061C marks), the
 *     line and paragraph separators U+2028/U+2029, and the invisible format
 *     characters U+200B..U+200D, U+2060..U+206F, U+180E, U+FEFF,
 *     U+FFF9..U+FFFB and the tags U+E0000..U+E007F (so "U+202E" cannot
 *     turn a model name or a description around on screen, and nothing
 *     hides in a name that looks plain);
 *   - refused as invalid UTF-8: stray continuation bytes, \xc0, \xc1 and
 *     \xf5..\xff, overlong forms (\xc0\xaf, \xe0\x80.., \xf0\x80..),
 *     surrogates U+D800..U+DFFF (\xed\xa0..), code points above U+10FFFF
 *     (\xf4\x90..), and sequences cut short (by the end or another byte).
 *
 * Contract:
 *  - Input is checked where it enters (text_check/text_check_n: loaders
 *    refuse unclean text with FILE:LINE); device strings are stored as read
 *    and escaped where they are shown or written.
 *  - text_escape() gives a printable, unambiguous form: each byte of a
 *    refused character (or of an invalid sequence) becomes \xHH (lower-case
 *    hex; U+202E is \xe2\x80\xae), a backslash becomes \\, everything else (TAB and valid UTF-8
 *    included) is copied.  The result is clean text without CR, LF or ESC,
 *    so it cannot start a line or a terminal control sequence.  It is
 *    truncated at a whole character or escape to fit len (always
 *    NUL-terminated when len > 0).
 *  - Nothing allocates; text_show() uses TEXT_SHOW_SLOTS static buffers in
 *    turn (single-threaded callers; at most TEXT_SHOW_SLOTS in one call).
 */
#ifndef BRISK_TEXT_H
#define BRISK_TEXT_H

#include <stddef.h>
#include <stdio.h>

#define TEXT_SHOW_SLOTS 8
#define TEXT_SHOW_LEN   1024

/* Flags for text_escape_flags(). */
#define TEXT_KEEP_BACKSLASH 1u   /* copy '\' as is (messages meant for people) */

/* Length in bytes (1..4) of the clean character at s (n bytes available),
 * or 0 when s starts with a refused or invalid byte sequence (or n == 0). */
size_t text_char_len(const char *s, size_t n);
/* What the refused sequence at s (n bytes available; text_char_len() is
 * 0 there) is, for messages, into buf: "control character \x1b",
 * "control character \xc2\x85", "invalid UTF-8 \xff" (its first byte),
 * "invisible or bidirectional format character U+202E".  Returns buf. */
const char *text_bad_name(const char *s, size_t n, char *buf, size_t len);
/* 0 when s (NUL-terminated) is clean, else -EILSEQ and *bad_off (may be
 * NULL) = offset of the first bad byte. */
int text_check(const char *s, size_t *bad_off);
/* The same for n bytes (a NUL byte is a refused control character). */
int text_check_n(const char *s, size_t n, size_t *bad_off);
/* Escape src into dst (see above); returns dst. */
char *text_escape(char *dst, size_t len, const char *src);
char *text_escape_flags(char *dst, size_t len, const char *src, unsigned flags);
/* text_escape() into the next of TEXT_SHOW_SLOTS static buffers: for
 * printf arguments.  NULL gives "". */
const char *text_show(const char *s);
/* Write s escaped to f (no length limit). */
void text_fputs(const char *s, FILE *f);
/* Columns of s on a terminal: its UTF-8 characters (every one taken as one
 * column, as escaped text has no wide or combining characters it refused). */
size_t text_cols(const char *s);
/* prefix, then text (already escaped or trusted) wrapped at spaces so no
 * line passes width columns, continuation lines starting with cont, then a
 * newline.  A word longer than a line is cut at a whole character, never
 * inside an escape (\\, \xHH, \n ...). */
void text_wrap(FILE *f, const char *prefix, const char *cont, const char *text, size_t width);

#endif
