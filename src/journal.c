#include "journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "devlock.h"
#include "parse.h"
#include "rundir.h"
#include "sysfs.h"
#include "text.h"
#include "fileio.h"

#define MAX_LOCKS 64
#define MAX_JOURNAL_BYTES (1 << 20)

struct locktab {
	size_t n;
	int dfd;                   /* where the lock files are (borrowed) */
	char name[MAX_LOCKS][48];
	int fd[MAX_LOCKS];
};

struct journal {
	int fd;                  /* O_APPEND, write-locked */
	int dfd;                 /* the checked runtime directory */
	char dir[PATH_MAX];      /* its path, for messages */
	char name[64];           /* the journal's name in it */
	char path[PATH_MAX];     /* dir/name, for messages */
	struct journal_file f;
	struct locktab locks;
	struct journal *next;    /* open sessions of this process */
};

static struct journal *open_sessions;

/* ---------------------------------------------------------------- util */

static void fsync_dir(int dfd)
{
	if (fsync(dfd) < 0) {
		/* best effort: the entries themselves were fsync'ed */
	}
}

static void boot_id(char *buf, size_t len)
{
	if (sysfs_read("/proc/sys/kernel/random/boot_id", buf, len) < 0)
		snprintf(buf, len, "-");
}

static uint64_t now_boottime(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A field: non-empty, printable, no white space, shorter than max. */
static int token_ok(const char *s, size_t max)
{
	size_t n = 0;
	for (; s[n]; n++)
		if ((unsigned char)s[n] <= ' ' || (unsigned char)s[n] == 0x7f)
			return 0;
	return n > 0 && n < max;
}

static int dash_or(const char *s, int (*ok)(const char *))
{
	return strcmp(s, "-") == 0 || ok(s);
}

static int digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

static int sched_name(const char *s)
{
	return *s && strlen(s) < TUNABLE_SCHED_LEN &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == strlen(s);
}

static int canonical_key(const char *s)
{
	struct tunable_key k;
	return tunable_parse_key(s, &k, NULL, 0) == 0 && strcmp(k.name, s) == 0;
}

static void lock_name(const char *target, char *buf, size_t len)
{
	if (strcmp(target, "-") == 0)
		snprintf(buf, len, "sysctl-vm");
	else
		snprintf(buf, len, "dev-%.32s", target);
}

static int locktab_get(struct locktab *lt, int dfd, const char *target,
		       pid_t *holder)
{
	char name[48];
	lock_name(target, name, sizeof(name));
	for (size_t i = 0; i < lt->n; i++)
		if (strcmp(lt->name[i], name) == 0)
			return 0;
	if (lt->n == MAX_LOCKS)
		return -ENOSPC;
	int fd;
	int rc = devlock_acquire(dfd, name, &fd, holder);
	if (rc < 0)
		return rc;
	lt->dfd = dfd;
	snprintf(lt->name[lt->n], sizeof(lt->name[0]), "%s", name);
	lt->fd[lt->n++] = fd;
	return 0;
}

static void locktab_release(struct locktab *lt)
{
	for (size_t i = 0; i < lt->n; i++)
		devlock_release(lt->dfd, lt->name[i], lt->fd[i]);
	lt->n = 0;
}

/* Holder of the write lock on an open journal: 0 when none. */
static pid_t lock_holder(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	if (fcntl(fd, F_GETLK, &fl) < 0 || fl.l_type == F_UNLCK)
		return 0;
	return fl.l_pid;
}

static int lock_fd(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	return fcntl(fd, F_SETLK, &fl) < 0 ? -errno : 0;
}

/* ---------------------------------------------------------- the format */

const char *journal_kind_name(enum journal_kind kind)
{
	switch (kind) {
	case JOURNAL_RUN: return "run";
	case JOURNAL_TUI: return "tui";
	case JOURNAL_SET: return "set";
	}
	return "?";
}

int journal_entry_valid(const struct journal_entry *e)
{
	struct tunable_key k;
	if (!dash_or(e->target, tunable_valid_devname) || !dash_or(e->diskseq, digits) ||
	    !canonical_key(e->key) || !dash_or(e->sched, sched_name) ||
	    !dash_or(e->via, canonical_key) || !token_ok(e->value, sizeof(e->value)))
		return 0;
	if (tunable_parse_key(e->key, &k, NULL, 0) < 0)
		return 0;
	/* sysctls have no device; everything else needs one */
	if (tunable_is_sysctl(&k) != (strcmp(e->target, "-") == 0))
		return 0;
	return 1;
}

int journal_file_add(struct journal_file *f, const struct journal_entry *e)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 16;
		struct journal_entry *ne = realloc(f->e, cap * sizeof(*ne));
		if (!ne)
			return -ENOMEM;
		f->e = ne;
		f->cap = cap;
	}
	f->e[f->n++] = *e;
	return 0;
}

void journal_file_free(struct journal_file *f)
{
	free(f->e);
	f->e = NULL;
	f->n = f->cap = 0;
}

static int copy_field(char *dst, size_t len, const char *src, size_t n)
{
	if (n == 0 || n >= len)
		return -EINVAL;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return 0;
}

static int parse_entry(const char *s, struct journal_entry *e)
{
	char *fields[6] = { e->target, e->diskseq, e->key, e->sched, e->via, e->value };
	size_t sizes[6] = { sizeof(e->target), sizeof(e->diskseq), sizeof(e->key),
			    sizeof(e->sched), sizeof(e->via), sizeof(e->value) };
	for (int i = 0; i < 6; i++) {
		size_t n = strcspn(s, " ");
		if (copy_field(fields[i], sizes[i], s, n) < 0)
			return -EINVAL;
		s += n;
		if (i < 5) {
			if (*s != ' ')
				return -EINVAL;
			s++;
		}
	}
	if (*s)
		return -EINVAL;
	return journal_entry_valid(e) ? 0 : -EINVAL;
}

int journal_parse(const char *text, struct journal_file *out, int *line)
{
	memset(out, 0, sizeof(*out));
	int ln = 0, magic = 0, have_kind = 0, have_pid = 0;
	const char *p = text;
	char buf[512];
	while (*p) {
		size_t n = strcspn(p, "\n");
		ln++;
		/* A last line without its newline is a write torn by a crash:
		 * its change was never made (entries are fsync'ed first). */
		if (p[n] != '\n' && magic && strncmp(p, "orig ", 5) == 0)
			break;
		if (n >= sizeof(buf))
			goto bad;
		memcpy(buf, p, n);
		buf[n] = '\0';
		p += n;
		if (*p == '\n')
			p++;
		if (buf[0] == '\0' || buf[0] == '#')
			continue;
		if (!magic) {
			if (strcmp(buf, "brisk-journal 1") != 0)
				goto bad;
			magic = 1;
			continue;
		}
		char *sp = strchr(buf, ' ');
		if (!sp)
			goto bad;
		*sp = '\0';
		const char *v = sp + 1;
		int64_t num;
		if (strcmp(buf, "kind") == 0) {
			if (strcmp(v, "run") == 0)
				out->kind = JOURNAL_RUN;
			else if (strcmp(v, "tui") == 0)
				out->kind = JOURNAL_TUI;
			else if (strcmp(v, "set") == 0)
				out->kind = JOURNAL_SET;
			else
				goto bad;
			have_kind = 1;
		} else if (strcmp(buf, "pid") == 0) {
			if (!digits(v) || parse_int(v, 1, INT32_MAX, &num) < 0)
				goto bad;
			out->pid = (pid_t)num;
			have_pid = 1;
		} else if (strcmp(buf, "boot") == 0) {
			if (!token_ok(v, sizeof(out->boot)))
				goto bad;
			snprintf(out->boot, sizeof(out->boot), "%s", v);
		} else if (strcmp(buf, "created") == 0) {
			if (!digits(v) || parse_int(v, 0, INT64_MAX, &num) < 0)
				goto bad;
			out->created = (uint64_t)num;
		} else if (strcmp(buf, "what") == 0) {
			snprintf(out->what, sizeof(out->what), "%s", v);
		} else if (strcmp(buf, "orig") == 0) {
			struct journal_entry e;
			if (parse_entry(v, &e) < 0 || journal_file_add(out, &e) < 0)
				goto bad;
		} else {
			goto bad;
		}
	}
	if (!magic || !have_kind || !have_pid) {
		ln = 0;
		goto bad;
	}
	return 0;
bad:
	if (line)
		*line = ln;
	journal_file_free(out);
	return -EINVAL;
}

static int format_entry(FILE *m, const struct journal_entry *e)
{
	return fprintf(m, "orig %s %s %s %s %s %s\n", e->target, e->diskseq,
		       e->key, e->sched, e->via, e->value) < 0 ? -EIO : 0;
}

int journal_format(const struct journal_file *f, char **out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return -errno;
	char what[sizeof(f->what)];
	snprintf(what, sizeof(what), "%s", f->what);
	for (char *c = what; *c; c++)
		if ((unsigned char)*c < ' ')
			*c = ' ';
	fprintf(m, "# brisk restore journal: the original values of what brisk changed.\n"
		   "# 'brisk restore' puts them back; do not edit.\n"
		   "brisk-journal 1\nkind %s\npid %ld\nboot %s\ncreated %" PRIu64 "\nwhat %s\n",
		journal_kind_name(f->kind), (long)f->pid, f->boot[0] ? f->boot : "-",
		f->created, what);
	int rc = 0;
	for (size_t i = 0; i < f->n && rc == 0; i++)
		rc = format_entry(m, &f->e[i]);
	if (fclose(m) != 0 && rc == 0)
		rc = -EIO;
	if (rc < 0) {
		free(buf);
		return rc;
	}
	*out = buf;
	return 0;
}

/* Write F to a locked temporary file (.tmp-PID.journal) and rename it over
 * NAME in DFD.  *fd_out (when non-NULL) gets the new file, still locked,
 * opened O_APPEND. */
static int replace_file(int dfd, const char *name, const struct journal_file *f,
			int *fd_out)
{
	char tmp[64], *text;
	snprintf(tmp, sizeof(tmp), ".tmp-%ld.journal", (long)getpid());
	int rc = journal_format(f, &text);
	if (rc < 0)
		return rc;
	unlinkat(dfd, tmp, 0);
	int fd = openat(dfd, tmp, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0644);
	if (fd < 0) {
		rc = -errno;
		free(text);
		return rc;
	}
	rc = lock_fd(fd);
	if (rc == 0)
		rc = fileio_write_all(fd, text, strlen(text));
	if (rc == 0 && fsync(fd) < 0)
		rc = -errno;
	if (rc == 0 && renameat(dfd, tmp, dfd, name) < 0)
		rc = -errno;
	free(text);
	if (rc < 0) {
		unlinkat(dfd, tmp, 0);
		close(fd);
		return rc;
	}
	fsync_dir(dfd);
	if (fd_out)
		*fd_out = fd;
	else
		close(fd);
	return 0;
}

/* --------------------------------------------------------- directories */

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
		free(j);
		return rc;
	}
	j->f.kind = kind;
	j->f.pid = getpid();
	boot_id(j->f.boot, sizeof(j->f.boot));
	j->f.created = now_boottime();
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
	rc = replace_file(j->dfd, j->name, &j->f, &j->fd);
	if (rc < 0) {
		unlinkat(j->dfd, j->name, 0);
		goto fail;
	}
	j->next = open_sessions;
	open_sessions = j;
	*out = j;
	return 0;
fail:
	snprintf(last_error, sizeof(last_error), "%s: %s", j->dir, strerror(-rc));
	close(j->dfd);
	free(j);
	return rc;
}

int journal_lock(struct journal *j, const char *dev, pid_t *holder)
{
	if (strcmp(dev, "-") != 0 && !tunable_valid_devname(dev))
		return -EINVAL;
	return locktab_get(&j->locks, j->dfd, dev, holder);
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
		    digits(seq))
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
		}
		if (rc == 0)
			rc = record_current(j, dev, key, active, NULL);
		if (rc < 0)
			return rc;
	}
	return tunable_apply(dev, key, value, res);
}

/* ------------------------------------------------------------- restore */

static void report(journal_report_fn fn, void *arg, const struct journal_event *ev)
{
	if (fn)
		fn(ev, arg);
}

static const struct journal_entry *find_key(const struct journal_file *f,
					    const char *key)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->e[i].key, key) == 0)
			return &f->e[i];
	return NULL;
}

/* An entry that could not be restored (busy device or failure): reported,
 * and kept in the journal for a later try. */
static void keep_failed(struct journal_event *ev, enum journal_outcome outcome, int err,
			const char *note, unsigned char *keep, int *failed,
			journal_report_fn fn, void *arg)
{
	ev->outcome = outcome;
	ev->err = err;
	ev->note = note;
	*keep = 1;
	(*failed)++;
	report(fn, arg, ev);
}

/* Restore F's entries newest first.  keep[i] = 1 for those that must stay
 * in the journal.  Returns how many could not be restored. */
static int restore_entries(int dfd, const char *path, const struct journal_file *f,
			   int dry_run, struct locktab *lt, unsigned char *keep,
			   journal_report_fn fn, void *arg)
{
	int failed = 0;
	/* dry run: the scheduler each device would have by now */
	struct { char dev[32]; char sched[TUNABLE_SCHED_LEN]; } virt[MAX_LOCKS];
	size_t nvirt = 0;
	for (size_t i = f->n; i-- > 0;) {
		const struct journal_entry *e = &f->e[i];
		struct journal_event ev = { .path = path, .file = f, .entry = e,
					    .dry_run = dry_run, .current = "" };
		char cur[TUNABLE_VALUE_LEN] = "", rb[TUNABLE_VALUE_LEN] = "";
		char note[TUNABLE_WHY_LEN] = "";
		struct tunable_key key;
		const char *dev = strcmp(e->target, "-") == 0 ? NULL : e->target;
		keep[i] = 0;
		if (tunable_parse_key(e->key, &key, NULL, 0) < 0) {  /* validated on load */
			keep[i] = 1;
			failed++;
			continue;
		}
		pid_t holder = 0;
		int rc = 0;
		if (dry_run) {
			char name[48];
			lock_name(e->target, name, sizeof(name));
			holder = devlock_holder(dfd, name);
			if (holder && holder != getpid())
				rc = -EBUSY;
		} else {
			rc = locktab_get(lt, dfd, e->target, &holder);
		}
		if (rc == -EBUSY) {
			ev.holder = holder;
			keep_failed(&ev, JOURNAL_BUSY, 0, NULL, &keep[i], &failed, fn, arg);
			continue;
		}
		if (rc < 0) {
			keep_failed(&ev, JOURNAL_FAILED, rc, "cannot take the device lock", &keep[i],
				    &failed, fn, arg);
			continue;
		}
		if (dev) {
			char p[300], seq[32];
			snprintf(p, sizeof(p), "/sys/block/%s", dev);
			if (sysfs_exists(p) < 0) {
				ev.outcome = JOURNAL_VANISHED;
				ev.note = "the device is gone";
				report(fn, arg, &ev);
				continue;
			}
			if (strcmp(e->diskseq, "-") != 0 &&
			    sysfs_readf(seq, sizeof(seq), "/sys/block/%s/diskseq", dev) == 0 &&
			    strcmp(seq, e->diskseq) != 0) {
				snprintf(note, sizeof(note), "the name now belongs to another "
					 "device (diskseq %s, was %s)", seq, e->diskseq);
				ev.outcome = JOURNAL_VANISHED;
				ev.note = note;
				report(fn, arg, &ev);
				continue;
			}
		}
		if (key.kind == TUNABLE_IOSCHED) {
			char active[TUNABLE_SCHED_LEN] = "", offered[256];
			tunable_schedulers(dev, active, sizeof(active), offered, sizeof(offered));
			const char *would = NULL;
			for (size_t v = 0; v < nvirt; v++)
				if (strcmp(virt[v].dev, dev) == 0)
					would = virt[v].sched;
			if (would && strcmp(would, active) != 0) {
				/* dry run, after a scheduler switch it would make */
				if (strcmp(would, e->sched) == 0) {
					snprintf(note, sizeof(note), "after the switch to %s", would);
					ev.outcome = JOURNAL_RESTORED;
				} else {
					snprintf(note, sizeof(note), "it went with scheduler %s "
						 "(%s by then)", e->sched, would);
					ev.outcome = JOURNAL_SKIPPED;
				}
				ev.note = note;
				keep[i] = 1;
				report(fn, arg, &ev);
				continue;
			}
			if (strcmp(active, e->sched) != 0) {
				snprintf(note, sizeof(note), "it went with scheduler %s "
					 "(now %s)", e->sched, *active ? active : "none");
				ev.outcome = JOURNAL_SKIPPED;
				ev.note = note;
				report(fn, arg, &ev);
				continue;
			}
		}
		if (key.kind == TUNABLE_SYSCTL && strcmp(e->value, "0") == 0) {
			const char *partner = tunable_sysctl_partner(e->key);
			const struct journal_entry *pe = partner ? find_key(f, partner) : NULL;
			if (pe && strcmp(pe->value, "0") != 0) {
				snprintf(note, sizeof(note), "restoring %s=%s sets it",
					 pe->key, pe->value);
				ev.outcome = JOURNAL_SKIPPED;
				ev.note = note;
				report(fn, arg, &ev);
				continue;
			}
		}
		rc = tunable_read(dev, &key, cur, sizeof(cur));
		ev.current = cur;
		if (rc < 0) {
			keep_failed(&ev, JOURNAL_FAILED, rc, "cannot read the current value", &keep[i],
				    &failed, fn, arg);
			continue;
		}
		if (strcmp(cur, e->value) == 0) {
			ev.outcome = JOURNAL_UNCHANGED;
			report(fn, arg, &ev);
			continue;
		}
		/* The value came from the kernel: check its form, not brisk's
		 * ranges; a scheduler must still be offered. */
		int64_t num;
		char canon[TUNABLE_VALUE_LEN];
		if (key.kind == TUNABLE_SCHEDULER)
			rc = tunable_check(dev, &key, e->value, NULL, canon, sizeof(canon),
					   note, sizeof(note));
		else if ((rc = parse_int(e->value, INT64_MIN, INT64_MAX, &num)) < 0)
			snprintf(note, sizeof(note), "'%s' is not a number", e->value);
		if (rc < 0) {
			keep_failed(&ev, JOURNAL_FAILED, rc, note, &keep[i], &failed, fn, arg);
			continue;
		}
		if (dry_run) {
			if (key.kind == TUNABLE_SCHEDULER && nvirt < MAX_LOCKS) {
				snprintf(virt[nvirt].dev, sizeof(virt[0].dev), "%s", dev);
				snprintf(virt[nvirt].sched, sizeof(virt[0].sched), "%.31s", e->value);
				nvirt++;
			}
			ev.outcome = JOURNAL_RESTORED;
			keep[i] = 1;
			report(fn, arg, &ev);
			continue;
		}
		struct tunable_result res;
		rc = tunable_apply(dev, &key, e->value, &res);
		if (rc < 0) {
			keep_failed(&ev, JOURNAL_FAILED, rc,
				    rc == -EIO ? "the scheduler did not become active" : NULL,
				    &keep[i], &failed, fn, arg);
			continue;
		}
		snprintf(rb, sizeof(rb), "%s", res.readback);
		ev.outcome = JOURNAL_RESTORED;
		ev.readback = rb;
		report(fn, arg, &ev);
	}
	return failed;
}

/* Keep only the entries marked in keep[]; 0 when none is left. */
static size_t compact(struct journal_file *f, const unsigned char *keep)
{
	size_t m = 0;
	for (size_t i = 0; i < f->n; i++)
		if (keep[i])
			f->e[m++] = f->e[i];
	f->n = m;
	return m;
}

int journal_restore(struct journal *j, journal_report_fn fn, void *arg)
{
	if (j->f.n == 0)
		return 0;
	unsigned char *keep = calloc(j->f.n, 1);
	if (!keep)
		return -ENOMEM;
	int failed = restore_entries(j->dfd, j->path, &j->f, 0, &j->locks, keep, fn, arg);
	compact(&j->f, keep);
	free(keep);
	int fd;
	int rc = replace_file(j->dfd, j->name, &j->f, &fd);
	if (rc < 0)
		return rc;
	close(j->fd);
	j->fd = fd;
	return failed;
}

int journal_discard(struct journal *j)
{
	j->f.n = 0;
	int fd;
	int rc = replace_file(j->dfd, j->name, &j->f, &fd);
	if (rc < 0)
		return rc;
	close(j->fd);
	j->fd = fd;
	return 0;
}

void journal_close(struct journal *j)
{
	if (!j)
		return;
	locktab_release(&j->locks);
	if (j->f.n == 0) {
		unlinkat(j->dfd, j->name, 0);
		fsync_dir(j->dfd);
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

/* ------------------------------------------------- journals left behind */

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

static int same_dir(int a, int b)
{
	struct stat x, y;
	return fstat(a, &x) == 0 && fstat(b, &y) == 0 && x.st_dev == y.st_dev &&
	       x.st_ino == y.st_ino;
}

static int is_own_session(int dfd, const char *name)
{
	for (struct journal *j = open_sessions; j; j = j->next)
		if (strcmp(j->name, name) == 0 && same_dir(j->dfd, dfd))
			return 1;
	return 0;
}

static int read_fd(int fd, char **out)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_size > MAX_JOURNAL_BYTES)
		return -EFBIG;
	char *buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	size_t off = 0;
	while (off < (size_t)st.st_size) {
		ssize_t r = pread(fd, buf + off, (size_t)st.st_size - off, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		off += (size_t)r;
	}
	buf[off] = '\0';
	*out = buf;
	return 0;
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
			if (read_fd(fd, &text) == 0) {
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

enum mode { MODE_STALE, MODE_ALL, MODE_HINT };

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

/* What a SIGKILL during journal_open/replace_file leaves: an empty
 * session-PID.journal (the claimed name) and .tmp-PID.journal (a journal
 * not yet renamed into place).  Removed when PID is gone; reported.
 * Refused temporary files are reported (empty session files that are
 * refused are reported by handle_file). */
static void clean_leftovers(int dfd, const char *dir, int dry_run, journal_report_fn fn,
			    void *arg)
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
		fsync_dir(dfd);
}

/* Handle the journal NAME in DFD (DIR).  Adds to *failed the entries not
 * restored (and 1 for a journal refused or unreadable). */
static void handle_file(int dfd, const char *dir, const char *name, int rflags,
			enum mode mode, int dry_run, journal_report_fn fn, void *arg,
			int *failed)
{
	if (is_own_session(dfd, name))
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
	pid_t holder = lock_holder(fd);
	if (holder || (writing && lock_fd(fd) < 0)) {
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
	int rc = read_fd(fd, &text);
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
	if (mode != MODE_ALL && jf.kind == JOURNAL_SET)
		goto done;
	char boot[40];
	boot_id(boot, sizeof(boot));
	if (strcmp(jf.boot, boot) != 0) {
		ev.outcome = JOURNAL_OLD_BOOT;
		report(fn, arg, &ev);
		if (writing) {
			unlinkat(dfd, name, 0);
			fsync_dir(dfd);
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
	struct locktab lt = { 0 };
	*failed += restore_entries(dfd, path, &jf, !writing, &lt, keep, fn, arg);
	locktab_release(&lt);
	if (writing) {
		if (compact(&jf, keep) == 0) {
			unlinkat(dfd, name, 0);
			fsync_dir(dfd);
		} else {
			replace_file(dfd, name, &jf, NULL);
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
		clean_leftovers(dfd, dir, dry_run, fn, arg);
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
		if (is_own_session(dfd, list[i].name))
			continue;
		int fd = open_checked(dfd, dir, list[i].name, 1, 0, NULL, 0);
		if (fd < 0)
			continue;
		struct stat st;
		char *text = NULL;
		struct journal_file jf;
		if (lock_fd(fd) < 0 || fstat(fd, &st) < 0 || st.st_nlink == 0 ||
		    read_fd(fd, &text) < 0 || journal_parse(text, &jf, NULL) < 0) {
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
				if (!match)
					jf.e[m++] = *e;
			}
			removed += (int)(jf.n - m);
			if (m != jf.n) {
				jf.n = m;
				if (m == 0) {
					unlinkat(dfd, list[i].name, 0);
					fsync_dir(dfd);
				} else {
					replace_file(dfd, list[i].name, &jf, NULL);
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
