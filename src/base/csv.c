/* csv — RFC 4180 cells that no spreadsheet runs.  Contract in csv.h. */
#include "csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* What makes a spreadsheet read a cell as a formula. */
static int formula_start(char c)
{
	return c != '\0' && strchr("=+-@\t\r", c) != NULL;
}

int csv_text(FILE *f, const char *s)
{
	char small[512], *e = small;
	if (!s)
		s = "";
	size_t n = strlen(s);
	if (n > (sizeof(small) - 1) / 4) {   /* text_escape: at most 4 bytes a byte */
		if (n > ((size_t)-1 - 1) / 4 || !(e = malloc(4 * n + 1)))
			return -ENOMEM;
	}
	text_escape(e, e == small ? sizeof(small) : 4 * n + 1, s);
	fputc('"', f);
	if (formula_start(s[0]) || formula_start(e[0]))
		fputc('\'', f);
	for (const char *p = e; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
	if (e != small)
		free(e);
	return 0;
}

void csv_num(FILE *f, double v, int digits)
{
	if (isfinite(v))
		fprintf(f, "%.*g", digits, v);
}

void csv_fixed(FILE *f, double v, int decimals)
{
	if (isfinite(v))
		fprintf(f, "%.*f", decimals, v);
}
