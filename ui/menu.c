#include "menu.h"

#include <curses.h>
#include <string.h>

#include "screen.h"

void menu_init(struct menu *m, const char *title, const char *items, const char *current,
	       const char *mark)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->title, sizeof(m->title), "%s", title);
	for (const char *p = items; *p && m->n < MENU_MAX;) {
		while (*p == ' ')
			p++;
		size_t l = strcspn(p, " ");
		if (!l)
			break;
		snprintf(m->items[m->n], sizeof(m->items[0]), "%.*s", (int)l, p);
		if (current && strcmp(m->items[m->n], current) == 0) {
			m->sel = m->n;
			snprintf(m->marks[m->n], sizeof(m->marks[0]), "%s", mark ? mark : "");
		}
		m->n++;
		p += l;
	}
}

enum menu_result menu_key(struct menu *m, int ch)
{
	switch (ch) {
	case KEY_UP:
	case 'k':
		if (m->sel > 0)
			m->sel--;
		return MENU_NONE;
	case KEY_DOWN:
	case 'j':
		if (m->sel + 1 < m->n)
			m->sel++;
		return MENU_NONE;
	case KEY_HOME:
		m->sel = 0;
		return MENU_NONE;
	case KEY_END:
		m->sel = m->n ? m->n - 1 : 0;
		return MENU_NONE;
	case '\n':
	case '\r':
	case KEY_ENTER:
		return m->n ? MENU_PICK : MENU_CANCEL;
	case 27:    /* Esc */
	case 'q':
		return MENU_CANCEL;
	default:
		if (ch >= '1' && ch <= '9' && (size_t)(ch - '1') < m->n) {
			m->sel = (size_t)(ch - '1');
			return MENU_PICK;
		}
		return MENU_NONE;
	}
}

void menu_draw(const struct menu *m)
{
	int w = 44, h = (int)m->n + 5;
	if (w > COLS)
		w = COLS;
	if (h > LINES)
		h = LINES;
	int y = (LINES - h) / 2, x = (COLS - w) / 2;
	screen_box(y, x, h, w, m->title);
	for (size_t i = 0; i < m->n && (int)i < h - 4; i++) {
		enum screen_role r = i == m->sel ? SCREEN_SELECT : SCREEN_NORMAL;
		if (i == m->sel) {
			attron(A_REVERSE);
			screen_blank(y + 1 + (int)i, x + 1, w - 2);
		}
		screen_printf(y + 1 + (int)i, x + 2, w - 4, r, "%zu  %-16s %s", i + 1,
			      m->items[i], m->marks[i]);
		if (i == m->sel)
			attroff(A_REVERSE);
	}
	screen_put(y + h - 3, x + 2, w - 4, SCREEN_DIM, m->note);
	screen_put(y + h - 2, x + 2, w - 4, SCREEN_DIM, "Enter apply   Esc cancel");
}
