/* compare_text — see compare_text.h. */
#include "compare_text.h"

#include <stdlib.h>
#include <string.h>

#include "text.h"

char *compare_text_dup(const char *s)
{
	if (!s)
		s = "";
	size_t n = strlen(s);
	char *e = malloc(4 * n + 1);
	if (!e)
		return NULL;
	text_escape(e, 4 * n + 1, s);
	size_t high = 0;
	for (const char *p = e; *p; p++)
		high += (unsigned char)*p > 0x7e;
	char *a = malloc(strlen(e) + 3 * high + 1);
	if (!a) {
		free(e);
		return NULL;
	}
	char *o = a;
	for (const char *p = e; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c > 0x7e)
			o += sprintf(o, "\\x%02x", c);
		else
			*o++ = (char)c;
	}
	*o = '\0';
	free(e);
	return a;
}

const char *compare_text_cell(char *buf, size_t w, const char *s)
{
	char *e = compare_text_dup(s);
	size_t o = 0;
	if (!e) {
		snprintf(buf, w + 1, "?");
		return buf;
	}
	for (size_t i = 0; e[i];) {
		size_t u = e[i] != '\\' ? 1 : e[i + 1] == 'x' ? 4 : 2;
		if (o + u > w)
			break;
		memcpy(buf + o, e + i, u);
		o += u;
		i += u;
	}
	buf[o] = '\0';
	free(e);
	return buf;
}

void compare_text_wrap(FILE *f, const char *prefix, const char *cont, const char *s,
		       size_t cols)
{
	char *e = compare_text_dup(s);
	text_wrap(f, prefix, cont, e ? e : "(out of memory)", cols);
	free(e);
}
