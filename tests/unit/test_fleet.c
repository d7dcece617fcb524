/* Unit tests for the fleet module (brisk report): reading results as
 * untrusted input (versions, truncation, ranges), the machine id hash,
 * pooling with the machine as the unit (wider intervals than pooled
 * samples when machines differ, the seed, file order), the paired ratio,
 * verdicts and the minimum of machines, the load rule, grouping, the
 * outputs' escaping and --save-profile.  Run from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <unistd.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <cmocka.h>

#include "action.h"
#include "devclass.h"
#include "blockdev.h"
#include "fleet.h"
#include "profile.h"
#include "stats.h"
#include "testdir.h"

static struct testdir td;   /* td.abs: the absolute scratch directory */

/* ---- reading ---- */

/* A run result in JSON: machine HOST with one disk of CLASS and SCHED,
 * then SAMPLES (the inside of the samples array). */
static char *run_json(const char *version, const char *host, const char *cls, const char *sched,
		      const char *samples)
{
	static char buf[8192];
	snprintf(buf, sizeof(buf),
		 "{ %s \"kind\": \"run\", \"brisk\": \"0.1.0\", \"config\": { \"loads\": "
		 "[\"seq-write:size=1g\"], \"keep_warm\": false },\n"
		 " \"machine\": { \"hostname\": \"%s\", \"kernel\": \"6.1.0\", \"machine_id\": null,"
		 " \"disks\": [ { \"name\": \"sda\", \"class\": \"%s\", \"model\": \"WDC X\","
		 " \"firmware\": \"01\", \"transport\": \"sata\", \"rotational\": true,"
		 " \"scheduler\": \"%s\" } ] },\n"
		 " \"epochs\": [ { \"epoch\": 0, \"label\": \"start\", \"t_s\": 0 } ],\n"
		 " \"loads\": [ { \"mib_s\": 50.5, \"by_epoch\": [ { \"epoch\": 0, \"mib_s\": 40 } ] } ],\n"
		 " \"samples\": [ %s ] }\n",
		 version, host, cls, sched, samples);
	return buf;
}

#define S(ph, act, ms, cold, err, ep)                                                         \
	"{ \"phase\": \"" ph "\", \"action\": \"" act "\", \"ms\": " #ms ", \"cold\": " #cold    \
	", \"timeout\": false, \"error\": " #err ", \"epoch\": " #ep " }"

static const char *ok_samples = S("idle", "ssh-like", 10, true, 0, 0) ", "
	S("loaded", "ssh-like", 100, true, 0, 0) ", "
	S("loaded", "ssh-like", 120, false, 0, 0) ", "   /* warm: out */
	S("loaded", "save", 5.5, true, 0, 0) ", "
	S("loaded", "save", 7, true, 5, 0) ", "           /* failed: out */
	S("loaded", "save", 9, true, 0, 1);                /* --at epoch: out */

/* The recommendation of g in words (the last call's; a static buffer). */
static const char *rec_text(const struct fleet_group *g)
{
	static char b[FLEET_REC_TEXT];
	fleet_recommendation_text(b, sizeof(b), g);
	return b;
}

static int parse(const char *json, struct fleet_result *r, char *err, size_t len)
{
	return fleet_parse(json, strlen(json), "t.json", r, err, len);
}

static void test_read_run(void **state)
{
	(void)state;
	struct fleet_result r;
	char err[256];
	assert_int_equal(parse(run_json("\"format_version\": 1,", "a", "rotational", "bfq",
					ok_samples), &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, FLEET_RUN);
	assert_true(r.version_given);
	assert_true(r.m.known);
	assert_string_equal(r.m.hostname, "a");
	assert_int_equal(r.m.n_disks, 1);
	assert_string_equal(r.m.disks[0].cls, "rotational");
	assert_int_equal(r.n_arms, 1);
	assert_string_equal(r.arms[0].key, "scheduler=bfq");
	assert_string_equal(r.arms[0].label, "bfq");
	assert_true(fabs(r.arms[0].load_mibps - 40) < 1e-9);   /* epoch 0's figure */
	assert_false(r.load_by_disk);
	assert_int_equal(r.n_samples, 3);
	assert_int_equal(r.warm, 1);
	assert_int_equal(r.failed, 1);
	assert_int_equal(r.other_epochs, 1);
	assert_int_equal(r.samples[0].phase, FLEET_IDLE);
	assert_int_equal(r.samples[1].phase, FLEET_LOADED);
	assert_int_equal(r.samples[2].action, ACTION_SAVE);
	assert_false(r.set_by_profile);
	fleet_result_free(&r);
	/* a run that measured what reached the disk: that figure */
	assert_int_equal(parse(run_json("\"format_version\": 1, \"load_window\": { \"device\": "
					"\"sda1\", \"seconds\": 20, \"load_mibps\": 300, \"disk_mibps\": "
					"75.5, \"disk_written_mibps\": 75.5, \"disk_read_mibps\": 0.1 },",
					"a", "rotational", "bfq", ok_samples), &r, err, sizeof(err)), 0);
	assert_true(r.load_by_disk);
	assert_true(fabs(r.arms[0].load_mibps - 75.5) < 1e-9);
	fleet_result_free(&r);
	/* a run under a profile: its settings beside the scheduler measured */
	assert_int_equal(parse(run_json("\"format_version\": 1, \"profile_settings\": "
					"\"slice_idle=0 vm.dirty_ratio=5\",", "a", "rotational", "bfq",
					ok_samples), &r, err, sizeof(err)), 0);
	assert_string_equal(r.arms[0].key, "scheduler=bfq slice_idle=0 vm.dirty_ratio=5");
	assert_true(r.set_by_profile);
	fleet_result_free(&r);
	/* the profile's scheduler alone: the same arm as a compare's bfq */
	assert_int_equal(parse(run_json("\"format_version\": 1, \"profile_settings\": "
					"\"scheduler=bfq\",", "a", "rotational", "bfq", ok_samples),
			       &r, err, sizeof(err)), 0);
	assert_string_equal(r.arms[0].key, "scheduler=bfq");
	assert_string_equal(r.arms[0].label, "bfq");
	fleet_result_free(&r);
	/* null: none; what is not a setting is refused */
	assert_int_equal(parse(run_json("\"format_version\": 1, \"profile_settings\": null,", "a",
					"rotational", "bfq", ok_samples), &r, err, sizeof(err)), 0);
	assert_false(r.set_by_profile);
	fleet_result_free(&r);
	assert_int_equal(parse(run_json("\"format_version\": 1, \"profile_settings\": "
					"\"RUN+=x\",", "a", "rotational", "bfq", ok_samples),
			       &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "profile_settings"));
	fleet_result_free(&r);
	assert_int_equal(parse(run_json("\"format_version\": 1, \"profile_settings\": 5,", "a",
					"rotational", "bfq", ok_samples), &r, err, sizeof(err)), -EINVAL);
	fleet_result_free(&r);
}

static void test_read_versions(void **state)
{
	(void)state;
	struct fleet_result r;
	char err[256];
	/* a future major version: refused, saying which and what this reads */
	assert_int_equal(parse(run_json("\"format_version\": 7,", "a", "ssd", "none", ok_samples),
			       &r, err, sizeof(err)), -EPROTONOSUPPORT);
	assert_string_equal(err, "format_version 7 is newer than this brisk reads (1)");
	fleet_result_free(&r);
	/* no version, but the shape of a run: read as version 1 */
	assert_int_equal(parse(run_json("", "a", "ssd", "none", ok_samples), &r, err, sizeof(err)),
			 0);
	assert_false(r.version_given);
	fleet_result_free(&r);
	/* no version and not the shape of a result */
	const char *other = "{ \"brisk\": \"0.1.0\", \"query\": \"x\", \"devices\": [] }";
	assert_int_equal(parse(other, &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a brisk run or compare result"));
	fleet_result_free(&r);
	/* a version that is not a whole number, or below 1 */
	assert_int_equal(parse(run_json("\"format_version\": \"1\",", "a", "ssd", "none",
					ok_samples), &r, err, sizeof(err)), -EINVAL);
	fleet_result_free(&r);
	assert_int_equal(parse(run_json("\"format_version\": 0,", "a", "ssd", "none", ok_samples),
			       &r, err, sizeof(err)), -EINVAL);
	fleet_result_free(&r);
	/* a brisk report's own JSON is not a result */
	assert_int_equal(parse("{\"kind\": \"report\", \"format_version\": 1}", &r, err,
			       sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "kind \"report\""));
	fleet_result_free(&r);
}

static void test_read_corrupt(void **state)
{
	(void)state;
	struct fleet_result r;
	char err[256];
	const char *good = run_json("\"format_version\": 1,", "a", "ssd", "none", ok_samples);
	char cut[8192];
	size_t n = strlen(good);
	/* truncated anywhere: named as such */
	for (size_t at = 1; at < n - 2; at += 97) {
		memcpy(cut, good, at);
		assert_int_equal(fleet_parse(cut, at, "t.json", &r, err, sizeof(err)), -EINVAL);
		fleet_result_free(&r);
	}
	memcpy(cut, good, n / 2);
	assert_int_equal(fleet_parse(cut, n / 2, "t.json", &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "truncated"));
	fleet_result_free(&r);
	/* more after the document */
	snprintf(cut, sizeof(cut), "%s{}", good);
	assert_int_equal(parse(cut, &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "more after"));
	fleet_result_free(&r);
	/* numbers out of range, named by field */
	assert_int_equal(parse(run_json("\"format_version\": 1,", "a", "ssd", "none",
					S("loaded", "save", -5, true, 0, 0)), &r, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "samples[0].ms"));
	fleet_result_free(&r);
	assert_int_equal(parse(run_json("\"format_version\": 1,", "a", "ssd", "none",
					S("loaded", "save", 1e999, true, 0, 0)), &r, err, sizeof(err)),
			 -EINVAL);
	fleet_result_free(&r);
	assert_int_equal(parse(run_json("\"format_version\": 1,", "a", "ssd", "none",
					S("loaded", "save", 1e12, true, 0, 0)), &r, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "out of range"));
	fleet_result_free(&r);
	/* an unknown action, a wrong type */
	assert_int_equal(parse(run_json("\"format_version\": 1,", "a", "ssd", "none",
					S("loaded", "rm-rf", 5, true, 0, 0)), &r, err, sizeof(err)),
			 -EINVAL);
	fleet_result_free(&r);
	assert_int_equal(parse(run_json("\"format_version\": 1,", "a", "ssd", "none",
					S("loaded", "save", "5", true, 0, 0)), &r, err, sizeof(err)),
			 -EINVAL);
	fleet_result_free(&r);
	/* a NUL byte inside a string */
	assert_int_equal(parse(run_json("\"format_version\": 1,", "a\\u0000b", "ssd", "none",
					ok_samples), &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "NUL"));
	fleet_result_free(&r);
	/* NaN is not JSON */
	assert_int_equal(parse(run_json("\"format_version\": 1,", "a", "ssd", "none",
					S("loaded", "save", NaN, true, 0, 0)), &r, err, sizeof(err)),
			 -EINVAL);
	fleet_result_free(&r);
	/* empty, not an object */
	assert_int_equal(parse("  \n", &r, err, sizeof(err)), -EINVAL);
	fleet_result_free(&r);
	assert_int_equal(parse("[1, 2]", &r, err, sizeof(err)), -EINVAL);
	fleet_result_free(&r);
	/* a control byte in a model is kept (escaped on output), not refused */
	assert_int_equal(parse(run_json("\"format_version\": 1,", "evil\\u001b[31m", "ssd", "none",
					ok_samples), &r, err, sizeof(err)), 0);
	assert_string_equal(r.m.hostname, "evil\x1b[31m");
	fleet_result_free(&r);
}

static void test_read_compare(void **state)
{
	(void)state;
	const char *j =
		"{ \"brisk_version\": \"0.1.0\", \"kind\": \"compare\", \"format_version\": 1,"
		" \"workload\": \"load seq-write:size=1g; actions ssh-like\","
		" \"machine\": { \"hostname\": \"b\", \"disks\": [ { \"name\": \"sdb\", \"class\": "
		"\"rotational\", \"scheduler\": \"mq-deadline\" } ] },"
		" \"arms\": [ { \"index\": 0, \"label\": \"current\", \"settings\": \"\","
		"   \"load_mibps\": { \"est\": 80 } },"
		"  { \"index\": 1, \"label\": \"bfq\", \"settings\": \"scheduler=bfq low_latency=0\","
		"   \"load_mibps\": { \"est\": 60, \"lo\": null } } ],"
		" \"samples\": [ { \"arm\": 0, \"action\": \"ssh-like\", \"ms\": 900, \"cold\": true,"
		"   \"timeout\": false, \"err\": 0 },"
		"  { \"arm\": 1, \"action\": \"ssh-like\", \"ms\": 100, \"cold\": true,"
		"   \"timeout\": false, \"err\": 0 },"
		"  { \"arm\": 1, \"action\": \"ssh-like\", \"ms\": null, \"cold\": true,"
		"   \"timeout\": false, \"err\": 2 } ] }";
	struct fleet_result r;
	char err[256];
	assert_int_equal(parse(j, &r, err, sizeof(err)), 0);
	assert_int_equal(r.kind, FLEET_COMPARE);
	assert_int_equal(r.n_arms, 2);
	assert_string_equal(r.arms[0].key, "scheduler=mq-deadline");   /* current, resolved */
	assert_string_equal(r.arms[0].label, "mq-deadline");
	assert_string_equal(r.arms[1].key, "scheduler=bfq low_latency=0");
	assert_string_equal(r.workload, "seq-write:size=1g");
	assert_int_equal(r.n_samples, 2);
	assert_int_equal(r.failed, 1);
	assert_false(r.load_by_disk);   /* an older file: the loads' own rate */
	assert_true(fabs(r.arms[1].load_mibps - 60) < 1e-9);
	fleet_result_free(&r);
	/* what reached the disk, when every arm with a load figure has it */
	char disk[4096];
	snprintf(disk, sizeof(disk), "%s", j);
	char *at = strstr(disk, "\"est\": 80 }");
	assert_non_null(at);
	char tail[4096];
	snprintf(tail, sizeof(tail), "%s", at + strlen("\"est\": 80 }"));
	snprintf(at, sizeof(disk) - (size_t)(at - disk), "\"est\": 80 }, \"disk_mibps\": "
		 "{ \"est\": 70.5 }%s", tail);
	at = strstr(disk, "\"est\": 60, \"lo\": null }");
	assert_non_null(at);
	snprintf(tail, sizeof(tail), "%s", at + strlen("\"est\": 60, \"lo\": null }"));
	snprintf(at, sizeof(disk) - (size_t)(at - disk), "\"est\": 60, \"lo\": null }, "
		 "\"disk_mibps\": { \"est\": 30 }%s", tail);
	assert_int_equal(parse(disk, &r, err, sizeof(err)), 0);
	assert_true(r.load_by_disk);
	assert_true(fabs(r.arms[0].load_mibps - 70.5) < 1e-9);
	assert_true(fabs(r.arms[1].load_mibps - 30) < 1e-9);
	fleet_result_free(&r);
	/* one arm without it: the loads' own rate for every arm of the file */
	const char *cut = ", \"disk_mibps\": { \"est\": 30 }";
	char *d30 = strstr(disk, cut);
	assert_non_null(d30);
	memmove(d30, d30 + strlen(cut), strlen(d30 + strlen(cut)) + 1);
	assert_int_equal(parse(disk, &r, err, sizeof(err)), 0);
	assert_false(r.load_by_disk);
	assert_true(fabs(r.arms[0].load_mibps - 80) < 1e-9);
	fleet_result_free(&r);
	/* a figure out of range is refused, named */
	char *d70 = strstr(disk, "70.5");
	memcpy(d70, "-1.5", 4);
	assert_int_equal(parse(disk, &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "arms[0].disk_mibps.est"));
	fleet_result_free(&r);
	/* an arm's settings must be settings brisk knows, of their form:
	 * nothing else may become an arm, nor reach a profile */
	char hostile[4096];
	snprintf(hostile, sizeof(hostile), "%s", j);
	char *q = strstr(hostile, "low_latency=0");
	memcpy(q, "RUN+=/bin/sh ", 13);
	assert_int_equal(parse(hostile, &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a setting brisk knows"));
	fleet_result_free(&r);
	snprintf(hostile, sizeof(hostile), "%s", j);
	q = strstr(hostile, "scheduler=bfq");
	memcpy(q, "scheduler=b;q", 13);
	assert_int_equal(parse(hostile, &r, err, sizeof(err)), -EINVAL);
	fleet_result_free(&r);
	/* an arm index out of range */
	char bad[4096];
	snprintf(bad, sizeof(bad), "%s", j);
	char *p = strstr(bad, "\"arm\": 1");
	p[7] = '7';
	assert_int_equal(parse(bad, &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ".arm"));
	fleet_result_free(&r);
}

/* The class of a probed disk: virtio and Xen disks are "virtual" whatever
 * their queue/rotational says, USB is usb, the rest as export matches. */
static void test_disk_class(void **state)
{
	(void)state;
	static const struct {
		const char *name, *transport;
		int rotational;
		const char *want;
	} c[] = {
		{ "vda", "virtio", 1, "virtual" },
		{ "xvdb", "", 0, "virtual" },
		{ "sdb", "usb", 1, "usb" },
		{ "sda", "sata", 1, "rotational" },
		{ "sda", "sata", 0, "ssd" },
		{ "nvme0n1", "nvme", 0, "nvme" },
		{ "mmcblk0", "mmc", 0, "mmc" },
		{ "loop3", "", 1, "rotational" },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct blockdev b;
		memset(&b, 0, sizeof(b));
		snprintf(b.name, sizeof(b.name), "%s", c[i].name);
		snprintf(b.transport, sizeof(b.transport), "%s", c[i].transport);
		b.rotational = c[i].rotational;
		assert_string_equal(devclass_name(&b), c[i].want);
	}
}

/* machine_id under a machine id of our choosing: in a child, in a
 * mount namespace of its own, with a file bound over /etc/machine-id.
 * Writes the id (or "" and the errno) into out; -1 when the namespace
 * cannot be made (not root). */
static int machine_id_of(const char *content, char out[33])
{
	char path[] = "/tmp/brisk-test-mid.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	if (write(fd, content, strlen(content)) != (ssize_t)strlen(content)) {
		close(fd);
		unlink(path);
		return -1;
	}
	close(fd);
	int p[2];
	if (pipe(p) < 0) {
		unlink(path);
		return -1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		char id[33] = "";
		int rc = -1;
		if (unshare(CLONE_NEWNS) == 0 && mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0 &&
		    mount(path, "/etc/machine-id", NULL, MS_BIND, NULL) == 0)
			rc = machine_id(id) < 0 ? 1 : 0;
		char msg[40];
		snprintf(msg, sizeof(msg), "%d %s", rc, id);
		ssize_t w = write(p[1], msg, strlen(msg) + 1);
		_exit(w > 0 ? 0 : 1);
	}
	close(p[1]);
	char msg[40] = "";
	ssize_t n = pid > 0 ? read(p[0], msg, sizeof(msg) - 1) : -1;
	close(p[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	unlink(path);
	int rc = -1;
	out[0] = '\0';
	if (n > 0 && sscanf(msg, "%d %32s", &rc, out) < 1)
		rc = -1;
	return rc;
}

static void test_machine_id(void **state)
{
	(void)state;
	char out[33];
	/* libsystemd keeps the first id it read for the process, and children
	 * inherit it: the namespace children first, this process's own last */
	/* HMAC-SHA256(key = id, MACHINE_APP_ID) as a UUID v4, what systemd
	 * defines the app-specific id to be: vectors from Python's hmac */
	int rc = machine_id_of("0123456789abcdef0123456789abcdef\n", out);
	if (rc < 0)
		skip();   /* needs root for a mount namespace (cmocka: returns) */
	assert_int_equal(rc, 0);
	assert_string_equal(out, "bf2c5b4e8331435196ca1e80b503c419");
	assert_int_equal(machine_id_of("ffffffffffffffffffffffffffffffff\n", out), 0);
	assert_string_equal(out, "5621eebe59c84d9d9abb9d1ac5b40c01");
	/* not a machine id: no id (libsystemd refuses it) */
	assert_int_equal(machine_id_of("0123\n", out), 1);
	assert_string_equal(out, "");
	/* this machine's */
	if (access("/etc/machine-id", R_OK) == 0 && machine_id(out) == 0) {
		assert_int_equal(strlen(out), 32);
		assert_int_equal(strspn(out, "0123456789abcdef"), 32);
	}
}

/* ---- pooling: results built directly ---- */

static uint64_t rng = 42;

static double lognormal(double median, double sigma)
{
	double u1 = ((double)(stats_rand_next(&rng) >> 11) + 0.5) / 9007199254740992.0;
	double u2 = ((double)(stats_rand_next(&rng) >> 11) + 0.5) / 9007199254740992.0;
	return median * exp(sigma * sqrt(-2 * log(u1)) * cos(2 * M_PI * u2));
}

/* A result of machine `host` with a disk of class cls; arms given by key;
 * n samples of `action` per arm, arm k's median base * factor[k]. */
static void make(struct fleet_result *r, enum fleet_kind kind, const char *host, const char *cls,
		 size_t n_arms, const char *const *keys, const double *factor, double median,
		 const double *load, size_t n, int action)
{
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->version_given = 1;
	snprintf(r->path, sizeof(r->path), "%s.json", host);
	r->m.known = 1;
	snprintf(r->m.hostname, sizeof(r->m.hostname), "%s", host);
	snprintf(r->m.kernel, sizeof(r->m.kernel), "6.1.0");
	r->m.n_disks = 1;
	snprintf(r->m.disks[0].cls, sizeof(r->m.disks[0].cls), "%s", cls);
	snprintf(r->m.disks[0].model, sizeof(r->m.disks[0].model), "M-%s", cls);
	r->n_arms = n_arms;
	for (size_t a = 0; a < n_arms; a++) {
		snprintf(r->arms[a].key, sizeof(r->arms[a].key), "%s", keys[a]);
		snprintf(r->arms[a].label, sizeof(r->arms[a].label), "%s",
			 strncmp(keys[a], "scheduler=", 10) == 0 ? keys[a] + 10 : keys[a]);
		r->arms[a].load_mibps = load ? load[a] : NAN;
	}
	r->samples = calloc(n_arms * n, sizeof(*r->samples));
	assert_non_null(r->samples);
	for (size_t a = 0; a < n_arms; a++)
		for (size_t i = 0; i < n; i++)
			r->samples[r->n_samples++] = (struct fleet_sample){
				lognormal(median * factor[a], 0.3), (uint16_t)a, (uint8_t)action, FLEET_LOADED };
}

static const char *const two[] = { "scheduler=mq-deadline", "scheduler=bfq" };

static const struct fleet_group *group(const struct fleet_report *rep, const char *key)
{
	for (size_t i = 0; i < rep->n_groups; i++)
		if (!strcmp(rep->groups[i].key, key))
			return &rep->groups[i];
	fail_msg("no group %s", key);
	abort();
}

static const struct fleet_row *row(const struct fleet_group *g, const char *label, int action)
{
	for (size_t i = 0; i < g->n_rows; i++)
		if (!strcmp(g->arms[g->rows[i].arm].label, label) && (int)g->rows[i].action == action &&
		    g->rows[i].phase == FLEET_LOADED)
			return &g->rows[i];
	fail_msg("no row %s", label);
	abort();
}

static void test_machines_widen(void **state)
{
	(void)state;
	/* six machines whose medians differ 1x..32x: resampling machines must
	 * give a wider p50 interval than the same samples taken as one pool */
	struct fleet_result r[6];
	static const double f1[] = { 1 };
	char host[16];
	for (int m = 0; m < 6; m++) {
		snprintf(host, sizeof(host), "m%d", m);
		make(&r[m], FLEET_RUN, host, "rotational", 1, two, f1, 20.0 * pow(2, m), NULL, 20,
		     ACTION_SSH);
	}
	struct fleet_options o = { FLEET_BY_CLASS, NULL, 5, 0 };
	struct fleet_report rep;
	char err[256];
	assert_int_equal(fleet_pool(r, 6, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	const struct fleet_row *x = row(group(&rep, "rotational"), "mq-deadline", ACTION_SSH);
	assert_int_equal(x->machines, 6);
	assert_int_equal(x->samples, 120);
	double v[120];
	struct stats_ci c;
	size_t k = 0;
	for (int m = 0; m < 6; m++)
		for (size_t i = 0; i < r[m].n_samples; i++)
			v[k++] = r[m].samples[i].ms;
	assert_int_equal(stats_bootstrap_ci(v, k, 0.5, &(struct stats_boot){ 2000, 0.95, 5 }, &c), 0);
	assert_true(fabs(c.est - x->p50.est) < 1e-9);   /* the same pooled median */
	assert_true(x->p50.hi / x->p50.lo > 1.5 * (c.hi / c.lo));
	fleet_report_free(&rep);
	for (int m = 0; m < 6; m++)
		fleet_result_free(&r[m]);
}

/* Four machines 10x apart in speed, bfq half of mq-deadline on each. */
static void fleet4(struct fleet_result *r, size_t n, const double *load)
{
	static const double f[] = { 1, 0.5 };
	char host[16];
	for (size_t m = 0; m < n; m++) {
		snprintf(host, sizeof(host), "h%zu", m);
		make(&r[m], FLEET_COMPARE, host, "rotational", 2, two, f, 30.0 * pow(10, (double)m),
		     load, 8, ACTION_SSH);
	}
}

static void test_paired_verdict(void **state)
{
	(void)state;
	struct fleet_result r[4];
	fleet4(r, 4, NULL);
	struct fleet_options o = { FLEET_BY_CLASS, NULL, 1, 0 };
	struct fleet_report rep;
	char err[256];
	assert_int_equal(fleet_pool(r, 4, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	const struct fleet_group *g = group(&rep, "rotational");
	assert_int_equal(g->n_machines, 4);
	assert_string_equal(g->arms[g->baseline].label, "mq-deadline");   /* measured first */
	const struct fleet_row *b = row(g, "bfq", ACTION_SSH);
	assert_int_equal(b->paired, 4);
	assert_int_equal(b->agree, 4);
	assert_true(b->decided);
	assert_int_equal(b->verdict, STATS_FASTER);
	assert_true(b->ratio50.est > 0.3 && b->ratio50.est < 0.8);
	assert_true(b->ratio50.hi < 1);
	/* the pairing: machines 1000x apart do not widen the ratio */
	assert_true(b->ratio50.hi / b->ratio50.lo < 3);
	assert_int_equal(g->best, (int)(b->arm));
	assert_non_null(strstr(rec_text(g), "bfq, 4 of 4 machines faster on ssh-like, ratio"));
	assert_int_equal(g->rec.why, FLEET_REC_CHOSEN);
	assert_int_equal(g->rec.arm, g->best);
	/* the same with the files in another order: the same figures */
	struct fleet_result s[4] = { r[2], r[0], r[3], r[1] };
	struct fleet_report rep2;
	assert_int_equal(fleet_pool(s, 4, &o, NULL, 0, &rep2, err, sizeof(err)), 0);
	const struct fleet_row *b2 = row(group(&rep2, "rotational"), "bfq", ACTION_SSH);
	assert_true(b2->ratio50.lo == b->ratio50.lo && b2->ratio50.hi == b->ratio50.hi);
	assert_true(b2->p50.lo == b->p50.lo && b2->p50.hi == b->p50.hi);
	fleet_report_free(&rep2);
	/* the same seed again: bit for bit; another seed: another interval */
	assert_int_equal(fleet_pool(r, 4, &o, NULL, 0, &rep2, err, sizeof(err)), 0);
	b2 = row(group(&rep2, "rotational"), "bfq", ACTION_SSH);
	assert_true(b2->ratio50.lo == b->ratio50.lo && b2->p50.hi == b->p50.hi);
	fleet_report_free(&rep2);
	o.seed = 2;
	assert_int_equal(fleet_pool(r, 4, &o, NULL, 0, &rep2, err, sizeof(err)), 0);
	b2 = row(group(&rep2, "rotational"), "bfq", ACTION_SSH);
	assert_true(b2->ratio50.lo != b->ratio50.lo || b2->ratio50.hi != b->ratio50.hi);
	fleet_report_free(&rep2);
	/* --baseline bfq: mq-deadline is the slower one now */
	o.baseline = "bfq";
	assert_int_equal(fleet_pool(r, 4, &o, NULL, 0, &rep2, err, sizeof(err)), 0);
	g = group(&rep2, "rotational");
	assert_string_equal(g->arms[g->baseline].label, "bfq");
	assert_int_equal(row(g, "mq-deadline", ACTION_SSH)->verdict, STATS_SLOWER);
	assert_int_equal(g->best, -1);
	assert_non_null(strstr(rec_text(g), "keep bfq"));
	assert_int_equal(g->rec.why, FLEET_REC_KEEP);
	fleet_report_free(&rep2);
	fleet_report_free(&rep);
	for (int m = 0; m < 4; m++)
		fleet_result_free(&r[m]);
}

/* The baseline is what most machines run with, each machine's own setting
 * being the one most of its results measured first: three machines with
 * two plain runs (mq-deadline) and one run under a profile's bfq each give
 * mq-deadline, though bfq was also measured first on every one of them
 * and sorts first by name. */
static void test_baseline_own_setting(void **state)
{
	(void)state;
	struct fleet_result r[9];
	const double f1[] = { 1.0 }, f2[] = { 0.5 };
	char host[16];
	for (size_t m = 0; m < 3; m++) {
		snprintf(host, sizeof(host), "h%zu", m);
		make(&r[3 * m], FLEET_RUN, host, "rotational", 1, two, f1, 100, NULL, 6, ACTION_SSH);
		make(&r[3 * m + 1], FLEET_RUN, host, "rotational", 1, two, f1, 100, NULL, 6,
		     ACTION_SSH);
		make(&r[3 * m + 2], FLEET_RUN, host, "rotational", 1, two + 1, f2, 100, NULL, 6,
		     ACTION_SSH);
	}
	struct fleet_options o = { FLEET_BY_CLASS, NULL, 1, 0 };
	struct fleet_report rep;
	char err[256];
	assert_int_equal(fleet_pool(r, 9, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	const struct fleet_group *g = group(&rep, "rotational");
	assert_string_equal(g->arms[g->baseline].label, "mq-deadline");
	assert_int_equal(g->arms[g->baseline].first_on, 3);
	const struct fleet_row *b = row(g, "bfq", ACTION_SSH);
	assert_int_equal(g->arms[b->arm].first_on, 0);
	assert_int_equal(g->arms[b->arm].machines, 3);
	fleet_report_free(&rep);
	/* one plain run each: a tie on every machine, each setting its own;
	 * broken by name */
	struct fleet_result t[6];
	for (size_t m = 0; m < 3; m++) {
		t[2 * m] = r[3 * m];
		t[2 * m + 1] = r[3 * m + 2];
	}
	assert_int_equal(fleet_pool(t, 6, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	g = group(&rep, "rotational");
	assert_string_equal(g->arms[g->baseline].label, "bfq");
	assert_int_equal(g->arms[g->baseline].first_on, 3);
	fleet_report_free(&rep);
	/* the same, the bfq runs saying a profile put bfq in place
	 * (profile_settings): not the machines' own */
	for (size_t m = 0; m < 3; m++)
		t[2 * m + 1].set_by_profile = 1;
	assert_int_equal(fleet_pool(t, 6, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	g = group(&rep, "rotational");
	assert_string_equal(g->arms[g->baseline].label, "mq-deadline");
	fleet_report_free(&rep);
	for (int i = 0; i < 9; i++)
		fleet_result_free(&r[i]);
}

static void test_too_few_machines(void **state)
{
	(void)state;
	struct fleet_result r[2];
	fleet4(r, 2, NULL);
	struct fleet_options o = { FLEET_BY_CLASS, NULL, 1, 0 };
	struct fleet_report rep;
	char err[256];
	assert_int_equal(fleet_pool(r, 2, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	const struct fleet_group *g = group(&rep, "rotational");
	const struct fleet_row *b = row(g, "bfq", ACTION_SSH);
	assert_int_equal(b->paired, 2);
	assert_false(b->decided);
	assert_int_equal(b->verdict, STATS_NO_DIFFERENCE);
	assert_int_equal(g->best, -1);
	assert_non_null(strstr(rec_text(g), "at most 2 machines"));
	assert_int_equal(g->rec.why, FLEET_REC_FEW_MACHINES);
	assert_int_equal(g->rec.max_paired, 2);
	fleet_report_free(&rep);
	/* one machine: not a fleet */
	assert_int_equal(fleet_pool(r, 1, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	assert_non_null(strstr(rec_text(&rep.groups[0]), "not a fleet"));
	assert_int_equal(rep.groups[0].rec.why, FLEET_REC_ONE_MACHINE);
	fleet_report_free(&rep);
	for (int m = 0; m < 2; m++)
		fleet_result_free(&r[m]);
}

static void test_load_rule(void **state)
{
	(void)state;
	struct fleet_result r[4];
	struct fleet_options o = { FLEET_BY_CLASS, NULL, 1, 0 };
	struct fleet_report rep;
	char err[256];
	/* bfq keeps 40 % of the load: it starves it, and is not recommended */
	static const double starve[] = { 100, 40 };
	fleet4(r, 4, starve);
	assert_int_equal(fleet_pool(r, 4, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	const struct fleet_group *g = group(&rep, "rotational");
	const struct fleet_garm *b = &g->arms[row(g, "bfq", ACTION_SSH)->arm];
	assert_true(fabs(b->load.est - 0.4) < 1e-9);
	assert_false(b->load_ok);
	assert_int_equal(g->best, -1);
	assert_non_null(strstr(rec_text(g), "starves the load"));
	assert_int_equal(g->rec.why, FLEET_REC_KEEP);   /* a starving arm ranks after */
	assert_int_equal(g->rec.other, (int)row(g, "bfq", ACTION_SSH)->arm);
	assert_true(g->rec.other_starves);
	fleet_report_free(&rep);
	for (int m = 0; m < 4; m++)
		fleet_result_free(&r[m]);
	/* 80 %: recommended, and the cost named */
	static const double cost[] = { 100, 80 };
	fleet4(r, 4, cost);
	assert_int_equal(fleet_pool(r, 4, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	g = group(&rep, "rotational");
	assert_true(g->best >= 0);
	assert_non_null(strstr(rec_text(g), "at a cost to the load: 80 %"));
	assert_int_equal(g->rec.why, FLEET_REC_CHOSEN);
	fleet_report_free(&rep);
	for (int m = 0; m < 4; m++)
		fleet_result_free(&r[m]);
}

static void test_groups(void **state)
{
	(void)state;
	struct fleet_result r[3];
	static const double f1[] = { 1 };
	make(&r[0], FLEET_RUN, "a", "nvme", 1, two, f1, 5, NULL, 4, ACTION_SAVE);
	make(&r[1], FLEET_RUN, "b", "rotational", 1, two, f1, 5, NULL, 4, ACTION_SAVE);
	make(&r[2], FLEET_RUN, "c", "rotational", 1, two, f1, 5, NULL, 4, ACTION_SAVE);
	r[2].m.n_disks = 2;   /* a RAID of a rotational and an NVMe disk */
	snprintf(r[2].m.disks[1].cls, sizeof(r[2].m.disks[1].cls), "nvme");
	struct fleet_options o = { FLEET_BY_CLASS, NULL, 1, 0 };
	struct fleet_report rep;
	char err[256];
	assert_int_equal(fleet_pool(r, 3, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.n_groups, 3);
	assert_string_equal(rep.groups[0].key, "mixed");
	assert_string_equal(rep.groups[1].key, "nvme");
	assert_string_equal(rep.groups[2].key, "rotational");
	assert_int_equal(rep.n_machines, 3);
	fleet_report_free(&rep);
	o.by = FLEET_BY_KERNEL;
	assert_int_equal(fleet_pool(r, 3, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.n_groups, 1);
	assert_string_equal(rep.groups[0].key, "6.1.0");
	assert_int_equal(rep.groups[0].n_machines, 3);
	fleet_report_free(&rep);
	/* two results of one machine are one machine */
	snprintf(r[2].m.hostname, sizeof(r[2].m.hostname), "b");
	o.by = FLEET_BY_MACHINE;
	assert_int_equal(fleet_pool(r, 3, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.n_groups, 2);
	assert_int_equal(rep.n_machines, 2);
	assert_int_equal(group(&rep, "b")->n_results, 2);
	fleet_report_free(&rep);
	enum fleet_by by;
	assert_int_equal(fleet_by_parse("model,firmware", &by), 0);
	assert_int_equal(by, FLEET_BY_MODEL_FW);
	assert_int_equal(fleet_by_parse("serial", &by), -EINVAL);
	for (int m = 0; m < 3; m++)
		fleet_result_free(&r[m]);
}

static void test_paired_helper(void **state)
{
	(void)state;
	/* one cluster: the ratio of its medians */
	double a[] = { 10, 20, 30 }, b[] = { 5, 10, 15 };
	size_t oa[] = { 0, 3 }, ob[] = { 0, 3 };
	const struct stats_boot bt = { 500, 0.95, 3 };
	struct stats_ci c;
	double per[1];
	assert_int_equal(stats_bootstrap_ratio_paired(a, oa, b, ob, 1, 0.5, &bt, &c, per), 0);
	assert_true(fabs(c.est - 0.5) < 1e-12 && fabs(per[0] - 0.5) < 1e-12);
	assert_true(c.lo <= c.est && c.est <= c.hi);
	/* two clusters: the geometric mean of their own ratios */
	double a2[] = { 10, 10, 1000 }, b2[] = { 5, 4000 };
	size_t oa2[] = { 0, 2, 3 }, ob2[] = { 0, 1, 2 };
	double per2[2];
	assert_int_equal(stats_bootstrap_ratio_paired(a2, oa2, b2, ob2, 2, 0.5, &bt, &c, per2), 0);
	assert_true(fabs(per2[0] - 0.5) < 1e-12 && fabs(per2[1] - 4) < 1e-12);
	assert_true(fabs(c.est - sqrt(2)) < 1e-12);
	/* an empty side, a non-positive value */
	size_t oe[] = { 0, 0 };
	assert_int_equal(stats_bootstrap_ratio_paired(a, oe, b, ob, 1, 0.5, &bt, &c, NULL), -EINVAL);
	assert_true(isnan(c.est));
	double z[] = { 0, 1, 2 };
	assert_int_equal(stats_bootstrap_ratio_paired(z, oa, b, ob, 1, 0.5, &bt, &c, NULL), -EDOM);
}

/* ---- outputs ---- */

static void test_text_escapes(void **state)
{
	(void)state;
	struct fleet_result r[4];
	fleet4(r, 4, NULL);
	snprintf(r[0].m.hostname, sizeof(r[0].m.hostname), "evil\x1b[31m\r\nhost");
	snprintf(r[0].m.disks[0].cls, sizeof(r[0].m.disks[0].cls), "rotational");
	struct fleet_options o = { FLEET_BY_MODEL, NULL, 1, 0 };
	snprintf(r[1].m.disks[0].model, sizeof(r[1].m.disks[0].model), "WDC\x07\x1b]0;pwn\x07");
	struct fleet_skip sk = { "bad\x1b.json", "truncated: skipped" };
	struct fleet_report rep;
	char err[256];
	assert_int_equal(fleet_pool(r, 4, &o, &sk, 1, &rep, err, sizeof(err)), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	fleet_text(f, &rep);
	fclose(f);
	assert_null(memchr(buf, '\x1b', len));
	assert_null(memchr(buf, '\x07', len));
	assert_null(memchr(buf, '\r', len));
	assert_non_null(strstr(buf, "evil\\x1b[31m\\x0d\\x0ahost"));
	assert_non_null(strstr(buf, "bad\\x1b.json: truncated: skipped"));
	free(buf);
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/r.json", td.abs);
	assert_int_equal(fleet_json(&rep, path, err, sizeof(err)), 0);
	snprintf(path, sizeof(path), "%s/r.csv", td.abs);
	assert_int_equal(fleet_csv(&rep, path, err, sizeof(err)), 0);
	FILE *c = fopen(path, "r");
	char line[4096];
	assert_non_null(fgets(line, sizeof(line), c));
	assert_non_null(strstr(line, "group,phase,action,arm,settings"));
	size_t rows = 0;
	while (fgets(line, sizeof(line), c)) {
		rows++;
		assert_null(strchr(line, '\x1b'));
	}
	fclose(c);
	size_t want = 0;
	for (size_t i = 0; i < rep.n_groups; i++)
		want += rep.groups[i].n_rows;
	assert_int_equal(rows, want);
	snprintf(path, sizeof(path), "%s/r.svg", td.abs);
	assert_int_equal(fleet_plot(&rep, path, err, sizeof(err)), 0);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 1000);
	snprintf(path, sizeof(path), "%s/r.gif", td.abs);
	assert_int_equal(fleet_plot(&rep, path, err, sizeof(err)), -EINVAL);
	/* more groups than one picture holds: refused, saying why, no file */
	struct fleet_report tall = rep;
	tall.n_groups = 400;
	tall.groups = calloc(tall.n_groups, sizeof(*tall.groups));
	assert_non_null(tall.groups);
	for (size_t i = 0; i < tall.n_groups; i++)
		tall.groups[i] = rep.groups[i % rep.n_groups];
	snprintf(path, sizeof(path), "%s/tall.png", td.abs);
	assert_int_equal(fleet_plot(&tall, path, err, sizeof(err)), -E2BIG);
	assert_non_null(strstr(err, "400 groups do not fit one picture"));
	assert_int_equal(access(path, F_OK), -1);
	free(tall.groups);
	fleet_report_free(&rep);
	for (int m = 0; m < 4; m++)
		fleet_result_free(&r[m]);
}

static void test_save_profile(void **state)
{
	(void)state;
	char xdg[PATH_MAX];
	snprintf(xdg, sizeof(xdg), "%s/xdg", td.abs);
	setenv("XDG_CONFIG_HOME", xdg, 1);
	struct fleet_result r[6];
	fleet4(r, 4, NULL);
	static const double f1[] = { 1 };
	make(&r[4], FLEET_RUN, "u1", "usb", 1, two, f1, 5, NULL, 4, ACTION_SAVE);
	make(&r[5], FLEET_RUN, "s1", "ssd", 1, two, f1, 5, NULL, 4, ACTION_SAVE);
	struct fleet_options o = { FLEET_BY_CLASS, NULL, 1, 0 };
	struct fleet_report rep;
	char err[512], path[PATH_MAX], note[1024];
	assert_int_equal(fleet_pool(r, 6, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	assert_int_equal(fleet_save_profile(&rep, "fleet1", 0, path, sizeof(path), note,
					    sizeof(note), err, sizeof(err)), 0);
	assert_non_null(strstr(note, "usb: no profile class"));
	assert_non_null(strstr(note, "ssd: no recommendation"));
	struct profile *p = calloc(1, sizeof(*p));
	assert_int_equal(profile_parse_file(path, NULL, p, err, sizeof(err)), 0);
	const struct profile_setting *s = profile_setting_get(p, PROFILE_CLASS_ROTATIONAL,
								 "scheduler");
	assert_non_null(s);
	assert_string_equal(s->value, "bfq");
	assert_true(profile_class_has_own(p, PROFILE_CLASS_ROTATIONAL));
	assert_false(profile_class_has_own(p, PROFILE_CLASS_SSD));
	free(p);
	/* no clobber without force */
	assert_int_equal(fleet_save_profile(&rep, "fleet1", 0, path, sizeof(path), note,
					    sizeof(note), err, sizeof(err)), -EEXIST);
	assert_int_equal(fleet_save_profile(&rep, "fleet1", 1, path, sizeof(path), note,
					    sizeof(note), err, sizeof(err)), 0);
	assert_int_equal(fleet_save_profile(&rep, "../x", 0, path, sizeof(path), note,
					    sizeof(note), err, sizeof(err)), -EINVAL);
	fleet_report_free(&rep);
	/* nothing recommended: nothing saved */
	assert_int_equal(fleet_pool(r + 4, 2, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	assert_int_equal(fleet_save_profile(&rep, "fleet2", 0, path, sizeof(path), note,
					    sizeof(note), err, sizeof(err)), -ENODATA);
	assert_int_equal(access(path, F_OK), -1);
	fleet_report_free(&rep);
	for (int m = 0; m < 6; m++)
		fleet_result_free(&r[m]);
}

/* ---- issue 24: forged results ---- */

/* Identity by host folder: the controller's record, else the files'
 * majority; a host without one, a file against it, and one machine id
 * under two hosts are left out. */
static void test_identify(void **state)
{
	(void)state;
	static const double f[] = { 1, 0.5 };
	const char *id[] = { "11111111111111111111111111111111", "22222222222222222222222222222222",
			     "33333333333333333333333333333333" };
	struct fleet_result r[7];
	/* host 0 (web1): two files of id 0; host 1 (web6): three ids, no
	 * majority; host 2 (web7): id 1 twice and id 2 once; host 3 (web8):
	 * id 0 again (a clone of web1) */
	const size_t folder[] = { 0, 0, 1, 1, 2, 2, 2 };
	const int which[] = { 0, 0, 0, 1, 1, 1, 2 };
	for (size_t i = 0; i < 7; i++) {
		make(&r[i], FLEET_COMPARE, "claimed", "rotational", 2, two, f, 50, NULL, 4, ACTION_SSH);
		snprintf(r[i].m.machine_id, sizeof(r[i].m.machine_id), "%s", id[which[i]]);
		snprintf(r[i].path, sizeof(r[i].path), "f%zu.json", i);
		r[i].folder = folder[i];
	}
	struct fleet_host h[4] = { { "web1", "", "", 0 }, { "web6", "", "", 0 },
				   { "web7", "", "", 0 }, { "web8", "", "", 0 } };
	struct fleet_hosts hs = { h, 3 };
	struct fleet_skip sk[7];
	size_t n = 7, ns = 0;
	/* web6 is not a majority (ids 0, 0 in 2 of... no: 0 and 1), web7's third file
	 * claims id 2 */
	r[2].m.machine_id[0] = '\0';   /* web6: none, id 1: no strict majority */
	fleet_identify(r, &n, &hs, sk, &ns);
	assert_int_equal(n, 4);
	assert_int_equal(ns, 3);
	assert_string_equal(r[0].host, "web1");
	assert_string_equal(r[0].host_id, id[0]);
	assert_string_equal(r[2].host, "web7");
	assert_string_equal(r[2].host_id, id[1]);
	assert_non_null(strstr(sk[0].why, "claim 2 machines"));
	assert_non_null(strstr(sk[0].why, "--trust-file-identity"));
	assert_string_equal(sk[2].path, "f6.json");
	assert_non_null(strstr(sk[2].why, "as most of its files claim"));
	/* the kept results pool as two machines, named by their folders */
	struct fleet_options o = { FLEET_BY_CLASS, NULL, 1, 0 };
	struct fleet_report rep;
	char err[256];
	assert_int_equal(fleet_pool(r, n, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	assert_int_equal(rep.n_machines, 2);
	assert_string_equal(rep.groups[0].machines[0], "web1");
	assert_string_equal(rep.groups[0].machines[1], "web7");
	fleet_report_free(&rep);
	for (size_t i = 0; i < n; i++)
		fleet_result_free(&r[i]);
	/* the controller's record wins; a clone under two hosts is out under both */
	struct fleet_result t[4];
	const size_t tf[] = { 0, 0, 1, 3 };
	const int tw[] = { 0, 1, 1, 0 };
	for (size_t i = 0; i < 4; i++) {
		make(&t[i], FLEET_COMPARE, "claimed", "rotational", 2, two, f, 50, NULL, 4, ACTION_SSH);
		snprintf(t[i].m.machine_id, sizeof(t[i].m.machine_id), "%s", id[tw[i]]);
		snprintf(t[i].path, sizeof(t[i].path), "t%zu.json", i);
		t[i].folder = tf[i];
	}
	snprintf(h[0].recorded, sizeof(h[0].recorded), "%s", id[1]);
	hs.n = 4;
	n = 4;
	ns = 0;
	fleet_identify(t, &n, &hs, sk, &ns);
	/* web1 records id 1: t0 (id 0) out; t1 (id 1) is web1's, t2 (id 1) is
	 * web6's too: a clone, both out; t3 (web8, id 0) stays */
	assert_int_equal(n, 1);
	assert_string_equal(t[0].host, "web8");
	assert_int_equal(ns, 3);
	assert_non_null(strstr(sk[0].why, "as the controller recorded in its machine-id"));
	assert_non_null(strstr(sk[1].why, "cloned images share /etc/machine-id"));
	assert_non_null(strstr(sk[2].why, "cloned images share /etc/machine-id"));
	fleet_result_free(&t[0]);
}

/* Twenty machines find bfq 1.2x slower; four claim 5e-324 ms (floored at
 * FLEET_MIN_MS, their ratio bounded): still slower.  Twenty find it 0.7x;
 * one claims 1 us against most of a day: still faster, and named. */
static void test_forged_minority(void **state)
{
	(void)state;
	struct fleet_result r[24];
	static const double slow[] = { 1, 1.2 }, fast[] = { 1, 0.7 };
	char host[16];
	for (int m = 0; m < 24; m++) {
		snprintf(host, sizeof(host), "h%02d", m);
		make(&r[m], FLEET_COMPARE, host, "rotational", 2, two, slow, 40.0 + m, NULL, 30,
		     ACTION_SAVE);
		for (size_t k = 0; m >= 20 && k < r[m].n_samples; k++)
			if (r[m].samples[k].arm == 1)
				r[m].samples[k].ms = 5e-324;
	}
	struct fleet_options o = { FLEET_BY_CLASS, NULL, 1, 0 };
	struct fleet_report rep;
	char err[256];
	assert_int_equal(fleet_pool(r, 24, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	const struct fleet_group *g = group(&rep, "rotational");
	const struct fleet_row *b = row(g, "bfq", ACTION_SAVE);
	assert_int_equal(b->verdict, STATS_SLOWER);
	assert_true(b->ratio50.est > 1.1 && b->ratio50.est < 1.35);
	assert_int_equal(b->n_disagree, 4);
	assert_string_equal(g->machines[b->disagree[0]], "h20");
	assert_true(b->p50.lo >= FLEET_MIN_MS);
	assert_int_equal(g->best, -1);
	fleet_report_free(&rep);
	for (int m = 0; m < 24; m++)
		fleet_result_free(&r[m]);
	for (int m = 0; m < 21; m++) {
		snprintf(host, sizeof(host), "h%02d", m);
		make(&r[m], FLEET_COMPARE, host, "rotational", 2, two, fast, 40.0 + m, NULL, 6,
		     ACTION_SAVE);
		for (size_t k = 0; m == 20 && k < r[m].n_samples; k++)
			r[m].samples[k].ms = r[m].samples[k].arm == 1 ? 7e7 : 0.001;
	}
	assert_int_equal(fleet_pool(r, 21, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	g = group(&rep, "rotational");
	b = row(g, "bfq", ACTION_SAVE);
	assert_int_equal(b->verdict, STATS_FASTER);
	assert_int_equal(b->n_faster, 20);
	assert_int_equal(b->n_disagree, 1);
	assert_string_equal(g->machines[b->disagree[0]], "h20");
	assert_non_null(strstr(rec_text(g), "bfq, 20 of 21 machines faster on save"));
	assert_non_null(strstr(rec_text(g), "(disagree: h20)"));
	fleet_report_free(&rep);
	/* a verdict needs most machines: 3 faster, 2 slower, interval below 1 or not */
	for (int m = 0; m < 5; m++) {
		for (size_t k = 0; k < r[m].n_samples; k++)
			if (m >= 3 && r[m].samples[k].arm == 1)
				r[m].samples[k].ms *= 3;
	}
	assert_int_equal(fleet_pool(r, 5, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	b = row(group(&rep, "rotational"), "bfq", ACTION_SAVE);
	assert_int_equal(b->n_faster, 3);
	assert_true(b->verdict != STATS_SLOWER);
	fleet_report_free(&rep);
	for (int m = 0; m < 21; m++)
		fleet_result_free(&r[m]);
}

static void test_median_stats(void **state)
{
	(void)state;
	double v[10], e, lo, hi;
	for (int i = 0; i < 10; i++)
		v[i] = 10 - i;
	/* n = 10 at 95 %: P(X <= 1) = 11/1024 <= 0.025 < P(X <= 2): [x(2), x(9)] */
	assert_int_equal(stats_median_ci_order(v, 10, 0.95, &e, &lo, &hi), 0);
	assert_true(e == 5.5 && lo == 2 && hi == 9);
	assert_int_equal(stats_median_ci_order(v, 5, 0.95, &e, &lo, &hi), 0);
	assert_true(e == 8 && isnan(lo) && isnan(hi));
	assert_int_equal(stats_median_ci_order(v, 0, 0.95, &e, &lo, &hi), -EINVAL);
	/* the bounded median ratio: one cluster of 1e300 counts as the cap */
	double a[] = { 10, 10, 10, 10, 10, 10 }, b[] = { 5, 5, 5, 5, 5, 1e300 };
	size_t off[] = { 0, 2, 4, 6 }, bo[] = { 0, 2, 4, 6 };
	double per[3];
	const struct stats_boot bt = { 500, 0.95, 3 };
	struct stats_ci c;
	assert_int_equal(stats_bootstrap_median_ratio_paired(a, off, b, bo, 3, 0.5, &bt, 1000, &c,
							     per), 0);
	assert_true(c.est == 0.5 && per[2] == 1000);
	assert_int_equal(stats_bootstrap_median_ratio_paired(a, off, b, bo, 3, 0.5, &bt, 1, &c,
							     NULL), -EINVAL);
}

/* --save-profile saves what can be saved: a vm.* key in the rotational
 * winner leaves the ssd one saved; a value outside its default range
 * needs --force.  A long arm's label is cut with "...", its settings
 * given whole where it is recommended. */
static void test_save_partial(void **state)
{
	(void)state;
	char xdg[PATH_MAX];
	snprintf(xdg, sizeof(xdg), "%s/xdg24", td.abs);
	setenv("XDG_CONFIG_HOME", xdg, 1);
	static const char *const vm[] = { "scheduler=mq-deadline", "scheduler=bfq vm.dirty_ratio=5" };
	static const char *const ab[] = { "scheduler=mq-deadline",
		"scheduler=bfq back_seek_max=16384 back_seek_penalty=2 fifo_expire_async=250 "
		"low_latency=1 slice_idle=2147483647" };
	static const double f[] = { 1, 0.5 };
	struct fleet_result r[6];
	char host[16];
	for (int m = 0; m < 6; m++) {
		snprintf(host, sizeof(host), "m%d", m);
		make(&r[m], FLEET_COMPARE, host, m < 3 ? "rotational" : "ssd", 2, m < 3 ? vm : two, f,
		     30, NULL, 6, ACTION_SSH);
	}
	struct fleet_options o = { FLEET_BY_CLASS, NULL, 1, 0 };
	struct fleet_report rep;
	char err[512], path[PATH_MAX], note[2048];
	assert_int_equal(fleet_pool(r, 6, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	assert_int_equal(fleet_save_profile(&rep, "part", 0, path, sizeof(path), note, sizeof(note),
					    err, sizeof(err)), 0);
	assert_non_null(strstr(note, "vm.dirty_ratio is system-wide"));
	struct profile *p = calloc(1, sizeof(*p));
	assert_int_equal(profile_parse_file(path, NULL, p, err, sizeof(err)), 0);
	assert_true(profile_class_has_own(p, PROFILE_CLASS_SSD));
	assert_false(profile_class_has_own(p, PROFILE_CLASS_ROTATIONAL));
	free(p);
	fleet_report_free(&rep);
	for (int m = 0; m < 6; m++)
		fleet_result_free(&r[m]);
	/* slice_idle=2147483647: flagged, not saved without force */
	for (int m = 0; m < 3; m++) {
		snprintf(host, sizeof(host), "m%d", m);
		make(&r[m], FLEET_COMPARE, host, "rotational", 2, ab, f, 30, NULL, 6, ACTION_SSH);
		snprintf(r[m].arms[1].label, sizeof(r[m].arms[1].label), "%.60s...", ab[1]);
	}
	assert_int_equal(fleet_pool(r, 3, &o, NULL, 0, &rep, err, sizeof(err)), 0);
	const struct fleet_group *g = group(&rep, "rotational");
	assert_true(g->best >= 0);
	assert_string_equal(g->arms[g->best].outside, "slice_idle=2147483647 (0..100)");
	assert_non_null(strstr(rec_text(g), "slice_idle=2147483647, 3 of 3"));
	assert_non_null(strstr(rec_text(g), "outside the range a default may carry"));
	assert_int_equal(fleet_save_profile(&rep, "abs", 0, path, sizeof(path), note, sizeof(note),
					    err, sizeof(err)), -ENODATA);
	assert_non_null(strstr(note, "--force saves it anyway"));
	assert_int_equal(fleet_save_profile(&rep, "abs", 1, path, sizeof(path), note, sizeof(note),
					    err, sizeof(err)), 0);
	fleet_report_free(&rep);
	for (int m = 0; m < 3; m++)
		fleet_result_free(&r[m]);
	/* the label of a long arm as read: cut, saying so */
	char j[2048];
	snprintf(j, sizeof(j),
		 "{ \"kind\": \"compare\", \"format_version\": 1, \"brisk_version\": \"0.1.0\","
		 " \"arms\": [ { \"index\": 0, \"settings\": \"%s\" } ], \"samples\": [] }", ab[1]);
	struct fleet_result x;
	assert_int_equal(fleet_parse(j, strlen(j), "x.json", &x, err, sizeof(err)), 0);
	assert_int_equal(strlen(x.arms[0].label), 63);
	assert_string_equal(x.arms[0].label + 60, "...");
	assert_string_equal(x.arms[0].key, ab[1]);
	fleet_result_free(&x);
}

/* ==== issue 24: what one file may add, and strict JSON (fleet_read) ==== */

/* A compare result of two arms: n0 samples of arm 0 at save (ms = 1..n0,
 * written in a scrambled order) and 3 of arm 1.  malloc'ed. */
static char *cell_json(size_t n0)
{
	size_t cap = 256 + (n0 + 3) * 96, len = 0;
	char *j = malloc(cap);
	assert_non_null(j);
	len += (size_t)snprintf(j + len, cap - len,
				"{ \"kind\": \"compare\", \"format_version\": 1, \"brisk_version\": "
				"\"0.1.0\", \"arms\": [ { \"index\": 0, \"settings\": \"\" }, { "
				"\"index\": 1, \"settings\": \"scheduler=bfq\" } ], \"samples\": [");
	for (size_t i = 0; i < n0 + 3; i++) {
		int arm = i >= n0;
		size_t ms = arm ? i - n0 + 1 : (i * 7919) % n0 + 1;   /* 7919 is prime */
		len += (size_t)snprintf(j + len, cap - len,
					"%s{ \"arm\": %d, \"action\": \"save\", \"ms\": %zu, \"cold\": "
					"true, \"timeout\": false, \"err\": 0 }", i ? ", " : "", arm, ms);
	}
	snprintf(j + len, cap - len, "] }");
	return j;
}

static void test_cell_bound(void **state)
{
	(void)state;
	struct fleet_result r;
	char err[256];
	size_t n0 = 4 * FLEET_MAX_CELL + 1;
	char *j = cell_json(n0);
	assert_int_equal(parse(j, &r, err, sizeof(err)), 0);
	assert_int_equal(r.n_samples, FLEET_MAX_CELL + 3);
	assert_int_equal(r.cut, n0 - FLEET_MAX_CELL);
	assert_int_equal(r.cut_largest, n0);
	/* arm 0 kept evenly by rank: rank round(k (n0 - 1) / (K - 1)), min and
	 * max among them */
	size_t k = 0;
	for (size_t i = 0; i < r.n_samples; i++) {
		if (r.samples[i].arm != 0)
			continue;
		double want = (double)((k * (n0 - 1) + (FLEET_MAX_CELL - 1) / 2) /
				       (FLEET_MAX_CELL - 1) + 1);
		if (r.samples[i].ms != want)
			fail_msg("kept sample %zu is %g, expected %g", k, r.samples[i].ms, want);
		k++;
	}
	assert_int_equal(k, FLEET_MAX_CELL);
	fleet_result_free(&r);
	free(j);
	/* within the bound: every sample, nothing cut */
	j = cell_json(FLEET_MAX_CELL);
	assert_int_equal(parse(j, &r, err, sizeof(err)), 0);
	assert_int_equal(r.n_samples, FLEET_MAX_CELL + 3);
	assert_int_equal(r.cut, 0);
	fleet_result_free(&r);
	free(j);
}

/* Each text is refused with why in the message; json-c 0.16 strict took
 * the ones marked. */
static void test_strict_json(void **state)
{
	(void)state;
	static const struct {
		const char *json, *why;
	} bad[] = {
		{ "{'kind': \"run\"}", "a single-quoted string at byte 1" },            /* json-c took */
		{ "{\"kind\": \"r\x01n\"}", "a raw control byte 0x01 in a string at byte 11" }, /* took */
		{ "{\"kind\": \"r\tn\"}", "a raw control byte 0x09 in a string at byte 11" },   /* took */
		{ "{\"k\x1f\": 1}", "a raw control byte 0x1f in a string at byte 3" },   /* took */
		{ "{\"a\": NaN}", "NaN or Infinity at byte 6" },                          /* took */
		{ "{\"a\": -Infinity}", "NaN or Infinity at byte 7" },                    /* took */
		{ "{\"a\": 1.}", "digits after its '.', at byte 6" },                     /* took */
		{ "{\"a\": \"\\ud800\"}", "\\ud800 at byte 7 is half a surrogate pair" }, /* took */
		{ "{\"a\": \"\\udc00\\ud800\"}", "\\udc00 at byte 7 is half" },             /* took */
		{ "{\"a\": 1, \"a\": 2}", "key \"a\" a second time in one object, at byte 9" }, /* took */
		{ "{\"b\": {\"a\": 1}, \"\\u0062\": 2}", "a second time in one object, at byte 16" },
		{ "{\"a\\u0000\": 1}", "a key holding \\u0000 at byte 3" },
		{ "{\"a\": 01}", "a leading zero at byte 6" },
		{ "{\"a\": +1}", "'+' before a number at byte 6" },
		{ "{\"a\": [1, ]}", "a comma before ']' at byte 10" },
		{ "{\"a\": 1, }", "a comma before '}' at byte 9" },
		{ "{\"a\": 1 /* c */}", "a comment at byte 8" },
		{ "{\"a\": 1e}", "digits in its exponent, at byte 6" },
		{ "{\"a\": \"\\x41\"}", "\\x at byte 7 is no JSON escape" },
		{ "{\"a\": \"\\u12g4\"}", "\\u needs four hex digits, at byte 7" },
		{ "{\"a\": \"\xc0\xaf\"}", "invalid UTF-8 at byte 7" },
		{ "{\"a\": \"\xed\xa0\x80\"}", "invalid UTF-8 at byte 7" },
		{ "\xef\xbb\xbf{}", "byte 0xef at byte 0, expected a value" },
		{ "{\"a\": tru}", "at byte 9, expected true" },
		{ "{\"a\": 1} x", "more after byte 8" },
		{ "{\"a\": [1, 2", "truncated" },
		{ "{\"a\": \"abc", "truncated" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct fleet_result r;
		char err[256] = "";
		int rc = parse(bad[i].json, &r, err, sizeof(err));
		if (rc != -EINVAL || !strstr(err, bad[i].why))
			fail_msg("case %zu: rc %d, \"%s\", expected \"%s\"", i, rc, err, bad[i].why);
		fleet_result_free(&r);
	}
	/* 64 levels are JSON brisk reads (then not a result), 65 are not */
	char deep[200];
	for (int lv = 64; lv <= 65; lv++) {
		memset(deep, 0, sizeof(deep));
		memset(deep, '[', (size_t)lv);
		memset(deep + lv, ']', (size_t)lv);
		struct fleet_result r;
		char err[256] = "";
		assert_int_equal(parse(deep, &r, err, sizeof(err)), -EINVAL);
		if (!strstr(err, lv == 64 ? "not a JSON object" : "nested deeper than 64, at byte 64"))
			fail_msg("%d levels: %s", lv, err);
		fleet_result_free(&r);
	}
	/* what RFC 8259 takes passes: escapes, pairs, exponents, -0, UTF-8 */
	const char *ok = "{ \"kind\": \"compare\", \"format_version\": 1, \"brisk_version\": "
			 "\"0.1.0\\/\\\"\\\\\\b\\f\\n\\r\\t\\ud83d\\ude00\xc3\xa9\", \"x\": [-0, 1.5E+3, "
			 "2e-3, true, false, null, {}, []], \"arms\": [ { \"index\": 0, \"settings\": "
			 "\"\", \"load_mibps\": { \"est\": 1e2 } } ], \"samples\": [] }";
	struct fleet_result r;
	char err[256] = "";
	int rc = parse(ok, &r, err, sizeof(err));
	if (rc != 0)
		fail_msg("valid JSON refused: %s", err);
	fleet_result_free(&r);
}

static int setup(void **state)
{
	(void)state;
	return testdir_make(&td, "fleet");
}

static int teardown(void **state)
{
	(void)state;
	return testdir_remove(&td, TESTDIR_TREE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_run),
		cmocka_unit_test(test_read_versions),
		cmocka_unit_test(test_read_corrupt),
		cmocka_unit_test(test_read_compare),
		cmocka_unit_test(test_disk_class),
		cmocka_unit_test(test_machine_id),
		cmocka_unit_test(test_machines_widen),
		cmocka_unit_test(test_paired_verdict),
		cmocka_unit_test(test_baseline_own_setting),
		cmocka_unit_test(test_too_few_machines),
		cmocka_unit_test(test_load_rule),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_paired_helper),
		cmocka_unit_test(test_text_escapes),
		cmocka_unit_test(test_save_profile),
		cmocka_unit_test(test_identify),
		cmocka_unit_test(test_forged_minority),
		cmocka_unit_test(test_median_stats),
		cmocka_unit_test(test_save_partial),
		cmocka_unit_test(test_cell_bound),
		cmocka_unit_test(test_strict_json),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
