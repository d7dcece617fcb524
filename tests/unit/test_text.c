/* text_check / text_escape: the one rule for untrusted text (text.h).
 * Control bytes (C0 but TAB, DEL, C1), bidirectional controls, line
 * separators, invisible format characters and invalid UTF-8 are refused
 * and escaped as \xHH; backslash is escaped as \\. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "text.h"

/* -1 = clean, else the offset of the first bad byte */
static void want_check(const char *s, long bad)
{
	size_t off = 12345;
	int rc = text_check(s, &off);
	if (bad < 0) {
		if (rc != 0)
			fail_msg("'%s' refused at %zu, expected clean", text_show(s), off);
	} else {
		assert_int_equal(rc, -EILSEQ);
		if (off != (size_t)bad)
			fail_msg("'%s': bad at %zu, expected %ld", text_show(s), off, bad);
	}
}

static void test_check_clean(void **state)
{
	(void)state;
	want_check("", -1);
	want_check("plain ascii ~!@#$%^&*()[]{}\"'\\", -1);
	want_check("tab\tallowed", -1);
	want_check("caf\xc3\xa9", -1);                  /* U+00E9 */
	want_check("\xc2\xa0", -1);                     /* U+00A0, first after C1 */
	want_check("\xdf\xbf", -1);                     /* U+07FF */
	want_check("\xe0\xa0\x80", -1);                 /* U+0800, smallest 3-byte */
	want_check("\xe2\x82\xac", -1);                 /* euro sign */
	want_check("\xed\x9f\xbf", -1);                 /* U+D7FF, just below surrogates */
	want_check("\xee\x80\x80", -1);                 /* U+E000, just above */
	want_check("\xf0\x90\x80\x80", -1);             /* U+10000, smallest 4-byte */
	want_check("\xf0\x9f\x92\xbe", -1);             /* floppy disk */
	want_check("\xf4\x8f\xbf\xbf", -1);             /* U+10FFFF, the maximum */
}

static void test_check_controls(void **state)
{
	(void)state;
	want_check("a\rb", 1);
	want_check("a\nb", 1);
	want_check("\x1b]0;T\x07", 0);
	want_check("x\x01", 1);
	want_check("x\x1f", 1);
	want_check("del\x7f", 3);
	want_check("\xc2\x80", 0);                      /* U+0080, first C1 */
	want_check("ok\xc2\x85", 2);                    /* NEL */
	want_check("\xc2\x9f", 0);                      /* U+009F, last C1 */
	/* a NUL inside n bytes is a control byte */
	size_t off = 0;
	assert_int_equal(text_check_n("ab\0c", 4, &off), -EILSEQ);
	assert_int_equal(off, 2);
	assert_int_equal(text_check_n("ab\0c", 2, &off), 0);
	assert_int_equal(text_check("x\x1b", NULL), -EILSEQ);
}

static void test_check_invalid_utf8(void **state)
{
	(void)state;
	want_check("\xff", 0);
	want_check("a\xfe", 1);
	want_check("\x80", 0);                          /* stray continuation */
	want_check("\xbf", 0);
	want_check("\xc0\xaf", 0);                      /* overlong '/' */
	want_check("\xc1\xbf", 0);                      /* overlong */
	want_check("\xe0\x80\xaf", 0);                  /* overlong 3-byte */
	want_check("\xe0\x9f\xbf", 0);                  /* overlong U+07FF */
	want_check("\xf0\x80\x80\xaf", 0);              /* overlong 4-byte */
	want_check("\xf0\x8f\xbf\xbf", 0);              /* overlong U+FFFF */
	want_check("\xed\xa0\x80", 0);                  /* U+D800 surrogate */
	want_check("\xed\xbf\xbf", 0);                  /* U+DFFF surrogate */
	want_check("\xf4\x90\x80\x80", 0);              /* U+110000 */
	want_check("\xf5\x80\x80\x80", 0);
	want_check("\xf8\x88\x80\x80\x80", 0);          /* 5-byte form */
	/* truncated sequences, at the end and before another byte */
	want_check("ab\xc3", 2);
	want_check("\xe2\x82", 0);
	want_check("\xf0\x9f\x92", 0);
	want_check("\xc3" "a", 0);
	want_check("\xe2\x82" "a", 0);
	want_check("\xf0\x9f\x92" "a", 0);
	assert_int_equal(text_char_len("\xf0\x9f\x92\xbe", 3), 0);   /* cut by n */
	assert_int_equal(text_char_len("\xf0\x9f\x92\xbe", 4), 4);
	assert_int_equal(text_char_len("a", 0), 0);
}

/* Bidirectional controls, separators and invisible format characters:
 * refused, each byte escaped; their neighbours are ordinary text. */
static void test_check_format(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"\xd8\x9c",          /* U+061C ARABIC LETTER MARK */
		"\xe1\xa0\x8e",      /* U+180E MONGOLIAN VOWEL SEPARATOR */
		"\xe2\x80\x8b",      /* U+200B ZERO WIDTH SPACE */
		"\xe2\x80\x8d",      /* U+200D ZERO WIDTH JOINER */
		"\xe2\x80\x8e",      /* U+200E LEFT-TO-RIGHT MARK */
		"\xe2\x80\x8f",      /* U+200F RIGHT-TO-LEFT MARK */
		"\xe2\x80\xa8",      /* U+2028 LINE SEPARATOR */
		"\xe2\x80\xa9",      /* U+2029 PARAGRAPH SEPARATOR */
		"\xe2\x80\xaa",      /* U+202A LEFT-TO-RIGHT EMBEDDING */
		"\xe2\x80\xae",      /* U+202E RIGHT-TO-LEFT OVERRIDE */
		"\xe2\x81\xa0",      /* U+2060 WORD JOINER */
		"\xe2\x81\xa6",      /* U+2066 LEFT-TO-RIGHT ISOLATE */
		"\xe2\x81\xa9",      /* U+2069 POP DIRECTIONAL ISOLATE */
		"\xe2\x81\xaf",      /* U+206F NOMINAL DIGIT SHAPES */
		"\xef\xbb\xbf",      /* U+FEFF BOM / ZERO WIDTH NO-BREAK SPACE */
		"\xef\xbf\xb9",      /* U+FFF9 INTERLINEAR ANNOTATION ANCHOR */
		"\xef\xbf\xbb",      /* U+FFFB */
		"\xf3\xa0\x80\x81",  /* U+E0001 LANGUAGE TAG */
		"\xf3\xa0\x81\xbf",  /* U+E007F CANCEL TAG */
	};
	char in[16], b[64], want[64];
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(in, sizeof(in), "ab%s", bad[i]);
		want_check(in, 2);
		assert_int_equal(text_char_len(bad[i], strlen(bad[i])), 0);
		size_t o = (size_t)snprintf(want, sizeof(want), "ab");
		for (const char *p = bad[i]; *p; p++)
			o += (size_t)snprintf(want + o, sizeof(want) - o, "\\x%02x", (unsigned char)*p);
		assert_string_equal(text_escape(b, sizeof(b), in), want);
	}
	/* the neighbours of each range are shown as they are */
	static const char *const good[] = {
		"\xd8\x9b",          /* U+061B ARABIC SEMICOLON */
		"\xe2\x80\x8a",      /* U+200A HAIR SPACE */
		"\xe2\x80\x90",      /* U+2010 HYPHEN */
		"\xe2\x80\xa7",      /* U+2027 HYPHENATION POINT */
		"\xe2\x80\xaf",      /* U+202F NARROW NO-BREAK SPACE */
		"\xe2\x81\x9f",      /* U+205F MEDIUM MATHEMATICAL SPACE */
		"\xe2\x81\xb0",      /* U+2070 SUPERSCRIPT ZERO */
		"\xef\xbb\xbe",      /* U+FEFE */
		"\xef\xbf\xbc",      /* U+FFFC OBJECT REPLACEMENT CHARACTER */
		"\xf3\xa0\x82\x80",  /* U+E0080 */
		"\xd7\x90",          /* U+05D0 HEBREW LETTER ALEF: RTL text itself is fine */
	};
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		want_check(good[i], -1);
		assert_string_equal(text_escape(b, sizeof(b), good[i]), good[i]);
	}
	/* the attack: "evil\u202Etxt.exe" cannot turn around on a terminal */
	assert_string_equal(text_show("Samsung \xe2\x80\xae" "DSS"), "Samsung \\xe2\\x80\\xae" "DSS");
	assert_string_equal(text_show("a\xe2\x80\xa8" "b"), "a\\xe2\\x80\\xa8" "b");
}

/* What loaders say about the first refused character. */
static void test_bad_name(void **state)
{
	(void)state;
	char b[80];
	assert_string_equal(text_bad_name("\x1b[0m", 4, b, sizeof(b)), "control character \\x1b");
	assert_string_equal(text_bad_name("\0", 1, b, sizeof(b)), "control character \\x00");
	assert_string_equal(text_bad_name("\x7f", 1, b, sizeof(b)), "control character \\x7f");
	assert_string_equal(text_bad_name("\xc2\x85", 2, b, sizeof(b)),
			    "control character \\xc2\\x85");
	assert_string_equal(text_bad_name("\xff", 1, b, sizeof(b)), "invalid UTF-8 \\xff");
	assert_string_equal(text_bad_name("\xe2\x80\xae", 2, b, sizeof(b)), "invalid UTF-8 \\xe2");
	assert_string_equal(text_bad_name("\xe2\x80\xae", 3, b, sizeof(b)),
			    "invisible or bidirectional format character U+202E");
	assert_string_equal(text_bad_name("\xf3\xa0\x80\x81", 4, b, sizeof(b)),
			    "invisible or bidirectional format character U+E0001");
	assert_string_equal(text_bad_name("\xd8\x9c", 2, b, sizeof(b)),
			    "invisible or bidirectional format character U+061C");
}

static void test_escape(void **state)
{
	(void)state;
	char b[128];
	assert_string_equal(text_escape(b, sizeof(b), "plain"), "plain");
	assert_string_equal(text_escape(b, sizeof(b), "t\tab"), "t\tab");
	assert_string_equal(text_escape(b, sizeof(b), "U\rRUN+=\"/x\"\x1b]0;T\x07"),
			    "U\\x0dRUN+=\"/x\"\\x1b]0;T\\x07");
	assert_string_equal(text_escape(b, sizeof(b), "a\nb"), "a\\x0ab");
	assert_string_equal(text_escape(b, sizeof(b), "d\x7f"), "d\\x7f");
	assert_string_equal(text_escape(b, sizeof(b), "n\xc2\x85"), "n\\xc2\\x85");
	assert_string_equal(text_escape(b, sizeof(b), "\xff"), "\\xff");
	assert_string_equal(text_escape(b, sizeof(b), "\xc0\xaf"), "\\xc0\\xaf");
	assert_string_equal(text_escape(b, sizeof(b), "\xed\xa0\x80"), "\\xed\\xa0\\x80");
	/* a truncated sequence: only its bytes, the next character survives */
	assert_string_equal(text_escape(b, sizeof(b), "\xe2\x82" "a"), "\\xe2\\x82a");
	assert_string_equal(text_escape(b, sizeof(b), "caf\xc3\xa9"), "caf\xc3\xa9");
	assert_string_equal(text_escape(b, sizeof(b), "\xf4\x8f\xbf\xbf"), "\xf4\x8f\xbf\xbf");
	/* backslash: escaped, so "\x1b" typed by someone differs from ESC */
	assert_string_equal(text_escape(b, sizeof(b), "a\\x1b"), "a\\\\x1b");
	assert_string_equal(text_escape_flags(b, sizeof(b), "a\\b\x1b", TEXT_KEEP_BACKSLASH),
			    "a\\b\\x1b");
	/* the result is always clean */
	assert_int_equal(text_check(text_escape(b, sizeof(b), "\x01\x02\xc2\x80\xfe\r\n"),
				    NULL), 0);
}

static void test_escape_truncation(void **state)
{
	(void)state;
	char b[8];
	/* whole escapes only: "ab" + "\x1b" (4) = 6 bytes + NUL fits 8 */
	assert_string_equal(text_escape(b, sizeof(b), "ab\x1b" "cdef"), "ab\\x1bc");
	assert_string_equal(text_escape(b, 5, "ab\x1b"), "ab");
	assert_string_equal(text_escape(b, 4, "a\xe2\x82\xac"), "a");    /* no half euro */
	assert_string_equal(text_escape(b, 3, "a\\"), "a");              /* no half \\ */
	assert_string_equal(text_escape(b, 1, "abc"), "");
	b[0] = 'z';
	text_escape(b, 0, "abc");                                         /* touches nothing */
	assert_int_equal(b[0], 'z');
	assert_string_equal(text_escape(b, sizeof(b), NULL), "");
}

static void test_show_and_fputs(void **state)
{
	(void)state;
	const char *a = text_show("x\x1b");
	const char *b = text_show("y\r");
	assert_string_equal(a, "x\\x1b");
	assert_string_equal(b, "y\\x0d");
	assert_string_equal(text_show(NULL), "");
	/* text_fputs: long input, split between chunks, no limit */
	char in[1000], *out = NULL;
	size_t outlen = 0;
	for (size_t i = 0; i < sizeof(in) - 1; i++)
		in[i] = i % 7 == 0 ? '\x1b' : i % 11 == 0 ? '\\' : (char)('a' + i % 26);
	in[sizeof(in) - 1] = '\0';
	/* a multi-byte character on every chunk boundary candidate */
	memcpy(in + 58, "\xe2\x82\xac", 3);
	memcpy(in + 119, "\xf0\x9f\x92\xbe", 4);
	FILE *f = open_memstream(&out, &outlen);
	text_fputs(in, f);
	fclose(f);
	char *want = malloc(4 * sizeof(in));
	text_escape(want, 4 * sizeof(in), in);
	assert_string_equal(out, want);
	free(want);
	free(out);
}

/* text_wrap into a string. */
static char *wrapped(const char *prefix, const char *cont, const char *text, size_t width)
{
	static char buf[1024];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	text_wrap(f, prefix, cont, text, width);
	fclose(f);
	return buf;
}

static void test_wrap(void **state)
{
	(void)state;
	assert_string_equal(wrapped("a: ", "  ", "one two three", 80), "a: one two three\n");
	assert_string_equal(wrapped("a: ", "  ", "one two three", 10), "a: one two\n  three\n");
	assert_string_equal(wrapped("", "  ", "  lead  and   gaps ", 80), "lead and gaps\n");
	/* a word longer than a line is cut, never inside an escape */
	assert_string_equal(wrapped("x ", " ", "abc\\x1bdefgh", 6), "x abc\n \\x1bd\n efgh\n");
	/* columns are characters, not bytes */
	assert_string_equal(wrapped("", "", "\xc3\xa9\xc3\xa9\xc3\xa9 ab", 6), "\xc3\xa9\xc3\xa9\xc3\xa9 ab\n");
	assert_int_equal(text_cols("\xc3\xa9t\xc3\xa9"), 3);
	assert_string_equal(wrapped("p", "", "", 10), "p\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_clean),
		cmocka_unit_test(test_check_controls),
		cmocka_unit_test(test_check_invalid_utf8),
		cmocka_unit_test(test_check_format),
		cmocka_unit_test(test_bad_name),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_escape_truncation),
		cmocka_unit_test(test_show_and_fputs),
		cmocka_unit_test(test_wrap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
