/* text — checking and escaping untrusted text.  See text.h. */
#include "text.h"

#include <errno.h>
#include <string.h>

static int cont(unsigned char b)
{
	return (b & 0xC0) == 0x80;
}

size_t text_char_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	if (n == 0)
		return 0;
	unsigned char b = u[0];
	if (b < 0x80)
		return (b >= 0x20 && b != 0x7F) || b == '\t' ? 1 : 0;
	if (b >= 0xC2 && b <= 0xDF) {
		/* \xc2\x80..\xc2\x9f are the C1 controls */
		if (n < 2 || !cont(u[1]) || (b == 0xC2 && u[1] < 0xA0))
			return 0;
		return 2;
	}
	if (b >= 0xE0 && b <= 0xEF) {
		unsigned char lo = b == 0xE0 ? 0xA0 : 0x80;    /* no overlongs */
		unsigned char hi = b == 0xED ? 0x9F : 0xBF;    /* no surrogates */
		if (n < 3 || u[1] < lo || u[1] > hi || !cont(u[2]))
			return 0;
		return 3;
	}
	if (b >= 0xF0 && b <= 0xF4) {
		unsigned char lo = b == 0xF0 ? 0x90 : 0x80;    /* no overlongs */
		unsigned char hi = b == 0xF4 ? 0x8F : 0xBF;    /* <= U+10FFFF */
		if (n < 4 || u[1] < lo || u[1] > hi || !cont(u[2]) || !cont(u[3]))
			return 0;
		return 4;
	}
	return 0;   /* continuation byte, \xc0, \xc1, \xf5..\xff */
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
