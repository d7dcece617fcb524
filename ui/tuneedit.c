#include "tuneedit.h"

#include <curses.h>
#include <string.h>

#include "screen.h"

void tuneedit_reload(struct tuneedit *te)
{
	char detail[16];
	settings_scheduler(te->st, te->sched, sizeof(te->sched), detail, sizeof(detail));
	te->n = settings_keys(te->st, te->keys, TUNEEDIT_MAX);
	for (size_t i = 0; i < te->n; i++) {
		settings_current(te->st, &te->keys[i], te->cur[i], sizeof(te->cur[i]));
		te->changed[i] = (unsigned char)settings_original(te->st, &te->keys[i], te->orig[i],
								  sizeof(te->orig[i]));
		if (!te->changed[i])
			te->orig[i][0] = '\0';
	}
	if (te->sel >= te->n)
		te->sel = te->n ? te->n - 1 : 0;
}

void tuneedit_open(struct tuneedit *te, struct settings *st)
{
	memset(te, 0, sizeof(*te));
	te->st = st;
	tuneedit_reload(te);
	if (!st->root)
		snprintf(te->note, sizeof(te->note), "read-only: changing settings needs root");
	else if (!te->n)
		snprintf(te->note, sizeof(te->note), "no disk with an I/O scheduler behind this "
			 "directory");
	else
		snprintf(te->note, sizeof(te->note), "applies to every disk: %s%s%s",
			 st->devs[0], st->n_devs > 1 ? " and " : "",
			 st->n_devs > 1 ? "the others in the stack" : "");
}

static void check_input(struct tuneedit *te)
{
	char canon[TUNABLE_VALUE_LEN], why[TUNABLE_WHY_LEN] = "";
	if (!te->input[0]) {
		te->input_ok = 0;
		/* the settings table says what the key is and what it takes */
		const struct tunable_def *d = tunable_key_def(&te->keys[te->sel], te->sched);
		if (d && d->type == TUNABLE_TYPE_BYTES)
			snprintf(te->note, sizeof(te->note), "%s, a size such as 64m (bytes): type a "
				 "value, Enter to apply, Esc to cancel", d->help);
		else if (d && d->type != TUNABLE_TYPE_SCHED)
			snprintf(te->note, sizeof(te->note), "%s, %lld..%lld: type a value, Enter to "
				 "apply, Esc to cancel", d->help, (long long)d->min, (long long)d->max);
		else
			snprintf(te->note, sizeof(te->note), "type a value, Enter to apply, Esc to cancel");
		te->note_bad = 0;
		return;
	}
	int rc = tunable_check_value(&te->keys[te->sel], te->sched, te->input, canon,
				     sizeof(canon), why, sizeof(why));
	te->input_ok = rc == 0;
	te->note_bad = rc != 0;
	if (rc == 0)
		snprintf(te->note, sizeof(te->note), "%s = %s: Enter to apply",
			 te->keys[te->sel].name, canon);
	else
		snprintf(te->note, sizeof(te->note), "%s", why);
}

enum tuneedit_result tuneedit_key(struct tuneedit *te, int ch)
{
	if (te->editing) {
		size_t len = strlen(te->input);
		switch (ch) {
		case 27:
			te->editing = 0;
			te->note_bad = 0;
			snprintf(te->note, sizeof(te->note), "cancelled: nothing changed");
			return TUNEEDIT_NONE;
		case '\n':
		case '\r':
		case KEY_ENTER:
			if (!te->input_ok)
				return TUNEEDIT_NONE;   /* the note says why */
			return TUNEEDIT_APPLY;
		case KEY_BACKSPACE:
		case 127:
		case 8:
			if (len)
				te->input[len - 1] = '\0';
			check_input(te);
			return TUNEEDIT_NONE;
		default:
			if (ch >= 0x20 && ch < 0x7f && len + 1 < sizeof(te->input)) {
				te->input[len] = (char)ch;
				te->input[len + 1] = '\0';
				check_input(te);
			}
			return TUNEEDIT_NONE;
		}
	}
	switch (ch) {
	case KEY_UP:
	case 'k':
		if (te->sel > 0)
			te->sel--;
		break;
	case KEY_DOWN:
	case 'j':
		if (te->sel + 1 < te->n)
			te->sel++;
		break;
	case KEY_PPAGE:
		te->sel = te->sel > 10 ? te->sel - 10 : 0;
		break;
	case KEY_NPAGE:
		te->sel = te->sel + 10 < te->n ? te->sel + 10 : (te->n ? te->n - 1 : 0);
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (!te->n)
			break;
		if (!te->st->root) {
			te->note_bad = 1;
			snprintf(te->note, sizeof(te->note), "changing %s needs root: run brisk as "
				 "root (every change is restored when it exits)",
				 te->keys[te->sel].name);
			break;
		}
		te->editing = 1;
		te->input[0] = '\0';
		check_input(te);
		break;
	case 27:
	case 'q':
	case 't':
		return TUNEEDIT_CLOSE;
	default:
		break;
	}
	return TUNEEDIT_NONE;
}

void tuneedit_done(struct tuneedit *te, int ok, const char *msg)
{
	snprintf(te->note, sizeof(te->note), "%s", msg);
	te->note_bad = !ok;
	if (ok) {
		te->editing = 0;
		tuneedit_reload(te);
	}
}

void tuneedit_draw(struct tuneedit *te)
{
	int w = COLS - 8 < 76 ? COLS - 8 : 76, h = LINES - 4;
	if (w < 40)
		w = COLS;
	if (h < 8)
		h = LINES;
	int y = (LINES - h) / 2, x = (COLS - w) / 2;
	screen_box(y, x, h, w, "Tunables");
	int rows = h - 6;    /* header, note, input, help */
	if (te->sel < te->top)
		te->top = te->sel;
	if (rows > 0 && te->sel >= te->top + (size_t)rows)
		te->top = te->sel - (size_t)rows + 1;
	int kw = w - 4 - 2 * 17;
	screen_printf(y + 1, x + 2, w - 4, SCREEN_TITLE, "%-*s %-16s %-16s", kw, "setting",
		      "current", "original");
	for (int r = 0; r < rows && te->top + (size_t)r < te->n; r++) {
		size_t i = te->top + (size_t)r;
		int sel = i == te->sel;
		if (sel) {
			attron(A_REVERSE);
			screen_blank(y + 2 + r, x + 1, w - 2);
		}
		screen_printf(y + 2 + r, x + 2, w - 4, sel ? SCREEN_SELECT : SCREEN_NORMAL,
			      "%-*.*s %-16.16s %-16.16s", kw, kw, te->keys[i].name,
			      te->cur[i][0] ? te->cur[i] : "-",
			      te->changed[i] ? te->orig[i] : "(unchanged)");
		if (sel)
			attroff(A_REVERSE);
	}
	if (te->n > (size_t)rows && rows > 0)
		screen_printf(y + h - 1, x + w - 12, 10, SCREEN_DIM, " %zu/%zu ", te->sel + 1,
			      te->n);
	screen_put(y + h - 4, x + 2, w - 4, te->note_bad ? SCREEN_BAD : SCREEN_DIM, te->note);
	if (te->editing && te->n) {
		int cx = x + 2 + screen_printf(y + h - 3, x + 2, w - 4, SCREEN_NORMAL, "%s = ",
					       te->keys[te->sel].name);
		screen_put(y + h - 3, cx, w - 4 - (cx - x - 2), te->input_ok ? SCREEN_GOOD : SCREEN_WARN,
			   te->input);
		screen_put(y + h - 3, cx + screen_width(te->input), 1, SCREEN_SELECT, " ");
	}
	screen_put(y + h - 2, x + 2, w - 4, SCREEN_DIM,
		   te->editing ? "Enter apply   Backspace   Esc cancel"
			       : "Up/Down choose   Enter edit   Esc close");
}
