#include "cmd_restore.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cliopt.h"
#include "journal.h"
#include "lab.h"
#include "rundir.h"

/* ------------------------------------------------------------- restore */

static void restore_usage(FILE *f)
{
	fprintf(f,
		"usage: brisk restore [--dry-run] [--verbose]\n"
		"\n"
		"Put back every original value in the restore journals of brisk\n"
		"sessions that are no longer running ('brisk set' changes, and runs\n"
		"that were killed), newest first, without asking.  Needs root.\n"
		"\n"
		"Refused, and left alone: a runtime directory or journal that is not\n"
		"root's (the caller's), is writable by group or others, or is reached\n"
		"through a symbolic link.  Empty and temporary journals left by a\n"
		"killed brisk are removed.\n"
		"\n"
		"  -n, --dry-run  list what would be restored; change nothing\n"
		"  -v, --verbose  also list values recorded only because of another\n"
		"                 change (a scheduler switch) that need no write\n"
		"  -h, --help     this text\n");
}

struct restore_count {
	int restored, unchanged, other, refused, leftover, verbose;
};

static void restore_report(const struct journal_event *ev, void *arg)
{
	struct restore_count *c = arg;
	if (ev->outcome == JOURNAL_RESTORED)
		c->restored++;
	else if (ev->outcome == JOURNAL_UNCHANGED)
		c->unchanged++;
	else if (ev->outcome == JOURNAL_REFUSED) {
		c->refused++;
		fputs("brisk restore: ", stderr);
		journal_report_print(ev, stderr);
		return;
	}
	else if (ev->outcome == JOURNAL_LEFTOVER)
		c->leftover++;
	else
		c->other++;
	if (c->verbose || journal_event_noteworthy(ev))
		journal_report_print(ev, stdout);
}

int cmd_restore_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int dry = 0, verbose = 0, c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":nvh", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			dry = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'h':
			restore_usage(stdout);
			return 0;
		default:
			return cliopt_getopt_error("restore", c, argv, opts);
		}
	}
	if (optind != argc)
		return cliopt_usage_error("restore", "no arguments expected ('%s' is extra)",
					  argv[optind]);
	const char *dir = NULL;
	char sysdir[PATH_MAX];
	int root = geteuid() == 0;
	if (!root) {
		/* brisk writes only as root: its journals are root's */
		if (rundir_system_path(sysdir, sizeof(sysdir)) < 0) {
			fprintf(stderr, "brisk restore: BRISK_RUNTIME_DIR is too long\n");
			return 2;
		}
		dir = sysdir;
		dry = 1;
	}
	/* A lab disk whose server died is useless and holds a loop device and
	 * mounts: take it apart too (lab down would; this is the crash path). */
	if (root && !dry) {
		int cleaned = 0;
		char lerr[256] = "";
		if (lab_recover_stale(&cleaned, lerr, sizeof(lerr)) < 0)
			fprintf(stderr, "brisk restore: cannot check for stale lab disks: %s\n", lerr);
		if (cleaned)
			printf("took apart %d stale lab disk(s)\n", cleaned);
	}
	struct restore_count cnt = { .verbose = verbose };
	int left = journal_restore_all(dir, dry, restore_report, &cnt);
	if (left < 0) {
		fprintf(stderr, "brisk restore: cannot read the journals: %s\n", strerror(-left));
		return 1;
	}
	if (cnt.refused) {
		fprintf(stderr, "brisk restore: refused %d untrusted director%s or journal%s "
			"(see above); nothing in them was applied or removed\n", cnt.refused,
			cnt.refused == 1 ? "y" : "ies", cnt.refused == 1 ? "" : "s");
		left -= cnt.refused;
	}
	if (cnt.restored + cnt.unchanged + cnt.other == 0) {
		if (!cnt.refused)
			printf("nothing to restore\n");
		return cnt.refused ? 1 : 0;
	}
	if (!root && cnt.restored) {
		fprintf(stderr, "brisk restore: writing these back needs root; "
			"run 'sudo brisk restore'\n");
		return 1;
	}
	if (dry)
		printf("%d value(s) would be restored, %d already in place\n",
		       cnt.restored, cnt.unchanged);
	else
		printf("%d value(s) restored, %d already in place%s\n", cnt.restored,
		       cnt.unchanged, left ? "" : "; journals cleared");
	if (left > 0) {
		fprintf(stderr, "brisk restore: %d value(s) could not be restored; "
			"they stay journaled\n", left);
		return 1;
	}
	return cnt.refused ? 1 : 0;
}
