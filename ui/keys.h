/* keys — what each key does.  One table: each binding holds the key codes
 * it answers to, what the bottom line and the help overlay show, and its
 * handler; keys_handle() looks the key up there, so what is shown is what
 * is bound.  Handlers return flags; the caller redraws or quits on them.
 * An open overlay (help, scheduler menu, tunables editor, save prompt)
 * or the compare picker (d->cmp_pick, drawn here with
 * comparescr_pick_draw() instead of dash_draw()) takes every key first; on a terminal below the minimum size only the
 * quit binding works.
 *
 * Contract:
 *  - keys_handle() never blocks on the test directory; a settings change
 *    writes small sysfs files through settings (the kernel may take a
 *    moment to switch a scheduler under load: the message line says
 *    "switching..." first).
 *  - Every successful change starts a session epoch labelled with it.
 *  - KEY_RESIZE is routed to dash_resize() here and nowhere else.
 */
#ifndef BRISK_UI_KEYS_H
#define BRISK_UI_KEYS_H

#include <stddef.h>

#include "dash.h"

#define KEYS_REDRAW 1u
#define KEYS_QUIT 2u
#define KEYS_COMPARE 4u   /* the compare picker said start: the front end stops
			   * the dashboard's session and runs the comparison */

#define KEYS_MAX_CODES 4

struct keys_binding {
	const char *key;      /* as shown: "l", "?/F1/h" */
	int codes[KEYS_MAX_CODES];   /* what is bound (curses codes), 0-ended */
	const char *name;     /* bottom line: "load"; NULL = help overlay only */
	const char *help;     /* help overlay */
	int needs_root;
	unsigned (*fn)(struct dash *d);   /* KEYS_* flags */
};

const struct keys_binding *keys_bindings(size_t *n);
/* The binding of a key code, or NULL. */
const struct keys_binding *keys_lookup(int ch);
unsigned keys_handle(struct dash *d, int ch);
/* Redraw what is shown: the compare picker when open, else the dashboard. */
void keys_draw(struct dash *d, int full);
/* Every pending key (never blocks); flags or'ed; redraws when flagged. */
unsigned keys_read(struct dash *d);
/* The terminal changed size (SIGWINCH): resize curses and handle the
 * KEY_RESIZE here like any key. */
unsigned keys_winch(struct dash *d);

#endif
