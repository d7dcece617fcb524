/* libFuzzer target for the profile loader and the fio job converter.
 *
 * Build and run (needs clang; not part of `make check`):
 *   make -C tests/fuzz            # builds tests/fuzz/fuzz_profile
 *   tests/fuzz/fuzz_profile -max_total_time=60 -dict=tests/fuzz/profile.dict \
 *       build/fuzz-corpus tests/fuzz/corpus tests/fixtures/profiles/good \
 *       tests/fixtures/profiles/bad
 * New inputs go to the first directory (build/fuzz-corpus); copy the
 * interesting ones to tests/fuzz/corpus/, which test_profile_corpus replays
 * in `make check`.
 *
 * Properties checked beyond "no crash, no sanitizer report":
 *  - a rejected input always has a "NAME:LINE: " message;
 *  - an accepted profile, written back, reloads into an equal profile
 *    (or the writer refuses it with a message);
 *  - the fio converter's result is a profile the writer can write and the
 *    loader reloads equal.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiojob.h"
#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct profile a, b;

static void roundtrip(void)
{
	char *buf = NULL, err[PROFILE_ERR_LEN];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = profile_write(f, &a, err, sizeof(err));
	fclose(f);
	if (rc == 0) {
		if (profile_parse_buffer(buf, len, "w", &b, err, sizeof(err)) != 0 ||
		    !profile_equal(&a, &b, NULL, 0)) {
			fprintf(stderr, "round trip failed: %s\n%s\n", err, buf);
			abort();
		}
	} else if (!err[0]) {
		abort();
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[PROFILE_ERR_LEN];
	err[0] = '\0';
	if (profile_parse_buffer((const char *)data, size, "f", &a, err, sizeof(err)) == 0)
		roundtrip();
	else if (strncmp(err, "f:", 2) != 0)
		abort();
	err[0] = '\0';
	if (fiojob_parse_buffer((const char *)data, size, "f.fio", 1, &a, err, sizeof(err)) == 0)
		roundtrip();
	else if (strncmp(err, "f.fio:", 6) != 0)
		abort();
	return 0;
}
