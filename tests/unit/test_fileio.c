/* The shared small pieces: fileio (whole reads and writes, mkdir -p), str
 * (bounded copy, trim, word lists), parse_format_iec. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "fileio.h"
#include "parse.h"
#include "str.h"
#include "testdir.h"

static struct testdir td;

static int setup(void **state)
{
	(void)state;
	return testdir_make(&td, "fileio");
}

static int teardown(void **state)
{
	(void)state;
	return testdir_remove(&td, TESTDIR_TREE);
}

static void path_in(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", td.path, name);
}

static void test_write_read(void **state)
{
	(void)state;
	char p[PATH_MAX];
	path_in(p, sizeof(p), "f");
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(fileio_write_all(fd, "hello ", 6), 0);
	assert_int_equal(fileio_pwrite_all(fd, "world", 5, 6), 0);
	assert_int_equal(fileio_pwrite_all(fd, "W", 1, 6), 0);     /* over, in place */
	assert_int_equal(fileio_pwrite_all(fd, "x", 1, -1), -EINVAL);
	close(fd);
	char *b = NULL;
	size_t n = 0;
	assert_int_equal(fileio_read_file(p, 64, &b, &n), 0);
	assert_int_equal(n, 11);
	assert_string_equal(b, "hello World");
	free(b);
	/* exactly max is fine, one byte over is not */
	assert_int_equal(fileio_read_file(p, 11, &b, &n), 0);
	free(b);
	assert_int_equal(fileio_read_file(p, 10, &b, &n), -EFBIG);
	assert_int_equal(fileio_read_file(td.path, 64, &b, &n), -EINVAL);      /* a directory */
	path_in(p, sizeof(p), "missing");
	assert_int_equal(fileio_read_file(p, 64, &b, &n), -ENOENT);
	/* an empty file */
	path_in(p, sizeof(p), "empty");
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	assert_int_equal(fileio_read_file(p, 64, &b, &n), 0);
	assert_int_equal(n, 0);
	assert_string_equal(b, "");
	free(b);
	/* write to a closed descriptor: the error comes back */
	assert_int_equal(fileio_write_all(-1, "x", 1), -EBADF);
}

static void test_mkdir_p(void **state)
{
	(void)state;
	char p[PATH_MAX];
	path_in(p, sizeof(p), "a/b/c");
	assert_int_equal(fileio_mkdir_p(p, 0700), 0);
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0700);
	assert_int_equal(fileio_mkdir_p(p, 0700), 0);                /* exists: fine */
	char f[PATH_MAX];
	path_in(f, sizeof(f), "plain");
	int fd = open(f, O_WRONLY | O_CREAT | O_EXCL, 0600);
	close(fd);
	path_in(p, sizeof(p), "plain/sub");
	assert_int_equal(fileio_mkdir_p(p, 0700), -ENOTDIR);
	char longp[PATH_MAX + 8];
	memset(longp, 'a', sizeof(longp) - 1);
	longp[sizeof(longp) - 1] = '\0';
	assert_int_equal(fileio_mkdir_p(longp, 0700), -ENAMETOOLONG);
}

static void test_str(void **state)
{
	(void)state;
	char b[6];
	str_copy(b, sizeof(b), "abcdefgh");
	assert_string_equal(b, "abcde");
	str_copy(b, sizeof(b), NULL);
	assert_string_equal(b, "");
	str_copy(b, 0, "x");                        /* no room: untouched, no crash */
	char t[] = " \t trim me \n";
	assert_string_equal(str_trim(t), "trim me");
	char e[] = "   ";
	assert_string_equal(str_trim(e), "");
	assert_true(str_in_list("none mq-deadline kyber bfq", "kyber"));
	assert_true(str_in_list("  none  bfq ", "bfq"));
	assert_false(str_in_list("none mq-deadline", "mq"));
	assert_false(str_in_list("none mq-deadline", "deadline"));
	assert_false(str_in_list("", "none"));
	/* ASCII classes, whatever the locale (Latin-1: 0xE4 a letter, 0xA0 a space) */
	for (int c = 0; c < 256; c++) {
		int dig = c >= '0' && c <= '9';
		int alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
		assert_int_equal(str_is_digit(c), dig);
		assert_int_equal(str_is_alnum(c), dig || alpha);
		assert_int_equal(str_is_xdigit(c), dig || (c >= 'a' && c <= 'f') ||
						   (c >= 'A' && c <= 'F'));
		assert_int_equal(str_is_space(c), c == ' ' || (c >= 9 && c <= 13));
	}
	char nb[] = "\xa0x\xa0";
	assert_string_equal(str_trim(nb), "\xa0x\xa0");
}

static void test_format_iec(void **state)
{
	(void)state;
	char b[32];
	parse_format_iec(b, sizeof(b), 0);
	assert_string_equal(b, "0 B");
	parse_format_iec(b, sizeof(b), 1023);
	assert_string_equal(b, "1023 B");
	parse_format_iec(b, sizeof(b), 1024);
	assert_string_equal(b, "1.0 KiB");
	parse_format_iec(b, sizeof(b), 1536);
	assert_string_equal(b, "1.5 KiB");
	/* a small size in a message about GiB-sized things: its own unit */
	parse_format_iec(b, sizeof(b), 16ull << 20);
	assert_string_equal(b, "16.0 MiB");
	parse_format_iec(b, sizeof(b), 512ull << 20);
	assert_string_equal(b, "512.0 MiB");
	parse_format_iec(b, sizeof(b), 2ull << 30);
	assert_string_equal(b, "2.0 GiB");
	/* just under a unit: the next unit's 1.0, never "1024.0" */
	parse_format_iec(b, sizeof(b), (1ull << 20) - 1);
	assert_string_equal(b, "1.0 MiB");
	parse_format_iec(b, sizeof(b), (1ull << 30) - 1);
	assert_string_equal(b, "1.0 GiB");
	parse_format_iec(b, sizeof(b), (1ull << 30) - (60ull << 20));   /* 964 MiB */
	assert_string_equal(b, "964.0 MiB");
	parse_format_iec(b, sizeof(b), 1023ull << 20);
	assert_string_equal(b, "1023.0 MiB");
	parse_format_iec(b, sizeof(b), 1000204886016ull);          /* a "1 TB" disk */
	assert_string_equal(b, "931.5 GiB");
	parse_format_iec(b, sizeof(b), UINT64_MAX);
	assert_string_equal(b, "16384.0 PiB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_read),
		cmocka_unit_test(test_mkdir_p),
		cmocka_unit_test(test_str),
		cmocka_unit_test(test_format_iec),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
