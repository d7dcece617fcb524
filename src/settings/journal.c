#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "journal_disk.h"
#include "journal_restore.h"
#include "journal_stale.h"
#include "rundir.h"
#include "sysfs.h"
#include "text.h"
#include "trace.h"
#include "tunable_bdi.h"
#include "fileio.h"

struct journal {
	int fd;                  /* O_APPEND, write-locked */
	int dfd;                 /* the checked runtime directory */
	char dir[PATH_MAX];      /* its path, for messages */
	char name[64];           /* the journal's name in it */
	char path[PATH_MAX];     /* dir/name, for messages */
	struct journal_file f;
	struct journal_locks locks;
	struct journal *next;    /* open sessions of this process */
};

static struct journal *open_sessions;

static char last_error[PATH_MAX + 128];

const char *journal_error(void)
{
	return last_error;
}

/* ------------------------------------------------------------ sessions */

const char *journal_path(const struct journal *j)
{
	return j->path;
}

const char *journal_name(const struct journal *j)
{
	return j->name;
}

const struct journal_file *journal_contents(const struct journal *j)
{
	return &j->f;
}

void journal_what(char *buf, size_t len, int argc, char **argv)
{
	size_t off = 0;
	buf[0] = '\0';
	for (int i = 0; i < argc; i++) {
		int w = snprintf(buf + off, len - off, "%s%s", i ? " " : "brisk ", argv[i]);
		if (w < 0 || (size_t)w >= len - off)
			break;
		off += (size_t)w;
	}
}

int journal_open(enum journal_kind kind, const char *what, struct journal **out)
{
	struct journal *j = calloc(1, sizeof(*j));
	if (!j) {
		snprintf(last_error, sizeof(last_error), "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	j->fd = -1;
	last_error[0] = '\0';
	int rc = rundir_open(RUNDIR_CREATE, &j->dfd, j->dir, sizeof(j->dir), last_error,
			     sizeof(last_error));
	if (rc < 0) {
		trace(TRACE_JOURNAL, "cannot open the runtime directory: %s", last_error);
		free(j);
		return rc;
	}
	j->f.kind = kind;
	j->f.pid = getpid();
	journal_disk_boot_id(j->f.boot, sizeof(j->f.boot));
	j->f.created = journal_disk_boottime();
	snprintf(j->f.what, sizeof(j->f.what), "%s", what ? what : "");
	for (int i = 0; i < 1000; i++) {
		if (i == 0)
			snprintf(j->name, sizeof(j->name), "session-%ld.journal", (long)j->f.pid);
		else
			snprintf(j->name, sizeof(j->name), "session-%ld-%d.journal",
				 (long)j->f.pid, i);
		int n = snprintf(j->path, sizeof(j->path), "%s/%s", j->dir, j->name);
		if (n < 0 || (size_t)n >= sizeof(j->path)) {
			rc = -ENAMETOOLONG;
			goto fail;
		}
		/* Claim the name, then write the real file over it: the
		 * journal only ever appears complete and locked.  (A kill in
		 * between leaves an empty one: removed by the next start.) */
		int fd = openat(j->dfd, j->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				O_CLOEXEC, 0644);
		if (fd >= 0) {
			close(fd);
			break;
		}
		if (errno != EEXIST) {
			rc = -errno;
			goto fail;
		}
		j->name[0] = '\0';
	}
	if (!j->name[0]) {
		rc = -EEXIST;
		goto fail;
	}
	rc = journal_disk_replace(j->dfd, j->name, &j->f, &j->fd);
	if (rc < 0) {
		unlinkat(j->dfd, j->name, 0);
		goto fail;
	}
	j->next = open_sessions;
	open_sessions = j;
	*out = j;
	trace(TRACE_JOURNAL, "opened %s (%s)", j->path, journal_kind_name(kind));
	return 0;
fail:
	snprintf(last_error, sizeof(last_error), "%s: %s", j->dir, strerror(-rc));
	trace(TRACE_JOURNAL, "cannot open a journal: %s", last_error);
	close(j->dfd);
	free(j);
	return rc;
}

int journal_lock(struct journal *j, const char *dev, pid_t *holder)
{
	if (strcmp(dev, "-") != 0 && !tunable_valid_devname(dev))
		return -EINVAL;
	return journal_locks_get(&j->locks, j->dfd, dev, holder);
}

static int journaled(const struct journal *j, const char *target, const char *key)
{
	for (size_t i = 0; i < j->f.n; i++)
		if (strcmp(j->f.e[i].target, target) == 0 && strcmp(j->f.e[i].key, key) == 0)
			return 1;
	return 0;
}

static int record(struct journal *j, const char *target, const char *key,
		  const char *sched, const char *via, const char *value)
{
	struct journal_entry e;
	memset(&e, 0, sizeof(e));
	snprintf(e.target, sizeof(e.target), "%s", target);
	snprintf(e.diskseq, sizeof(e.diskseq), "-");
	if (strcmp(target, "-") != 0) {
		char seq[24];
		if (sysfs_readf(seq, sizeof(seq), "/sys/block/%s/diskseq", target) == 0 &&
		    seq[0] && strspn(seq, "0123456789") == strlen(seq))
			snprintf(e.diskseq, sizeof(e.diskseq), "%s", seq);
	}
	snprintf(e.key, sizeof(e.key), "%s", key);
	snprintf(e.sched, sizeof(e.sched), "%s", sched && *sched ? sched : "-");
	snprintf(e.via, sizeof(e.via), "%s", via && *via ? via : "-");
	if (strlen(value) >= sizeof(e.value))
		return -EINVAL;
	snprintf(e.value, sizeof(e.value), "%s", value);
	if (!journal_entry_valid(&e))
		return -EINVAL;
	char line[512];
	int n = snprintf(line, sizeof(line), "orig %s %s %s %s %s %s\n", e.target,
			 e.diskseq, e.key, e.sched, e.via, e.value);
	if (n < 0 || (size_t)n >= sizeof(line))
		return -EINVAL;
	int rc = fileio_write_all(j->fd, line, (size_t)n);
	if (rc == 0 && fsync(j->fd) < 0)
		rc = -errno;
	if (rc == 0)
		rc = journal_file_add(&j->f, &e);
	trace(TRACE_JOURNAL, "record %s %s=%s%s%s: %s", target, key, value, e.via[0] != '-' ? " via " :
	      "", e.via[0] != '-' ? e.via : "", rc ? strerror(-rc) : "ok");
	return rc;
}

/* Record KEY's current value on DEV unless this session already has it. */
static int record_current(struct journal *j, const char *dev,
			  const struct tunable_key *key, const char *sched,
			  const char *via)
{
	const char *target = tunable_is_sysctl(key) ? "-" : dev;
	if (journaled(j, target, key->name))
		return 0;
	char val[TUNABLE_VALUE_LEN];
	int rc = tunable_read(dev, key, val, sizeof(val));
	if (rc < 0)
		return rc;
	return record(j, target, key->name, key->kind == TUNABLE_IOSCHED ? sched : "-",
		      via, val);
}

int journal_record_attr(struct journal *j, const char *dev, const char *attr)
{
	char val[TUNABLE_VALUE_LEN];
	if (!journal_attr_key(attr) || strncmp(dev, "loop", 4) != 0 ||
	    !tunable_valid_devname(dev))
		return -EINVAL;
	int rc = journal_lock(j, dev, NULL);
	if (rc < 0 || journaled(j, dev, attr))
		return rc;
	rc = sysfs_readf(val, sizeof(val), "/sys/block/%s/%s", dev, attr);
	if (rc < 0)
		return rc;
	return record(j, dev, attr, NULL, NULL, val);
}

int journal_set(struct journal *j, const char *dev, const struct tunable_key *key,
		const char *value, struct tunable_result *res, pid_t *holder)
{
	const char *target = tunable_is_sysctl(key) ? "-" : dev;
	int rc = journal_lock(j, target, holder);
	if (rc < 0)
		return rc;
	/* The caller checked; check again as things are now (another tool may
	 * have switched the scheduler meanwhile): nothing unchecked is written. */
	char canon[TUNABLE_VALUE_LEN];
	rc = tunable_check(dev, key, value, NULL, canon, sizeof(canon), NULL, 0);
	if (rc < 0)
		return rc;
	value = canon;
	char active[TUNABLE_SCHED_LEN] = "", offered[256];
	if (!tunable_is_sysctl(key) &&
	    tunable_schedulers(dev, active, sizeof(active), offered, sizeof(offered)) < 0)
		active[0] = '\0';
	if (!journaled(j, target, key->name)) {
		if (key->kind == TUNABLE_SCHEDULER) {
			/* A switch discards the old scheduler's tunables and
			 * resets nr_requests and wbt: keep them first, so they
			 * are restored after the scheduler (reverse order). */
			struct tunable_key keys[96];
			size_t n = tunable_list(dev, 0, keys, 96);
			for (size_t i = 0; i < n && i < 96 && rc == 0; i++)
				if (keys[i].kind == TUNABLE_IOSCHED)
					rc = record_current(j, dev, &keys[i], active, "scheduler");
			for (size_t i = 0; tunable_sched_dependent[i] && rc == 0; i++) {
				struct tunable_key k;
				char path[512];
				if (tunable_parse_key(tunable_sched_dependent[i], &k, NULL, 0) == 0 &&
				    tunable_path(dev, &k, path, sizeof(path)) == 0 &&
				    sysfs_exists(path) == 0)
					rc = record_current(j, dev, &k, NULL, "scheduler");
			}
		} else if (tunable_is_sysctl(key) && tunable_sysctl_partner(key->name)) {
			struct tunable_key k;
			rc = tunable_parse_key(tunable_sysctl_partner(key->name), &k, NULL, 0);
			if (rc == 0)
				rc = record_current(j, dev, &k, NULL, key->name);
		} else if (tunable_bdi_carrier(key->name)) {
			/* max_bytes and max_ratio are views of max_ratio_fine
			 * (min_* of min_ratio_fine): it is what puts them back
			 * exactly; restored last, as it is recorded first */
			struct tunable_key k;
			char path[512];
			if (tunable_parse_key(tunable_bdi_carrier(key->name), &k, NULL, 0) == 0 &&
			    tunable_path(dev, &k, path, sizeof(path)) == 0 &&
			    sysfs_exists(path) == 0)
				rc = record_current(j, dev, &k, NULL, key->name);
		}
		if (rc == 0)
			rc = record_current(j, dev, key, active, NULL);
		if (rc < 0)
			return rc;
	}
	return tunable_apply(dev, key, value, res);
}

/* Put this session's entries on disk as they are now (atomic replace; the
 * new file is locked and kept open in place of the old one). */
static int rewrite(struct journal *j)
{
	int fd;
	int rc = journal_disk_replace(j->dfd, j->name, &j->f, &fd);
	if (rc < 0)
		return rc;
	close(j->fd);
	j->fd = fd;
	return 0;
}

int journal_restore(struct journal *j, journal_report_fn fn, void *arg)
{
	if (j->f.n == 0)
		return 0;
	unsigned char *keep = calloc(j->f.n, 1);
	if (!keep)
		return -ENOMEM;
	int failed = journal_restore_entries(j->dfd, j->path, &j->f, 0, &j->locks, keep, fn, arg);
	journal_file_compact(&j->f, keep);
	free(keep);
	int rc = rewrite(j);
	return rc < 0 ? rc : failed;
}

int journal_discard(struct journal *j)
{
	j->f.n = 0;
	return rewrite(j);
}

void journal_close(struct journal *j)
{
	if (!j)
		return;
	journal_locks_release(&j->locks);
	if (j->f.n == 0) {
		unlinkat(j->dfd, j->name, 0);
		journal_disk_sync_dir(j->dfd);
	}
	if (j->fd >= 0)
		close(j->fd);
	close(j->dfd);
	for (struct journal **pp = &open_sessions; *pp; pp = &(*pp)->next)
		if (*pp == j) {
			*pp = j->next;
			break;
		}
	journal_file_free(&j->f);
	free(j);
}

static int same_dir(int a, int b)
{
	struct stat x, y;
	return fstat(a, &x) == 0 && fstat(b, &y) == 0 && x.st_dev == y.st_dev &&
	       x.st_ino == y.st_ino;
}

int journal_is_own(int dfd, const char *name)
{
	for (struct journal *j = open_sessions; j; j = j->next)
		if (strcmp(j->name, name) == 0 && same_dir(j->dfd, dfd))
			return 1;
	return 0;
}

/* ------------------------------------------------------------ reporting */

int journal_event_noteworthy(const struct journal_event *ev)
{
	return !(ev->entry && strcmp(ev->entry->via, "-") != 0 &&
		 (ev->outcome == JOURNAL_UNCHANGED || ev->outcome == JOURNAL_SKIPPED));
}

void journal_report_print(const struct journal_event *ev, void *file)
{
	FILE *f = file;
	const struct journal_entry *e = ev->entry;
	/* values came from sysfs or a journal file: shown escaped (text.h) */
	char raw[160] = "", what[TEXT_SHOW_LEN];
	if (e) {
		if (strcmp(e->target, "-") == 0)
			snprintf(raw, sizeof(raw), "%s=%s", e->key, e->value);
		else
			snprintf(raw, sizeof(raw), "%s %s=%s", e->target, e->key, e->value);
	}
	text_escape(what, sizeof(what), raw);
	const char *cur = text_show(ev->current), *note = ev->note ? text_show(ev->note) : NULL;
	switch (ev->outcome) {
	case JOURNAL_RESTORED:
		if (ev->dry_run && note)
			fprintf(f, "would restore %s (%s)\n", what, note);
		else if (ev->dry_run)
			fprintf(f, "would restore %s (now %s)\n", what, cur);
		else if (ev->readback && strcmp(ev->readback, e->value) != 0)
			fprintf(f, "restored %s (was %s; the kernel stored %s)\n", what,
				cur, text_show(ev->readback));
		else
			fprintf(f, "restored %s (was %s)\n", what, cur);
		break;
	case JOURNAL_UNCHANGED:
		fprintf(f, "%s already in place\n", what);
		break;
	case JOURNAL_SKIPPED:
		fprintf(f, "nothing to write for %s: %s\n", what, note ? note : "");
		break;
	case JOURNAL_VANISHED:
		fprintf(f, "cannot restore %s: %s (dropped)\n", what, note ? note : "");
		break;
	case JOURNAL_FAILED:
		fprintf(f, "FAILED to restore %s: %s%s%s (kept in %s)\n", what,
			note ? note : "", note && ev->err ? ": " : "",
			ev->err ? strerror(-ev->err) : "", ev->path);
		break;
	case JOURNAL_BUSY:
		fprintf(f, "not restoring %s now: the device is being changed by brisk "
			"pid %ld (kept in %s)\n", what, (long)ev->holder, ev->path);
		break;
	case JOURNAL_LIVE:
		fprintf(f, "%s: its session (pid %ld) is still running; left alone\n",
			ev->path, (long)ev->holder);
		break;
	case JOURNAL_OLD_BOOT:
		fprintf(f, "%s: from an earlier boot, whose settings were reset at boot; "
			"%s\n", ev->path, ev->dry_run ? "would drop it" : "dropped");
		break;
	case JOURNAL_CORRUPT:
		fprintf(f, "%s: %s; left in place for inspection\n", ev->path,
			note ? note : "unreadable");
		break;
	case JOURNAL_REFUSED:
		fprintf(f, "%s; refused: not trusted, nothing in it is applied or removed\n",
			note ? note : ev->path);
		break;
	case JOURNAL_LEFTOVER:
		fprintf(f, "%s: %s left by a killed brisk (pid %ld); %s\n", ev->path,
			note ? note : "a leftover", (long)ev->holder,
			ev->dry_run ? "would remove it" : "removed");
		break;
	}
}

