/* tui — the state of `brisk tui`, shared by its files: cmd_tui.c (the
 * options, the dashboard and its loop) and tuicompare.c (the compare
 * screen's comparison); and what either screen does with it: say a line,
 * read a background job's result, reap the job, follow a resize, on
 * whichever screen owns the terminal (in_compare). */
#ifndef BRISK_UI_TUI_H
#define BRISK_UI_TUI_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "advisory.h"
#include "comparescr.h"
#include "dash.h"
#include "session.h"
#include "settings.h"
#include "stack.h"

struct tui {
	struct session *s;
	struct dash d;
	struct settings st;
	struct settings load_st;   /* the load dir='s disks (load:KEY, loadscope.h) */
	unsigned iterations, ticks;
	FILE *restore_log;
	char *restore_text;
	size_t restore_len;
	int restore_failed;
	int term_lost;
	int job[2];            /* results of background jobs (profile saves) */
	struct stack *stack;   /* read once, before the load */
	struct advisory_db adv;
	int adv_ok;            /* the advisory data was read */
	int no_report;
	unsigned bench;        /* --bench-redraw N */
	/* the compare screen */
	struct session_config cfg;   /* the dashboard's, for a fresh session after it */
	int stack_ok, root, wfd;
	struct comparescr cs;
	int compare_go;        /* the picker said start: the dashboard's session stops */
	int in_compare;        /* the compare screen owns the terminal */
	int cmp_restored;      /* the dashboard's own changes were put back for it */
	struct compare *cmp;   /* under way, or the last one (its report at exit) */
	int cmp_signal;        /* a signal stopped the comparison: brisk quits */
	pid_t save_pid;        /* the compare screen's save child, 0 none */
};


/* A one-line answer (printf-style) in the message line of the screen
 * shown, with role's colour (SCREEN_*), drawn at once. */
void tui_say(struct tui *t, int role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Session watchers (session.h), ctx the struct tui: the SIGWINCH fd
 * (redraw at the new size), the job pipe (its one-line result said), a
 * job child ended (said only when it could not report). */
void tui_on_winch(void *ctx, int fd, short revents);
void tui_on_job(void *ctx, int fd, short revents);
void tui_on_child(void *ctx, pid_t pid, int status);

#endif
