/* Unit tests: settings_transaction, the one journaled apply — a failure
 * part-way puts back what the call changed.  Needs root and a loop device
 * (attached here, detached at the end); skipped otherwise.  Writes only
 * that loop device's queue attributes, never vm.* or another disk. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "journal.h"
#include "settings.h"
#include "testdir.h"
#include "tunable.h"

static struct testdir td = { .fd = -1 };
static char img[96], dev[32];

static int setup(void **state)
{
	(void)state;
	if (geteuid() != 0)
		return 0;
	if (testdir_make(&td, "settings") < 0)
		return -1;
	setenv("BRISK_RUNTIME_DIR", td.abs, 1);
	snprintf(img, sizeof(img), "%s/disk.img", td.path);
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "truncate -s 16M %s && losetup -f --show %s", img, img);
	FILE *p = popen(cmd, "r");
	if (!p)
		return 0;
	char line[64] = "";
	if (fgets(line, sizeof(line), p) && strncmp(line, "/dev/", 5) == 0) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(dev, sizeof(dev), "%.31s", line + 5);
	}
	pclose(p);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[256];
	if (dev[0]) {
		snprintf(cmd, sizeof(cmd), "losetup -d /dev/%s", dev);
		if (system(cmd) != 0)
			return -1;
	}
	if (td.path[0])
		return testdir_remove(&td, TESTDIR_TREE);
	return 0;
}

struct seen {
	int applied, failed, rollback, rolled_back, left;
};

static void record(const struct settings_event *ev, void *arg)
{
	struct seen *s = arg;
	switch (ev->kind) {
	case SETTINGS_EV_APPLIED: s->applied++; break;
	case SETTINGS_EV_FAILED: s->failed++; break;
	case SETTINGS_EV_ROLLBACK: s->rollback++; break;
	case SETTINGS_EV_ROLLED_BACK: s->rolled_back++; s->left = ev->left; break;
	case SETTINGS_EV_LOCKED_OUT: break;
	}
}

static void step(struct settings_step *s, const char *key, const char *value)
{
	char why[TUNABLE_WHY_LEN];
	memset(s, 0, sizeof(*s));
	s->dev = dev;
	assert_int_equal(tunable_parse_key(key, &s->key, why, sizeof(why)), 0);
	snprintf(s->value, sizeof(s->value), "%s", value);
}

static void read_q(const char *key, char *out, size_t len)
{
	struct tunable_key k;
	char why[TUNABLE_WHY_LEN];
	assert_int_equal(tunable_parse_key(key, &k, why, sizeof(why)), 0);
	assert_int_equal(tunable_read(dev, &k, out, len), 0);
}

/* The 2nd of 3 writes fails (nr_requests above the tag depth of a loop
 * device without a scheduler: the kernel refuses): the 1st is put back,
 * the 3rd never written; a second transaction in the same session puts
 * back only its own change, and the journal still holds the original. */
static void test_rollback(void **state)
{
	(void)state;
	if (!dev[0]) {
		skip();
		return;
	}
	struct tunable_key sk;
	char why[TUNABLE_WHY_LEN], ra0[32], aff0[32], ra[32], aff[32];
	assert_int_equal(tunable_parse_key("scheduler", &sk, why, sizeof(why)), 0);
	assert_int_equal(tunable_apply(dev, &sk, "none", NULL), 0);
	read_q("read_ahead_kb", ra0, sizeof(ra0));
	read_q("rq_affinity", aff0, sizeof(aff0));
	const char *new_ra = strcmp(ra0, "256") ? "256" : "512";
	const char *new_aff = strcmp(aff0, "2") ? "2" : "1";

	struct journal *j = NULL;
	assert_int_equal(journal_open(JOURNAL_SET, "test_settings", &j), 0);
	struct settings_step plan[3];
	step(&plan[0], "read_ahead_kb", new_ra);
	step(&plan[1], "nr_requests", "2048");
	step(&plan[2], "rq_affinity", new_aff);
	struct seen s = { 0 };
	size_t applied = 99;
	int rc = settings_transaction(j, plan, 3, record, &s, NULL, &applied);
	assert_true(rc < 0);
	assert_int_equal(applied, 0);
	assert_int_equal(s.applied, 1);
	assert_int_equal(s.failed, 1);
	assert_int_equal(s.rollback, 1);
	assert_int_equal(s.rolled_back, 1);
	assert_int_equal(s.left, 0);
	read_q("read_ahead_kb", ra, sizeof(ra));
	read_q("rq_affinity", aff, sizeof(aff));
	assert_string_equal(ra, ra0);     /* the 1st is back */
	assert_string_equal(aff, aff0);   /* the 3rd was never written */
	assert_int_equal(journal_contents(j)->n, 0);

	/* mid-session: a change that stays, then a failing transaction puts
	 * back only its own write */
	step(&plan[0], "read_ahead_kb", new_ra);
	memset(&s, 0, sizeof(s));
	assert_int_equal(settings_transaction(j, plan, 1, record, &s, NULL, &applied), 0);
	assert_int_equal(applied, 1);
	step(&plan[0], "read_ahead_kb", "1024");
	memset(&s, 0, sizeof(s));
	assert_true(settings_transaction(j, plan, 3, record, &s, NULL, &applied) < 0);
	assert_int_equal(s.rollback, 1);
	assert_int_equal(s.left, 0);
	read_q("read_ahead_kb", ra, sizeof(ra));
	assert_string_equal(ra, new_ra);  /* the value before this call */
	read_q("rq_affinity", aff, sizeof(aff));
	assert_string_equal(aff, aff0);
	/* the session's original is still journaled, and restores */
	assert_int_equal(journal_restore(j, NULL, NULL), 0);
	read_q("read_ahead_kb", ra, sizeof(ra));
	assert_string_equal(ra, ra0);
	journal_close(j);
}

/* load:KEY: a set on the load's disks attached to the actions' one (which
 * has none here) changes its disk through the owner's journal, labelled
 * load:KEY=VALUE, and is put back with the owner; no load set, or a vm.*
 * key, is refused before anything is written. */
static void test_load_scope(void **state)
{
	(void)state;
	struct settings st, load;
	char msg[256], label[96], ra0[32], ra[32], orig[32];
	const char *none[1] = { NULL }, *devs[1] = { dev };
	settings_init(&st, JOURNAL_RUN, none, 0, geteuid() == 0, "test", NULL, 0);
	const char *k = "load:read_ahead_kb";
	assert_ptr_equal(settings_scope(&st, &k), NULL);   /* none attached */
	assert_string_equal(k, "read_ahead_kb");
	k = "read_ahead_kb";
	assert_ptr_equal(settings_scope(&st, &k), &st);
	assert_int_equal(settings_apply(&st, "load:read_ahead_kb", "512", msg, sizeof(msg), label,
					sizeof(label)), -ENODEV);
	assert_non_null(strstr(msg, "drop the load: prefix"));
	if (!dev[0]) {
		skip();
		return;
	}
	settings_init(&load, JOURNAL_RUN, devs, 1, 1, "test", NULL, 0);
	settings_attach_load(&st, &load);
	k = "load:scheduler";
	assert_ptr_equal(settings_scope(&st, &k), &load);
	assert_int_equal(settings_apply(&st, "load:vm.dirty_bytes", "64m", msg, sizeof(msg), label,
					sizeof(label)), -EINVAL);
	assert_null(st.journal);                          /* nothing opened, nothing written */
	read_q("read_ahead_kb", ra0, sizeof(ra0));
	const char *v = strcmp(ra0, "512") ? "512" : "256";
	assert_int_equal(settings_apply(&st, "load:read_ahead_kb", v, msg, sizeof(msg), label,
					sizeof(label)), 0);
	char want[64];
	snprintf(want, sizeof(want), "load:read_ahead_kb=%s", v);
	assert_string_equal(label, want);
	assert_non_null(st.journal);                      /* the owner's journal */
	assert_null(load.journal);
	read_q("read_ahead_kb", ra, sizeof(ra));
	assert_string_equal(ra, v);
	struct tunable_key key;
	char why[TUNABLE_WHY_LEN];
	assert_int_equal(tunable_parse_key("read_ahead_kb", &key, why, sizeof(why)), 0);
	assert_int_equal(settings_original(&load, &key, orig, sizeof(orig)), 1);
	assert_string_equal(orig, ra0);
	assert_int_equal(settings_restore(&load, NULL), 0);   /* the owner's restore */
	assert_null(st.journal);
	read_q("read_ahead_kb", ra, sizeof(ra));
	assert_string_equal(ra, ra0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rollback),
		cmocka_unit_test(test_load_scope),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
