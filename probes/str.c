#include "str.h"

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
	while (str_is_space((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && str_is_space((unsigned char)e[-1]))
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

int str_is_digit(int c)
{
	return c >= '0' && c <= '9';
}

int str_is_xdigit(int c)
{
	return str_is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

int str_is_alnum(int c)
{
	return str_is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* the C locale's white space: space, \t \n \v \f \r */
int str_is_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}
