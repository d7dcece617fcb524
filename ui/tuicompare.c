#include "tuicompare.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compare.h"
#include "compare_report.h"
#include "now.h"
#include "profile.h"
#include "screen.h"
#include "tui.h"

/* The save job of the compare screen: compare_report_save() in a child. */
static void cmp_save(struct tui *t, const char *name)
{
	const struct compare_result *r = compare_result(t->cmp);
	if (!profile_name_ok(name, PROFILE_NAME_LEN - 1)) {
		tui_say(t, SCREEN_BAD, "'%s': a profile name is letters, digits, '-', '_' or '.'",
			name);
		return;
	}
	if (t->job[1] < 0) {
		tui_say(t, SCREEN_BAD, "saving is not available (no pipe for the result)");
		return;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		tui_say(t, SCREEN_BAD, "cannot save: fork: %s", strerror(errno));
		return;
	}
	if (pid == 0) {
		char err[512], out[800];
		int rc = compare_report_save(r, name, 0, err, sizeof(err));
		if (rc == 0)
			snprintf(out, sizeof(out), "saved profile %.64s: the settings of %.48s (brisk "
				 "export %.64s --format udev makes them the default)\n", name,
				 r->best >= 0 ? r->arms[r->best].label : "?", name);
		else
			snprintf(out, sizeof(out), "cannot save profile %.64s: %.500s\n", name, err);
		ssize_t w = write(t->job[1], out, strlen(out));
		_exit(w < 0);
	}
	t->save_pid = pid;
	tui_say(t, SCREEN_DIM, "saving profile %s ...", name);
}

static void cmp_redraw(struct tui *t, int full)
{
	comparescr_draw(&t->cs, t->cmp, full);
}

static void cmp_tick(void *ctx)
{
	cmp_redraw(ctx, 0);
}

/* Keys while the comparison runs (an arm-run's loop) or after it. */
static unsigned cmp_read_keys(struct tui *t)
{
	unsigned f = 0;
	int ch;
	while ((ch = screen_key()) >= 0)
		f |= comparescr_key(&t->cs, t->cmp, ch);
	if ((f & COMPARESCR_STOP) && !t->cs.stopping && t->cmp) {
		t->cs.stopping = 1;
		compare_stop(t->cmp);
		comparescr_message(&t->cs, SCREEN_WARN, "stopping: the arm-run under way ends and "
				   "its settings are put back ...");
	}
	if (f & COMPARESCR_SAVE)
		cmp_save(t, t->cs.prompt.input);
	if (f & (COMPARESCR_REDRAW | COMPARESCR_REPAINT | COMPARESCR_STOP))
		cmp_redraw(t, (f & COMPARESCR_REPAINT) != 0);
	return f;
}

static void cmp_keys(void *ctx, int fd, short revents)
{
	struct tui *t = ctx;
	(void)fd;
	cmp_read_keys(t);
	if (revents & (POLLHUP | POLLERR | POLLNVAL)) {
		t->term_lost = 1;
		compare_stop(t->cmp);
	}
}

/* compare hook: a new arm-run's session; wire the screen into its loop. */
static void cmp_on_session(void *ctx, struct compare *c, struct session *s)
{
	struct tui *t = ctx;
	(void)c;
	session_on_tick(s, cmp_tick, t);
	session_on_child(s, tui_on_child, t);
	session_watch_fd(s, STDIN_FILENO, POLLIN, cmp_keys, t);
	if (t->wfd >= 0)
		session_watch_fd(s, t->wfd, POLLIN, tui_on_winch, t);
	if (t->job[0] >= 0)
		session_watch_fd(s, t->job[0], POLLIN, tui_on_job, t);
	if (t->term_lost)
		session_stop(s);
	cmp_redraw(t, 0);
}

/* compare hook: an arm-run ended; the engine has analysed the figures. */
static void cmp_on_armrun(void *ctx, struct compare *c)
{
	(void)c;
	cmp_redraw(ctx, 0);
}

/* The arms picked, parsed against the disks (after the dashboard's own
 * changes were put back).  The count; 0 with a message in err. */
static size_t cmp_arms(struct tui *t, struct compare_arm *arms, char *err, size_t errlen)
{
	struct comparescr *cs = &t->cs;
	char active[32], detail[256];
	size_t n = 0, dl = 0;
	settings_scheduler(&t->st, active, sizeof(active), detail, sizeof(detail));
	cs->dropped[0] = '\0';
	for (size_t i = 0; i < cs->n_arms; i++) {
		if (!cs->on[i])
			continue;
		if (i && strncmp(cs->arm_text[i], "scheduler=", 10) == 0 &&
		    strcmp(cs->arm_text[i] + 10, active) == 0) {   /* it is current now */
			if (dl < sizeof(cs->dropped))
				dl += (size_t)snprintf(cs->dropped + dl, sizeof(cs->dropped) - dl,
						       "%s%s", dl ? ", " : "left out (the same as "
						       "current once put back): ", cs->arm_label[i]);
			continue;
		}
		if (compare_arm_parse(cs->arm_text[i], &t->st, &arms[n], err, errlen) < 0) {
			for (size_t k = 0; k < n; k++)
				compare_arm_free(&arms[k]);
			return 0;
		}
		if (cs->arm_label[i][0])   /* the picker's, short (tune's space: "mq-dl wbt=0") */
			snprintf(arms[n].label, sizeof(arms[n].label), "%s", cs->arm_label[i]);
		n++;
	}
	if (n < 2) {
		for (size_t k = 0; k < n; k++)
			compare_arm_free(&arms[k]);
		snprintf(err, errlen, "nothing left to compare with current (scheduler %s)", active);
		return 0;
	}
	return n;
}

/* Block SIGINT, SIGTERM and SIGHUP (the set in *set, the old mask in *old). */
static void block_stop_signals(sigset_t *set, sigset_t *old)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigprocmask(SIG_BLOCK, set, old);
}

/* After the comparison: the result until a key.  1 back to the
 * dashboard, 0 quit.  SIGINT/SIGTERM/SIGHUP quit (read from a signalfd);
 * the save child is reaped here (no session loop runs). */
static int cmp_final(struct tui *t)
{
	sigset_t set, old;
	block_stop_signals(&set, &old);
	int sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	int ret = 1;
	cmp_redraw(t, 0);
	for (;;) {
		struct pollfd p[4] = {
			{ .fd = STDIN_FILENO, .events = POLLIN }, { .fd = t->wfd, .events = POLLIN },
			{ .fd = t->job[0], .events = POLLIN }, { .fd = sfd, .events = POLLIN },
		};
		int n = poll(p, 4, 500);
		int st;
		if (t->save_pid > 0 && waitpid(t->save_pid, &st, WNOHANG) == t->save_pid)
			tui_on_child(t, t->save_pid, st);
		if (n <= 0)
			continue;
		if (p[3].revents & POLLIN) {
			struct signalfd_siginfo si;
			if (read(sfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
				t->cmp_signal = (int)si.ssi_signo;
			ret = 0;
			break;
		}
		if (p[2].revents & POLLIN)
			tui_on_job(t, p[2].fd, p[2].revents);
		if (p[1].revents & POLLIN)
			tui_on_winch(t, p[1].fd, p[1].revents);
		if (p[0].revents & (POLLHUP | POLLERR | POLLNVAL)) {
			t->term_lost = 1;
			ret = 0;
			break;
		}
		if (p[0].revents & POLLIN) {
			unsigned f = cmp_read_keys(t);
			if (f & (COMPARESCR_QUIT | COMPARESCR_BACK)) {
				ret = !(f & COMPARESCR_QUIT);
				break;
			}
		}
	}
	if (sfd >= 0)
		close(sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

/* Run the comparison the picker asked for, on the open screen.  1 back
 * to the dashboard, 0 quit. */
static int compare_and_show(struct tui *t)
{
	struct comparescr *cs = &t->cs;
	char err[512] = "";
	struct compare_arm arms[COMPARE_MAX_ARMS];
	memset(arms, 0, sizeof(arms));
	compare_free(t->cmp);
	t->cmp = NULL;
	cs->restored = t->cmp_restored;
	cs->stopping = cs->final = cs->running = cs->prompting = 0;
	cs->msg[0] = '\0';
	cs->t_start = now_ns();
	if (t->restore_failed) {
		snprintf(err, sizeof(err), "some of the dashboard's settings could not be put back "
			 "(see the journal, brisk restore): no comparison on changed settings");
		goto fail;
	}
	size_t n = cmp_arms(t, arms, err, sizeof(err));
	if (!n)
		goto fail;
	struct compare_config cfg;
	compare_config_default(&cfg);
	struct session_config def = cfg.run;
	cfg.run = t->cfg;
	cfg.run.open_ended = 0;
	cfg.run.max_time_ns = 0;
	cfg.run.loaded_max_ns = def.loaded_max_ns;
	cfg.run.idle_max_ns = def.idle_max_ns;
	cfg.seed = cfg.run.seed ^ now_ns();
	cfg.budget_ns = comparescr_budget_ns(cs);
	int rc = compare_create(&cfg, &t->st, arms, n, &t->cmp, err, sizeof(err));
	for (size_t i = 0; i < COMPARE_MAX_ARMS; i++)
		compare_arm_free(&arms[i]);
	if (rc < 0)
		goto fail;
	char disks[512];
	const struct blockdev *leaves[SETTINGS_MAX_DEVS];
	size_t nl = t->stack ? stack_leaves(t->stack, leaves, SETTINGS_MAX_DEVS) : 0;
	compare_describe_disks(leaves, nl < SETTINGS_MAX_DEVS ? nl : SETTINGS_MAX_DEVS, disks,
			       sizeof(disks));
	compare_describe_workload(&cfg.run, cfg.samples, cs->workload, sizeof(cs->workload));
	compare_set_context(t->cmp, t->d.stackline, disks, cs->workload);
	const struct compare_hooks hooks = {
		.session = cmp_on_session, .armrun = cmp_on_armrun, .ctx = t,
	};
	cs->running = 1;
	cmp_redraw(t, 1);
	rc = compare_run(t->cmp, &hooks, err, sizeof(err));
	cs->running = 0;
	cs->final = 1;
	cs->prompting = 0;
	const struct compare_result *r = compare_result(t->cmp);
	char el[32];
	snprintf(el, sizeof(el), "%.0fs", (double)r->t_ns / 1e9);
	if (rc < 0) {
		snprintf(cs->end, sizeof(cs->end), "- failed after %u round(s), %s", r->rounds_done,
			 el);
		comparescr_message(cs, SCREEN_BAD, "%s", err);
	} else if (r->stop_signal || t->term_lost) {
		t->cmp_signal = r->stop_signal;
		return 0;
	} else if (r->stop_requested) {
		snprintf(cs->end, sizeof(cs->end), "- stopped by you after %zu arm-run(s), %u full "
			 "round(s), %s", r->n_runs, r->rounds_done, el);
	} else if (r->stopped_early) {
		snprintf(cs->end, sizeof(cs->end), "- done early: every verdict settled after round "
			 "%u of %u, %s", r->rounds_done, r->rounds_max, el);
	} else if (r->race_end == COMPARE_RACE_WINNER || r->race_end == COMPARE_RACE_EQUIVALENT) {
		const char *lead = r->race_leader >= 0 ? r->arms[r->race_leader].label : "?";
		if (r->race_end == COMPARE_RACE_WINNER)
			snprintf(cs->end, sizeof(cs->end), "- done early after round %u: %.47s won the "
				 "race, %s", r->rounds_done, lead, el);
		else
			snprintf(cs->end, sizeof(cs->end), "- done early after round %u: the arms left "
				 "are equivalent to %.47s, %s", r->rounds_done, lead, el);
	} else {
		snprintf(cs->end, sizeof(cs->end), "- done: %u round(s) in %s", r->rounds_done, el);
	}
	if (rc == 0 && r->n_msgs)
		comparescr_message(cs, SCREEN_WARN, "every setting was put back; %zu note(s), the "
				   "last: %.200s", r->n_msgs, r->msgs[r->n_msgs - 1]);
	else if (rc == 0)
		comparescr_message(cs, SCREEN_DIM, "every setting was put back");
	return cmp_final(t);
fail:
	for (size_t i = 0; i < COMPARE_MAX_ARMS; i++)
		compare_arm_free(&arms[i]);
	cs->final = 1;
	snprintf(cs->end, sizeof(cs->end), "- could not start");
	comparescr_message(cs, SCREEN_BAD, "%s", err);
	return cmp_final(t);
}

int tuicompare_run(struct tui *t)
{
	sigset_t set, old;
	block_stop_signals(&set, &old);
	int ret = compare_and_show(t);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}
