/* Unit tests: the journal file format (journal_file.h), journal sessions,
 * restore and recovery in a temporary runtime dir (BRISK_RUNTIME_DIR).
 * Moved here from test_tunable.c.  Nothing here writes to /sys or /proc
 * except test_dry_run_matches_restore, which (as root, with a free loop
 * device) journals and restores a loop device's read_ahead_kb. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "devlock.h"
#include "journal.h"
#include "rundir.h"
#include "sysfs.h"
#include "testdir.h"
#include "tunable.h"

/* ------------------------------------------------------------ journal */

static struct journal_entry entry(const char *target, const char *seq, const char *key,
				  const char *sched, const char *via, const char *value)
{
	struct journal_entry e;
	memset(&e, 0, sizeof(e));
	snprintf(e.target, sizeof(e.target), "%s", target);
	snprintf(e.diskseq, sizeof(e.diskseq), "%s", seq);
	snprintf(e.key, sizeof(e.key), "%s", key);
	snprintf(e.sched, sizeof(e.sched), "%s", sched);
	snprintf(e.via, sizeof(e.via), "%s", via);
	snprintf(e.value, sizeof(e.value), "%s", value);
	return e;
}

static void sample(struct journal_file *f, enum journal_kind kind, pid_t pid,
		   const char *boot, uint64_t created)
{
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->pid = pid;
	snprintf(f->boot, sizeof(f->boot), "%s", boot);
	f->created = created;
	snprintf(f->what, sizeof(f->what), "brisk set sda scheduler=bfq");
	struct journal_entry es[] = {
		entry("sda", "17", "iosched/read_expire", "mq-deadline", "scheduler", "500"),
		entry("sda", "17", "nr_requests", "-", "scheduler", "256"),
		entry("sda", "17", "scheduler", "-", "-", "mq-deadline"),
		entry("-", "-", "vm.dirty_ratio", "-", "vm.dirty_bytes", "20"),
		entry("-", "-", "vm.dirty_bytes", "-", "-", "0"),
	};
	for (size_t i = 0; i < sizeof(es) / sizeof(es[0]); i++)
		assert_int_equal(journal_file_add(f, &es[i]), 0);
}

static void test_journal_round_trip(void **state)
{
	(void)state;
	struct journal_file f, g;
	sample(&f, JOURNAL_SET, 4242, "0e9c-boot", 123456789);
	char *text;
	assert_int_equal(journal_format(&f, &text), 0);
	int line = -1;
	assert_int_equal(journal_parse(text, &g, &line), 0);
	assert_int_equal(g.kind, JOURNAL_SET);
	assert_int_equal(g.pid, 4242);
	assert_string_equal(g.boot, "0e9c-boot");
	assert_int_equal(g.created, 123456789);
	assert_string_equal(g.what, f.what);
	assert_int_equal(g.n, f.n);
	for (size_t i = 0; i < f.n; i++) {
		assert_string_equal(f.e[i].target, g.e[i].target);
		assert_string_equal(f.e[i].diskseq, g.e[i].diskseq);
		assert_string_equal(f.e[i].key, g.e[i].key);
		assert_string_equal(f.e[i].sched, g.e[i].sched);
		assert_string_equal(f.e[i].via, g.e[i].via);
		assert_string_equal(f.e[i].value, g.e[i].value);
	}
	char *again;
	assert_int_equal(journal_format(&g, &again), 0);
	assert_string_equal(text, again);
	free(again);
	free(text);
	journal_file_free(&f);
	journal_file_free(&g);
}

static void test_journal_parse_refuses(void **state)
{
	(void)state;
	const char *head = "brisk-journal 1\nkind set\npid 7\nboot b\ncreated 1\nwhat x\n";
	const char *bad_lines[] = {
		"orig sda - ../scheduler - - bfq\n",             /* path in key */
		"orig ../sda - scheduler - - bfq\n",             /* path in target */
		"orig sda - iosched/../../x - - 1\n",
		"orig sda - scheduler - - \n",                   /* empty value */
		"orig sda - scheduler - -  bfq\n",               /* double space */
		"orig sda - scheduler - - bfq extra\n",
		"orig - - scheduler - - bfq\n",                  /* device key, no device */
		"orig sda - vm.dirty_ratio - - 20\n",            /* sysctl with a device */
		"orig sda x1 scheduler - - bfq\n",               /* diskseq not a number */
		"orig sda - slice_idle - - 8\n",                 /* not canonical */
		"orig sda - scheduler - ../x bfq\n",             /* bad via */
		"frob 1\n",
	};
	struct journal_file f;
	int line;
	for (size_t i = 0; i < sizeof(bad_lines) / sizeof(bad_lines[0]); i++) {
		char text[512];
		snprintf(text, sizeof(text), "%s%s", head, bad_lines[i]);
		line = 0;
		assert_int_equal(journal_parse(text, &f, &line), -EINVAL);
		assert_int_equal(line, 7);
	}
	assert_int_equal(journal_parse("brisk-journal 2\nkind set\npid 1\n", &f, &line), -EINVAL);
	assert_int_equal(line, 1);
	assert_int_equal(journal_parse("brisk-journal 1\nkind set\n", &f, &line), -EINVAL);
	assert_int_equal(journal_parse("brisk-journal 1\nkind bogus\npid 1\n", &f, &line), -EINVAL);
	assert_int_equal(journal_parse("# c\n\nbrisk-journal 1\nkind run\npid 1\n", &f, &line), 0);
	journal_file_free(&f);
	/* a torn last entry (crash while appending) is ignored, the rest kept */
	assert_int_equal(journal_parse("brisk-journal 1\nkind run\npid 1\n"
				       "orig sda - scheduler - - bfq\norig sda - nr_req", &f, &line), 0);
	assert_int_equal(f.n, 1);
	assert_string_equal(f.e[0].value, "bfq");
	journal_file_free(&f);
}

/* A runtime dir of our own under build/. */
static struct testdir td;
static const char *const rtdir = td.abs;
static pid_t child = -1;   /* killed by the teardown if a test fails */

static int setup_rt(void **state)
{
	(void)state;
	if (testdir_make(&td, "journal") < 0)
		return -1;
	setenv("BRISK_RUNTIME_DIR", rtdir, 1);
	return 0;
}

static int teardown_rt(void **state)
{
	(void)state;
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		child = -1;
	}
	int rc = testdir_remove(&td, TESTDIR_TREE);
	unsetenv("BRISK_RUNTIME_DIR");
	return rc;
}

static int count_journals(void)
{
	char cmd[4200], out[32];
	snprintf(cmd, sizeof(cmd), "ls '%s' | grep -c '^session-.*\\.journal$'", rtdir);
	FILE *p = popen(cmd, "r");
	if (!p || !fgets(out, sizeof(out), p))
		out[0] = '0';
	if (p)
		pclose(p);
	return atoi(out);
}

static void write_journal(const char *name, const struct journal_file *f)
{
	char path[4200], *text;
	snprintf(path, sizeof(path), "%s/%s", rtdir, name);
	assert_int_equal(journal_format(f, &text), 0);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	free(text);
}

static void test_session_file(void **state)
{
	(void)state;
	char dir[4096];
	assert_int_equal(rundir_path(dir, sizeof(dir)), 0);
	assert_string_equal(dir, rtdir);
	struct journal *j;
	assert_int_equal(journal_open(JOURNAL_RUN, "brisk run /x", &j), 0);
	char want[4200];
	snprintf(want, sizeof(want), "%s/session-%ld.journal", rtdir, (long)getpid());
	assert_string_equal(journal_path(j), want);
	char buf[4096];
	size_t n;
	assert_int_equal(sysfs_read_raw(want, buf, sizeof(buf), &n), 0);
	struct journal_file f;
	assert_int_equal(journal_parse(buf, &f, NULL), 0);
	assert_int_equal(f.kind, JOURNAL_RUN);
	assert_int_equal(f.pid, getpid());
	assert_string_equal(f.what, "brisk run /x");
	assert_int_equal(f.n, 0);
	journal_file_free(&f);
	/* a second session of the same process gets another name */
	struct journal *j2;
	assert_int_equal(journal_open(JOURNAL_SET, "second", &j2), 0);
	assert_string_not_equal(journal_path(j2), journal_path(j));
	assert_int_equal(count_journals(), 2);
	/* nothing recorded: closing removes the files */
	journal_close(j2);
	journal_close(j);
	assert_int_equal(count_journals(), 0);
}

/* The device lock: a second process is refused and told our pid. */
static void test_device_lock(void **state)
{
	(void)state;
	struct journal *j;
	assert_int_equal(journal_open(JOURNAL_RUN, "lock test", &j), 0);
	pid_t holder = -1;
	assert_int_equal(journal_lock(j, "loop77", &holder), 0);
	assert_int_equal(journal_lock(j, "loop77", &holder), 0);   /* already ours */
	assert_int_equal(journal_lock(j, "-", &holder), 0);
	assert_int_equal(journal_lock(j, "../x", &holder), -EINVAL);
	int rtfd = open(rtdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(rtfd >= 0);
	pid_t me = getpid();
	pid_t c = fork();
	if (c == 0) {
		int fd;
		pid_t h = 0;
		int rc = devlock_acquire(rtfd, "dev-loop77", &fd, &h);
		int rc2 = devlock_acquire(rtfd, "sysctl-vm", &fd, &h);
		int rc3 = devlock_acquire(rtfd, "dev-loop78", &fd, &h);
		_exit(rc == -EBUSY && rc2 == -EBUSY && h == 0 && rc3 == 0 &&
		      devlock_holder(rtfd, "dev-loop77") == me ? 0 : 1);
	}
	int st;
	waitpid(c, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	c = fork();
	if (c == 0) {
		int fd;
		pid_t h = 0;
		int rc = devlock_acquire(rtfd, "dev-loop77", &fd, &h);
		_exit(rc == -EBUSY && h == me ? 0 : 1);
	}
	waitpid(c, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	journal_close(j);
	/* released: now a child gets it */
	c = fork();
	if (c == 0) {
		int fd;
		pid_t h = 0;
		_exit(devlock_acquire(rtfd, "dev-loop77", &fd, &h) == 0 ? 0 : 1);
	}
	waitpid(c, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	close(rtfd);
}

struct tally {
	int n[JOURNAL_LEFTOVER + 1];
	char note[JOURNAL_LEFTOVER + 1][256];
};

static void tally_fn(const struct journal_event *ev, void *arg)
{
	struct tally *t = arg;
	t->n[ev->outcome]++;
	if (ev->note)
		snprintf(t->note[ev->outcome], sizeof(t->note[0]), "%s", ev->note);
}

static void current_boot(char *b, size_t len)
{
	assert_int_equal(sysfs_read("/proc/sys/kernel/random/boot_id", b, len), 0);
}

/* Dead journals: a vanished device is reported and dropped, an earlier
 * boot's journal is dropped, a corrupt one is kept, a live session is left
 * alone, and recover_stale leaves set journals for `brisk restore`. */
static void test_recovery(void **state)
{
	(void)state;
	char boot[40];
	current_boot(boot, sizeof(boot));
	struct journal_file f;
	memset(&f, 0, sizeof(f));
	f.kind = JOURNAL_SET;
	f.pid = 999999;
	snprintf(f.boot, sizeof(f.boot), "%s", boot);
	f.created = 5;
	snprintf(f.what, sizeof(f.what), "test");
	struct journal_entry e = entry("nosuchdisk9", "-", "scheduler", "-", "-", "none");
	journal_file_add(&f, &e);
	e = entry("nosuchdisk9", "-", "iosched/slice_idle", "bfq", "-", "8");
	journal_file_add(&f, &e);
	write_journal("session-999999.journal", &f);
	f.kind = JOURNAL_RUN;
	snprintf(f.boot, sizeof(f.boot), "not-this-boot");
	write_journal("session-999998.journal", &f);
	journal_file_free(&f);
	char path[4200];
	snprintf(path, sizeof(path), "%s/session-999997.journal", rtdir);
	FILE *fp = fopen(path, "w");
	fputs("brisk-journal 1\nkind run\npid 999997\norig ../etc - scheduler - - x\n", fp);
	fclose(fp);
	assert_int_equal(count_journals(), 3);

	/* recover_stale: run/tui only; the old-boot one goes, the corrupt one
	 * stays, the set one is not touched */
	char *out = NULL;
	size_t outlen = 0;
	FILE *m = open_memstream(&out, &outlen);
	int rc = journal_recover_stale(m);
	fclose(m);
	assert_int_equal(rc, 1);   /* the corrupt journal */
	assert_non_null(strstr(out, "earlier boot"));
	assert_non_null(strstr(out, "cannot parse it (line 4)"));
	free(out);
	assert_int_equal(count_journals(), 2);

	/* dry run: reports, changes nothing */
	struct tally t = { 0 };
	assert_int_equal(journal_restore_all(NULL, 1, tally_fn, &t), 1);
	assert_int_equal(t.n[JOURNAL_VANISHED], 2);
	assert_int_equal(t.n[JOURNAL_CORRUPT], 1);
	assert_int_equal(count_journals(), 2);

	/* a live session's journal is left alone */
	int pfd[2];
	assert_int_equal(pipe(pfd), 0);
	pid_t c = child = fork();
	if (c == 0) {
		struct journal *cj;
		close(pfd[0]);
		if (journal_open(JOURNAL_RUN, "child", &cj) < 0)
			_exit(1);
		/* keep the file: pretend something is journaled */
		if (write(pfd[1], "r", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(pfd[1]);
	char ch;
	assert_int_equal(read(pfd[0], &ch, 1), 1);
	close(pfd[0]);
	memset(&t, 0, sizeof(t));
	assert_int_equal(journal_restore_all(NULL, 0, tally_fn, &t), 1);
	assert_int_equal(t.n[JOURNAL_LIVE], 1);
	assert_int_equal(t.n[JOURNAL_VANISHED], 2);
	assert_string_equal(t.note[JOURNAL_VANISHED], "the device is gone");
	/* vanished entries are dropped with their journal; the corrupt and the
	 * live one stay */
	assert_int_equal(count_journals(), 2);
	kill(c, SIGKILL);
	int st;
	waitpid(c, &st, 0);
	child = -1;
	/* the child died with an empty journal: nothing to restore, and
	 * recovery removes it */
	memset(&t, 0, sizeof(t));
	journal_restore_all(NULL, 0, tally_fn, &t);
	assert_int_equal(t.n[JOURNAL_LIVE], 0);
	assert_int_equal(count_journals(), 1);
	unlink(path);
}

/* What a kill leaves (empty / temporary journals of a dead pid) is
 * removed and reported; a live pid's are kept; an untrusted journal is
 * refused, reported and left as it is. */
static void test_leftovers_and_refused(void **state)
{
	(void)state;
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	waitpid(dead, NULL, 0);
	char p[4200];
	for (int i = 0; i < 3; i++) {
		char n[64];
		if (i == 0)
			snprintf(n, sizeof(n), "session-%ld.journal", (long)dead);
		else if (i == 1)
			snprintf(n, sizeof(n), "session-%ld-3.journal", (long)dead);
		else
			snprintf(n, sizeof(n), ".tmp-%ld.journal", (long)dead);
		snprintf(p, sizeof(p), "%s/%s", rtdir, n);
		FILE *fp = fopen(p, "w");
		assert_non_null(fp);
		if (i == 2)
			fputs("brisk-journal 1\n", fp);
		fclose(fp);
	}
	snprintf(p, sizeof(p), "%s/session-%ld.journal", rtdir, (long)getppid());
	fclose(fopen(p, "w"));   /* a live pid's empty journal */
	char boot[40];
	current_boot(boot, sizeof(boot));
	struct journal_file f;
	memset(&f, 0, sizeof(f));
	f.kind = JOURNAL_RUN;
	f.pid = 999990;
	snprintf(f.boot, sizeof(f.boot), "%s", boot);
	struct journal_entry e = entry("nosuchdisk9", "-", "scheduler", "-", "-", "none");
	journal_file_add(&f, &e);
	write_journal("session-999990.journal", &f);
	journal_file_free(&f);
	char evil[4200];
	snprintf(evil, sizeof(evil), "%s/session-999990.journal", rtdir);
	chmod(evil, 0666);

	struct tally t = { 0 };
	assert_int_equal(journal_restore_all(NULL, 1, tally_fn, &t), 1);   /* dry run */
	assert_int_equal(t.n[JOURNAL_LEFTOVER], 3);
	assert_int_equal(t.n[JOURNAL_REFUSED], 1);
	assert_non_null(strstr(t.note[JOURNAL_REFUSED], "session-999990.journal: writable by"));
	assert_int_equal(count_journals(), 4);
	memset(&t, 0, sizeof(t));
	assert_int_equal(journal_restore_all(NULL, 0, tally_fn, &t), 1);
	assert_int_equal(t.n[JOURNAL_LEFTOVER], 3);
	assert_int_equal(t.n[JOURNAL_REFUSED], 1);
	assert_int_equal(t.n[JOURNAL_VANISHED], 0);   /* nothing of it was used */
	assert_int_equal(count_journals(), 2);        /* the live and the refused */
	assert_int_equal(access(evil, F_OK), 0);
	unlink(evil);
	unlink(p);
}

/* --persist: journal_forget removes the entries for a key (and those
 * recorded via it, and a sysctl's partner) from dead set journals. */
static void test_forget(void **state)
{
	(void)state;
	char boot[40];
	current_boot(boot, sizeof(boot));
	struct journal_file f;
	sample(&f, JOURNAL_SET, 999990, boot, 9);
	write_journal("session-999990.journal", &f);
	journal_file_free(&f);
	assert_int_equal(journal_forget("sdb", "scheduler"), 0);
	assert_int_equal(journal_forget("sda", "scheduler"), 3);
	assert_int_equal(count_journals(), 1);
	assert_int_equal(journal_forget("-", "vm.dirty_ratio"), 2);
	assert_int_equal(count_journals(), 0);
}


/* Outcomes of one restore, in order: "DEV KEY outcome" lines. */
struct outcomes {
	char text[4096];
};

static void outcomes_fn(const struct journal_event *ev, void *arg)
{
	struct outcomes *o = arg;
	size_t n = strlen(o->text);
	if (ev->entry)
		snprintf(o->text + n, sizeof(o->text) - n, "%s %s %d\n", ev->entry->target,
			 ev->entry->key, (int)ev->outcome);
}

static char loopdev[64];

static int teardown_loop(void **state)
{
	if (loopdev[0]) {
		char cmd[128];
		snprintf(cmd, sizeof(cmd), "losetup -d /dev/%s", loopdev);
		if (system(cmd) != 0)
			fprintf(stderr, "could not detach /dev/%s\n", loopdev);
		loopdev[0] = '\0';
	}
	return teardown_rt(state);
}

static void put(const char *dev, const char *attr, const char *value)
{
	char p[256];
	snprintf(p, sizeof(p), "/sys/block/%s/%s", dev, attr);
	assert_int_equal(sysfs_write(p, value), 0);
}

static void get(const char *dev, const char *attr, char *buf, size_t len)
{
	assert_int_equal(sysfs_readf(buf, len, "/sys/block/%s/%s", dev, attr), 0);
}

/* A dry run and the real restore decide with the same code: for the same
 * journal they report the same outcome for every entry (a real loop
 * device: a scheduler, a queue attribute and a lab attribute to write
 * back, one already in place, an iosched entry of another scheduler, a
 * device that is gone), and the real one puts the values back. */
static void test_dry_run_matches_restore(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();
	char cmd[8400], out[64] = "", boot[40], ra[32], nr[32], sched[64];
	snprintf(cmd, sizeof(cmd), "truncate -s 64M '%s/img' && losetup -f --show '%s/img'",
		 rtdir, rtdir);
	FILE *p = popen(cmd, "r");
	if (!p || !fgets(out, sizeof(out), p) || strncmp(out, "/dev/loop", 9) != 0) {
		if (p)
			pclose(p);
		skip();
	}
	pclose(p);
	out[strcspn(out, "\n")] = '\0';
	snprintf(loopdev, sizeof(loopdev), "%s", out + 5);
	const char *d = loopdev;
	if (sysfs_readf(sched, sizeof(sched), "/sys/block/%s/queue/scheduler", d) < 0 ||
	    !strstr(sched, "mq-deadline") || !strstr(sched, "none"))
		skip();
	put(d, "queue/scheduler", "mq-deadline");
	put(d, "queue/read_ahead_kb", "256");
	put(d, "queue/rotational", "0");
	get(d, "queue/nr_requests", nr, sizeof(nr));
	current_boot(boot, sizeof(boot));
	struct journal_file f;
	memset(&f, 0, sizeof(f));
	f.kind = JOURNAL_SET;
	f.pid = 999990;
	snprintf(f.boot, sizeof(f.boot), "%s", boot);
	snprintf(f.what, sizeof(f.what), "test");
	struct journal_entry es[] = {
		entry(d, "-", "scheduler", "-", "-", "none"),
		entry(d, "-", "read_ahead_kb", "-", "-", "128"),
		entry(d, "-", "queue/rotational", "-", "-", "1"),
		entry(d, "-", "nr_requests", "-", "-", nr),
		entry(d, "-", "iosched/slice_idle", "bfq", "-", "8"),
		entry("nosuchdisk9", "-", "read_ahead_kb", "-", "-", "128"),
	};
	for (size_t i = 0; i < sizeof(es) / sizeof(es[0]); i++) {
		assert_true(journal_entry_valid(&es[i]));
		assert_int_equal(journal_file_add(&f, &es[i]), 0);
	}
	write_journal("session-999990.journal", &f);
	journal_file_free(&f);

	struct outcomes dry = { "" }, real = { "" };
	assert_int_equal(journal_restore_all(NULL, 1, outcomes_fn, &dry), 0);
	get(d, "queue/read_ahead_kb", ra, sizeof(ra));
	assert_string_equal(ra, "256");   /* the dry run changed nothing */
	assert_int_equal(count_journals(), 1);
	assert_int_equal(journal_restore_all(NULL, 0, outcomes_fn, &real), 0);
	assert_string_equal(dry.text, real.text);
	char want[1024];
	snprintf(want, sizeof(want), "nosuchdisk9 read_ahead_kb %d\n%s iosched/slice_idle %d\n"
		 "%s nr_requests %d\n%s queue/rotational %d\n%s read_ahead_kb %d\n"
		 "%s scheduler %d\n", JOURNAL_VANISHED, d, JOURNAL_SKIPPED, d, JOURNAL_UNCHANGED,
		 d, JOURNAL_RESTORED, d, JOURNAL_RESTORED, d, JOURNAL_RESTORED);
	assert_string_equal(real.text, want);
	get(d, "queue/read_ahead_kb", ra, sizeof(ra));
	assert_string_equal(ra, "128");
	get(d, "queue/rotational", ra, sizeof(ra));
	assert_string_equal(ra, "1");
	get(d, "queue/scheduler", sched, sizeof(sched));
	assert_non_null(strstr(sched, "[none]"));
	assert_int_equal(count_journals(), 0);
}

/* The lab's attributes are journal keys only on a loop device. */
static void test_attr_keys(void **state)
{
	(void)state;
	struct journal_entry e = entry("loop3", "12", "bdi/max_ratio_fine", "-", "-", "1000000");
	assert_true(journal_attr_key("queue/rotational"));
	assert_false(journal_attr_key("queue/scheduler"));
	assert_true(journal_entry_valid(&e));
	e = entry("sda", "-", "bdi/strict_limit", "-", "-", "0");
	assert_false(journal_entry_valid(&e));
	e = entry("loop3", "-", "bdi/strict_limit", "-", "scheduler", "0");
	assert_false(journal_entry_valid(&e));
	e = entry("loop3", "-", "queue/rotational", "-", "-", "x");
	assert_false(journal_entry_valid(&e));
	e = entry("loop3", "-", "bdi/../../x", "-", "-", "1");
	assert_false(journal_entry_valid(&e));
}

/* A lab's journal is left alone by recovery and `brisk restore` and
 * restored by name (journal_restore_file); an empty one is removed. */
static void test_lab_journal(void **state)
{
	(void)state;
	char boot[40];
	current_boot(boot, sizeof(boot));
	struct journal_file f;
	memset(&f, 0, sizeof(f));
	f.kind = JOURNAL_LAB;
	f.pid = 999990;
	snprintf(f.boot, sizeof(f.boot), "%s", boot);
	snprintf(f.what, sizeof(f.what), "brisk lab up lab0");
	write_journal("session-999991.journal", &f);   /* empty */
	struct journal_entry e = entry("loop999", "-", "queue/rotational", "-", "-", "1");
	journal_file_add(&f, &e);
	write_journal("session-999990.journal", &f);
	char *text;
	struct journal_file g;
	assert_int_equal(journal_format(&f, &text), 0);
	assert_non_null(strstr(text, "\nkind lab\n"));
	assert_int_equal(journal_parse(text, &g, NULL), 0);
	assert_int_equal(g.kind, JOURNAL_LAB);
	journal_file_free(&g);
	free(text);
	journal_file_free(&f);

	assert_int_equal(journal_recover_stale(NULL), 0);
	struct tally t = { 0 };
	assert_int_equal(journal_restore_all(NULL, 0, tally_fn, &t), 0);
	assert_int_equal(t.n[JOURNAL_VANISHED], 0);
	assert_int_equal(count_journals(), 1);   /* the empty one went */
	assert_int_equal(journal_restore_file("../x.journal", tally_fn, &t), -EINVAL);
	assert_int_equal(journal_restore_file("session-999990.journal", tally_fn, &t), 0);
	assert_int_equal(t.n[JOURNAL_VANISHED], 1);
	assert_int_equal(count_journals(), 0);
	assert_int_equal(journal_restore_file("session-999990.journal", tally_fn, &t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_journal_round_trip),
		cmocka_unit_test(test_journal_parse_refuses),
		cmocka_unit_test_setup_teardown(test_session_file, setup_rt, teardown_rt),
		cmocka_unit_test_setup_teardown(test_device_lock, setup_rt, teardown_rt),
		cmocka_unit_test_setup_teardown(test_recovery, setup_rt, teardown_rt),
		cmocka_unit_test_setup_teardown(test_forget, setup_rt, teardown_rt),
		cmocka_unit_test_setup_teardown(test_leftovers_and_refused, setup_rt, teardown_rt),
		cmocka_unit_test(test_attr_keys),
		cmocka_unit_test_setup_teardown(test_lab_journal, setup_rt, teardown_rt),
		cmocka_unit_test_setup_teardown(test_dry_run_matches_restore, setup_rt,
						teardown_loop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
