/* journal_stale — journals left behind by sessions that are gone:
 * journal_restore_all, journal_recover_stale, journal_forget (journal.h);
 * see journal_stale.h. */
#include "journal_stale.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "devlock.h"
#include "journal_disk.h"
#include "journal_restore.h"
#include "rundir.h"
#include "text.h"
#include "trace.h"
#include "tunable_bdi.h"

static void report(journal_report_fn fn, void *arg, const struct journal_event *ev)
{
	if (fn)
		fn(ev, arg);
}

struct found {
	char name[256];
	uint64_t created;
};

static int cmp_found(const void *a, const void *b)
{
	uint64_t x = ((const struct found *)a)->created, y = ((const struct found *)b)->created;
	return x < y ? 1 : x > y ? -1 : strcmp(((const struct found *)a)->name,
					       ((const struct found *)b)->name);
}

/* Open NAME in the checked directory DFD (DIR) after checking it, and check
 * what was opened again (rundir_check_file): the fd, -EPERM with the reason
 * in why (nothing opened that is not trusted), or -errno. */
static int open_checked(int dfd, const char *dir, const char *name, int writing,
			int rflags, char *why, size_t whylen)
{
	char path[PATH_MAX];
	int rc = rundir_check_entry(dfd, dir, name, rflags, why, whylen);
	if (rc < 0)
		return rc;
	int fd = openat(dfd, name, (writing ? O_RDWR : O_RDONLY) | O_NOFOLLOW | O_NONBLOCK |
			O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	rc = rundir_check_file(fd, path, rflags, why, whylen);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

static int is_journal_name(const char *name)
{
	size_t len = strlen(name);
	return strncmp(name, "session-", 8) == 0 && len >= 16 && len < sizeof(((struct found *)0)->name) &&
	       strcmp(name + len - 8, ".journal") == 0;
}

/* Session journals in DFD, newest first; *out malloc'ed. */
static int list_journals(int dfd, const char *dir, int rflags, struct found **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	int lfd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lfd < 0)
		return -errno;
	DIR *d = fdopendir(lfd);
	if (!d) {
		int rc = -errno;
		close(lfd);
		return rc;
	}
	size_t cap = 0;
	struct dirent *de;
	int rc = 0;
	while ((de = readdir(d))) {
		if (!is_journal_name(de->d_name))
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 8;
			struct found *nf = realloc(*out, cap * sizeof(**out));
			if (!nf) {
				rc = -ENOMEM;
				break;
			}
			*out = nf;
		}
		struct found *f = &(*out)[*n];
		snprintf(f->name, sizeof(f->name), "%s", de->d_name);
		f->created = 0;
		int fd = open_checked(dfd, dir, f->name, 0, rflags, NULL, 0);
		if (fd >= 0) {
			char *text;
			struct journal_file jf;
			if (journal_file_read(fd, &text) == 0) {
				if (journal_parse(text, &jf, NULL) == 0) {
					f->created = jf.created;
					journal_file_free(&jf);
				}
				free(text);
			}
			close(fd);
		}
		(*n)++;
	}
	closedir(d);
	if (rc < 0) {
		free(*out);
		*out = NULL;
		*n = 0;
		return rc;
	}
	if (*n > 1)
		qsort(*out, *n, sizeof(**out), cmp_found);
	return 0;
}

/* STALE: run/tui journals at start; ALL: `brisk restore`; HINT: point at
 * them without root; ONE: the one journal a lab names (any kind). */
enum mode { MODE_STALE, MODE_ALL, MODE_HINT, MODE_ONE };

static void report_refused(const char *path, const char *why, int dry_run,
			   journal_report_fn fn, void *arg)
{
	struct journal_event ev = { .path = path, .outcome = JOURNAL_REFUSED, .note = why,
				    .dry_run = dry_run, .err = -EPERM };
	report(fn, arg, &ev);
}

/* The pid in "session-PID[-N].journal" or ".tmp-PID.journal"; 0 if none. */
static pid_t name_pid(const char *name, int *tmp)
{
	const char *p;
	*tmp = 0;
	if (strncmp(name, "session-", 8) == 0) {
		p = name + 8;
	} else if (strncmp(name, ".tmp-", 5) == 0) {
		p = name + 5;
		*tmp = 1;
	} else {
		return 0;
	}
	size_t n = strspn(p, "0123456789");
	if (n == 0 || n > 9)
		return 0;
	const char *rest = p + n;
	if (*tmp ? strcmp(rest, ".journal") != 0
		 : strcmp(rest, ".journal") != 0 &&
		   !(rest[0] == '-' && strspn(rest + 1, "0123456789") > 0 &&
		     strcmp(rest + 1 + strspn(rest + 1, "0123456789"), ".journal") == 0))
		return 0;
	return (pid_t)strtol(p, NULL, 10);
}

static int pid_alive(pid_t pid)
{
	return pid == getpid() || kill(pid, 0) == 0 || errno == EPERM;
}

/* A lock file nobody holds (devlock_remove_stale): removed, reported; one
 * that is not trusted is reported as refused.  1 when one was removed. */
static int clean_lock(int dfd, const char *dir, const char *name, int dry_run,
		      journal_report_fn fn, void *arg)
{
	char path[PATH_MAX], why[PATH_MAX + 128];
	pid_t last;
	int rc = devlock_remove_stale(dfd, dir, name, dry_run, &last, why, sizeof(why));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (rc == -EPERM)
		report_refused(path, why, dry_run, fn, arg);
	if (rc <= 0)
		return 0;
	struct journal_event ev = { .path = path, .outcome = JOURNAL_LEFTOVER, .holder = last,
				    .dry_run = dry_run, .note = "a lock file nobody holds" };
	report(fn, arg, &ev);
	return !dry_run;
}

/* What a SIGKILL during journal_open/journal_disk_replace leaves: an empty
 * session-PID.journal (the claimed name) and .tmp-PID.journal (a journal
 * not yet renamed into place).  Removed when PID is gone; reported.
 * Refused temporary files are reported (empty session files that are
 * refused are reported by handle_file).  And the lock files of killed
 * sessions (locks: the directory is the euid's, not only read). */
static void clean_leftovers(int dfd, const char *dir, int locks, int dry_run,
			    journal_report_fn fn, void *arg)
{
	int lfd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (lfd < 0)
		return;
	DIR *d = fdopendir(lfd);
	if (!d) {
		close(lfd);
		return;
	}
	struct dirent *de;
	int removed = 0;
	while ((de = readdir(d))) {
		if (locks && de->d_name[0] != '.' && clean_lock(dfd, dir, de->d_name, dry_run, fn, arg))
			removed = 1;
		int tmp;
		pid_t pid = name_pid(de->d_name, &tmp);
		struct stat st;
		char path[PATH_MAX], why[PATH_MAX + 128];
		if (pid <= 0 || fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (!tmp && (!S_ISREG(st.st_mode) || st.st_size != 0))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		int rc = rundir_check_entry(dfd, dir, de->d_name, 0, why, sizeof(why));
		if (rc == -EPERM && tmp)
			report_refused(path, why, dry_run, fn, arg);
		if (rc < 0 || pid_alive(pid))
			continue;
		struct journal_event ev = { .path = path, .outcome = JOURNAL_LEFTOVER,
					    .holder = pid, .dry_run = dry_run,
					    .note = tmp ? "a temporary journal" : "an empty journal" };
		if (!dry_run) {
			if (unlinkat(dfd, de->d_name, 0) < 0)
				continue;
			removed = 1;
		}
		report(fn, arg, &ev);
	}
	closedir(d);
	if (removed)
		journal_disk_sync_dir(dfd);
}

/* Handle the journal NAME in DFD (DIR).  Adds to *failed the entries not
 * restored (and 1 for a journal refused or unreadable). */
static void handle_file(int dfd, const char *dir, const char *name, int rflags,
			enum mode mode, int dry_run, journal_report_fn fn, void *arg,
			int *failed)
{
	if (journal_is_own(dfd, name))
		return;
	char path[PATH_MAX], why[PATH_MAX + 128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int writing = !dry_run && mode != MODE_HINT;
	int fd = open_checked(dfd, dir, name, writing, rflags, why, sizeof(why));
	if (fd == -EPERM) {
		report_refused(path, why, dry_run || mode == MODE_HINT, fn, arg);
		(*failed)++;
		return;
	}
	if (fd < 0)
		return;
	struct journal_file jf;
	struct journal_event ev = { .path = path, .dry_run = dry_run || mode == MODE_HINT };
	char *text = NULL;
	int line = 0;
	pid_t holder = journal_disk_holder(fd);
	if (holder || (writing && journal_disk_lock(fd) < 0)) {
		if (mode == MODE_ALL) {
			ev.outcome = JOURNAL_LIVE;
			ev.holder = holder;
			report(fn, arg, &ev);
		}
		goto out;
	}
	struct stat st;
	/* nlink 0: someone else finished it meanwhile; size 0: a session
	 * is creating it (journal_open renames the real one over it), or
	 * one was killed doing so (clean_leftovers) */
	if (fstat(fd, &st) < 0 || st.st_nlink == 0 || st.st_size == 0)
		goto out;
	int rc = journal_file_read(fd, &text);
	if (rc == 0)
		rc = journal_parse(text, &jf, &line);
	if (rc < 0) {
		char note[64];
		snprintf(note, sizeof(note), "cannot parse it (line %d)", line);
		ev.outcome = JOURNAL_CORRUPT;
		ev.note = note;
		report(fn, arg, &ev);
		(*failed)++;
		goto out;
	}
	ev.file = &jf;
	if ((mode == MODE_STALE || mode == MODE_HINT) && jf.kind == JOURNAL_SET)
		goto done;
	char boot[40];
	journal_disk_boot_id(boot, sizeof(boot));
	if (strcmp(jf.boot, boot) != 0) {
		ev.outcome = JOURNAL_OLD_BOOT;
		report(fn, arg, &ev);
		if (writing) {
			unlinkat(dfd, name, 0);
			journal_disk_sync_dir(dfd);
		}
		goto done;
	}
	/* A lab's journal is its lab's: restored when the lab is taken apart
	 * (journal_restore_file); one killed before it recorded anything
	 * holds nothing. */
	if (jf.kind == JOURNAL_LAB && mode != MODE_ONE) {
		if (writing && jf.n == 0) {
			unlinkat(dfd, name, 0);
			journal_disk_sync_dir(dfd);
		}
		goto done;
	}
	if (mode == MODE_HINT) {
		ev.outcome = JOURNAL_LIVE;   /* reported as "needs root" by the caller */
		report(fn, arg, &ev);
		goto done;
	}
	unsigned char *keep = calloc(jf.n ? jf.n : 1, 1);
	if (!keep) {
		(*failed)++;
		goto done;
	}
	struct journal_locks lt = { 0 };
	*failed += journal_restore_entries(dfd, path, &jf, !writing, &lt, keep, fn, arg);
	journal_locks_release(&lt);
	if (writing) {
		if (journal_file_compact(&jf, keep) == 0) {
			unlinkat(dfd, name, 0);
			journal_disk_sync_dir(dfd);
		} else {
			journal_disk_replace(dfd, name, &jf, NULL);
		}
	}
	free(keep);
done:
	journal_file_free(&jf);
out:
	free(text);
	close(fd);
}

/* Open DIR as a checked runtime directory: 0 and *dfd; 1 when it was
 * refused (reported); 0 with *dfd -1 when it does not exist; -errno. */
static int open_dir(const char *dir, int rflags, int dry_run, journal_report_fn fn,
		    void *arg, int *dfd)
{
	char why[PATH_MAX + 128];
	*dfd = -1;
	int rc = rundir_open_at(dir, rflags, dfd, why, sizeof(why));
	if (rc == -ENOENT)
		return 0;
	if (rc == -EPERM) {
		report_refused(dir, why, dry_run, fn, arg);
		return 1;
	}
	return rc;
}

static int handle_dir(const char *dir, int rflags, enum mode mode, int dry_run,
		      journal_report_fn fn, void *arg)
{
	int dfd;
	int rc = open_dir(dir, rflags, dry_run || mode == MODE_HINT, fn, arg, &dfd);
	if (rc != 0 || dfd < 0)
		return rc;
	if (mode != MODE_HINT)
		clean_leftovers(dfd, dir, rflags == 0, dry_run, fn, arg);
	struct found *list;
	size_t n;
	rc = list_journals(dfd, dir, rflags, &list, &n);
	if (rc < 0) {
		close(dfd);
		return rc;
	}
	int failed = 0;
	for (size_t i = 0; i < n; i++)
		handle_file(dfd, dir, list[i].name, rflags, mode, dry_run, fn, arg, &failed);
	free(list);
	close(dfd);
	return failed;
}

int journal_restore_all(const char *dir, int dry_run, journal_report_fn fn, void *arg)
{
	char buf[PATH_MAX];
	if (!dir) {
		int rc = rundir_path(buf, sizeof(buf));
		if (rc < 0)
			return rc == -ENOENT ? 0 : rc;
		dir = buf;
	}
	int rflags = dry_run && geteuid() != 0 ? RUNDIR_READ : 0;
	return handle_dir(dir, rflags, MODE_ALL, dry_run, fn, arg);
}

int journal_restore_file(const char *name, journal_report_fn fn, void *arg)
{
	char dir[PATH_MAX];
	int dfd, failed = 0;
	if (!is_journal_name(name) || strchr(name, '/'))
		return -EINVAL;
	int rc = rundir_open(0, &dfd, dir, sizeof(dir), NULL, 0);
	if (rc < 0)
		return rc;
	handle_file(dfd, dir, name, 0, MODE_ONE, 0, fn, arg, &failed);
	close(dfd);
	trace(TRACE_JOURNAL, "restored %s/%s: %d not restored", dir, name, failed);
	return failed;
}

struct stale_ctx {
	FILE *out;
	const struct journal_file *last;
	int hint;
};

static void stale_report(const struct journal_event *ev, void *arg)
{
	struct stale_ctx *c = arg;
	if (ev->outcome == JOURNAL_REFUSED || ev->outcome == JOURNAL_LEFTOVER) {
		fputs("brisk: ", c->out);
		journal_report_print(ev, c->out);
		return;
	}
	if (c->hint) {
		if (ev->file && ev->outcome == JOURNAL_LIVE)
			fprintf(c->out, "brisk: a %s session (pid %ld, %s) died and left changed "
				"settings in %s; run 'sudo brisk restore' to put them back\n",
				journal_kind_name(ev->file->kind), (long)ev->file->pid,
				ev->file->what, ev->path);
		return;
	}
	if (!journal_event_noteworthy(ev))
		return;
	if (ev->file && ev->file != c->last) {
		c->last = ev->file;
		fprintf(c->out, "brisk: a %s session (pid %ld, %s) ended without restoring "
			"its settings; restoring them from %s:\n",
			journal_kind_name(ev->file->kind), (long)ev->file->pid,
			text_show(ev->file->what), ev->path);
	}
	fputs("  ", c->out);
	journal_report_print(ev, c->out);
}

int journal_recover_stale(FILE *report_to)
{
	struct stale_ctx c = { .out = report_to };
	const char *env = getenv("BRISK_RUNTIME_DIR");
	if (geteuid() != 0 && !(env && *env)) {
		if (!report_to)
			return 0;
		c.hint = 1;
		handle_dir(RUNDIR_SYSTEM, RUNDIR_READ, MODE_HINT, 1, stale_report, &c);
		return 0;
	}
	char dir[PATH_MAX];
	int rc = rundir_path(dir, sizeof(dir));
	if (rc < 0)
		return rc == -ENOENT ? 0 : rc;
	return handle_dir(dir, 0, MODE_STALE, 0, report_to ? stale_report : NULL, &c);
}

/* The one number a bdi key's file shows: its carrier, or the key itself
 * (tunable_bdi.h); NULL for other keys. */
static const char *bdi_number(const char *key)
{
	if (strncmp(key, "bdi.", 4) != 0)
		return NULL;
	const char *c = tunable_bdi_carrier(key);
	return c ? c : key;
}

int journal_forget(const char *dev, const char *key)
{
	char dir[PATH_MAX];
	int dfd;
	int rc = rundir_open(0, &dfd, dir, sizeof(dir), NULL, 0);
	if (rc < 0)
		return 0;   /* nothing there to forget (a refusal was reported at start) */
	const char *partner = tunable_sysctl_partner(key);
	struct found *list;
	size_t n;
	rc = list_journals(dfd, dir, 0, &list, &n);
	if (rc < 0) {
		close(dfd);
		return rc;
	}
	int removed = 0;
	for (size_t i = 0; i < n; i++) {
		if (journal_is_own(dfd, list[i].name))
			continue;
		int fd = open_checked(dfd, dir, list[i].name, 1, 0, NULL, 0);
		if (fd < 0)
			continue;
		struct stat st;
		char *text = NULL;
		struct journal_file jf;
		if (journal_disk_lock(fd) < 0 || fstat(fd, &st) < 0 || st.st_nlink == 0 ||
		    journal_file_read(fd, &text) < 0 || journal_parse(text, &jf, NULL) < 0) {
			free(text);
			close(fd);
			continue;
		}
		size_t m = 0;
		if (jf.kind == JOURNAL_SET) {
			for (size_t k = 0; k < jf.n; k++) {
				const struct journal_entry *e = &jf.e[k];
				int match = strcmp(e->target, dev) == 0 &&
					    (strcmp(e->key, key) == 0 || strcmp(e->via, key) == 0 ||
					     (partner && (strcmp(e->key, partner) == 0 ||
							  strcmp(e->via, partner) == 0)));
				/* max_bytes, max_ratio and max_ratio_fine are one
				 * number (min_* too): a kept one keeps them all */
				const char *num = bdi_number(key);
				if (num && strcmp(e->target, dev) == 0 &&
				    ((bdi_number(e->key) && strcmp(bdi_number(e->key), num) == 0) ||
				     (bdi_number(e->via) && strcmp(bdi_number(e->via), num) == 0)))
					match = 1;
				if (!match)
					jf.e[m++] = *e;
			}
			removed += (int)(jf.n - m);
			if (m != jf.n) {
				jf.n = m;
				if (m == 0) {
					unlinkat(dfd, list[i].name, 0);
					journal_disk_sync_dir(dfd);
				} else {
					journal_disk_replace(dfd, list[i].name, &jf, NULL);
				}
			}
		}
		journal_file_free(&jf);
		free(text);
		close(fd);
	}
	free(list);
	close(dfd);
	return removed;
}
