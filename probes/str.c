#include "str.h"

#include <ctype.h>
#include <string.h>

void str_copy(char *dst, size_t len, const char *src)
{
	if (!len)
		return;
	if (!src)
		src = "";
	size_t n = strlen(src);
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

char *str_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int str_in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; *p;) {
		while (*p == ' ')
			p++;
		size_t m = strcspn(p, " ");
		if (m == n && strncmp(p, word, n) == 0)
			return 1;
		p += m;
	}
	return 0;
}
