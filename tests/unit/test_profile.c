/* Unit tests for profiles (profile*.c); fio job conversion is test_fiojob.c.
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

#include "cliopt.h"
#include "fiojob.h"
#include "profile.h"
#include "session.h"
#include "roundtrip.h"
#include "testdir.h"


static int parse(const char *text, struct profile *p, char *err, size_t n)
{
	return profile_parse_buffer(text, strlen(text), "t.profile", p, err, n);
}

static void test_parse_desktop(void **state)
{
	(void)state;
	struct profile *p = P();
	char err[PROFILE_ERR_LEN];
	int rc = profile_parse_file("tests/fixtures/profiles/good/desktop.profile", NULL, p, err,
				    sizeof(err));
	if (rc)
		fail_msg("%s", err);
	assert_string_equal(p->name, "desktop");
	assert_int_equal(p->runtime_ns, S(60));
	assert_int_equal(p->ramp_time_ns, S(5));
	assert_string_equal(p->directory, "/home");
	assert_int_equal(p->n_loads, 3);
	assert_int_equal(p->loads[0].spec.kind, LOAD_SEQ_WRITE);
	assert_int_equal(p->loads[0].spec.bs_hi, MiB);
	assert_int_equal(p->loads[0].spec.ioprio_class, 2);
	assert_int_equal(p->loads[0].spec.ioprio_level, 7);
	assert_int_equal(p->loads[1].spec.kind, LOAD_RAND_READ);
	assert_int_equal(p->loads[1].spec.bs_lo, 4096);
	assert_int_equal(p->loads[1].spec.bs_hi, 65536);
	assert_int_equal(p->loads[1].spec.count, 2);
	assert_int_equal(p->loads[1].spec.rate, 20 * MiB);
	/* rw=write + fsync=1 is the engine's fsync-heavy writer */
	assert_int_equal(p->loads[2].spec.kind, LOAD_FSYNC_WRITE);
	assert_int_equal(p->loads[2].spec.fsync_every, 4096);
	assert_int_equal(p->loads[2].spec.total, 1024 * MiB);
	assert_int_equal(p->n_actions, 4);
	assert_int_equal(p->actions[0].kind, ACTION_EXEC);
	assert_string_equal(p->actions[0].cmd, "/bin/true --version");
	assert_int_equal(p->actions[0].interval_ns, S(2));
	assert_int_equal(p->actions[0].loops, 10);
	struct action_config cfg;
	profile_action_config(&p->actions[0], &cfg);
	assert_string_equal(cfg.exec_cmd, "/bin/true --version");
	assert_int_equal(p->actions[1].cfg.ls_files, 500);
	assert_int_equal(p->actions[1].startdelay_ns, 500000000ull);
	assert_int_equal(p->actions[2].cfg.ssh_region, 2 * MiB);
	assert_int_equal(p->actions[2].cfg.ssh_file, 30 * MiB);
	assert_int_equal(p->actions[3].cfg.save_size, 8192);
	/* normalised values */
	const struct profile_setting *s[64];
	size_t n = profile_effective(p, PROFILE_CLASS_ALL, s, 64);
	assert_int_equal(n, 5);
	assert_string_equal(s[0]->key, "scheduler");
	assert_string_equal(s[3]->key, "vm.dirty_bytes");
	assert_string_equal(s[3]->value, "67108864");
}

/* [settings CLASS] overrides [settings]; a global iosched tunable is left
 * out where the class runs another scheduler; application order. */
static void test_effective(void **state)
{
	(void)state;
	struct profile *p = P();
	char err[PROFILE_ERR_LEN];
	assert_int_equal(profile_parse_file("tests/fixtures/profiles/good/desktop.profile", NULL,
					    p, err, sizeof(err)), 0);
	const struct profile_setting *s[64];
	size_t n = profile_effective(p, PROFILE_CLASS_ROTATIONAL, s, 64);
	const char *want_rot[] = { "scheduler=bfq", "low_latency=1", "slice_idle=8",
				   "read_ahead_kb=512", "queue_depth=1", "vm.dirty_bytes=67108864",
				   "vm.dirty_background_bytes=16777216" };
	assert_int_equal(n, 7);
	for (size_t i = 0; i < n; i++) {
		char kv[128];
		snprintf(kv, sizeof(kv), "%s=%s", s[i]->key, s[i]->value);
		assert_string_equal(kv, want_rot[i]);
	}
	n = profile_effective(p, PROFILE_CLASS_NVME, s, 64);
	assert_int_equal(n, 5);   /* scheduler none (no low_latency), nr_requests, read_ahead, 2 vm */
	assert_string_equal(s[0]->value, "none");
	assert_string_equal(s[1]->key, "nr_requests");
	n = profile_effective(p, PROFILE_CLASS_SSD, s, 64);
	assert_string_equal(s[0]->value, "mq-deadline");
	assert_string_equal(s[1]->key, "fifo_batch");
	for (size_t i = 0; i < n; i++)
		assert_string_not_equal(s[i]->key, "low_latency");
	assert_true(profile_class_has_own(p, PROFILE_CLASS_MMC));
}

static void test_prefixed_classes(void **state)
{
	(void)state;
	struct profile *p = P();
	char err[PROFILE_ERR_LEN];
	assert_int_equal(profile_parse_file("tests/fixtures/profiles/good/prefixed.profile", NULL,
					    p, err, sizeof(err)), 0);
	assert_int_equal(p->n_settings, 6);
	assert_int_equal(p->settings[0].cls, PROFILE_CLASS_ROTATIONAL);
	assert_string_equal(p->settings[0].key, "scheduler");
	assert_int_equal(p->settings[0].line, 3);
	assert_int_equal(p->settings[2].cls, PROFILE_CLASS_NVME);
	assert_string_equal(p->settings[2].value, "kyber");
	/* the file name gives the name when [profile] has none */
	assert_string_equal(p->name, "prefixed");
}

static void test_roundtrip_files(void **state)
{
	(void)state;
	const char *files[] = { "desktop", "server", "prefixed", "spacing", "crlf", "bom",
				"max-line" };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[256], err[PROFILE_ERR_LEN];
		snprintf(path, sizeof(path), "tests/fixtures/profiles/good/%s.profile", files[i]);
		if (profile_parse_file(path, NULL, P(), err, sizeof(err)) < 0)
			fail_msg("%s", err);
		roundtrip(P());
	}
}

/* profile_equal() must see a difference in every part. */
static void test_equal_detects(void **state)
{
	(void)state;
	struct profile *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	char err[PROFILE_ERR_LEN];
	assert_int_equal(profile_parse_file("tests/fixtures/profiles/good/desktop.profile", NULL,
					    a, err, sizeof(err)), 0);
	*b = *a;
	assert_true(profile_equal(a, b, NULL, 0));
	b->loads[1].spec.rate++;
	assert_false(profile_equal(a, b, NULL, 0));
	*b = *a;
	b->actions[2].cfg.ssh_file += 4096;
	assert_false(profile_equal(a, b, NULL, 0));
	*b = *a;
	assert_int_equal(profile_set(b, PROFILE_CLASS_NVME, "nr_requests", "64", err, sizeof(err)), 0);
	assert_false(profile_equal(a, b, NULL, 0));
	*b = *a;
	b->actions[1].startdelay_ns = 0;
	assert_false(profile_equal(a, b, NULL, 0));
	free(a);
	free(b);
}

static void test_default_workload_is_quick(void **state)
{
	(void)state;
	struct profile *q = malloc(sizeof(*q)), *d = malloc(sizeof(*d));
	char err[PROFILE_ERR_LEN], why[256];
	if (profile_parse_file("profiles/quick.profile", NULL, q, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	profile_init(d, "quick");
	snprintf(d->description, sizeof(d->description), "%s", q->description);
	profile_default_workload(d);
	if (!profile_equal(q, d, why, sizeof(why)))
		fail_msg("profiles/quick.profile differs from profile_default_workload(): %s", why);
	free(q);
	free(d);
}

static void test_set_and_check(void **state)
{
	(void)state;
	struct profile *p = P();
	char err[256], norm[64];
	profile_init(p, "x");
	assert_int_equal(profile_set(p, PROFILE_CLASS_ALL, "scheduler", "bfq", err, sizeof(err)), 0);
	assert_int_equal(profile_set(p, PROFILE_CLASS_ALL, "scheduler", "kyber", err, sizeof(err)), 0);
	assert_int_equal(p->n_settings, 1);
	assert_string_equal(p->settings[0].value, "kyber");
	assert_int_equal(profile_set(p, PROFILE_CLASS_SSD, "vm.dirty_ratio", "5", err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "system-wide"));
	assert_int_equal(profile_set(p, PROFILE_CLASS_ALL, "bogus", "5", err, sizeof(err)), -EINVAL);
	assert_int_equal(profile_setting_check("vm.dirty_background_bytes", "1m", norm, sizeof(norm),
					       err, sizeof(err)), 0);
	assert_string_equal(norm, "1048576");
	assert_int_equal(profile_setting_check("wbt_lat_usec", "-1", norm, sizeof(norm), err,
					       sizeof(err)), 0);
	assert_int_equal(profile_setting_check("wbt_lat_usec", "-2", norm, sizeof(norm), err,
					       sizeof(err)), -EINVAL);
	enum profile_scope sc;
	const char *owner;
	assert_int_equal(profile_setting_info("fifo_batch", &sc, &owner), 0);
	assert_int_equal(sc, PROFILE_SCOPE_IOSCHED);
	assert_string_equal(owner, "mq-deadline");
	assert_int_equal(profile_setting_info("queue_depth", &sc, NULL), 0);
	assert_int_equal(sc, PROFILE_SCOPE_DEVICE);
}

/* Values that inih would not give back unchanged are refused on write. */
static void test_write_refuses(void **state)
{
	(void)state;
	struct profile *p = P();
	char err[256];
	FILE *f = fopen("/dev/null", "w");
	profile_init(p, "x");
	snprintf(p->description, sizeof(p->description), "fast ; slow");
	assert_int_equal(profile_write(f, p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "inline comment"));
	profile_init(p, "x");
	profile_default_workload(p);
	p->actions[0].startdelay_ns = 1500;   /* sub-millisecond */
	assert_int_equal(profile_write(f, p, err, sizeof(err)), -EINVAL);
	fclose(f);
}

/* Untrusted bytes (text.h): refused anywhere in a profile or fio job with
 * FILE:LINE and the byte named escaped; the writer refuses them too. */
static void test_untrusted_bytes(void **state)
{
	(void)state;
	static const struct { const char *bytes, *shown; } bad[] = {
		{ "\r", "control character \\x0d" }, { "\x1b", "control character \\x1b" },
		{ "\x7f", "control character \\x7f" }, { "\xc2\x85", "control character \\xc2\\x85" },
		{ "\xff", "invalid UTF-8 \\xff" }, { "\x01", "control character \\x01" },
		{ "\xc0\xaf", "invalid UTF-8 \\xc0" }, { "\xed\xa0\x80", "invalid UTF-8 \\xed" },
		{ "\xe2\x82", "invalid UTF-8 \\xe2" },
	};
	static const struct { const char *pre, *post; int line; } where[] = {
		{ "[profile]\nname = p\ndescription = a", "b\n", 3 },
		{ "[profile]\nname = p", "q\n", 2 },
		{ "[settings]\nnr_requests = 6", "4\n", 2 },
		{ "[settings]\nscheduler = bfq\n[load w", "x]\nrw = write\n", 3 },
		{ "; a comment ", " here\n[settings]\nnr_requests = 64\n", 1 },
	};
	struct profile *p = P();
	char text[256], err[PROFILE_ERR_LEN], want[64];
	for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++)
		for (size_t w = 0; w < sizeof(where) / sizeof(where[0]); w++) {
			snprintf(text, sizeof(text), "%s%s%s", where[w].pre, bad[b].bytes, where[w].post);
			int rc = profile_parse_buffer(text, strlen(text), "t.profile", p, err, sizeof(err));
			if (rc != -EINVAL)
				fail_msg("bad %zu where %zu accepted", b, w);
			snprintf(want, sizeof(want), "t.profile:%d: %s at byte ", where[w].line,
				 bad[b].shown);
			if (strncmp(err, want, strlen(want)) != 0)
				fail_msg("got '%s', want '%s...'", err, want);
			for (const char *c = err; *c; c++)
				assert_true((unsigned char)*c >= 0x20 && (unsigned char)*c != 0x7F &&
					    (unsigned char)*c < 0x80);
		}
	/* TAB, UTF-8 text and a CRLF line end are fine */
	const char *ok = "[profile]\r\nname = p\r\ndescription = caf\xc3\xa9\tok \xf0\x9f\x92\xbe\r\n";
	assert_int_equal(profile_parse_buffer(ok, strlen(ok), "t", p, err, sizeof(err)), 0);
	assert_string_equal(p->description, "caf\xc3\xa9\tok \xf0\x9f\x92\xbe");
	/* fio job files: the same rule */
	snprintf(text, sizeof(text), "[global]\ndescription = a\x1b]0;T\x07\n[j]\nrw=read\n");
	assert_int_equal(fiojob_parse_buffer(text, strlen(text), "j.fio", 1, p, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "j.fio:2: control character \\x1b at byte 16"));
	snprintf(text, sizeof(text), "[j\xff]\nrw=read\n");
	assert_int_equal(fiojob_parse_buffer(text, strlen(text), "j.fio", 1, p, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "j.fio:1: invalid UTF-8 \\xff"));
	/* the writer refuses what the loader would */
	FILE *f = fopen("/dev/null", "w");
	profile_init(p, "x");
	snprintf(p->description, sizeof(p->description), "x\rf /INJECTED");
	assert_int_equal(profile_write(f, p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "'x\\x0df /INJECTED'"));
	profile_init(p, "x");
	snprintf(p->directory, sizeof(p->directory), "/tmp/\xff");
	assert_int_equal(profile_write(f, p, err, sizeof(err)), -EINVAL);
	fclose(f);
}

/* A file name that gives no profile name is refused. */
static void test_unnamed_file(void **state)
{
	(void)state;
	char path[128], err[PROFILE_ERR_LEN];
	struct testdir td;
	assert_int_equal(testdir_make(&td, "unnamed"), 0);
	const char *dir = td.path;
	static const char *const names[] = { ".profile", "-x.profile", "a b.profile", "ok.profile" };
	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		FILE *f = fopen(path, "w");
		fputs("[settings]\nnr_requests = 64\n", f);
		fclose(f);
		int rc = profile_parse_file(path, NULL, P(), err, sizeof(err));
		if (i < 3) {
			assert_int_equal(rc, -EINVAL);
			assert_non_null(strstr(err, "gives no profile name"));
		} else {
			assert_int_equal(rc, 0);
			assert_string_equal(P()->name, "ok");
		}
		unlink(path);
	}
	assert_int_equal(testdir_remove(&td, TESTDIR_EMPTY), 0);
}

static void test_errors_inline(void **state)
{
	(void)state;
	struct profile *p = P();
	char err[PROFILE_ERR_LEN];
	static const struct { const char *text, *want; } cases[] = {
		{ "[load w]\nrw = write\nrate = 0\n", "t.profile:3: bad value '0' for rate" },
		{ "[action a]\ntype = ls\nloops = -1\n", "t.profile:3: bad value '-1' for loops" },
		{ "[profile]\n[target]\ndevices = ,\n", "t.profile:3: devices is empty" },
		{ "[target]\ndevices = sda sda\n", "t.profile:2: device 'sda' is listed twice" },
		{ "[profile]\nname = a\r\nname = b\r\n", "t.profile:3: duplicate key 'name'" },
		{ "[action a]\ntype = dance\n", "t.profile:2: bad value 'dance' for type" },
		{ "[settings]\nscheduler = bfq\n[settings]\n", "t.profile:3: duplicate section [settings]" },
		{ "[load w]\nrw = write\n\n\n[bad\n", "t.profile:5: section header without ']'" },
		{ "[profile]\nconcurrency = 65\n", "t.profile:2: bad value '65' for concurrency" },
		{ "[profile]\nconcurrency = 0\n", "t.profile:2: bad value '0' for concurrency" },
		{ "[profile]\nfinite_load = yes\n", "t.profile:2: bad value 'yes' for finite_load" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		assert_int_equal(parse(cases[i].text, p, err, sizeof(err)), -EINVAL);
		if (strncmp(err, cases[i].want, strlen(cases[i].want)) != 0)
			fail_msg("case %zu: got '%s', want '%s...'", i, err, cases[i].want);
	}
}

static void test_resolve(void **state)
{
	(void)state;
	static char cmd[8192], file[4096], d1[1024], d2[1024];
	struct testdir td;
	assert_int_equal(testdir_make(&td, "resolve"), 0);
	const char *base = td.path;
	char xdg[256], data[256], path[4096], err[512];
	snprintf(xdg, sizeof(xdg), "%s/xdg", base);
	snprintf(data, sizeof(data), "%s/data", base);
	char cwd[256];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	char axdg[600], adata[600];
	snprintf(axdg, sizeof(axdg), "%s/%s", cwd, xdg);
	snprintf(adata, sizeof(adata), "%s/%s", cwd, data);

	snprintf(d1, sizeof(d1), "%s/brisk/profiles", axdg);
	snprintf(d2, sizeof(d2), "%s/profiles", adata);

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' '%s' && printf '[profile]\\nname = a\\n' > '%s/both.profile' "
		 "&& cp '%s/both.profile' '%s/both.profile' && cp '%s/both.profile' '%s/shipped.profile'",
		 d1, d2, d2, d2, d1, d2, d2);
	assert_int_equal(system(cmd), 0);
	setenv("XDG_CONFIG_HOME", axdg, 1);
	setenv("BRISK_DATADIR", adata, 1);
	assert_int_equal(profile_resolve("both", path, sizeof(path), err, sizeof(err)), 0);
	snprintf(file, sizeof(file), "%s/both.profile", d1);
	assert_string_equal(path, file);          /* user dir first */
	assert_int_equal(profile_resolve("shipped", path, sizeof(path), err, sizeof(err)), 0);
	snprintf(file, sizeof(file), "%s/shipped.profile", d2);
	assert_string_equal(path, file);          /* then the shipped one */
	assert_int_equal(profile_resolve("nope", path, sizeof(path), err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no profile 'nope'"));
	assert_non_null(strstr(err, PROFILE_SYSTEM_DIR));
	assert_int_equal(profile_resolve("../x", path, sizeof(path), err, sizeof(err)), -ENOENT);
	assert_int_equal(profile_resolve("a b", path, sizeof(path), err, sizeof(err)), -EINVAL);
	/* a path with '/' is a file, wherever it is */
	assert_int_equal(profile_resolve("tests/fixtures/profiles/good/bom.profile", path,
					 sizeof(path), err, sizeof(err)), 0);
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("BRISK_DATADIR");
	assert_int_equal(testdir_remove(&td, TESTDIR_TREE), 0);
}

static void test_session_glue(void **state)
{
	(void)state;
	struct profile *p = P();
	struct session_config c;
	char err[PROFILE_ERR_LEN], note[256];
	assert_int_equal(fiojob_parse_file("tests/fixtures/fio/lkml-2009-ssh.fio", 1, p, err,
					   sizeof(err)), 0);
	session_config_default(&c);
	assert_int_equal(profile_to_session_config(p, "lkml.fio", &c, note, sizeof(note), err,
						   sizeof(err)), 0);
	assert_int_equal(c.n_loads, 1);
	assert_int_equal(c.loads[0].total, 10240 * MiB);
	assert_int_equal(c.actions, 1u << ACTION_SSH);
	/* each reader its own start time, all of them may overlap */
	assert_int_equal(c.concurrency, 41);
	assert_int_equal(c.n_starts, 41);
	assert_int_equal(c.starts[0].t_ns, 0);
	assert_int_equal(c.starts[34].t_ns, S(134));
	assert_int_equal(c.starts[40].t_ns, S(260));
	assert_int_equal(c.starts[40].after, -1);
	assert_int_equal(c.starts[40].action, ACTION_SSH);
	assert_int_equal(c.jitter_pct, 0);
	assert_int_equal(c.max_time_ns, 0);
	assert_int_equal(c.loaded_max_ns, 0);   /* the schedule decides */
	assert_int_equal(c.load_finite, 0);
	assert_int_equal(c.action.ssh_region, 2 * MiB);
	assert_string_equal(note, "");

	/* loops chain one after another: interval after the previous ended */
	const char *chain = "[profile]\nconcurrency = 2\nfinite_load = 1\n\n[action a]\n"
			    "type = ssh-like\nstartdelay = 1s\nloops = 3\ninterval = 500ms\n\n"
			    "[action b]\ntype = ls\n";
	assert_int_equal(parse(chain, p, err, sizeof(err)), 0);
	assert_int_equal(p->concurrency, 2);
	assert_int_equal(p->finite_load, 1);
	roundtrip(p);
	session_config_default(&c);
	assert_int_equal(profile_to_session_config(p, NULL, &c, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(c.n_starts, 4);
	assert_int_equal(c.concurrency, 2);
	assert_int_equal(c.load_finite, 1);
	assert_int_equal(c.starts[1].after, 0);
	assert_int_equal(c.starts[2].after, 1);
	assert_int_equal(c.starts[2].gap_ns, 500000000ull);
	assert_int_equal(c.starts[3].after, -1);
	assert_int_equal(c.starts[3].action, ACTION_LS);
	assert_int_equal(c.starts[3].t_ns, 0);

	/* one at a time (no concurrency): the delays are only approximated */
	const char *one = "[action a]\ntype = ssh-like\n\n[action b]\ntype = ssh-like\n"
			  "startdelay = 1s\n\n[action c]\ntype = ssh-like\nstartdelay = 2s\n";
	assert_int_equal(parse(one, p, err, sizeof(err)), 0);
	session_config_default(&c);
	assert_int_equal(profile_to_session_config(p, NULL, &c, note, sizeof(note), err,
						   sizeof(err)), 0);
	assert_int_equal(c.n_starts, 0);
	assert_int_equal(c.interval_ns, S(1));
	assert_non_null(strstr(note, "approximated: 3 ssh-like samples every 1s, one at a time"));

	assert_int_equal(profile_parse_file("tests/fixtures/profiles/good/desktop.profile", NULL,
					    p, err, sizeof(err)), 0);
	session_config_default(&c);
	assert_int_equal(profile_to_session_config(p, NULL, &c, note, sizeof(note), err,
						   sizeof(err)), 0);
	/* one action with a startdelay: no schedule to spread, and it says so */
	assert_string_equal(note, "startdelay ignored: sampling starts with the loaded phase.");
	assert_int_equal(c.n_loads, 3);
	assert_int_equal(c.actions, (1u << ACTION_KIND_COUNT) - 1);
	assert_string_equal(c.action.exec_cmd, "/bin/true --version");
	assert_ptr_equal(c.action.exec_cmd, p->actions[0].cmd);
	assert_int_equal(c.action.ls_files, 500);
	assert_int_equal(c.action.save_size, 8192);
	assert_int_equal(c.loaded_samples, 10);
	assert_int_equal(c.interval_ns, S(2));
	assert_int_equal(c.loaded_max_ns, S(60));
	assert_int_equal(c.warmup_max_ns, S(5));
	assert_string_equal(c.dir, "/home");

	/* one configuration per action type */
	const char *two = "[action a]\ntype = ls\nnrfiles = 10\n\n[action b]\ntype = ls\n"
			  "nrfiles = 20\n";
	assert_int_equal(parse(two, p, err, sizeof(err)), 0);
	assert_int_equal(profile_to_session_config(p, "t.profile", &c, NULL, 0, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "t.profile:5: [action b] is configured unlike [action a]"));

	/* a settings-only profile keeps the default workload */
	assert_int_equal(parse("[settings]\nscheduler = bfq\n", p, err, sizeof(err)), 0);
	session_config_default(&c);
	assert_int_equal(profile_to_session_config(p, NULL, &c, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(c.n_loads, 1);
	assert_int_equal(c.actions, (1u << ACTION_KIND_COUNT) - 1);
	assert_int_equal(c.max_time_ns, 60 * S(1));
}

/* The options cliopt_profile() looks for, as brisk run has them. */
static const struct optab run_opts[] = {
	{ "quiet", 'q', NULL, NULL, optab_flag, 0, NULL },
	{ "profile", 'p', "NAME", NULL, cliopt_set_profile, 0, NULL },
	{ "fio", OPTAB_LONG, "JOBFILE", NULL, cliopt_set_profile, 0, NULL },
	{ "scale", OPTAB_LONG + 1, "F", NULL, cliopt_set_profile, 0, NULL },
	OPTAB_END
};

static void test_run_args(void **state)
{
	(void)state;
	struct profile *p = P();
	struct session_config c;
	char err[PROFILE_ERR_LEN], note[256];
	const char *a1[] = { "run", "-q", "--fio", "tests/fixtures/fio/lkml-2009-ssh.fio", "--scale=1/100",
		       "dir", NULL };
	session_config_default(&c);
	assert_int_equal(cliopt_profile(run_opts, 6, (char **)a1, p, &c, note, sizeof(note), NULL, err, sizeof(err)), 1);
	/* the delays shrink, the writer writes until the last reader ends */
	assert_int_equal(c.loads[0].size, 10240 * MiB);
	assert_int_equal(c.loads[0].total, 0);
	assert_int_equal(c.n_starts, 41);
	assert_int_equal(c.starts[40].t_ns, 2600000000ull);
	const char *a2[] = { "run", "--profile=tests/fixtures/profiles/good/desktop.profile", NULL };
	session_config_default(&c);
	assert_int_equal(cliopt_profile(run_opts, 2, (char **)a2, p, &c, note, sizeof(note), NULL, err, sizeof(err)), 1);
	assert_int_equal(c.n_loads, 3);
	const char *a3[] = { "run", "-n", "3", NULL };
	assert_int_equal(cliopt_profile(run_opts, 3, (char **)a3, p, &c, note, sizeof(note), NULL, err, sizeof(err)), 0);
	const char *a4[] = { "run", "--profile", "quick", "--fio", "x.fio", NULL };
	assert_int_equal(cliopt_profile(run_opts, 5, (char **)a4, p, &c, note, sizeof(note), NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "one --profile or --fio only");
	const char *a5[] = { "run", "--scale", "0.5", NULL };
	assert_int_equal(cliopt_profile(run_opts, 3, (char **)a5, p, &c, note, sizeof(note), NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--scale goes with --fio");
	const char *a6[] = { "run", "--profile", "tests/fixtures/profiles/bad/duplicate-key.profile", NULL };
	assert_int_equal(cliopt_profile(run_opts, 3, (char **)a6, p, &c, note, sizeof(note), NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "tests/fixtures/profiles/bad/duplicate-key.profile:5: duplicate "
			    "key 'bs' (first at line 4), expected each key once per section");
	const char *a7[] = { "run", "--fio", "tests/fixtures/fio/lkml-2009-ssh.fio", "--scale", "3", NULL };
	assert_int_equal(cliopt_profile(run_opts, 5, (char **)a7, p, &c, note, sizeof(note), NULL, err, sizeof(err)), -EINVAL);
}

/* profile_unset: one setting of one class out, the others kept in order
 * (what `brisk profile save` leaves out). */
static void test_unset(void **state)
{
	(void)state;
	struct profile *p = P();
	char err[PROFILE_ERR_LEN];
	profile_init(p, "u");
	assert_int_equal(profile_set(p, PROFILE_CLASS_ROTATIONAL, "scheduler", "bfq", err, sizeof(err)), 0);
	assert_int_equal(profile_set(p, PROFILE_CLASS_ROTATIONAL, "slice_idle", "8", err, sizeof(err)), 0);
	assert_int_equal(profile_set(p, PROFILE_CLASS_SSD, "slice_idle", "8", err, sizeof(err)), 0);
	assert_int_equal(profile_set(p, PROFILE_CLASS_ROTATIONAL, "nomerges", "0", err, sizeof(err)), 0);
	assert_int_equal(profile_unset(p, PROFILE_CLASS_ROTATIONAL, "slice_idle"), 0);
	assert_int_equal(p->n_settings, 3);
	assert_null(profile_setting_get(p, PROFILE_CLASS_ROTATIONAL, "slice_idle"));
	assert_non_null(profile_setting_get(p, PROFILE_CLASS_SSD, "slice_idle"));
	assert_string_equal(p->settings[0].key, "scheduler");
	assert_string_equal(p->settings[1].key, "slice_idle");
	assert_int_equal(p->settings[1].cls, PROFILE_CLASS_SSD);
	assert_string_equal(p->settings[2].key, "nomerges");
	assert_int_equal(profile_unset(p, PROFILE_CLASS_ROTATIONAL, "slice_idle"), -ENOENT);
	assert_int_equal(profile_unset(p, PROFILE_CLASS_ALL, "nomerges"), -ENOENT);
	assert_int_equal(profile_unset(p, PROFILE_CLASS_ROTATIONAL, "nomerges"), 0);
	assert_int_equal(p->n_settings, 2);
}

static void test_save_and_capture(void **state)
{
	(void)state;
	struct profile *p = P();
	char err[PROFILE_ERR_LEN], path[300];
	struct testdir td;
	assert_int_equal(testdir_make(&td, "save"), 0);
	const char *dir = td.path;
	snprintf(path, sizeof(path), "%s/a.profile", dir);
	profile_init(p, "a");
	profile_default_workload(p);
	assert_int_equal(profile_capture(p, PROFILE_CLASS_SSD, "scheduler", "bfq", err,
					 sizeof(err)), 0);
	assert_int_equal(profile_capture(p, PROFILE_CLASS_SSD, "scheduler", "bfq", err,
					 sizeof(err)), 1);
	assert_int_equal(profile_capture(p, PROFILE_CLASS_SSD, "scheduler", "none", err,
					 sizeof(err)), -EEXIST);
	assert_string_equal(err, "bfq");
	assert_int_equal(profile_capture(p, PROFILE_CLASS_ALL, "no_such_key", "1", err,
					 sizeof(err)), -ENOENT);
	assert_int_equal(profile_capture(p, PROFILE_CLASS_ALL, "nr_requests", "x", err,
					 sizeof(err)), -EINVAL);
	assert_int_equal(profile_save(p, path, 0, err, sizeof(err)), 0);
	assert_int_equal(profile_save(p, path, 0, err, sizeof(err)), -EEXIST);
	assert_int_equal(profile_save(p, path, 1, err, sizeof(err)), 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	struct profile *q = malloc(sizeof(*q));
	assert_int_equal(profile_parse_file(path, NULL, q, err, sizeof(err)), 0);
	assert_true(profile_equal(p, q, NULL, 0));
	free(q);
	char bad[320];
	snprintf(bad, sizeof(bad), "%s/none/b.profile", dir);
	assert_true(profile_save(p, bad, 0, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "cannot write"));
	assert_int_equal(testdir_remove(&td, TESTDIR_TREE), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_desktop),
		cmocka_unit_test(test_effective),
		cmocka_unit_test(test_prefixed_classes),
		cmocka_unit_test(test_roundtrip_files),
		cmocka_unit_test(test_equal_detects),
		cmocka_unit_test(test_default_workload_is_quick),
		cmocka_unit_test(test_set_and_check),
		cmocka_unit_test(test_write_refuses),
		cmocka_unit_test(test_untrusted_bytes),
		cmocka_unit_test(test_unnamed_file),
		cmocka_unit_test(test_errors_inline),
		cmocka_unit_test(test_resolve),
		cmocka_unit_test(test_session_glue),
		cmocka_unit_test(test_run_args),
		cmocka_unit_test(test_unset),
		cmocka_unit_test(test_save_and_capture),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
