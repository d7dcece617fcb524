/* tuneedit — the tunables editor: every queue, iosched and vm.* setting
 * of the stack's disks with its current and original value; a value is
 * typed in, checked as it is typed, and applied through settings.
 *
 * Contract:
 *  - Values are read when the editor opens and after every change (never
 *    on a redraw), through settings_current()/settings_original().
 *  - tuneedit_key() returns TUNEEDIT_APPLY when the user confirmed a value
 *    that passed tunable_check_value(); the caller applies te->keys[te->sel]
 *    = te->input with settings_apply() and reports back with
 *    tuneedit_done().  Nothing here writes anything.
 *  - Without root the editor shows values only and says why.
 */
#ifndef BRISK_UI_TUNEEDIT_H
#define BRISK_UI_TUNEEDIT_H

#include <stddef.h>

#include "settings.h"

#define TUNEEDIT_MAX 96

enum tuneedit_result { TUNEEDIT_NONE, TUNEEDIT_APPLY, TUNEEDIT_CLOSE };

struct tuneedit {
	struct settings *st;
	char sched[TUNABLE_SCHED_LEN];
	struct tunable_key keys[TUNEEDIT_MAX];
	char cur[TUNEEDIT_MAX][TUNABLE_VALUE_LEN];
	char orig[TUNEEDIT_MAX][TUNABLE_VALUE_LEN];
	unsigned char changed[TUNEEDIT_MAX];
	size_t n, sel, top;
	int editing, input_ok;
	char input[TUNABLE_VALUE_LEN];
	char note[256];
	int note_bad;
};

void tuneedit_open(struct tuneedit *te, struct settings *st);
void tuneedit_reload(struct tuneedit *te);
enum tuneedit_result tuneedit_key(struct tuneedit *te, int ch);
/* Outcome of an apply: ok closes the input line; msg is shown either way. */
void tuneedit_done(struct tuneedit *te, int ok, const char *msg);
void tuneedit_draw(struct tuneedit *te);

#endif
