/* journal — the restore journal: every original value brisk changes is on
 * disk (appended and fsync'ed before the first change of that attribute in
 * the session) so it can always be put back.  One file per session in the
 * runtime directory (rundir.h), reached from its checked descriptor only.
 * A live session holds POSIX locks on its journal and on each device it
 * changes (devlock.h): the kernel drops them when it dies, which is how a
 * dead session is told from a live one; a live one's files are never
 * touched.  Restore order, what is skipped, lab journals, what is refused
 * as untrusted and the leftovers removed: brisk-set(1), THE RESTORE
 * JOURNAL, and brisk-lab(1).  Nothing prints but through the report
 * callback or FILE given.  The pieces: journal_file (format), journal_disk
 * (locks, rewrite), journal_restore, journal_stale; this file: sessions.
 */
#ifndef BRISK_JOURNAL_H
#define BRISK_JOURNAL_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "journal_file.h"
#include "tunable.h"

enum journal_outcome {
	JOURNAL_RESTORED,    /* written and read back (dry run: would write) */
	JOURNAL_UNCHANGED,   /* already at its original value */
	JOURNAL_SKIPPED,     /* nothing to write (see note) */
	JOURNAL_VANISHED,    /* device gone or replaced: reported, dropped */
	JOURNAL_FAILED,      /* write refused (err) or value unusable: kept */
	JOURNAL_BUSY,        /* device locked by live brisk pid holder: kept */
	JOURNAL_LIVE,        /* whole journal: its session is alive (holder) */
	JOURNAL_OLD_BOOT,    /* whole journal: from an earlier boot, dropped */
	JOURNAL_CORRUPT,     /* whole journal: unreadable (note), kept */
	JOURNAL_REFUSED,     /* whole journal or directory not trusted: note
			      * says "PATH: what is wrong"; left alone */
	JOURNAL_LEFTOVER,    /* an empty or temporary journal of a killed
			      * session, or a lock file nobody holds (pid in
			      * holder, what in note): removed */
};

/* What happened to one entry, or to a whole journal (entry NULL). */
struct journal_event {
	const char *path;            /* journal file */
	const struct journal_file *file;
	const struct journal_entry *entry;  /* NULL for whole-journal events */
	enum journal_outcome outcome;
	const char *current;         /* value before restoring ("" unknown) */
	const char *readback;        /* after (RESTORED, not dry run) */
	int err;                     /* -errno for FAILED */
	pid_t holder;                /* BUSY, LIVE */
	int dry_run;
	const char *note;            /* why, for SKIPPED/VANISHED/FAILED/CORRUPT */
};

/* Its name, one word: "restored", "unchanged", "skipped", "vanished",
 * "failed", "busy", "live", "old_boot", "corrupt", "refused", "leftover"
 * (brisk restore --json; brisk-restore.schema.json lists them). */
const char *journal_outcome_name(enum journal_outcome o);

/* Told of every event of a restore or recovery. */
typedef void (*journal_report_fn)(const struct journal_event *ev, void *arg);

/* Worth showing by default?  No for an entry recorded only because of
 * another change (VIA set) that needed no write (UNCHANGED, SKIPPED). */
int journal_event_noteworthy(const struct journal_event *ev);

/* A ready-made reporter: one line per event on the FILE * given as arg. */
void journal_report_print(const struct journal_event *ev, void *file);

/* Why the last journal_open failed: "PATH: what is wrong" (or the error's
 * text when no path was reached); "" before any failure. */
const char *journal_error(void);

/* ---- a session (engine, dashboard, brisk set) ---- */
struct journal;

/* "brisk ARGS..." from a subcommand's argv (argv[0] is the subcommand),
 * cut to fit: the `what` a journal records for its reports. */
void journal_what(char *buf, size_t len, int argc, char **argv);

/* Create this process's session journal (header written and fsync'ed,
 * file locked), making the runtime directory when absent.  -EPERM when
 * the runtime directory is refused (journal_error() says why).  what: the
 * command line, for reports. */
int journal_open(enum journal_kind kind, const char *what, struct journal **out);
/* Its path (absolute). */
const char *journal_path(const struct journal *j);
/* Its file name in the runtime directory (for journal_restore_file). */
const char *journal_name(const struct journal *j);
/* The entries recorded so far. */
const struct journal_file *journal_contents(const struct journal *j);

/* Lock DEV (kernel name, or "-" for the vm sysctls) for this session until
 * journal_close; 0 if already held.  -EBUSY: *holder (may be NULL) gets
 * the pid of the brisk that holds it. */
int journal_lock(struct journal *j, const char *dev, pid_t *holder);

/* Change KEY on DEV to VALUE, the original journaled first: locks DEV
 * (-EBUSY, *holder), checks VALUE again (tunable_check's -errno, nothing
 * written), records what the change disturbs (a scheduler switch's reset
 * keys, a sysctl's twin), then tunable_apply() (the kernel's -errno).
 * -EINVAL also when an original cannot be recorded. */
int journal_set(struct journal *j, const char *dev, const struct tunable_key *key,
		const char *value, struct tunable_result *res, pid_t *holder);

/* Record the current value of a lab attribute (journal_attr_key: KEY is
 * the path under /sys/block/DEV/, DEV a loopN) before the caller changes
 * it itself; 0 if this session has it already.  Locks DEV (-EBUSY). */
int journal_record_attr(struct journal *j, const char *dev, const char *attr);

/* Restore every entry of this session, newest first; report each.
 * Returns how many could not be restored (0 = all back), or -errno. */
int journal_restore(struct journal *j, journal_report_fn fn, void *arg);

/* Drop this session's entries without restoring (brisk set --persist). */
int journal_discard(struct journal *j);

/* Release the locks and close.  The file is removed when no entry is left;
 * otherwise it stays for recovery (run/tui: at the next start; set: by
 * `brisk restore`). */
void journal_close(struct journal *j);

/* ---- journals left behind ---- */

/* Called by main at every start: remove leftovers of killed sessions and
 * restore the journals of run/tui sessions whose process is gone, saying
 * what was done on report (nothing is printed when there is nothing to
 * do); a refused directory or journal is reported there too.  Without
 * root it only points at such journals under /run/brisk.  Returns entries
 * not restored (+1 per refusal), or -errno. */
int journal_recover_stale(FILE *report);

/* `brisk restore`: every journal of a dead session (set ones included) in
 * DIR (NULL: the runtime directory), newest first, after removing
 * leftovers; dry_run reports what it would do and changes nothing (without
 * root DIR may be root's).  Returns entries not restored (+1 per refused
 * directory or journal), or -errno. */
int journal_restore_all(const char *dir, int dry_run, journal_report_fn fn, void *arg);

/* Restore the journal NAME (journal_name) in the runtime directory, of
 * any kind, unless its session is alive; removed when nothing is left.
 * Returns entries not restored, -ENOENT when there is no runtime
 * directory, -EINVAL for a name that is not a journal's; a journal
 * already gone is 0. */
int journal_restore_file(const char *name, journal_report_fn fn, void *arg);

/* `brisk set --persist`: remove entries for KEY on DEV (and those recorded
 * via it) from the journals of dead set sessions, so `brisk restore` no
 * longer undoes it.  DEV "-" for sysctls.  Returns entries removed. */
int journal_forget(const char *dev, const char *key);

#endif
