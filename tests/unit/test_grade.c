/* The verdict rules of grade.h: every grade boundary, the p90 mention,
 * each cause and its order, the next-step rule, the worst verdict and the
 * formatting that must never round a figure up across a limit. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "grade.h"
#include "timesplit.h"

/* Quiet system: nothing that names a cause. */
static void quiet(struct grade_system *s)
{
	memset(s, 0, sizeof(*s));
	s->dirty_avg = s->dirty_max = 10;
	s->wb_avg = s->wb_max = 0;
	s->psi_full = 1;
	s->n_disks = 1;
	snprintf(s->disks[0].name, sizeof(s->disks[0].name), "vda");
	s->disks[0].cls = "an SSD";
	s->disks[0].nr_requests = 256;
	s->disks[0].aqu = 2;
	s->disks[0].util_pct = 30;
}

static struct grade_verdict run(enum action_kind a, double p50, double p90, double idle,
				const struct grade_system *s)
{
	struct grade_input in = { .action = a, .loaded = 1, .p50_ms = p50, .p90_ms = p90,
				  .idle_p50_ms = idle };
	struct grade_verdict v;
	grade_action(&in, s, &v);
	return v;
}

static void test_boundaries(void **state)
{
	(void)state;
	assert_int_equal(grade_of_seconds(0), GRADE_INSTANT);
	assert_int_equal(grade_of_seconds(0.0999), GRADE_INSTANT);
	assert_int_equal(grade_of_seconds(0.1), GRADE_NOTICEABLE);
	assert_int_equal(grade_of_seconds(0.999), GRADE_NOTICEABLE);
	assert_int_equal(grade_of_seconds(1.0), GRADE_DISRUPTIVE);
	assert_int_equal(grade_of_seconds(9.999), GRADE_DISRUPTIVE);
	assert_int_equal(grade_of_seconds(10.0), GRADE_UNUSABLE);
	assert_int_equal(grade_of_seconds(3600), GRADE_UNUSABLE);
	assert_int_equal(grade_of_seconds(NAN), GRADE_UNKNOWN);
	assert_string_equal(grade_name(GRADE_INSTANT), "instant");
	assert_string_equal(grade_name(GRADE_NOTICEABLE), "noticeable");
	assert_string_equal(grade_name(GRADE_DISRUPTIVE), "disruptive");
	assert_string_equal(grade_name(GRADE_UNUSABLE), "unusable");
	assert_string_equal(grade_action_name(ACTION_EXEC), "program start");
	assert_string_equal(grade_action_name(ACTION_LS), "directory listing");
	assert_string_equal(grade_action_name(ACTION_SSH), "remote shell read");
	assert_string_equal(grade_action_name(ACTION_SAVE), "save");
}

static void test_grade_median_and_p90(void **state)
{
	(void)state;
	struct grade_system s;
	quiet(&s);
	struct grade_verdict v = run(ACTION_EXEC, 900, 1000, 150, &s);
	assert_int_equal(v.grade, GRADE_NOTICEABLE);
	assert_int_equal(v.idle_grade, GRADE_NOTICEABLE);
	assert_float_equal(v.slowdown, 6.0, 1e-12);
	assert_false(v.p90_worse);                 /* same x1.1: not named */
	v = run(ACTION_EXEC, 900, 4000, 150, &s);
	assert_true(v.p90_worse);                  /* worse grade, >= 2x */
	assert_int_equal(v.p90_grade, GRADE_DISRUPTIVE);
	v = run(ACTION_EXEC, 900, 1799, 150, &s);  /* worse grade, < 2x */
	assert_false(v.p90_worse);
	v = run(ACTION_EXEC, 200, 400, 150, &s);   /* 2x, same grade */
	assert_true(v.p90_worse);
	v = run(ACTION_EXEC, 20, 99, 15, &s);      /* 5x, but instant */
	assert_false(v.p90_worse);
	v = run(ACTION_EXEC, 20, 100, 15, &s);     /* 5x, noticeable */
	assert_true(v.p90_worse);
	/* no sample succeeded */
	v = run(ACTION_SAVE, NAN, NAN, 5, &s);
	assert_int_equal(v.grade, GRADE_UNKNOWN);
	assert_int_equal(v.cause, GRADE_CAUSE_NONE);
	assert_false(v.next);
	/* no idle figure: no slowdown */
	v = run(ACTION_SAVE, 50, 60, NAN, &s);
	assert_true(isnan(v.slowdown));
	assert_int_equal(v.grade, GRADE_INSTANT);
}

static void test_causes(void **state)
{
	(void)state;
	struct grade_system s;
	struct grade_verdict v;

	/* nothing shows a cause */
	quiet(&s);
	v = run(ACTION_SSH, 2000, 3000, 100, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_NONE);
	assert_string_equal(v.cause_text, "");

	/* dirty: lots in memory, little under writeback */
	quiet(&s);
	s.dirty_avg = 2000;
	s.dirty_max = 2355;
	s.wb_avg = 5;
	s.wb_max = 20;
	v = run(ACTION_SAVE, 4100, 5000, 20, &s);
	assert_int_equal(v.grade, GRADE_DISRUPTIVE);
	assert_int_equal(v.cause, GRADE_CAUSE_DIRTY);
	assert_string_equal(v.cause_text, "fsync behind 2.3 GiB of dirty data");
	v = run(ACTION_SSH, 800, 900, 50, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_DIRTY);
	assert_string_equal(v.cause_text, "reads queued behind 2.3 GiB of dirty data");
	/* just under the limit (max of both) */
	s.dirty_max = GRADE_DIRTY_MIB - 20.5;
	s.wb_max = 20;
	v = run(ACTION_SSH, 800, 900, 50, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_NONE);
	s.wb_max = 20.5;
	v = run(ACTION_SSH, 800, 900, 50, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_DIRTY);

	/* writeback: under way and at least the Dirty average; for reads it
	 * comes first, for save dirty does */
	quiet(&s);
	s.dirty_avg = 100;
	s.dirty_max = 150;
	s.wb_avg = 300;
	s.wb_max = 512;
	v = run(ACTION_SSH, 800, 900, 50, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_WRITEBACK);
	assert_string_equal(v.cause_text, "the disk busy writing back up to 512.0 MiB");
	v = run(ACTION_SAVE, 800, 900, 50, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_DIRTY);
	s.wb_avg = 99;                              /* less than the Dirty average */
	v = run(ACTION_SSH, 800, 900, 50, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_DIRTY);

	/* queue against nr_requests: 0.75 of it is full */
	quiet(&s);
	s.disks[1] = s.disks[0];
	snprintf(s.disks[1].name, sizeof(s.disks[1].name), "sdb");
	s.n_disks = 2;
	s.disks[1].nr_requests = 64;
	s.disks[1].aqu = 47.9;
	v = run(ACTION_LS, 800, 900, 50, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_NONE);
	s.disks[1].aqu = 48;
	v = run(ACTION_LS, 800, 900, 50, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_QUEUE);
	assert_string_equal(v.cause_text, "sdb's queue full (48 of 64 requests on average)");
	/* without nr_requests, utilisation */
	s.disks[1].nr_requests = NAN;
	s.disks[1].util_pct = 89.9;
	v = run(ACTION_LS, 800, 900, 50, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_NONE);
	s.disks[1].util_pct = 97;
	v = run(ACTION_LS, 800, 900, 50, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_QUEUE);
	assert_string_equal(v.cause_text, "sdb busy 97% of the time");
	/* queue is named before dirty for reads */
	s.dirty_max = 1000;
	v = run(ACTION_LS, 800, 900, 50, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_QUEUE);

	/* PSI full */
	quiet(&s);
	s.psi_full = 9.9;
	v = run(ACTION_EXEC, 800, 900, 50, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_NONE);
	s.psi_full = 35;
	v = run(ACTION_EXEC, 800, 900, 50, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_PSI);
	assert_string_equal(grade_cause_name(v.cause), "psi");
	assert_string_equal(v.cause_text, "every task stalled on I/O 35% of the time (PSI full)");

	/* no cause for an instant action, nor for one no slower than idle */
	v = run(ACTION_EXEC, 99, 99, 10, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_NONE);
	v = run(ACTION_EXEC, 800, 900, 600, &s);   /* 1.33x < GRADE_CAUSE_SLOWDOWN */
	assert_int_equal(v.cause, GRADE_CAUSE_NONE);
	/* ... nor for idle figures */
	struct grade_input in = { .action = ACTION_EXEC, .loaded = 0, .p50_ms = 800,
				  .p90_ms = 900, .idle_p50_ms = 800 };
	grade_action(&in, &s, &v);
	assert_int_equal(v.cause, GRADE_CAUSE_NONE);
	assert_true(isnan(v.slowdown));
	assert_false(v.next);
	/* unknown figures are no cause */
	quiet(&s);
	s.dirty_avg = s.dirty_max = s.wb_avg = s.wb_max = s.psi_full = NAN;
	s.disks[0].aqu = s.disks[0].util_pct = NAN;
	v = run(ACTION_SAVE, 800, 900, 50, &s);
	assert_int_equal(v.cause, GRADE_CAUSE_NONE);
}

static void test_next(void **state)
{
	(void)state;
	struct grade_system s;
	struct grade_verdict v;
	quiet(&s);                                   /* an SSD */
	v = run(ACTION_SSH, 800, 900, 300, &s);      /* 2.7x: not enough on an SSD */
	assert_false(v.next);
	assert_string_equal(v.next_why, "");
	v = run(ACTION_SSH, 900, 900, 300, &s);      /* 3x: any disk */
	assert_true(v.next);
	assert_string_equal(v.next_why, "the load made remote shell read 3.0x slower");
	v = run(ACTION_SSH, 90, 90, 10, &s);         /* 9x but instant */
	assert_false(v.next);
	s.disks[0].settings_matter = 1;              /* a rotational disk */
	s.disks[0].cls = "a rotational disk";
	v = run(ACTION_SSH, 449, 500, 300, &s);      /* < 1.5x */
	assert_false(v.next);
	v = run(ACTION_SSH, 450, 500, 300, &s);      /* 1.5x */
	assert_true(v.next);
	assert_string_equal(v.next_why, "vda is a rotational disk: its scheduler and queue "
			    "settings matter");
	v = run(ACTION_SSH, 450, 500, NAN, &s);      /* no idle figure */
	assert_true(v.next);
	v = run(ACTION_SSH, 99, 500, 10, &s);        /* instant */
	assert_false(v.next);
	grade_action(&(struct grade_input){ .action = ACTION_SSH, .p50_ms = 5000,
					    .p90_ms = 5000, .idle_p50_ms = 5000 }, &s, &v);
	assert_false(v.next);                        /* idle only */
	grade_action(&(struct grade_input){ .action = ACTION_SSH, .loaded = 1, .p50_ms = 5000,
					    .p90_ms = 5000, .idle_p50_ms = 50 }, NULL, &v);
	assert_false(v.next);                        /* no system figures */
	assert_int_equal(v.grade, GRADE_DISRUPTIVE);
}

static void test_worst(void **state)
{
	(void)state;
	struct grade_system s;
	quiet(&s);
	struct grade_verdict v[4];
	v[0] = run(ACTION_EXEC, 500, 500, 100, &s);   /* noticeable 5x */
	v[1] = run(ACTION_LS, 600, 600, 300, &s);     /* noticeable 2x */
	v[2] = run(ACTION_SSH, 50, 50, 1, &s);        /* instant 50x */
	v[3] = run(ACTION_SAVE, NAN, NAN, 1, &s);     /* unknown */
	assert_int_equal(grade_worst(v, 4), 0);
	v[1] = run(ACTION_LS, 600, 600, 100, &s);     /* noticeable 6x */
	assert_int_equal(grade_worst(v, 4), 1);
	v[2] = run(ACTION_SSH, 1000, 1000, 900, &s);  /* disruptive */
	assert_int_equal(grade_worst(v, 4), 2);
	assert_int_equal(grade_worst(v + 3, 1), -1);
	assert_int_equal(grade_worst(v, 0), -1);
}

static void test_format(void **state)
{
	(void)state;
	char b[400];
	grade_format_seconds(b, sizeof(b), 0.0999);
	assert_string_equal(b, "99 ms");
	grade_format_seconds(b, sizeof(b), 0.004);
	assert_string_equal(b, "4 ms");
	grade_format_seconds(b, sizeof(b), 0.1);
	assert_string_equal(b, "0.10 s");
	grade_format_seconds(b, sizeof(b), 0.999);
	assert_string_equal(b, "0.99 s");
	grade_format_seconds(b, sizeof(b), 9.999);
	assert_string_equal(b, "9.99 s");
	grade_format_seconds(b, sizeof(b), 12.34);
	assert_string_equal(b, "12.3 s");
	grade_format_seconds(b, sizeof(b), NAN);
	assert_string_equal(b, "-");

	struct grade_system s;
	quiet(&s);
	s.dirty_max = 2355;
	struct grade_verdict v = run(ACTION_SAVE, 4130, 9200, 200, &s);
	grade_format(&v, b, sizeof(b));
	assert_string_equal(b, "save: 4.13 s under load (20.6x idle) - disruptive; 1 in 10 took "
			    "9.20 s; likely cause (a guess from system counters): fsync behind 2.3 GiB "
			    "of dirty data");
	v = run(ACTION_EXEC, 900, 950, 150, &s);
	grade_format(&v, b, sizeof(b));
	assert_string_equal(b, "program start: 0.90 s under load (6.0x idle) - noticeable; "
			    "likely cause (a guess from system counters): reads queued behind 2.3 GiB "
			    "of dirty data");
	grade_action(&(struct grade_input){ .action = ACTION_LS, .p50_ms = 12, .p90_ms = 20,
					    .idle_p50_ms = 12 }, &s, &v);
	grade_format(&v, b, sizeof(b));
	assert_string_equal(b, "directory listing: 12 ms idle - instant");
	v = run(ACTION_SAVE, 9, 9, 200, &s);         /* faster than idle */
	grade_format(&v, b, sizeof(b));
	assert_string_equal(b, "save: 9 ms under load (0.045x idle) - instant");
	v = run(ACTION_SSH, NAN, NAN, 10, &s);
	grade_format(&v, b, sizeof(b));
	assert_string_equal(b, "remote shell read: no successful sample - unknown");
	/* a short buffer is cut, never overrun */
	char small[16];
	v = run(ACTION_SAVE, 4130, 9200, 200, &s);
	grade_format(&v, small, sizeof(small));
	assert_int_equal(strlen(small), sizeof(small) - 1);
}

/* A loaded ssh-like breakdown: 78 % queued behind the writer, 15 % on the
 * disk, the rest on CPU. */
static void ssh_split(struct timesplit *t)
{
	memset(t, 0, sizeof(*t));
	t->ok = 1;
	t->part_ns[IOWHY_QUEUED] = 5070000000ull;
	t->part_ns[IOWHY_DEVICE] = 975000000ull;
	t->part_ns[IOWHY_CPU] = 455000000ull;
	t->ahead[1] = 410;
	t->ahead_bytes[1] = 400ull << 20;
}

/* The cause comes from the measured parts when there is a breakdown; the
 * heuristic only without one, worded as a guess with the reason. */
static void test_measured(void **state)
{
	(void)state;
	struct grade_system s;
	quiet(&s);
	s.dirty_max = 2355;   /* the heuristic would blame dirty data */
	struct timesplit t;
	ssh_split(&t);
	struct grade_input in = { .action = ACTION_SSH, .loaded = 1, .p50_ms = 6500,
				  .p90_ms = 7000, .idle_p50_ms = 20, .split = &t,
				  .no_split = NULL };
	struct grade_verdict v;
	char b[1024];
	grade_action(&in, &s, &v);
	assert_int_equal(v.cause, GRADE_CAUSE_MEASURED);
	assert_string_equal(grade_cause_name(v.cause), "measured");
	assert_string_equal(v.cause_text, "78 % queued in the I/O scheduler while 410 writes "
			    "(400.0 MiB) went first, 15 % on the disk");
	assert_string_equal(v.guess_why, "");
	grade_format(&v, b, sizeof(b));
	assert_string_equal(b, "remote shell read: 6.50 s under load (325.0x idle) - disruptive; "
			    "measured: 78 % queued in the I/O scheduler while 410 writes (400.0 MiB) "
			    "went first, 15 % on the disk");
	/* no breakdown: the guess, and why there is none */
	in.split = NULL;
	in.no_split = "it needs root (BPF)";
	grade_action(&in, &s, &v);
	assert_int_equal(v.cause, GRADE_CAUSE_DIRTY);
	assert_string_equal(v.guess_why, "it needs root (BPF)");
	grade_format(&v, b, sizeof(b));
	assert_string_equal(b, "remote shell read: 6.50 s under load (325.0x idle) - disruptive; "
			    "likely cause (a guess from system counters; no breakdown: it needs "
			    "root (BPF)): reads queued behind 2.3 GiB of dirty data");
	/* a breakdown that was not measured, or is empty, is none */
	t.ok = 0;
	in.split = &t;
	grade_action(&in, &s, &v);
	assert_int_equal(v.cause, GRADE_CAUSE_DIRTY);
	ssh_split(&t);
	memset(t.part_ns, 0, sizeof(t.part_ns));
	grade_action(&in, &s, &v);
	assert_int_equal(v.cause, GRADE_CAUSE_DIRTY);
	/* no heuristic cause either: nothing said, no reason kept */
	quiet(&s);
	grade_action(&in, &s, &v);
	assert_int_equal(v.cause, GRADE_CAUSE_NONE);
	assert_string_equal(v.guess_why, "");
	/* the same gate as the guess: not for an instant verdict, nor under
	 * GRADE_CAUSE_SLOWDOWN times idle */
	ssh_split(&t);
	in.p50_ms = 50;
	grade_action(&in, &s, &v);
	assert_int_equal(v.cause, GRADE_CAUSE_NONE);
	in.p50_ms = 6500;
	in.idle_p50_ms = 6000;
	grade_action(&in, &s, &v);
	assert_int_equal(v.cause, GRADE_CAUSE_NONE);
	/* nor for an idle verdict */
	in.idle_p50_ms = 20;
	in.loaded = 0;
	grade_action(&in, &s, &v);
	assert_int_equal(v.cause, GRADE_CAUSE_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boundaries),
		cmocka_unit_test(test_grade_median_and_p90),
		cmocka_unit_test(test_causes),
		cmocka_unit_test(test_measured),
		cmocka_unit_test(test_next),
		cmocka_unit_test(test_worst),
		cmocka_unit_test(test_format),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
