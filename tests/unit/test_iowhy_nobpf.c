/* A build without BPF (make BPF=0): the collector is not there, and
 * iowhy_open() says so in words a user can act on; the rest of the
 * interface is safe to call.  probes/iowhy.c compiled here with
 * BRISK_BPF=0, whatever this build has. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#undef BRISK_BPF
#define BRISK_BPF 0
#include "../../probes/iowhy.c"

static void test_unavailable(void **state)
{
	(void)state;
	struct iowhy *w = (struct iowhy *)1;
	char why[200];
	assert_int_equal(iowhy_open(&w, why, sizeof(why)), -ENOSYS);
	assert_null(w);
	assert_non_null(strstr(why, "built without BPF (make BPF=0"));
	volatile struct iowhy_window *win = NULL;
	assert_int_equal(iowhy_arm(w, 0, &win), -EINVAL);
	struct iowhy_acct a;
	assert_int_equal(iowhy_collect(w, 0, 1, 2, &a), -ENOENT);
	assert_int_equal(iowhy_dropped(w), 0);
	assert_int_equal(iowhy_tracked(w), 0);
	iowhy_disarm(w);
	iowhy_close(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_unavailable) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
