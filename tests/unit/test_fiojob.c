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
#include "testdir.h"


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
		{ "[global]\nioengine=cpuio\n[j]\nrw=write\nsize=1m\n",
		  "j.fio:2: fio key 'ioengine=cpuio' cannot be honoured: it is not file I/O" },
		{ "[j]\nrw=write\nsize=1m\nioengine=mmap\n",
		  "j.fio:4: fio key 'ioengine=mmap' cannot be honoured: brisk's loads do" },
		{ "[j]\nrw=randtrim\nsize=1m\n", "j.fio:2: fio key 'rw=randtrim' cannot be honoured" },
		{ "[j]\nrw=write\nfilename=/dev/sda\nsize=1m\n",
		  "j.fio:3: fio key 'filename=/dev/sda' cannot be honoured: it names a device node "
		  "and brisk never writes devices" },
		{ "[j]\nrw=write\nfilename=/dev/null\nsize=1m\n",
		  "j.fio:3: fio key 'filename=/dev/null' cannot be honoured: it names a device" },
		{ "[j]\nrw=write\nfilename=a:b\nsize=1m\n",
		  "j.fio:3: fio key 'filename=a:b' cannot be honoured: several files" },
		{ "[j]\nrw=randread\nsize=1m\nstartdelay=1-2\n",
		  "j.fio:4: fio key 'startdelay=1-2' cannot be honoured for job [j], a small random "
		  "reader brisk times as an ssh-like action: it starts at one time" },
		{ "[j]\nrw=write\nsize=1m\nstartdelay=5x\n",
		  "j.fio:4: fio key 'startdelay=5x' cannot be honoured: expected a time" },
		{ "[j]\nrw=write\nsize=1m\nzonemode=zbd\n",
		  "j.fio:4: fio key 'zonemode' cannot be honoured: brisk works on files" },
		{ "[j]\nrw=write\nsize=1m\nverify=crc32c\n",
		  "j.fio:4: fio key 'verify' cannot be honoured: brisk does not check data; "
		  "fio's verify reads back what it wrote: more I/O" },
		{ "[j]\nrw=write\nsize=1m\nrate_poisson=1\n",
		  "j.fio:4: fio key 'rate_poisson=1' applies to a rate-limited job" },
		{ "[j]\nrw=write\nsize=1m\nno_such_key=1\n",
		  "j.fio:4: fio key 'no_such_key' cannot be honoured: brisk does not know it" },
		{ "[j]\nrw=write\n", "j.fio:1: fio job [j] has no size" },
		{ "[j]\nrw=randread\nsize=2m\ndirect=1\n",
		  "j.fio:4: fio key 'direct=1' cannot be honoured for job [j]" },
		{ "[j]\nrw=read\nsize=1g\nioengine=libaio\niodepth=5000\n",
		  "j.fio:5: bad value '5000' for fio key iodepth" },
		{ "[j]\nrw=write\nbssplit=4k/50:8k/20\nsize=1m\n",
		  "j.fio:3: fio key 'bssplit=4k/50:8k/20' cannot be honoured" },
		{ "[j]\nrw=write\nsize=$SIZE\n", "j.fio:3: environment variables ($VAR) are "
		  "not read without --env" },
		{ "[j]\nrw=write\nsize=50%\n", "j.fio:3: fio key 'size=50%' cannot be honoured: "
		  "a percentage" },
		{ "[global]\nrw=read\n", "j.fio:2: no job sections" },
		{ "rw=read\n", "j.fio:1: option outside any section" },
		{ "[j]\nrw=write\nsize=1m\nruntime=10\n", "j.fio:4: fio key 'runtime' in job [j]" },
		{ "[j]\nrw=write\nsize\n", "j.fio:3: fio key 'size' needs a value" },
		{ "[j]\nrw=read\nsize=1m\nfsync=1\n", "j.fio:4: fio key 'fsync=1' cannot be honoured for a reader" },
		{ "[j]\nrw=write\nsize=1m\nstonewall=2\n", "j.fio:4: bad value '2' for fio key stonewall" },
		{ "[j]\nrw=write\nsize=1m # ok\nnumjobs=4x ; bad\n",
		  "j.fio:4: bad value '4x' for fio key numjobs" },
		{ "[j]\nrw=write\nsize=1m\ninclude no-such.inc\n", "j.fio:4: include no-such.inc: "
		  "cannot open no-such.inc" },
		{ "[j]\nrw=write\nsize=1m\n[k]\nrw=write\nsize=1m\nstonewall\n[l]\nrw=read\nsize=1m\n",
		  NULL },   /* fine: 2 groups; group 3 asked for below */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		if (!cases[i].want)
			continue;
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


/* fio's syntax: inline comments, READ,WRITE values, size=N%, bssplit,
 * libaio/io_uring with iodepth, notes for harmless keys. */
static void test_fio_syntax(void **state)
{
	(void)state;
	struct profile *p = P();
	struct fiojob_report *rep = malloc(sizeof(*rep));
	char err[PROFILE_ERR_LEN];
	const char *job =
		"[global]\n"
		"numjobs=4\t; four processes\n"
		"direct=1 # O_DIRECT\n"
		"norandommap\n"
		"filename=data.file\n"
		"thread\n"
		"[w]\n"
		"rw=write\n"
		"bssplit=1m/100,4k/20:64k/80\n"
		"rate=1m,20m\n"
		"filesize=400m\n"
		"size=25%\n"
		"[r]\n"
		"rw=randread\n"
		"ioengine=libaio\n"
		"iodepth=16\n"
		"bs=64k,4k\n"
		"size=1m\n"
		"[s]\n"
		"rw=read\n"
		"ioengine=psync\n"
		"iodepth=8\n"
		"size=8m\n";
	struct fiojob_opts o = { .scale = 1 };
	if (fiojob_import_buffer(job, strlen(job), "s.fio", &o, p, rep, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	assert_int_equal(p->n_loads, 3);
	assert_int_equal(p->n_actions, 0);
	const struct load_spec *w = &p->loads[0].spec, *r = &p->loads[1].spec;
	const struct load_spec *sy = &p->loads[2].spec;
	assert_int_equal(w->count, 4);
	assert_int_equal(w->direct, 1);
	assert_int_equal(w->rate, 20 * MiB);          /* the write part */
	assert_int_equal(w->n_bssplit, 2);             /* the write part */
	assert_int_equal(w->bssplit[0].bs, 4096);
	assert_int_equal(w->bssplit[0].pct, 20);
	assert_int_equal(w->bssplit[1].bs, 65536);
	assert_int_equal(w->bssplit[1].pct, 80);
	assert_int_equal(w->size, 400 * MiB);
	assert_int_equal(w->total, 100 * MiB);         /* 25 % of filesize */
	assert_int_equal(r->kind, LOAD_RAND_READ);     /* small, but asynchronous: a load */
	assert_int_equal(r->engine, LOAD_ENGINE_IO_URING);
	assert_int_equal(r->iodepth, 16);
	assert_int_equal(r->bs_hi, 65536);             /* the read part */
	assert_int_equal(sy->engine, LOAD_ENGINE_SYNC);
	assert_true(sy->iodepth <= 1);                 /* sync: one in flight, as in fio */
	/* notes: norandommap, filename, the libaio engine, iodepth on psync */
	const char *want[] = { "s.fio:4: note: fio key 'norandommap' accepted",
			       "s.fio:5: note: fio key 'filename=data.file' accepted",
			       "s.fio:15: note: fio key 'ioengine=libaio' honoured",
			       "s.fio:22: note: fio key 'iodepth=8' honoured" };
	assert_int_equal(rep->n_notes, 4);
	for (size_t i = 0; i < 4; i++)
		if (strncmp(rep->notes[i], want[i], strlen(want[i])) != 0)
			fail_msg("note %zu: '%s', want '%s...'", i, rep->notes[i], want[i]);
	assert_int_equal(rep->jobs, 3);
	assert_int_equal(rep->groups, 1);
	roundtrip(p);
	/* --strict: the first harmless key is refused */
	o.strict = 1;
	assert_int_equal(fiojob_import_buffer(job, strlen(job), "s.fio", &o, p, rep, err,
					      sizeof(err)), -EINVAL);
	assert_string_equal(err, "s.fio:4: fio key 'norandommap' cannot be honoured with --strict: "
			    "brisk's random offsets may repeat, as with norandommap");
	free(rep);
}

/* stonewall: groups; the profile holds the one asked for. */
static void test_fio_groups(void **state)
{
	(void)state;
	struct profile *p = P();
	struct fiojob_report rep;
	char err[PROFILE_ERR_LEN];
	const char *job = "[global]\nsize=8m\n[a]\nrw=write\n[b]\nrw=read\n[c]\nstonewall\n"
			  "rw=randwrite\n[d]\nwait_for_previous\nrw=read\n";
	struct fiojob_opts o = { .scale = 1 };
	assert_int_equal(fiojob_import_buffer(job, strlen(job), "g.fio", &o, p, &rep, err,
					      sizeof(err)), 0);
	assert_int_equal(rep.groups, 3);
	assert_int_equal(p->n_loads, 2);
	assert_string_equal(p->loads[0].name, "a");
	assert_string_equal(p->loads[1].name, "b");
	assert_non_null(strstr(p->description, "stonewall group 1 of 3"));
	o.group = 2;
	assert_int_equal(fiojob_import_buffer(job, strlen(job), "g.fio", &o, p, &rep, err,
					      sizeof(err)), 0);
	assert_int_equal(p->n_loads, 1);
	assert_string_equal(p->loads[0].name, "c");
	assert_int_equal(p->loads[0].spec.kind, LOAD_RAND_WRITE);
	o.group = 4;
	assert_int_equal(fiojob_import_buffer(job, strlen(job), "g.fio", &o, p, &rep, err,
					      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "3 stonewall groups, expected --group 1 to 3"));
	/* an error in another group is still an error */
	const char *bad = "[a]\nrw=write\nsize=1m\n[b]\nstonewall\nrw=trim\nsize=1m\n";
	o.group = 1;
	assert_int_equal(fiojob_import_buffer(bad, strlen(bad), "g.fio", &o, p, &rep, err,
					      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "g.fio:6: fio key 'rw=trim'"));
}

/* include: relative to the job file, FILE:LINE of the included file,
 * loops refused; $VAR with env only. */
static void test_fio_include_env(void **state)
{
	(void)state;
	struct profile *p = P();
	char err[PROFILE_ERR_LEN];
	assert_int_equal(fiojob_parse_file("tests/fixtures/fio/include-main.fio", 1, p, err,
					   sizeof(err)), 0);
	assert_int_equal(p->runtime_ns, S(15));        /* from include-common.inc */
	assert_int_equal(p->n_loads, 1);
	assert_int_equal(p->n_actions, 1);
	assert_int_equal(fiojob_parse_file("tests/fixtures/fio/include-loop-a.fio", 1, p, err,
					   sizeof(err)), -EINVAL);
	assert_string_equal(err, "tests/fixtures/fio/include-loop-b.inc:2: include "
			    "include-loop-a.fio: tests/fixtures/fio/include-loop-a.fio is already "
			    "being read (an include loop)");
	/* an included file is checked as text, FILE:LINE its own */
	struct testdir td;
	assert_int_equal(testdir_make(&td, "fiojob"), 0);
	const char *dir = td.path;
	char main_path[128], inc_path[128];
	snprintf(main_path, sizeof(main_path), "%s/m.fio", dir);
	snprintf(inc_path, sizeof(inc_path), "%s/bad.inc", dir);
	FILE *f = fopen(main_path, "w");
	fputs("[j]\nrw=write\ninclude bad.inc\n", f);
	fclose(f);
	f = fopen(inc_path, "w");
	fputs("size=1m\nbs=4k\x1b[2J\n", f);
	fclose(f);
	assert_int_equal(fiojob_parse_file(main_path, 1, p, err, sizeof(err)), -EINVAL);
	char want[256];
	snprintf(want, sizeof(want), "%s:2: control character \\x1b", inc_path);
	if (strncmp(err, want, strlen(want)) != 0)
		fail_msg("got '%s', want '%s...'", err, want);
	/* nesting deeper than 8 */
	for (int i = 0; i <= 9; i++) {
		char path[160];
		snprintf(path, sizeof(path), "%s/n%d.inc", dir, i);
		f = fopen(path, "w");
		if (i < 9)
			fprintf(f, "include n%d.inc\n", i + 1);
		else
			fputs("size=1m\n", f);
		fclose(f);
	}
	f = fopen(main_path, "w");
	fputs("[j]\nrw=write\ninclude n0.inc\n", f);
	fclose(f);
	assert_int_equal(fiojob_parse_file(main_path, 1, p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "n7.inc:1: include nested more than 8 deep"));
	assert_int_equal(testdir_remove(&td, TESTDIR_TREE), 0);

	/* $VAR: refused without env, read with it */
	const char *job = "[global]\ndirectory=${BRISK_T_DIR}\n[j]\nrw=write\nsize=$BRISK_T_SIZE\n";
	struct fiojob_opts o = { .scale = 1 };
	assert_int_equal(fiojob_import_buffer(job, strlen(job), "e.fio", &o, p, NULL, err,
					      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "e.fio:2: environment variables ($VAR) are not read without"));
	o.env = 1;
	unsetenv("BRISK_T_DIR");
	assert_int_equal(fiojob_import_buffer(job, strlen(job), "e.fio", &o, p, NULL, err,
					      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "e.fio:2: $BRISK_T_DIR is not set in the environment"));
	setenv("BRISK_T_DIR", "/srv/t", 1);
	setenv("BRISK_T_SIZE", "3m", 1);
	assert_int_equal(fiojob_import_buffer(job, strlen(job), "e.fio", &o, p, NULL, err,
					      sizeof(err)), 0);
	assert_string_equal(p->directory, "/srv/t");
	assert_int_equal(p->loads[0].spec.size, 3 * MiB);
	setenv("BRISK_T_SIZE", "3m\n[evil]", 1);
	assert_int_equal(fiojob_import_buffer(job, strlen(job), "e.fio", &o, p, NULL, err,
					      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "e.fio:5: $BRISK_T_SIZE holds a control character"));
	unsetenv("BRISK_T_DIR");
	unsetenv("BRISK_T_SIZE");
}

/* The key table: every key once, in one group, with a text. */
static void test_fio_key_table(void **state)
{
	(void)state;
	size_t n = fiojob_key_count(), groups[3] = { 0 };
	assert_true(n > 50);
	for (size_t i = 0; i < n; i++) {
		const char *name, *text;
		enum fiojob_group g;
		fiojob_key_at(i, &name, &g, &text);
		assert_true(g <= FIOJOB_REFUSED);
		assert_true(*text);
		groups[g]++;
		for (size_t j = 0; j < i; j++) {
			const char *other, *t2;
			enum fiojob_group g2;
			fiojob_key_at(j, &other, &g2, &t2);
			if (strcmp(name, other) == 0)
				fail_msg("fio key %s twice in the table", name);
		}
	}
	assert_true(groups[0] && groups[1] && groups[2]);
	assert_string_equal(fiojob_group_name(FIOJOB_HARMLESS), "harmless");
}

/* bssplit: the forms fio takes, and the spec string round trip. */
static void test_bssplit(void **state)
{
	(void)state;
	struct load_spec s, t;
	char err[256], text[512];
	memset(&s, 0, sizeof(s));
	assert_int_equal(load_bssplit_parse("4k/10:64k/50:32k/40", &s), 0);
	assert_int_equal(s.n_bssplit, 3);
	assert_int_equal(s.bs_lo, 4096);
	assert_int_equal(s.bs_hi, 65536);
	assert_int_equal(load_bssplit_parse("4k/30:1m", &s), 0);    /* the rest: 70 */
	assert_int_equal(s.bssplit[1].pct, 70);
	assert_int_equal(load_bssplit_parse("4k/30:8k/0:1m/70", &s), 0);   /* 0 %: dropped */
	assert_int_equal(s.n_bssplit, 2);
	assert_int_equal(load_bssplit_parse("4k/30:1m/60", &s), -EINVAL);  /* 90 */
	assert_int_equal(load_bssplit_parse("4k/60:1m/60", &s), -EINVAL);  /* 120 */
	assert_int_equal(load_bssplit_parse("4k/x", &s), -EINVAL);
	assert_int_equal(load_bssplit_parse("", &s), -EINVAL);
	assert_int_equal(load_spec_parse("rand-write:bssplit=4k/20:64k/80,engine=io_uring,"
					 "iodepth=32,size=64m,direct", &s, err, sizeof(err)), 0);
	load_spec_format(&s, text, sizeof(text));
	assert_string_equal(text, "rand-write:count=1,bssplit=4k/20:64k/80,engine=io_uring,"
			    "iodepth=32,size=64m,direct");
	assert_int_equal(load_spec_parse(text, &t, err, sizeof(err)), 0);
	assert_int_equal(t.n_bssplit, 2);
	assert_int_equal(t.iodepth, 32);
	assert_int_equal(load_spec_parse("seq-read:iodepth=4", &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "iodepth above 1 needs engine=io_uring"));
	assert_int_equal(load_spec_parse("seq-read:engine=io_uring,bssplit=6k/100,direct", &s, err,
					 sizeof(err)), -EINVAL);
}

/* Import a job from text; 0 or -EINVAL with the message in err. */
static int imp(const char *text, struct profile *p, struct fiojob_report *rep, char *err,
	       size_t errlen)
{
	struct fiojob_opts o = { .scale = 1 };
	err[0] = '\0';
	return fiojob_import_buffer(text, strlen(text), "t.fio", &o, p, rep, err, errlen);
}

static int has_note(const struct fiojob_report *rep, const char *what)
{
	for (size_t i = 0; i < rep->n_notes; i++)
		if (strstr(rep->notes[i], what))
			return 1;
	return 0;
}

/* The loads fio users bring (issue 29): mixed jobs, distributions,
 * rate_iops, offset modifiers; harmless end keys with a note. */
static void test_fio_mixed_dist(void **state)
{
	(void)state;
	struct profile *p = P();
	struct fiojob_report rep;
	char err[PROFILE_ERR_LEN];
	assert_int_equal(imp("[global]\nrw=randrw\nrwmixwrite=40\nbs=4k\nnumjobs=4\n"
			     "io_submit_mode=offload\nexitall\nratemin=1m\n[db]\nsize=64m\n"
			     "ioengine=libaio\niodepth=16\nrandom_distribution=zipf:1.2\n",
			     p, &rep, err, sizeof(err)), 0);
	assert_int_equal(p->n_loads, 1);
	const struct load_spec *s = &p->loads[0].spec;
	assert_int_equal(s->kind, LOAD_RAND_MIXED);
	assert_int_equal(s->mix_read, 60);
	assert_int_equal(s->dist, LOAD_DIST_ZIPF);
	assert_int_equal(s->count, 4);
	assert_int_equal(s->iodepth, 16);
	assert_true(has_note(&rep, "t.fio:6: note: fio key 'io_submit_mode=offload' accepted"));
	assert_true(has_note(&rep, "'exitall' accepted"));
	assert_true(has_note(&rep, "ratemin=1m' accepted, changes nothing: an end condition; "
			     "brisk reports the rate reached"));
	roundtrip(p);
	assert_int_equal(imp("[seq]\nrw=readwrite\nrwmixread=70\nbs=256k\nsize=64m\n", p, &rep,
			     err, sizeof(err)), 0);
	assert_int_equal(p->loads[0].spec.kind, LOAD_MIXED);
	assert_int_equal(p->loads[0].spec.mix_read, 70);
	assert_int_equal(imp("[back]\nrw=read:-8k\nbs=4k\nsize=16m\n", p, &rep, err,
			     sizeof(err)), 0);
	assert_int_equal(p->loads[0].spec.kind, LOAD_SEQ_READ);
	assert_int_equal(p->loads[0].spec.skip, -8192);
	roundtrip(p);
	assert_int_equal(imp("[r]\nrw=read\nbs=4k\nsize=16m\ndirect=1\nrate_iops=1000\n", p, &rep,
			     err, sizeof(err)), 0);
	assert_int_equal(p->loads[0].spec.rate, 1000 * 4096);
	assert_int_equal(imp("[p]\nrw=randread\nbs=4k\nsize=64m\nrate_iops=50\nrate_poisson=1\n"
			     "numjobs=2\n", p, &rep, err, sizeof(err)), 0);
	assert_int_equal(p->loads[0].spec.poisson, 1);
	roundtrip(p);
	assert_int_equal(imp("[global]\nbs=4k\nsize=16m\nflow_sleep=500\n[a]\nrw=read\nflow=2\n"
			     "[b]\nrw=read:-8k\nflow=-2\nflow_id=1\n", p, &rep, err, sizeof(err)), 0);
	assert_int_equal(p->loads[0].spec.flow_weight, 2);
	assert_int_equal(p->loads[1].spec.flow_weight, 2);
	assert_int_equal(p->loads[1].spec.flow_id, 1);
	assert_int_equal(p->loads[1].spec.flow_sleep_us, 500);
	assert_true(has_note(&rep, "t.fio:10: note: fio key 'flow=-2' honoured: as the weight of "
			     "its magnitude"));
	roundtrip(p);
	assert_int_equal(imp("[z]\nrw=randread\nbs=4k\nsize=64m\nnumjobs=2\n"
			     "random_distribution=zoned:50/5:30/15:20/\n", p, &rep, err,
			     sizeof(err)), 0);
	assert_int_equal(p->loads[0].spec.n_zones, 3);
	roundtrip(p);
	/* [global] directory is the run's; a job's own is its load's dir= */
	assert_int_equal(imp("[global]\ndirectory=/tmp\nsize=16m\n[w]\nrw=write\n"
			     "directory=/mnt/b\n[r]\nrw=read\n", p, &rep, err, sizeof(err)), 0);
	assert_string_equal(p->directory, "/tmp");
	assert_string_equal(p->loads[0].spec.dir, "/mnt/b");
	assert_string_equal(p->loads[1].spec.dir, "");
	roundtrip(p);
}

/* thinktime and startdelay become the load's own (issue 29 part 5). */
static void test_fio_think(void **state)
{
	(void)state;
	struct profile *p = P();
	struct fiojob_report rep;
	char err[PROFILE_ERR_LEN];
	if (imp("[global]\nbs=4k\nsize=16m\nrw=read\n[a]\nthinktime=1000\nthinktime_spin=2ms\n"
		"thinktime_blocks=4\nthinktime_blocks_type=issue\n[b]\nstartdelay=2-4\n"
		"thinktime_blocks=8\n[c]\nstartdelay=2\nthinktime=10ms\n", p, &rep, err,
		sizeof(err)) < 0)
		fail_msg("%s", err);
	const struct load_spec *a = &p->loads[0].spec, *b = &p->loads[1].spec, *c = &p->loads[2].spec;
	assert_int_equal(a->think_ns, 1000000);        /* bare: microseconds */
	assert_int_equal(a->think_spin_ns, 1000000);   /* cut to thinktime, as fio does */
	assert_int_equal(a->think_blocks, 4);
	assert_int_equal(a->think_issue, 1);
	assert_int_equal(b->think_ns, 0);              /* thinktime_blocks alone: nothing */
	assert_int_equal(b->think_blocks, 0);
	assert_int_equal(b->delay_lo_ns, 2000000000ull);   /* bare: seconds */
	assert_int_equal(b->delay_hi_ns, 4000000000ull);
	assert_int_equal(c->delay_lo_ns, 2000000000ull);
	assert_int_equal(c->delay_hi_ns, 2000000000ull);
	assert_int_equal(c->think_ns, 10000000);
	roundtrip(p);
	/* scaled, the delays shrink with the sizes; the pauses stay */
	struct fiojob_opts o = { .scale = 0.25 };
	const char *job = "[w]\nrw=write\nsize=64m\nstartdelay=2-4\nthinktime=10ms\n";
	assert_int_equal(fiojob_import_buffer(job, strlen(job), "t.fio", &o, p, &rep, err,
					      sizeof(err)), 0);
	assert_int_equal(p->loads[0].spec.delay_lo_ns, 500000000ull);
	assert_int_equal(p->loads[0].spec.delay_hi_ns, 1000000000ull);
	assert_int_equal(p->loads[0].spec.think_ns, 10000000);
	/* a profile is strict */
	static const struct { const char *text, *want; } bad[] = {
		{ "[profile]\nname = x\n[load w]\nrw = write\nthinktime_blocks = 4\n",
		  "thinktime_spin, thinktime_blocks and thinktime_blocks_type need thinktime=" },
		{ "[profile]\nname = x\n[load w]\nrw = write\nthinktime = 1ms\nthinktime_spin = 2ms\n",
		  "thinktime_spin is the busy part of thinktime" },
		{ "[profile]\nname = x\n[load w]\nrw = write\nstartdelay = 3-1\n",
		  "rt:5: bad value '3-1' for startdelay" },
		{ "[profile]\nname = x\n[load w]\nrw = write\nthinktime = soon\n",
		  "rt:5: bad value 'soon' for thinktime" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(profile_parse_buffer(bad[i].text, strlen(bad[i].text), "rt", p, err,
						      sizeof(err)), -EINVAL);
		if (!strstr(err, bad[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].want);
	}
}

/* Refusals that stay name FILE:LINE and why. */
static void test_fio_refusals_29(void **state)
{
	(void)state;
	struct profile *p = P();
	char err[PROFILE_ERR_LEN];
	static const struct { const char *job, *want; } cases[] = {
		{ "[global]\nthreads=1\n[a]\nsize=1m\n",
		  "t.fio:2: fio key 'threads' cannot be honoured: fio does not know it either" },
		{ "[a]\nsize=1m\nflow_id=16\n", "t.fio:3: bad value '16' for fio key flow_id" },
		{ "[a]\nsize=1m\nrw=randread:8\n", "t.fio:3: fio key 'rw=randread:8' cannot be "
		  "honoured: ':8' asks for 8 calls in a row" },
		{ "[a]\nsize=1m\nrw=write\nrwmixread=50\n", "t.fio:4: fio key 'rwmixread' applies "
		  "to mixed jobs" },
		{ "[a]\nsize=1m\nrw=read\nrandom_distribution=zipf:1.2\n", "applies to random jobs" },
		{ "[a]\nsize=1m\nrw=randread\nrandom_distribution=zipf:1\n", "t.fio:4: fio key "
		  "'random_distribution=zipf:1' cannot be honoured" },
		{ "[a]\nsize=1m\nrw=randrw\nrwmixread=60\nrwmixwrite=60\n", "do not add up to 100" },
		{ "[a]\nsize=1m\nbsrange=4k-8k\nrate_iops=10\n", "t.fio:4: fio key 'rate_iops=10' "
		  "cannot be honoured: brisk limits bytes per second" },
		{ "[a]\nsize=1m\nrw=trim\n", "t.fio:3: fio key 'rw=trim' cannot be honoured" },
		{ "[a]\nsize=1m\nrw=write\ndirectory=/mnt/a:/mnt/b\n", "t.fio:4: fio key "
		  "'directory=/mnt/a:/mnt/b' cannot be honoured: several directories" },
		{ "[a]\nsize=1m\nrw=write\ndirectory=rel\n", "t.fio:4: fio key 'directory=rel' "
		  "cannot be honoured: it must be an absolute path" },
		{ "[a]\nsize=1m\nrw=write\ndirectory=/x,y\n", "cannot be written in a load spec" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(imp(cases[i].job, p, NULL, err, sizeof(err)), -EINVAL);
		if (!strstr(err, cases[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio_lkml),
		cmocka_unit_test(test_fio_lkml_scaled),
		cmocka_unit_test(test_fio_errors),
		cmocka_unit_test(test_fio_mapping),
		cmocka_unit_test(test_fio_syntax),
		cmocka_unit_test(test_fio_groups),
		cmocka_unit_test(test_fio_include_env),
		cmocka_unit_test(test_fio_key_table),
		cmocka_unit_test(test_bssplit),
		cmocka_unit_test(test_fio_mixed_dist),
		cmocka_unit_test(test_fio_refusals_29),
		cmocka_unit_test(test_fio_think),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
