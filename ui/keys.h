/* keys — what each key does.  Handlers return flags; the caller redraws
 * or quits on them.  The same table feeds the bottom line and the help
 * overlay, so what is shown is what is bound.
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

struct keys_binding {
	const char *key;      /* as shown: "l", "?/F1" */
	const char *name;     /* bottom line: "load" */
	const char *help;     /* help overlay */
	int needs_root;
};

const struct keys_binding *keys_bindings(size_t *n);
unsigned keys_handle(struct dash *d, int ch);
/* Every pending key (never blocks); flags or'ed; redraws when flagged. */
unsigned keys_read(struct dash *d);
/* The terminal changed size (SIGWINCH): resize curses and handle the
 * KEY_RESIZE here like any key. */
unsigned keys_winch(struct dash *d);

#endif
