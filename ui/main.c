/* brisk — entry point: global options and subcommand dispatch.  It sits in
 * ui/, the top layer, because it dispatches to the dashboard (ui/cmd_tui.c)
 * as well as to the batch commands (src/cmd/cmd_*.c, which never include
 * ui/).  Each subcommand is called as
 * NAME_main(argc, argv) with argv[0] the subcommand's name.
 * Exit status: exitcode.h (0 success, 1 runtime failure, 2 bad usage or
 * input, 3 partial, 4 needs privileges, 5 pending, 128+N signal). */
#include <locale.h>
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Subcommand headers: one line each. */
#include "cmd_compare.h"
#include "cmd_devices.h"
#include "cmd_export.h"
#include "cmd_get.h"
#include "cmd_lab.h"
#include "cmd_profile.h"
#include "cmd_report.h"
#include "cmd_restore.h"
#include "cmd_run.h"
#include "cmd_set.h"
#include "cmd_tui.h"
#include "cmd_tune.h"
#include "exitcode.h"
#include "journal.h"

struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary;
};

/* One line per subcommand, in the order --help lists them. */
static const struct subcommand subcommands[] = {
	{ "run", cmd_run_main, "measure how the machine feels while its disk is busy" },
	{ "compare", cmd_compare_main, "compare settings side by side, with verdicts" },
	{ "tune", cmd_tune_main, "search the settings that feel best, in a race" },
	{ "report", cmd_report_main, "pool results of many machines, recommend per disk class" },
	{ "tui", cmd_tui_main, "the dashboard: watch, switch schedulers, compare live" },
	{ "devices", cmd_devices_main, "show the storage stack behind a directory" },
	{ "set", cmd_set_main, "change scheduler/tunables (journaled)" },
	{ "get", cmd_get_main, "show scheduler/tunables" },
	{ "restore", cmd_restore_main, "put back journaled original values" },
	{ "profile", cmd_profile_main, "list, show, check, save profiles; import fio jobs" },
	{ "export", cmd_export_main, "write a profile as udev rules, tuned, sysctl.d, ..." },
	{ "lab", cmd_lab_main, "an emulated slow disk to try schedulers on" },
	{ NULL, NULL, NULL }
};

static const struct subcommand *find_sub(const char *name)
{
	for (const struct subcommand *s = subcommands; s->name; s++)
		if (strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

/* Plain 'brisk' opens the dashboard on a terminal; without one (a pipe,
 * cron) it must not start writing gigabytes into the current directory:
 * it prints a short usage and exits 2. */
static int on_terminal(void)
{
	return isatty(STDOUT_FILENO) && isatty(STDIN_FILENO);
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: brisk [--help] [--version] COMMAND [ARGS]\n"
		"\n"
		"How does this machine feel while its disk is busy, and which I/O\n"
		"scheduler and tunables make it feel best?\n"
		"\n"
		"Commands:\n");
	for (const struct subcommand *s = subcommands; s->name; s++)
		fprintf(f, "  %-10s %s\n", s->name, s->summary);
	fprintf(f,
		"  help CMD   the options of one command\n"
		"\n"
		"Options:\n"
		"  -h, --help     this text; 'brisk help CMD' shows one command's options\n"
		"  -V, --version  the version\n"
		"\n"
		"With no command on a terminal, brisk opens the dashboard (brisk tui)\n"
		"on the current directory.  See brisk(1).\n");
}

static int wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	return 0;
}

/* Every start first puts back what a killed run or dashboard left changed
 * (its restore journal), and says so; `restore` handles journals itself
 * (and its --dry-run must change nothing). */
static int run_sub(const struct subcommand *s, int argc, char **argv)
{
	if (!wants_help(argc, argv) && strcmp(s->name, "restore"))
		journal_recover_stale(stderr);
	return s->main(argc, argv);
}

int main(int argc, char **argv)
{
	/* The user's locale for what the terminal can show (LC_CTYPE: UTF-8 or
	 * not) and nothing else that matters: numbers are read and written in
	 * the C locale everywhere (options, profiles, the kernel's files,
	 * reports, JSON, CSV, OpenMetrics, plots, exported config, and the
	 * terminal's tables too), so a comma-decimal desktop under sudo gets
	 * the same brisk.  Character classes are ASCII (str_is_*). */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	/* glibc raises its mmap threshold to the size of each large buffer
	 * freed (and its trim threshold to twice that): after a run frees
	 * its 4 MiB buffer of the loader's cache, its 1 MiB buffers come from
	 * the heap, which then stays resident for the whole run.  glibc's own
	 * starting value, fixed, keeps large buffers mapped apart and
	 * returned when freed. */
#ifdef M_MMAP_THRESHOLD
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	if (argc < 2 && on_terminal()) {
		char *args[] = { (char *)"tui", NULL };
		return run_sub(find_sub("tui"), 1, args);
	}
	if (argc < 2) {
		fprintf(stderr, "usage: brisk COMMAND [ARGS]   (no terminal: name a command, e.g. "
			"'brisk run DIR'; 'brisk --help' lists them)\n");
		return EXIT_USAGE;
	}
	const char *a = argv[1];
	if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
		printf("brisk %s\n", BRISK_VERSION);
		return 0;
	}
	if (strcmp(a, "help") == 0) {
		if (argc < 3) {
			usage(stdout);
			return 0;
		}
		const struct subcommand *s = find_sub(argv[2]);
		if (!s) {
			fprintf(stderr, "brisk: no command '%s' (see 'brisk --help')\n", argv[2]);
			return EXIT_USAGE;
		}
		char *args[] = { argv[2], (char *)"--help", NULL };
		return run_sub(s, 2, args);
	}
	if (a[0] == '-') {
		fprintf(stderr, "brisk: unknown option '%s' (see 'brisk --help')\n", a);
		return EXIT_USAGE;
	}
	const struct subcommand *s = find_sub(a);
	if (!s) {
		fprintf(stderr, "brisk: unknown command '%s' (see 'brisk --help')\n", a);
		return EXIT_USAGE;
	}
	return run_sub(s, argc - 1, argv + 1);
}
