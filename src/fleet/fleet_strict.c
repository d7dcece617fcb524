/* fleet_strict — a result's bytes checked as RFC 8259 JSON before json-c
 * reads them.  Contract in fleet_priv.h. */
#include "fleet_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* json-c 0.16 in strict mode still takes single-quoted keys, raw control
 * bytes in strings, NaN and Infinity, "1.", lone surrogate escapes (as
 * U+FFFD) and a key given twice (the last wins, where other readers take
 * the first): one pass over the bytes refuses all that first, naming the
 * byte.  Linear: every byte is looked at once, a key's bytes twice; an
 * object's keys are compared by a hash of what they decode to. */

struct jkey {
	uint64_t hash;             /* FNV-1a of the key's code points */
	size_t at;                 /* its opening quote */
};

struct jcheck {
	const unsigned char *s;
	size_t n, i;
	char *err;                 /* the first error */
	size_t errlen;
	struct jkey *keys;         /* the keys of the open objects, innermost last */
	size_t nkeys, capkeys;
};

static int jbad(struct jcheck *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int jbad(struct jcheck *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (c->errlen)
		vsnprintf(c->err, c->errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The byte at offset at, for a message: 'x' or 0xHH. */
static const char *byte_name(const struct jcheck *c, size_t at, char *b, size_t n)
{
	unsigned char x = c->s[at];
	if (x > 0x20 && x < 0x7f)
		snprintf(b, n, "'%c'", x);
	else
		snprintf(b, n, "byte 0x%02x", x);
	return b;
}

static int jc_truncated(struct jcheck *c)
{
	return jbad(c, "truncated: the JSON ends early, after %zu bytes", c->n);
}

static int jc_unexpected(struct jcheck *c, const char *what)
{
	char b[16];
	if (c->i >= c->n)
		return jc_truncated(c);
	unsigned char x = c->s[c->i];
	if (x == '\'')
		return jbad(c, "not JSON: a single-quoted string at byte %zu (JSON strings are in "
			   "double quotes)", c->i);
	if (x == '/')
		return jbad(c, "not JSON: a comment at byte %zu (JSON has none)", c->i);
	if (x == 'N' || x == 'I' || (x == '-' && c->i + 1 < c->n && c->s[c->i + 1] == 'I'))
		return jbad(c, "not JSON: NaN or Infinity at byte %zu (a JSON number is finite)",
			   c->i);
	return jbad(c, "not JSON: %s at byte %zu, expected %s", byte_name(c, c->i, b, sizeof(b)),
		   c->i, what);
}

static void jc_ws(struct jcheck *c)
{
	while (c->i < c->n && (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\n' ||
			       c->s[c->i] == '\r'))
		c->i++;
}

static int hexval(unsigned char x)
{
	return x >= '0' && x <= '9' ? x - '0' : x >= 'a' && x <= 'f' ? x - 'a' + 10
	       : x >= 'A' && x <= 'F' ? x - 'A' + 10 : -1;
}

/* The four hex digits at s[i..i+4) (checked by the caller). */
static uint32_t hex4(const unsigned char *s, size_t i)
{
	uint32_t v = 0;
	for (int k = 0; k < 4; k++)
		v = v << 4 | (uint32_t)hexval(s[i + k]);
	return v;
}

/* Length of the valid UTF-8 character at s[i] (lead byte >= 0x80), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n, size_t i)
{
	unsigned char b = s[i];
	size_t len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3
		     : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
	if (!len || i + len > n)
		return 0;
	for (size_t k = 1; k < len; k++)
		if ((s[i + k] & 0xc0) != 0x80)
			return 0;
	unsigned char b1 = s[i + 1];
	if ((b == 0xe0 && b1 < 0xa0) || (b == 0xed && b1 > 0x9f) || (b == 0xf0 && b1 < 0x90) ||
	    (b == 0xf4 && b1 > 0x8f))
		return 0;   /* overlong, a surrogate, above U+10FFFF */
	return len;
}

/* The code point of the (checked) string at s[i], i past its opening
 * quote or at any character of it; *cp, and the index after it; *cp is
 * UINT32_MAX at the closing quote. */
static size_t next_cp(const unsigned char *s, size_t i, uint32_t *cp)
{
	unsigned char b = s[i];
	if (b == '"') {
		*cp = UINT32_MAX;
		return i;
	}
	if (b == '\\') {
		unsigned char e = s[i + 1];
		const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
		if (e != 'u') {
			*cp = (unsigned char)to[strchr(from, e) - from];
			return i + 2;
		}
		uint32_t u = hex4(s, i + 2);
		if (u >= 0xd800 && u <= 0xdbff) {   /* a pair: checked */
			*cp = 0x10000 + ((u - 0xd800) << 10) + (hex4(s, i + 8) - 0xdc00);
			return i + 12;
		}
		*cp = u;
		return i + 6;
	}
	if (b < 0x80) {
		*cp = b;
		return i + 1;
	}
	size_t len = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
	uint32_t v = b & (0x7f >> len);
	for (size_t k = 1; k < len; k++)
		v = v << 6 | (s[i + k] & 0x3f);
	*cp = v;
	return i + len;
}

/* A string at c->i (its '"'); a key's hash to *hash when hash. */
static int jc_string(struct jcheck *c, uint64_t *hash)
{
	size_t start = c->i++;
	for (;;) {
		if (c->i >= c->n)
			return jc_truncated(c);
		unsigned char b = c->s[c->i];
		if (b == '"')
			break;
		if (b < 0x20)
			return jbad(c, "not JSON: a raw control byte 0x%02x in a string at byte %zu "
				   "(JSON needs it escaped, \\u%04x)", b, c->i, b);
		if (b >= 0x80) {
			size_t len = utf8_len(c->s, c->n, c->i);
			if (!len)
				return jbad(c, "not JSON: invalid UTF-8 at byte %zu", c->i);
			c->i += len;
			continue;
		}
		if (b != '\\') {
			c->i++;
			continue;
		}
		if (c->i + 1 >= c->n)
			return jc_truncated(c);
		unsigned char e = c->s[c->i + 1];
		if (e != 'u') {
			if (!strchr("\"\\/bfnrt", e) || !e)
				return jbad(c, "not JSON: \\%c at byte %zu is no JSON escape",
					   e > 0x20 && e < 0x7f ? e : '?', c->i);
			c->i += 2;
			continue;
		}
		for (size_t k = 2; k < 6; k++)
			if (c->i + k >= c->n)
				return jc_truncated(c);
			else if (hexval(c->s[c->i + k]) < 0)
				return jbad(c, "not JSON: \\u needs four hex digits, at byte %zu", c->i);
		uint32_t u = hex4(c->s, c->i + 2);
		int pair = u >= 0xd800 && u <= 0xdbff && c->i + 12 <= c->n &&
			   c->s[c->i + 6] == '\\' && c->s[c->i + 7] == 'u';
		for (size_t k = 8; pair && k < 12; k++)
			pair = hexval(c->s[c->i + k]) >= 0;
		if (pair) {
			uint32_t lo = hex4(c->s, c->i + 8);
			pair = lo >= 0xdc00 && lo <= 0xdfff;
		}
		if (u >= 0xd800 && u <= 0xdfff && !pair)
			return jbad(c, "not JSON: \\u%04x at byte %zu is half a surrogate pair, no "
				   "character", u, c->i);
		if (hash && u == 0)
			return jbad(c, "not JSON: a key holding \\u0000 at byte %zu", c->i);
		c->i += pair ? 12 : 6;
	}
	c->i++;
	if (hash) {
		uint64_t h = 0xcbf29ce484222325ull;
		uint32_t cp;
		for (size_t i = next_cp(c->s, start + 1, &cp); cp != UINT32_MAX;
		     i = next_cp(c->s, i, &cp))
			h = (h ^ cp) * 0x100000001b3ull;
		*hash = h;
	}
	return 0;
}

/* Do the keys at a and b (opening quotes) decode to the same text? */
static int same_key(const unsigned char *s, size_t a, size_t b)
{
	uint32_t x, y;
	a++;
	b++;
	do {
		a = next_cp(s, a, &x);
		b = next_cp(s, b, &y);
	} while (x == y && x != UINT32_MAX);
	return x == y;
}

static int cmp_jkey(const void *x, const void *y)
{
	const struct jkey *a = x, *b = y;
	if (a->hash != b->hash)
		return (a->hash > b->hash) - (a->hash < b->hash);
	return (a->at > b->at) - (a->at < b->at);
}

/* The keys of one object, keys[from .. nkeys): none twice. */
static int jc_unique(struct jcheck *c, size_t from)
{
	struct jkey *k = c->keys + from;
	size_t n = c->nkeys - from, dup = SIZE_MAX;
	if (n <= 16) {
		for (size_t i = 0; i < n && dup == SIZE_MAX; i++)
			for (size_t j = i + 1; j < n; j++)
				if (k[i].hash == k[j].hash && same_key(c->s, k[i].at, k[j].at)) {
					dup = k[j].at;
					break;
				}
	} else {
		qsort(k, n, sizeof(*k), cmp_jkey);
		for (size_t i = 0; i + 1 < n; i++)
			if (k[i].hash == k[i + 1].hash && same_key(c->s, k[i].at, k[i + 1].at) &&
			    k[i + 1].at < dup)
				dup = k[i + 1].at;
	}
	if (dup == SIZE_MAX)
		return 0;
	char raw[48];
	size_t len = 0;
	while (len < sizeof(raw) - 1 && dup + 1 + len < c->n && c->s[dup + 1 + len] != '"')
		len++;
	memcpy(raw, c->s + dup + 1, len);
	raw[len] = '\0';
	return jbad(c, "not JSON for brisk: key \"%s\" a second time in one object, at byte %zu "
		   "(readers differ on which one counts)", raw, dup);
}

static int jc_value(struct jcheck *c, int depth);

/* One or more digits at c->i, of the number at start (where: which). */
static int jc_digits(struct jcheck *c, size_t start, const char *where)
{
	size_t d0 = c->i;
	while (c->i < c->n && c->s[c->i] >= '0' && c->s[c->i] <= '9')
		c->i++;
	if (c->i > d0)
		return 0;
	return c->i >= c->n ? jc_truncated(c)
	       : jbad(c, "not JSON: a number needs digits %s, at byte %zu", where, start);
}

static int jc_number(struct jcheck *c)
{
	const unsigned char *s = c->s;
	size_t start = c->i;
	if (c->i < c->n && s[c->i] == '-')
		c->i++;
	if (c->i >= c->n)
		return jc_truncated(c);
	if (s[c->i] == 'I')
		return jc_unexpected(c, "a value");
	if (s[c->i] == '0') {
		c->i++;
		if (c->i < c->n && s[c->i] >= '0' && s[c->i] <= '9')
			return jbad(c, "not JSON: a number with a leading zero at byte %zu", start);
	} else if (s[c->i] >= '1' && s[c->i] <= '9') {
		while (c->i < c->n && s[c->i] >= '0' && s[c->i] <= '9')
			c->i++;
	} else {
		return jbad(c, "not JSON: a number without digits at byte %zu", start);
	}
	if (c->i < c->n && s[c->i] == '.') {
		c->i++;
		int rc = jc_digits(c, start, "after its '.'");
		if (rc < 0)
			return rc;
	}
	if (c->i < c->n && (s[c->i] == 'e' || s[c->i] == 'E')) {
		c->i++;
		if (c->i < c->n && (s[c->i] == '+' || s[c->i] == '-'))
			c->i++;
		return jc_digits(c, start, "in its exponent");
	}
	return 0;
}

static int jc_literal(struct jcheck *c, const char *word)
{
	size_t len = strlen(word);
	for (size_t k = 0; k < len; k++, c->i++)
		if (c->i >= c->n)
			return jc_truncated(c);
		else if (c->s[c->i] != (unsigned char)word[k])
			return jc_unexpected(c, word);
	return 0;
}

/* '{' or '[' at c->i: its members, up to and past the closing bracket. */
static int jc_container(struct jcheck *c, int depth)
{
	int obj = c->s[c->i] == '{';
	unsigned char close = obj ? '}' : ']';
	size_t from = c->nkeys;
	if (depth >= FLEET_JSON_DEPTH)
		return jbad(c, "not JSON for brisk: nested deeper than %d, at byte %zu",
			   FLEET_JSON_DEPTH, c->i);
	c->i++;
	jc_ws(c);
	if (c->i < c->n && c->s[c->i] == close) {
		c->i++;
		return 0;
	}
	for (;;) {
		int rc;
		if (obj) {
			if (c->i >= c->n || c->s[c->i] != '"')
				return c->i < c->n && c->s[c->i] == close ?
				       jbad(c, "not JSON: a comma before '}' at byte %zu", c->i)
				       : jc_unexpected(c, "a key in double quotes");
			if (c->nkeys == c->capkeys) {
				size_t nc = c->capkeys ? 2 * c->capkeys : 64;
				struct jkey *k = realloc(c->keys, nc * sizeof(*k));
				if (!k)
					return -ENOMEM;
				c->keys = k;
				c->capkeys = nc;
			}
			struct jkey *k = &c->keys[c->nkeys];
			k->at = c->i;
			if ((rc = jc_string(c, &k->hash)) < 0)
				return rc;
			c->nkeys++;
			jc_ws(c);
			if (c->i >= c->n || c->s[c->i] != ':')
				return jc_unexpected(c, "':'");
			c->i++;
			jc_ws(c);
		} else if (c->i < c->n && c->s[c->i] == ']') {
			return jbad(c, "not JSON: a comma before ']' at byte %zu", c->i);
		}
		if ((rc = jc_value(c, depth + 1)) < 0)
			return rc;
		jc_ws(c);
		if (c->i >= c->n)
			return jc_truncated(c);
		if (c->s[c->i] == ',') {
			c->i++;
			jc_ws(c);
			continue;
		}
		if (c->s[c->i] != close)
			return jc_unexpected(c, obj ? "',' or '}'" : "',' or ']'");
		c->i++;
		break;
	}
	int rc = obj ? jc_unique(c, from) : 0;
	c->nkeys = from;
	return rc;
}

static int jc_value(struct jcheck *c, int depth)
{
	if (c->i >= c->n)
		return jc_truncated(c);
	switch (c->s[c->i]) {
	case '{':
	case '[':
		return jc_container(c, depth);
	case '"':
		return jc_string(c, NULL);
	case 't':
		return jc_literal(c, "true");
	case 'f':
		return jc_literal(c, "false");
	case 'n':
		return jc_literal(c, "null");
	default:
		if (c->s[c->i] == '-' || (c->s[c->i] >= '0' && c->s[c->i] <= '9'))
			return jc_number(c);
		if (c->s[c->i] == '+')
			return jbad(c, "not JSON: '+' before a number at byte %zu", c->i);
		return jc_unexpected(c, "a value");
	}
}

int fleet_strict_json(const char *data, size_t len, char *err, size_t errlen)
{
	struct jcheck c = { (const unsigned char *)data, len, 0, err, errlen, NULL, 0, 0 };
	jc_ws(&c);
	int rc = jc_value(&c, 0);
	if (rc == 0) {
		size_t end = c.i;
		jc_ws(&c);
		if (c.i < len)
			rc = jbad(&c, "not one JSON document: more after byte %zu", end);
	}
	free(c.keys);
	return rc;
}
