/* roundtrip — what test_profile.c and test_fiojob.c share: P(), one
 * profile buffer (a struct profile is too large for the stack of a test),
 * MiB and S(seconds), and the round-trip check: a profile written and read
 * back is equal to itself, and writing it again gives the same text.  Header-only, like testdir.h (each
 * tests/unit/test_*.c is its own program); include after <cmocka.h>. */
#ifndef BRISK_TESTS_ROUNDTRIP_H
#define BRISK_TESTS_ROUNDTRIP_H

#include <stdio.h>
#include <stdlib.h>

#include "profile.h"

#define MiB (1024ull * 1024ull)
#define S(x) (x##ull * 1000000000ull)

static struct profile *P(void)
{
	static struct profile *p;
	if (!p)
		p = malloc(sizeof(*p));
	return p;
}

static void roundtrip(struct profile *p)
{
	char *buf = NULL, err[PROFILE_ERR_LEN], why[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	if (profile_write(f, p, err, sizeof(err)) < 0)
		fail_msg("write: %s", err);
	fclose(f);
	struct profile *q = malloc(sizeof(*q));
	if (profile_parse_buffer(buf, len, "rt", q, err, sizeof(err)) < 0)
		fail_msg("reparse: %s\n%s", err, buf);
	if (!profile_equal(p, q, why, sizeof(why)))
		fail_msg("not equal after round trip: %s\n%s", why, buf);
	/* and the text is stable */
	char *buf2 = NULL;
	size_t len2 = 0;
	f = open_memstream(&buf2, &len2);
	assert_int_equal(profile_write(f, q, err, sizeof(err)), 0);
	fclose(f);
	assert_string_equal(buf, buf2);
	free(buf);
	free(buf2);
	free(q);
}

#endif
