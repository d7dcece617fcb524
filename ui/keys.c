#include "keys.h"

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "comparescr.h"
#include "screen.h"
#include "now.h"

/* The disks keys s and t change: DIR's, or the load's (key d). */
static struct settings *target(const struct dash *d)
{
	return d->load_scope && d->st->load ? d->st->load : d->st;
}

/* Can settings change now?  0, or a message in msg. */
static int settings_allowed(struct dash *d, char *msg, size_t len)
{
	const struct session *s = d->s;
	if (!d->root) {
		snprintf(msg, len, "changing settings needs root: this dashboard is read-only "
			 "(run it as root; every change is restored on exit)");
		return -EPERM;
	}
	if (!target(d)->n_devs) {
		snprintf(msg, len, "no disk with an I/O scheduler behind %.200s: nothing to change",
			 target(d) == d->st ? d->dir : "the load's directory");
		return -ENODEV;
	}
	if (s->phase < SESSION_WARMUP) {
		snprintf(msg, len, "the idle baseline is still being measured: settings can change "
			 "once the load runs");
		return -EAGAIN;
	}
	if (s->phase >= SESSION_STOP) {
		snprintf(msg, len, "the session is ending: nothing more is changed");
		return -EAGAIN;
	}
	return 0;
}

/* Apply KEY=VALUE on the stack; a new epoch when anything was written. */
static int apply(struct dash *d, const char *key, const char *value, char *msg, size_t len)
{
	char label[96];
	int rc = settings_allowed(d, msg, len);
	if (rc < 0)
		return rc;
	/* The kernel may take a moment to switch under load: say so first. */
	dash_message(d, SCREEN_DIM, "setting %s = %s ...", key, value);
	dash_draw(d, 0);
	uint64_t t0 = now_ns();
	rc = settings_apply(d->st, key, value, msg, len, label, sizeof(label));
	double took = (double)(now_ns() - t0) / 1e9;
	size_t ml = strlen(msg);
	if (took >= 0.1 && ml + 32 < len)   /* the screen stood still that long: say so */
		snprintf(msg + ml, len - ml, "; the kernel took %.1f s", took);
	if (label[0])
		session_new_epoch(d->s, label);
	dash_refresh_settings(d);
	return rc;
}

static void toggle_load(struct dash *d)
{
	struct session *s = d->s;
	int paused = s->loads_paused;
	int rc = paused ? session_loads_resume(s) : session_loads_pause(s);
	switch (rc) {
	case 0:
		dash_message(d, SCREEN_GOOD, "%s: epoch #%zu", paused ? "load started" : "load stopped",
			     s->n_epochs - 1);
		break;
	case -EAGAIN:
		dash_message(d, SCREEN_WARN, s->phase < SESSION_WARMUP ?
			     "the load starts by itself once the idle baseline is measured" :
			     "the session is ending");
		break;
	case -EBUSY:
		dash_message(d, SCREEN_WARN, "the stopped load is still exiting: try again in a moment");
		break;
	default:
		dash_message(d, SCREEN_BAD, "cannot %s the load: %s", paused ? "start" : "stop",
			     strerror(rc < 0 ? -rc : rc));
		break;
	}
}

static unsigned overlay_key(struct dash *d, int ch)
{
	char msg[320];
	switch (d->overlay) {
	case DASH_HELP:
		if (ch == '?' || ch == KEY_F(1) || ch == 27 || ch == 'q' || ch == '\n' || ch == '\r')
			d->overlay = DASH_NONE;
		return KEYS_REDRAW;
	case DASH_SCHED:
		switch (menu_key(&d->menu, ch)) {
		case MENU_PICK: {
			char name[32];
			snprintf(name, sizeof(name), "%s", d->menu.items[d->menu.sel]);
			d->overlay = DASH_NONE;
			int rc = apply(d, target(d) == d->st ? "scheduler" : "load:scheduler", name, msg,
				       sizeof(msg));
			dash_message(d, rc ? SCREEN_BAD : SCREEN_GOOD, "%s", msg);
			break;
		}
		case MENU_CANCEL:
			d->overlay = DASH_NONE;
			break;
		case MENU_NONE:
			break;
		}
		return KEYS_REDRAW;
	case DASH_TUNE:
		switch (tuneedit_key(&d->te, ch)) {
		case TUNEEDIT_APPLY: {
			char key[TUNABLE_NAME_LEN + 8], val[TUNABLE_VALUE_LEN];
			snprintf(key, sizeof(key), "%s%s", d->te.st == d->st ? "" : SETTINGS_LOAD_PREFIX,
				 d->te.keys[d->te.sel].name);
			snprintf(val, sizeof(val), "%s", d->te.input);
			int rc = apply(d, key, val, msg, sizeof(msg));
			tuneedit_done(&d->te, rc == 0, msg);
			dash_message(d, rc ? SCREEN_BAD : SCREEN_GOOD, "%s", msg);
			break;
		}
		case TUNEEDIT_CLOSE:
			d->overlay = DASH_NONE;
			break;
		case TUNEEDIT_NONE:
			break;
		}
		return KEYS_REDRAW;
	case DASH_SAVE:
		switch (prompt_key(&d->prompt, ch)) {
		case PROMPT_SUBMIT: {
			int rc = d->save_profile(d->save_ctx, d->prompt.input, msg, sizeof(msg));
			if (rc < 0) {
				snprintf(d->prompt.note, sizeof(d->prompt.note), "%.150s", msg);
				d->prompt.note_bad = 1;
			} else {
				d->overlay = DASH_NONE;
				dash_message(d, SCREEN_DIM, "%s", msg);
			}
			break;
		}
		case PROMPT_CANCEL:
			d->overlay = DASH_NONE;
			break;
		case PROMPT_NONE:
			break;
		}
		return KEYS_REDRAW;
	case DASH_SPLIT:
		if (ch == 12)
			keys_draw(d, 1);
		else if (splitscr_key(&d->split, ch))
			d->overlay = DASH_NONE;
		return KEYS_REDRAW;
	case DASH_NONE:
		break;
	}
	return 0;
}

/* ---- the handlers of the table below ---- */

static unsigned key_quit(struct dash *d)
{
	(void)d;
	return KEYS_QUIT;
}

static unsigned key_help(struct dash *d)
{
	d->overlay = DASH_HELP;
	return KEYS_REDRAW;
}

static unsigned key_split(struct dash *d)
{
	splitscr_open(&d->split);
	d->overlay = DASH_SPLIT;
	return KEYS_REDRAW;
}

static unsigned key_load(struct dash *d)
{
	toggle_load(d);
	return KEYS_REDRAW;
}

static unsigned key_scheduler(struct dash *d)
{
	char msg[320];
	if (settings_allowed(d, msg, sizeof(msg)) < 0) {
		dash_message(d, SCREEN_WARN, "%s", msg);
		return KEYS_REDRAW;
	}
	const struct settings *st = target(d);
	char list[256], active[32], detail[256];
	settings_schedulers(st, list, sizeof(list));
	if (!list[0]) {
		dash_message(d, SCREEN_WARN, "no scheduler is offered by every disk of the stack");
		return KEYS_REDRAW;
	}
	settings_scheduler(st, active, sizeof(active), detail, sizeof(detail));
	menu_init(&d->menu, st == d->st ? "I/O scheduler" : "I/O scheduler: the load's disks",
		  list, strcmp(active, "mixed") == 0 ? NULL : active, "(active)");
	snprintf(d->menu.note, sizeof(d->menu.note), "applies to %s%s", st->devs[0],
		 st->n_devs > 1 ? (st == d->st ? " and every other disk in the stack" :
				   " and the load's other disks") : "");
	d->overlay = DASH_SCHED;
	return KEYS_REDRAW;
}

static unsigned key_tunables(struct dash *d)
{
	char msg[320];
	if (!target(d)->n_devs) {
		dash_message(d, SCREEN_WARN, "no disk with an I/O scheduler behind %.200s",
			     target(d) == d->st ? d->dir : "the load's directory");
		return KEYS_REDRAW;
	}
	tuneedit_open(&d->te, target(d));
	if (d->root && settings_allowed(d, msg, sizeof(msg)) < 0)
		snprintf(d->te.note, sizeof(d->te.note), "%.250s", msg);
	d->overlay = DASH_TUNE;
	return KEYS_REDRAW;
}

static unsigned key_disks(struct dash *d)
{
	if (!d->st->load) {
		dash_message(d, SCREEN_WARN, "no load works on disks of its own: give a load dir= "
			     "(or --load-dir) on another disk");
		return KEYS_REDRAW;
	}
	d->load_scope = !d->load_scope;
	const struct settings *st = target(d);
	dash_message(d, SCREEN_GOOD, "s and t now change %s: %s%s (d switches back)",
		     d->load_scope ? "the load's disks" : "the disks behind the test directory",
		     st->n_devs ? st->devs[0] : "none with a scheduler", st->n_devs > 1 ? " ..." : "");
	return KEYS_REDRAW;
}

static unsigned key_profile(struct dash *d)
{
	if (!d->save_profile) {
		dash_message(d, SCREEN_WARN, "saving profiles is not available here");
		return KEYS_REDRAW;
	}
	prompt_init(&d->prompt, "Save as a profile", "name:",
		    "letters, digits, '-', '_', '.'; saved in your profiles directory");
	d->overlay = DASH_SAVE;
	return KEYS_REDRAW;
}

static unsigned key_compare(struct dash *d)
{
	const struct session *s = d->s;
	if (!d->cmp) {
		dash_message(d, SCREEN_WARN, "comparing settings is not available here");
		return KEYS_REDRAW;
	}
	if (!d->root) {
		dash_message(d, SCREEN_WARN, "comparing settings needs root (each arm changes the "
			     "scheduler): this dashboard is read-only; try sudo, or brisk compare");
		return KEYS_REDRAW;
	}
	if (!d->st->n_devs) {
		dash_message(d, SCREEN_WARN, "no disk with an I/O scheduler behind %.200s: nothing "
			     "to compare", d->dir);
		return KEYS_REDRAW;
	}
	if (s->phase >= SESSION_STOP) {
		dash_message(d, SCREEN_WARN, "the session is ending: no comparison now");
		return KEYS_REDRAW;
	}
	comparescr_pick_init(d->cmp, d->st, d->st->journal != NULL);
	if (d->cmp->n_arms < 2) {
		dash_message(d, SCREEN_WARN, "the disks offer no scheduler besides %s: nothing to "
			     "compare", d->cmp->active[0] ? d->cmp->active : "the active one");
		return KEYS_REDRAW;
	}
	d->cmp_pick = 1;
	return KEYS_REDRAW;
}

static unsigned pick_key(struct dash *d, int ch)
{
	switch (comparescr_pick_key(d->cmp, ch)) {
	case COMPARESCR_PICK_START:
		d->cmp_pick = 0;
		return KEYS_COMPARE;
	case COMPARESCR_PICK_CANCEL:
		d->cmp_pick = 0;
		return KEYS_REDRAW;
	case COMPARESCR_PICK_NONE:
		break;
	}
	return KEYS_REDRAW;
}

static unsigned key_repaint(struct dash *d)
{
	keys_draw(d, 1);
	return 0;
}

/* The one key table: the bottom line and the help overlay show it, and
 * keys_handle() dispatches through it. */
static const struct keys_binding bindings[] = {
	{ "l", { 'l', 'L' }, "load", "start or stop the background load (each starts an epoch)",
	  0, key_load },
	{ "s", { 's', 'S' }, "scheduler", "pick the I/O scheduler of all disks in the stack", 1,
	  key_scheduler },
	{ "t", { 't', 'T' }, "tunables", "tunables: queue, iosched, vm.dirty_* values", 1,
	  key_tunables },
	{ "d", { 'd', 'D' }, NULL, "s and t change the test directory's disks, or the "
	  "load's (a load dir= on other disks)", 1, key_disks },
	{ "p", { 'p', 'P' }, "profile", "save the settings and workload as a profile", 0,
	  key_profile },
	{ "c", { 'c', 'C' }, "compare", "compare schedulers with this workload (arms, budget)",
	  1, key_compare },
	{ "w", { 'w', 'W' }, "where", "where the time went: every action's latest and median "
	  "sample, part by part", 0, key_split },
	{ "?/F1/h", { '?', KEY_F(1), 'h' }, "help", "this help (any of ? F1 Esc q closes it)", 0,
	  key_help },
	{ "^L", { 12 }, NULL, "repaint the whole screen", 0, key_repaint },
	{ "q", { 'q', 'Q' }, "quit", "stop the load, restore every changed setting, exit", 0,
	  key_quit },
};

const struct keys_binding *keys_bindings(size_t *n)
{
	*n = sizeof(bindings) / sizeof(bindings[0]);
	return bindings;
}

const struct keys_binding *keys_lookup(int ch)
{
	if (ch <= 0)   /* ERR, and the 0 that ends a codes list */
		return NULL;
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++)
		for (size_t j = 0; j < KEYS_MAX_CODES && bindings[i].codes[j]; j++)
			if (bindings[i].codes[j] == ch)
				return &bindings[i];
	return NULL;
}

unsigned keys_handle(struct dash *d, int ch)
{
	if (ch == KEY_RESIZE) {
		if (d->cmp_pick)
			comparescr_pick_draw(d->cmp);
		else
			dash_resize(d);
		return 0;
	}
	const struct keys_binding *b = keys_lookup(ch);
	if (COLS < DASH_MIN_COLS || LINES < DASH_MIN_LINES) {
		/* only quitting works, and the breakdown's table where it fits */
		int table = COLS >= SPLITSCR_MIN_COLS && LINES >= SPLITSCR_MIN_LINES &&
			    !d->cmp_pick && (d->overlay == DASH_SPLIT ||
					     (d->overlay == DASH_NONE && b && b->fn == key_split));
		if (table)
			return d->overlay == DASH_SPLIT ? overlay_key(d, ch) : key_split(d);
		return b && b->fn == key_quit ? KEYS_QUIT : 0;
	}
	if (d->cmp_pick)
		return ch == 12 ? key_repaint(d) : pick_key(d, ch);
	if (d->overlay != DASH_NONE)
		return overlay_key(d, ch);
	return b ? b->fn(d) : 0;
}

unsigned keys_read(struct dash *d)
{
	unsigned f = 0;
	int ch;
	while ((ch = screen_key()) >= 0) {
		f |= keys_handle(d, ch);
		if (f & KEYS_COMPARE)   /* the rest is for the compare screen */
			break;
	}
	if ((f & KEYS_REDRAW) && !(f & KEYS_COMPARE))
		keys_draw(d, 0);
	return f;
}

void keys_draw(struct dash *d, int full)
{
	if (d->cmp_pick) {
		if (full)
			clearok(curscr, TRUE);
		comparescr_pick_draw(d->cmp);
	} else {
		dash_draw(d, full);
	}
}

unsigned keys_winch(struct dash *d)
{
	if (!screen_winch_read())
		return 0;
	return keys_handle(d, KEY_RESIZE);
}
