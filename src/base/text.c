/* text — checking and escaping untrusted text.  See text.h. */
#include "text.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int cont(unsigned char b)
{
	return (b & 0xC0) == 0x80;
}

/* The invisible format characters and bidirectional controls (text.h). */
static int hidden(unsigned long c)
{
	return c == 0x061C || c == 0x180E || (c >= 0x200B && c <= 0x200F) ||
	       (c >= 0x2028 && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F) || c == 0xFEFF ||
	       (c >= 0xFFF9 && c <= 0xFFFB) || (c >= 0xE0000 && c <= 0xE007F);
}

/* Length (1..4) of the valid UTF-8 character at s, or 0: whether it is
 * shown as is is text_char_len()'s business.  *cp gets the code point. */
static size_t utf8_len(const unsigned char *u, size_t n, unsigned long *cp)
{
	unsigned char b = u[0];
	*cp = b;
	if (b < 0x80)
		return 1;
	if (b >= 0xC2 && b <= 0xDF) {
		if (n < 2 || !cont(u[1]))
			return 0;
		*cp = (b & 0x1Ful) << 6 | (u[1] & 0x3F);
		return 2;
	}
	if (b >= 0xE0 && b <= 0xEF) {
		unsigned char lo = b == 0xE0 ? 0xA0 : 0x80;    /* no overlongs */
		unsigned char hi = b == 0xED ? 0x9F : 0xBF;    /* no surrogates */
		if (n < 3 || u[1] < lo || u[1] > hi || !cont(u[2]))
			return 0;
		*cp = (b & 0x0Ful) << 12 | (u[1] & 0x3Ful) << 6 | (u[2] & 0x3F);
		return 3;
	}
	if (b >= 0xF0 && b <= 0xF4) {
		unsigned char lo = b == 0xF0 ? 0x90 : 0x80;    /* no overlongs */
		unsigned char hi = b == 0xF4 ? 0x8F : 0xBF;    /* <= U+10FFFF */
		if (n < 4 || u[1] < lo || u[1] > hi || !cont(u[2]) || !cont(u[3]))
			return 0;
		*cp = (b & 0x07ul) << 18 | (u[1] & 0x3Ful) << 12 | (u[2] & 0x3Ful) << 6 |
		      (u[3] & 0x3F);
		return 4;
	}
	return 0;   /* continuation byte, \xc0, \xc1, \xf5..\xff */
}

/* C0 but TAB, DEL, C1 */
static int control(unsigned long c)
{
	return (c < 0x20 && c != '\t') || (c >= 0x7F && c < 0xA0);
}

size_t text_char_len(const char *s, size_t n)
{
	unsigned long c;
	if (n == 0)
		return 0;
	size_t k = utf8_len((const unsigned char *)s, n, &c);
	return k && !control(c) && !hidden(c) ? k : 0;
}

const char *text_bad_name(const char *s, size_t n, char *buf, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned long c;
	size_t k = n ? utf8_len(u, n, &c) : 0;
	if (!k)
		snprintf(buf, len, "invalid UTF-8 \\x%02x", n ? u[0] : 0);
	else if (control(c) && k == 2)
		snprintf(buf, len, "control character \\x%02x\\x%02x", u[0], u[1]);
	else if (control(c))
		snprintf(buf, len, "control character \\x%02x", u[0]);
	else if (hidden(c))
		snprintf(buf, len, "invisible or bidirectional format character U+%04lX",
			 c);
	else
		snprintf(buf, len, "character U+%04lX", c);   /* not a refused one */
	return buf;
}

int text_check_n(const char *s, size_t n, size_t *bad_off)
{
	size_t i = 0;
	while (i < n) {
		size_t k = text_char_len(s + i, n - i);
		if (!k) {
			if (bad_off)
				*bad_off = i;
			return -EILSEQ;
		}
		i += k;
	}
	return 0;
}

int text_check(const char *s, size_t *bad_off)
{
	return text_check_n(s, strlen(s), bad_off);
}

char *text_escape_flags(char *dst, size_t len, const char *src, unsigned flags)
{
	static const char hex[] = "0123456789abcdef";
	if (!len)
		return dst;
	size_t o = 0, n = src ? strlen(src) : 0, i = 0;
	while (i < n) {
		size_t k = text_char_len(src + i, n - i);
		if (k && src[i] == '\\' && !(flags & TEXT_KEEP_BACKSLASH)) {
			if (o + 2 >= len)
				break;
			dst[o++] = '\\';
			dst[o++] = '\\';
			i++;
		} else if (k) {
			if (o + k >= len)
				break;
			memcpy(dst + o, src + i, k);
			o += k;
			i += k;
		} else {
			/* one byte at a time: the next may start a good character */
			unsigned char b = (unsigned char)src[i];
			if (o + 4 >= len)
				break;
			dst[o++] = '\\';
			dst[o++] = 'x';
			dst[o++] = hex[b >> 4];
			dst[o++] = hex[b & 15];
			i++;
		}
	}
	dst[o] = '\0';
	return dst;
}

char *text_escape(char *dst, size_t len, const char *src)
{
	return text_escape_flags(dst, len, src, 0);
}

const char *text_show(const char *s)
{
	static char slot[TEXT_SHOW_SLOTS][TEXT_SHOW_LEN];
	static unsigned next;
	char *b = slot[next++ % TEXT_SHOW_SLOTS];
	return text_escape(b, TEXT_SHOW_LEN, s ? s : "");
}

void text_fputs(const char *s, FILE *f)
{
	char buf[256];
	size_t n = strlen(s), i = 0;
	while (i < n) {
		/* whole characters of up to 60 bytes per chunk: 4x fits in buf */
		char chunk[64];
		size_t c = 0;
		while (i + c < n && c < 60) {
			size_t k = text_char_len(s + i + c, n - i - c);
			if (!k)
				k = 1;
			if (c + k > 60)
				break;
			c += k;
		}
		memcpy(chunk, s + i, c);
		chunk[c] = '\0';
		fputs(text_escape(buf, sizeof(buf), chunk), f);
		i += c;
	}
}

size_t text_cols(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* Bytes of the unit at p: an escape as a whole, else one UTF-8 character. */
static size_t unit_len(const char *p)
{
	if (p[0] == '\\' && p[1])
		return p[1] == 'x' && p[2] && p[3] ? 4 : 2;
	size_t k = 1;
	while (((unsigned char)p[k] & 0xc0) == 0x80)
		k++;
	return k;
}

/* Columns of the first n bytes of p. */
static size_t cols_n(const char *p, size_t n)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)p[i] & 0xc0) != 0x80;
	return c;
}

void text_wrap(FILE *f, const char *prefix, const char *cont, const char *text, size_t width)
{
	size_t indent = text_cols(cont), col = text_cols(prefix);
	fputs(prefix, f);
	const char *p = text;
	int first = 1;
	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		size_t wl = strcspn(p, " "), wc = cols_n(p, wl);
		if (!first && col + 1 + wc > width) {
			fprintf(f, "\n%s", cont);
			col = indent;
			first = 1;
		}
		if (!first) {
			fputc(' ', f);
			col++;
		}
		while (col + wc > width && width > col) {   /* longer than a line: cut */
			size_t take = 0, tc = 0;
			while (take < wl) {
				size_t u = unit_len(p + take), uc = cols_n(p + take, u);
				if (col + tc + uc > width)
					break;
				take += u;
				tc += uc;
			}
			if (!take && col <= indent)
				break;   /* not even one unit fits a fresh line: write it whole */
			fwrite(p, 1, take, f);
			p += take;
			wl -= take;
			wc -= tc;
			fprintf(f, "\n%s", cont);
			col = indent;
		}
		fwrite(p, 1, wl, f);
		col += wc;
		p += wl;
		first = 0;
	}
	fputc('\n', f);
}
