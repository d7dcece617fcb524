/* Replays the profile corpus through the loader (the plain driver for what
 * tests/fuzz/fuzz_profile.c fuzzes):
 *  - tests/fixtures/profiles/bad/NAME.profile: each must be rejected with the
 *    line and message its first line states ("; expect: LINE: text");
 *  - tests/fixtures/profiles/good/NAME.profile and profiles/NAME.profile:
 *    each must load, and write + reload to an equal profile;
 *  - tests/fuzz/corpus/ (any file, through the profile loader and the fio
 *    converter): must not crash, and what loads must round-trip;
 *  - every prefix of every file above: must not crash, and whatever loads
 *    must survive a write + reload unchanged.
 * Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <dirent.h>
#include <cmocka.h>

#include "fiojob.h"
#include "profile.h"

static struct profile *pa, *pb;
static size_t n_bad, n_good, n_fuzz, n_prefix;

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	char *buf = malloc(PROFILE_MAX_FILE + 1);
	*len = fread(buf, 1, PROFILE_MAX_FILE, f);
	fclose(f);
	return buf;
}

/* Loaded -> written -> reloaded must be equal; a refusal to write is
 * allowed only with a message. */
static void check_roundtrip(const char *what)
{
	char *buf = NULL, err[PROFILE_ERR_LEN], why[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = profile_write(f, pa, err, sizeof(err));
	fclose(f);
	if (rc == 0) {
		if (profile_parse_buffer(buf, len, "rewritten", pb, err, sizeof(err)) < 0)
			fail_msg("%s: written profile does not reload: %s\n%s", what, err, buf);
		if (!profile_equal(pa, pb, why, sizeof(why)))
			fail_msg("%s: reloaded profile differs: %s", what, why);
	} else if (!err[0]) {
		fail_msg("%s: write refused without a message", what);
	}
	free(buf);
}

static void prefixes(const char *path, const char *data, size_t len)
{
	char err[PROFILE_ERR_LEN];
	for (size_t cut = 0; cut < len; cut++) {
		char what[600];
		err[0] = '\0';
		int rc = profile_parse_buffer(data, cut, "prefix", pa, err, sizeof(err));
		snprintf(what, sizeof(what), "%s cut at %zu", path, cut);
		if (rc == 0)
			check_roundtrip(what);
		else if (strncmp(err, "prefix:", 7) != 0)
			fail_msg("%s: error without FILE:LINE: '%s'", what, err);
		n_prefix++;
	}
}

typedef void (*visit_fn)(const char *path);

static size_t walk(const char *dir, visit_fn fn)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
		sprintf(names[n], "%s/%s", dir, e->d_name);
		n++;
	}
	closedir(d);
	for (size_t i = 0; i < n; i++) {
		fn(names[i]);
		free(names[i]);
	}
	free(names);
	return n;
}

static void visit_bad(const char *path)
{
	size_t len;
	char *data = slurp(path, &len);
	char err[PROFILE_ERR_LEN];
	/* the expectation: first line "; expect: LINE: text" */
	const char *tag = "; expect: ";
	if (strncmp(data, tag, strlen(tag)) != 0)
		fail_msg("%s: first line must be '; expect: LINE: message'", path);
	char *nl = memchr(data, '\n', len);
	assert_non_null(nl);
	char want[512];
	size_t wl = (size_t)(nl - data) - strlen(tag);
	assert_true(wl < sizeof(want));
	memcpy(want, data + strlen(tag), wl);
	want[wl] = '\0';
	char *colon = strchr(want, ':');
	assert_non_null(colon);
	*colon = '\0';
	const char *msg = colon + 2;
	char prefix[600];
	snprintf(prefix, sizeof(prefix), "%s:%s: ", path, want);
	int rc = profile_parse_file(path, NULL, pa, err, sizeof(err));
	if (rc != -EINVAL)
		fail_msg("%s: accepted (rc %d), expected line %s: %s", path, rc, want, msg);
	if (strncmp(err, prefix, strlen(prefix)) != 0 || !strstr(err, msg))
		fail_msg("%s: got '%s', expected '%s...%s...'", path, err, prefix, msg);
	prefixes(path, data, len);
	free(data);
	n_bad++;
}

static void visit_good(const char *path)
{
	size_t pl = strlen(path);
	if (pl < 8 || strcmp(path + pl - 8, ".profile") != 0)
		return;   /* profiles/ also holds advisories.conf */
	size_t len;
	char *data = slurp(path, &len);
	char err[PROFILE_ERR_LEN];
	if (profile_parse_file(path, NULL, pa, err, sizeof(err)) < 0)
		fail_msg("%s rejected: %s", path, err);
	check_roundtrip(path);
	prefixes(path, data, len);
	free(data);
	n_good++;
}

static void visit_fuzz(const char *path)
{
	size_t len;
	char *data = slurp(path, &len);
	char err[PROFILE_ERR_LEN];
	if (profile_parse_buffer(data, len, path, pa, err, sizeof(err)) == 0)
		check_roundtrip(path);
	/* the fuzz target feeds the fio converter the same bytes */
	if (fiojob_parse_buffer(data, len, path, 1, pa, err, sizeof(err)) == 0)
		check_roundtrip(path);
	free(data);
	n_fuzz++;
}

static void test_bad(void **state)
{
	(void)state;
	assert_true(walk("tests/fixtures/profiles/bad", visit_bad) >= 40);
}

static void test_good(void **state)
{
	(void)state;
	assert_true(walk("tests/fixtures/profiles/good", visit_good) >= 5);
	size_t before = n_good;
	walk("profiles", visit_good);
	assert_true(n_good - before >= 6);   /* the shipped profiles */
}

static void test_fuzz_corpus(void **state)
{
	(void)state;
	if (walk("tests/fuzz/corpus", visit_fuzz) == 0)
		fail_msg("tests/fuzz/corpus: no file found (missing or empty? run from the "
			 "repository root)");
	printf("corpus: %zu bad, %zu good, %zu fuzz files, %zu prefixes\n", n_bad, n_good, n_fuzz,
	       n_prefix);
}

int main(void)
{
	pa = malloc(sizeof(*pa));
	pb = malloc(sizeof(*pb));
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_fuzz_corpus),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	free(pa);
	free(pb);
	return rc;
}
