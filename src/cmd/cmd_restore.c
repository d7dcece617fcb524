#include "cmd_restore.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "cliopt.h"
#include "exitcode.h"
#include "journal.h"
#include "jout.h"
#include "lab.h"
#include "rundir.h"

/* ------------------------------------------------------------- restore */

#define RESTORE_FORMAT_VERSION 1   /* brisk-restore.schema.json */

/* The command line. */
struct restore_args {
	int dry, verbose, json;
};

static const struct optab restore_options[] = {
	{ "dry-run", 'n', NULL,
	  "list what would be restored; change nothing (exit 5\n"
	  "when a value would be restored, 0 when none)", optab_flag,
	  offsetof(struct restore_args, dry), NULL },
	{ "verbose", 'v', NULL,
	  "also list values recorded only because of another\n"
	  "change (a scheduler switch) that need no write", optab_flag,
	  offsetof(struct restore_args, verbose), NULL },
	CLIOPT_JSON_FLAG("print one JSON document instead (see brisk-set(1))",
			 offsetof(struct restore_args, json)),
	OPTAB_HELP,
	OPTAB_END,
};

static const struct optab_text restore_usage_text = {
	"usage: brisk restore [--dry-run] [--verbose] [--json]\n"
	"\n"
	"Put back every original value in the restore journals of brisk\n"
	"sessions that are no longer running ('brisk set' changes, and runs\n"
	"that were killed), newest first, without asking.  Needs root.\n"
	"\n"
	"Refused, and left alone: a runtime directory or journal that is not\n"
	"root's (the caller's), is writable by group or others, or is reached\n"
	"through a symbolic link.  Empty and temporary journals and lock\n"
	"files left by a killed brisk are removed.\n"
	"\n",
	17,
	""
};

struct restore_count {
	int restored, unchanged, other, refused, leftover, verbose;
	struct json_object *root;      /* --json: the document; NULL: text */
	struct json_object *values, *journals, *locks, *leftovers, *refusals;
	char last[PATH_MAX];           /* the journal whose values were listed last */
};

/* --json: one value of the journal entry as JSON (typed by its key). */
static struct json_object *entry_value(const struct journal_entry *e, const char *v)
{
	return jout_setting(e->key, strcmp(e->sched, "-") ? e->sched : NULL, v);
}

static struct json_object *holder(pid_t pid)
{
	return pid > 0 ? jout_int64(pid) : NULL;
}

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

/* --json: the journal of EV once, with its state ("restore" while its
 * entries are gone through, else the whole-journal outcome). */
static void json_journal(struct restore_count *c, const struct journal_event *ev)
{
	if (ev->entry && strcmp(c->last, ev->path) == 0)
		return;
	snprintf(c->last, sizeof(c->last), "%s", ev->entry ? ev->path : "");
	const struct journal_file *f = ev->file;
	struct json_object *o = jout_object();
	add(o, "path", jout_path(ev->path, 0));
	add(o, "kind", f ? jout_string(journal_kind_name(f->kind)) : NULL);
	add(o, "pid", f ? jout_int64(f->pid) : NULL);
	add(o, "command", f ? jout_string(f->what) : NULL);
	add(o, "state", jout_string(ev->entry ? "restore" : journal_outcome_name(ev->outcome)));
	add(o, "held_by", ev->outcome == JOURNAL_LIVE ? holder(ev->holder) : NULL);
	add(o, "note", ev->entry || !ev->note ? NULL : jout_string(ev->note));
	json_object_array_add(c->journals, o);
}

static void json_event(struct restore_count *c, const struct journal_event *ev)
{
	if (ev->outcome == JOURNAL_REFUSED) {
		struct json_object *o = jout_object();
		add(o, "path", jout_path(ev->path, 0));
		add(o, "why", jout_string(ev->note ? ev->note : ""));
		json_object_array_add(c->refusals, o);
		return;
	}
	if (ev->outcome == JOURNAL_LEFTOVER) {
		/* a device or vm lock NAME.lock (devlock.h), else a journal */
		size_t n = strlen(ev->path);
		int lock = n > 5 && strcmp(ev->path + n - 5, ".lock") == 0;
		struct json_object *o = jout_object();
		add(o, "path", jout_path(ev->path, 0));
		add(o, "pid", holder(ev->holder));
		if (!lock)
			add(o, "what", jout_string(ev->note ? ev->note : ""));
		json_object_array_add(lock ? c->locks : c->leftovers, o);
		return;
	}
	json_journal(c, ev);
	const struct journal_entry *e = ev->entry;
	if (!e)
		return;
	struct json_object *o = jout_object();
	add(o, "journal", jout_path(ev->path, 0));
	add(o, "device", strcmp(e->target, "-") ? jout_string(e->target) : NULL);
	add(o, "key", jout_string(e->key));
	add(o, "scheduler", strcmp(e->sched, "-") ? jout_string(e->sched) : NULL);
	add(o, "because_of", strcmp(e->via, "-") ? jout_string(e->via) : NULL);
	add(o, "value_now", ev->current && ev->current[0] ? entry_value(e, ev->current) : NULL);
	add(o, "value_to_restore", entry_value(e, e->value));
	add(o, "value_after", ev->readback ? entry_value(e, ev->readback) : NULL);
	add(o, "outcome", jout_string(journal_outcome_name(ev->outcome)));
	add(o, "note", ev->note ? jout_string(ev->note) : NULL);
	add(o, "error", ev->err ? jout_string(strerror(-ev->err)) : NULL);
	add(o, "held_by", ev->outcome == JOURNAL_BUSY ? holder(ev->holder) : NULL);
	json_object_array_add(c->values, o);
}

static void restore_report(const struct journal_event *ev, void *arg)
{
	struct restore_count *c = arg;
	if (ev->outcome == JOURNAL_RESTORED)
		c->restored++;
	else if (ev->outcome == JOURNAL_UNCHANGED)
		c->unchanged++;
	else if (ev->outcome == JOURNAL_REFUSED)
		c->refused++;
	else if (ev->outcome == JOURNAL_LEFTOVER)
		c->leftover++;
	else
		c->other++;
	if (ev->outcome == JOURNAL_REFUSED) {
		fputs("brisk restore: ", stderr);
		journal_report_print(ev, stderr);
	}
	if (c->root)
		json_event(c, ev);
	else if (ev->outcome != JOURNAL_REFUSED && (c->verbose || journal_event_noteworthy(ev)))
		journal_report_print(ev, stdout);
}

static void json_begin(struct restore_count *c, const char *dir, int dry)
{
	char buf[PATH_MAX];
	if (!dir && rundir_path(buf, sizeof(buf)) == 0)
		dir = buf;
	c->root = jout_object();
	add(c->root, "format_version", jout_int64(RESTORE_FORMAT_VERSION));
	add(c->root, "kind", jout_string("restore"));
	add(c->root, "brisk_version", jout_string(BRISK_VERSION));
	add(c->root, "dry_run", jout_bool(dry));
	add(c->root, "runtime_dir", dir ? jout_path(dir, 0) : NULL);
	c->values = jout_array();
	c->journals = jout_array();
	c->locks = jout_array();
	c->leftovers = jout_array();
	c->refusals = jout_array();
}

/* --json: the counts and the lists, printed; status, or EXIT_FAILED when
 * standard output fails. */
static int json_end(struct restore_count *c, int labs, int status)
{
	add(c->root, "restored", jout_int64(c->restored));
	add(c->root, "unchanged", jout_int64(c->unchanged));
	add(c->root, "stale_labs_taken_apart", jout_int64(labs));
	add(c->root, "values", c->values);
	add(c->root, "journals", c->journals);
	add(c->root, "stale_locks", c->locks);
	add(c->root, "leftover_journals", c->leftovers);
	add(c->root, "refused", c->refusals);
	int rc = jout_write(stdout, c->root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE);
	c->root = NULL;
	if (rc == 0 && fflush(stdout) != 0)
		rc = -1;
	if (rc < 0) {
		fprintf(stderr, "brisk restore: cannot print the JSON output\n");
		return EXIT_FAILED;
	}
	return status;
}

/* The exit status once every journal was gone through (left: values
 * that could not be restored, refusals included), the summary said. */
static int restore_status(struct restore_count *cnt, int left, int root, int dry, int asked_dry)
{
	int text = !cnt->root;
	if (cnt->refused) {
		fprintf(stderr, "brisk restore: refused %d untrusted director%s or journal%s "
			"(see above); nothing in them was applied or removed\n", cnt->refused,
			cnt->refused == 1 ? "y" : "ies", cnt->refused == 1 ? "" : "s");
		left -= cnt->refused;
	}
	if (cnt->restored + cnt->unchanged + cnt->other == 0) {
		if (!cnt->refused && text)
			printf("nothing to restore\n");
		return cnt->refused ? EXIT_FAILED : EXIT_OK;
	}
	if (!root && cnt->restored && !asked_dry) {
		fprintf(stderr, "brisk restore: writing these back needs root; "
			"run 'sudo brisk restore'\n");
		return EXIT_PRIVILEGE;
	}
	if (text && dry)
		printf("%d value(s) would be restored, %d already in place\n",
		       cnt->restored, cnt->unchanged);
	else if (text)
		printf("%d value(s) restored, %d already in place%s\n", cnt->restored,
		       cnt->unchanged, left ? "" : "; journals cleared");
	if (left > 0) {
		fprintf(stderr, "brisk restore: %d value(s) could not be restored; "
			"they stay journaled\n", left);
		return EXIT_FAILED;
	}
	if (cnt->refused)
		return EXIT_FAILED;
	return dry && cnt->restored ? EXIT_PENDING : EXIT_OK;
}

int cmd_restore_main(int argc, char **argv)
{
	struct restore_args a = { 0 };
	const struct optab_cmd cmd = { "restore", restore_options, NULL, &a, &restore_usage_text };
	int rc = optab_parse(&cmd, argc, argv);
	if (rc)
		return rc == OPTAB_DONE ? EXIT_OK : rc;
	int dry = a.dry, json = a.json;
	if (optind != argc)
		return optab_usage_error("restore", "no arguments expected ('%s' is extra)",
					 argv[optind]);
	const char *dir = NULL;
	char sysdir[PATH_MAX];
	int root = geteuid() == 0, asked_dry = dry;
	if (!root) {
		/* brisk writes only as root: its journals are root's */
		if (rundir_system_path(sysdir, sizeof(sysdir)) < 0) {
			fprintf(stderr, "brisk restore: BRISK_RUNTIME_DIR is too long\n");
			return EXIT_USAGE;
		}
		dir = sysdir;
		dry = 1;
	}
	struct restore_count cnt = { .verbose = a.verbose };
	if (json)
		json_begin(&cnt, dir, dry);   /* after the root check: dry is final */
	/* A lab disk whose server died is useless and holds a loop device and
	 * mounts: take it apart too (lab down would; this is the crash path). */
	int labs = 0;
	if (root && !dry) {
		char lerr[256] = "";
		if (lab_recover_stale(&labs, lerr, sizeof(lerr)) < 0)
			fprintf(stderr, "brisk restore: cannot check for stale lab disks: %s\n", lerr);
		if (labs && !json)
			printf("took apart %d stale lab disk(s)\n", labs);
	}
	int left = journal_restore_all(dir, dry, restore_report, &cnt);
	if (left < 0) {
		fprintf(stderr, "brisk restore: cannot read the journals: %s\n", strerror(-left));
		if (json)
			json_object_put(cnt.root);
		return EXIT_FAILED;
	}
	int status = restore_status(&cnt, left, root, dry, asked_dry);
	return json ? json_end(&cnt, labs, status) : status;
}
