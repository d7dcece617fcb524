/* Unit tests for fio job conversion (fiojob.c).
 * Run from the repository root (tests/run.sh does). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "fiojob.h"
#include "profile.h"
#include "roundtrip.h"


static const uint64_t lkml_delays[41] = {
	0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 68, 72, 76, 80,
	84, 88, 92, 96, 100, 104, 108, 112, 116, 120, 124, 128, 132, 134, 138, 142, 146,
	150, 200, 260,
};

static void test_fio_lkml(void **state)
{
	(void)state;
	struct profile *p = P();
	char err[PROFILE_ERR_LEN];
	int rc = fiojob_parse_file("tests/fixtures/fio/lkml-2009-ssh.fio", 1, p, err, sizeof(err));
	if (rc)
		fail_msg("%s", err);
	assert_int_equal(p->n_loads, 1);
	const struct load_spec *s = &p->loads[0].spec;
	assert_string_equal(p->loads[0].name, "job1");
	assert_int_equal(s->kind, LOAD_SEQ_WRITE);
	assert_int_equal(s->bs_lo, MiB);
	assert_int_equal(s->bs_hi, MiB);
	assert_int_equal(s->size, 10240 * MiB);
	assert_int_equal(s->total, 10240 * MiB);
	assert_int_equal(s->direct, 0);
	assert_int_equal(s->count, 1);
	/* [global] comes after job1 in the file, so job1 is not a randread */
	assert_int_equal(p->n_actions, 41);
	for (size_t i = 0; i < 41; i++) {
		const struct profile_action *a = &p->actions[i];
		char name[16];
		snprintf(name, sizeof(name), "file%zu", i + 1);
		assert_string_equal(a->name, name);
		assert_int_equal(a->kind, ACTION_SSH);
		assert_int_equal(a->startdelay_ns, S(1) * lkml_delays[i]);
		assert_int_equal(a->loops, 1);
		assert_int_equal(a->cfg.ssh_bs_lo, 4096);
		assert_int_equal(a->cfg.ssh_bs_hi, 44 * 1024);
		assert_int_equal(a->cfg.ssh_region, 2 * MiB);
		assert_int_equal(a->cfg.ssh_file, 30 * MiB);
	}
	/* fio runs the readers at once, each at its own delay */
	assert_int_equal(p->concurrency, 41);
	roundtrip(p);
	/* The shipped lkml-ssh profile is this job, but for its writer, which
	 * writes its 10 GB region until stopped (fio's stops after 10 GB):
	 * the load must outlast the last reader. */
	p->loads[0].spec.total = 0;
	struct profile *shipped = malloc(sizeof(*shipped));
	assert_int_equal(profile_parse_file("profiles/lkml-ssh.profile", NULL, shipped, err,
					    sizeof(err)), 0);
	snprintf(p->name, sizeof(p->name), "%s", shipped->name);
	snprintf(p->description, sizeof(p->description), "%s", shipped->description);
	char why[256];
	if (!profile_equal(p, shipped, why, sizeof(why)))
		fail_msg("profiles/lkml-ssh.profile is not the LKML job: %s", why);
	free(shipped);
}

static void test_fio_lkml_scaled(void **state)
{
	(void)state;
	struct profile *p = P();
	char err[PROFILE_ERR_LEN];
	double sc;
	assert_int_equal(fiojob_parse_scale("1/100", &sc), 0);
	assert_true(sc > 0.0099 && sc < 0.0101);
	assert_int_equal(fiojob_parse_scale("1%", &sc), 0);
	assert_int_equal(fiojob_parse_scale("0", &sc), -EINVAL);
	assert_int_equal(fiojob_parse_scale("2", &sc), -EINVAL);
	assert_int_equal(fiojob_parse_scale("x", &sc), -EINVAL);
	assert_int_equal(fiojob_parse_file("tests/fixtures/fio/lkml-2009-ssh.fio", 0.001, p, err,
					   sizeof(err)), 0);
	/* scaled, the readers' delays shrink but the readers do not: the writer
	 * keeps its 10 GB region and loops over it until the session stops it,
	 * so it writes through the whole (shrunk) schedule */
	assert_int_equal(p->loads[0].spec.size, 10240 * MiB);
	assert_int_equal(p->loads[0].spec.total, 0);
	assert_int_equal(p->concurrency, 41);
	assert_non_null(strstr(p->description, "writers loop to the last reader"));
	assert_int_equal(p->actions[40].startdelay_ns, 260000000ull);   /* 260 ms */
	assert_int_equal(p->actions[34].startdelay_ns, 134000000ull);
	/* the reads themselves are what is measured: not scaled */
	assert_int_equal(p->actions[40].cfg.ssh_region, 2 * MiB);
	assert_int_equal(p->actions[40].cfg.ssh_file, 30 * MiB);
	/* without readers to outlast, a scaled writer is shrunk as before */
	static const char w[] = "[w]\nrw=write\nsize=1024m\nbs=1m\n";
	assert_int_equal(fiojob_parse_buffer(w, sizeof(w) - 1, "w.fio", 0.01, p, err, sizeof(err)), 0);
	assert_int_equal(p->loads[0].spec.size, 11 * MiB);
	assert_int_equal(p->loads[0].spec.total, 11 * MiB);
	assert_int_equal(p->concurrency, 0);
}

static void test_fio_errors(void **state)
{
	(void)state;
	struct profile *p = P();
	char err[PROFILE_ERR_LEN];
	static const struct { const char *text, *want; } cases[] = {
		{ "[global]\nioengine=libaio\n[j]\nrw=write\nsize=1m\n",
		  "j.fio:2: fio key 'ioengine=libaio' cannot be honoured" },
		{ "[j]\nrw=randrw\nsize=1m\n", "j.fio:2: fio key 'rw=randrw' cannot be honoured" },
		{ "[j]\nrw=write\nfilename=/dev/sda\nsize=1m\n",
		  "j.fio:3: fio key 'filename' cannot be honoured: brisk creates its own files" },
		{ "[j]\nrw=write\nsize=1g\nstartdelay=5\n",
		  "j.fio:4: fio key 'startdelay=5' cannot be honoured for job [j]" },
		{ "[j]\nrw=write\nsize=1m\nzonemode=zbd\n",
		  "j.fio:4: fio key 'zonemode' is not supported by brisk" },
		{ "[j]\nrw=write\n", "j.fio:1: fio job [j] has no size" },
		{ "[j]\nrw=randread\nsize=2m\ndirect=1\n",
		  "j.fio:4: fio key 'direct=1' cannot be honoured for job [j]" },
		{ "[j]\nrw=read\nsize=1g\niodepth=32\n", "j.fio:4: fio key 'iodepth=32' cannot be honoured" },
		{ "[j]\nrw=write\nbs=4k,8k\nsize=1m\n", "j.fio:3: fio key 'bs=4k,8k' cannot be honoured" },
		{ "[j]\nrw=write\nsize=$SIZE\n", "j.fio:3: environment variables" },
		{ "[global]\nrw=read\n", "j.fio:2: no job sections" },
		{ "rw=read\n", "j.fio:1: option outside any section" },
		{ "[j]\nrw=write\nsize=1m\nruntime=10\n", "j.fio:4: fio key 'runtime' in job [j]" },
		{ "[j]\nrw=write\nsize\n", "j.fio:3: fio key 'size' needs a value" },
		{ "[j]\nrw=read\nsize=1m\nfsync=1\n", "j.fio:4: fio key 'fsync=1' cannot be honoured for a reader" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		assert_int_equal(fiojob_parse_buffer(cases[i].text, strlen(cases[i].text), "j.fio", 1,
						     p, err, sizeof(err)), -EINVAL);
		if (strncmp(err, cases[i].want, strlen(cases[i].want)) != 0)
			fail_msg("case %zu: got '%s', want '%s...'", i, err, cases[i].want);
	}
}

static void test_fio_mapping(void **state)
{
	(void)state;
	struct profile *p = P();
	char err[PROFILE_ERR_LEN];
	const char *job =
		"; comment\n# comment\n[global]\nruntime=30\nramp_time=5s\nioengine=psync\n"
		"[dd]\nrw=write\nbs=4k\nsize=64m\nfsync=8\nprioclass=3\n"
		"[readers]\nreadwrite=read\nblocksize=128k\nsize=256m\nnumjobs=3\nbuffered=0\n"
		"[big random]\nrw=randread\nsize=512m\ntime_based\n"
		"[tiny]\nrw=randread\nsize=1m\nfilesize=8m\nloops=5\nstartdelay=1500ms\n";
	if (fiojob_parse_buffer(job, strlen(job), "dir/m.job", 1, p, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_string_equal(p->name, "m");
	assert_int_equal(p->runtime_ns, S(30));
	assert_int_equal(p->ramp_time_ns, S(5));
	assert_int_equal(p->n_loads, 3);
	assert_int_equal(p->loads[0].spec.kind, LOAD_FSYNC_WRITE);
	assert_int_equal(p->loads[0].spec.fsync_every, 8 * 4096);
	assert_int_equal(p->loads[0].spec.ioprio_class, 3);
	assert_int_equal(p->loads[1].spec.kind, LOAD_SEQ_READ);
	assert_int_equal(p->loads[1].spec.count, 3);
	assert_int_equal(p->loads[1].spec.direct, 1);
	assert_int_equal(p->loads[1].spec.bs_hi, 128 * 1024);
	assert_string_equal(p->loads[2].name, "big-random");
	assert_int_equal(p->loads[2].spec.kind, LOAD_RAND_READ);
	assert_int_equal(p->loads[2].spec.total, 0);    /* time_based: until the run ends */
	assert_int_equal(p->n_actions, 1);
	assert_int_equal(p->actions[0].loops, 5);
	assert_int_equal(p->actions[0].startdelay_ns, 1500000000ull);
	assert_int_equal(p->actions[0].cfg.ssh_region, MiB);
	assert_int_equal(p->actions[0].cfg.ssh_file, 8 * MiB);
	assert_int_equal(p->actions[0].cfg.ssh_bs_hi, 4096);   /* fio's default bs */
	roundtrip(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio_lkml),
		cmocka_unit_test(test_fio_lkml_scaled),
		cmocka_unit_test(test_fio_errors),
		cmocka_unit_test(test_fio_mapping),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
