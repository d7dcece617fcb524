#include "prompt.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "screen.h"

void prompt_init(struct prompt *p, const char *title, const char *label, const char *note)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->title, sizeof(p->title), "%s", title);
	snprintf(p->label, sizeof(p->label), "%s", label);
	snprintf(p->note, sizeof(p->note), "%s", note ? note : "");
}

enum prompt_result prompt_key(struct prompt *p, int ch)
{
	size_t len = strlen(p->input);
	switch (ch) {
	case 27:
		return PROMPT_CANCEL;
	case '\n':
	case '\r':
	case KEY_ENTER:
		return len ? PROMPT_SUBMIT : PROMPT_NONE;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (len)
			p->input[len - 1] = '\0';
		return PROMPT_NONE;
	default:
		if (ch >= 0x20 && ch < 0x7f && len + 1 < sizeof(p->input)) {
			p->input[len] = (char)ch;
			p->input[len + 1] = '\0';
		}
		return PROMPT_NONE;
	}
}

void prompt_draw(const struct prompt *p)
{
	int w = COLS - 8 < 70 ? COLS - 8 : 70, h = 6;
	int y = (LINES - h) / 2, x = (COLS - w) / 2;
	screen_box(y, x, h, w, p->title);
	int lx = screen_printf(y + 1, x + 2, w - 4, SCREEN_NORMAL, "%s ", p->label);
	int iw = screen_put(y + 1, x + 2 + lx, w - 5 - lx, SCREEN_GOOD, p->input);
	screen_put(y + 1, x + 2 + lx + iw, 1, SCREEN_SELECT, " ");
	screen_put(y + 2, x + 2, w - 4, p->note_bad ? SCREEN_BAD : SCREEN_DIM, p->note);
	screen_put(y + 4, x + 2, w - 4, SCREEN_DIM, "Enter save   Backspace   Esc cancel");
}
