/* screen — the terminal: curses setup and teardown, colour roles with a
 * monochrome fallback, and width-aware text output.  The only module
 * besides the dashboard's panels that includes <curses.h>.
 *
 * Contract:
 *  - screen_open() uses newterm() (never initscr(), which exits on its
 *    own): 0, or -1 with a message in err and the terminal untouched.
 *  - Colours only when the terminal has them and NO_COLOR is unset or
 *    empty (https://no-color.org); otherwise every role maps to a
 *    monochrome attribute (bold, dim, reverse, underline).
 *  - UTF-8 drawing only when the locale's codeset is UTF-8; callers ask
 *    screen_utf8() and use ASCII otherwise.
 *  - screen_close() is idempotent and safe to call from any exit path
 *    (endwin() before any fatal message).
 *  - Text is clipped to the given width in display columns (wide and
 *    multi-byte characters counted correctly), never wrapped.
 */
#ifndef BRISK_UI_SCREEN_H
#define BRISK_UI_SCREEN_H

#include <stddef.h>

enum screen_role {
	SCREEN_NORMAL,
	SCREEN_TITLE,     /* panel titles */
	SCREEN_DIM,       /* secondary text, idle samples */
	SCREEN_GOOD,
	SCREEN_WARN,
	SCREEN_BAD,
	SCREEN_MARK,      /* epoch markers */
	SCREEN_KEY,       /* key names in the bottom line and help */
	SCREEN_SELECT,    /* selected row in a list */
	SCREEN_BADGE,     /* firmware advisory badge */
	SCREEN_ROLE_COUNT
};

int screen_open(char *err, size_t errlen);
void screen_close(void);
int screen_is_open(void);
int screen_utf8(void);
int screen_color(void);
int screen_attr(enum screen_role r);
/* The attribute of a breakdown bar's part (0..SCREEN_PARTS-1, the order
 * of timesplit.h): its own colour as the background with colours;
 * without, reverse, or bold when alt (the bar alternates them so that
 * neighbouring parts stay apart; their letters tell them anyway). */
#define SCREEN_PARTS 8
int screen_part_attr(int part, int alt);
/* Window-size changes: SIGWINCH is blocked and delivered through this
 * signalfd (for the event loop) instead of a handler, so a resize is seen
 * at once.  -errno on failure (then resizes are noticed on the next key).
 * screen_winch_read() drains it and resizes curses to the terminal's new
 * size; 1 when the size changed. */
int screen_winch_fd(void);
int screen_winch_read(void);
/* Next key, or -1 when none is pending (never blocks). */
int screen_key(void);
/* Current size in cells. */
int screen_cols(void);
int screen_lines(void);
/* Display width of a UTF-8 string. */
int screen_width(const char *s);
/* Write s at (y, x) clipped to maxw columns; returns columns written.
 * Control bytes, invalid UTF-8 and '\' are drawn escaped (text_escape(),
 * text.h), so no string from a device or a file can drive the terminal;
 * screen_width() measures the same escaped form. */
int screen_put(int y, int x, int maxw, enum screen_role r, const char *s);
int screen_printf(int y, int x, int maxw, enum screen_role r, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* A horizontal rule with an optional title: "── Title ─────". */
void screen_rule(int y, int x, int w, const char *title);
/* A framed box, interior cleared. */
void screen_box(int y, int x, int h, int w, const char *title);
/* Fill w columns at (y, x) with spaces. */
void screen_blank(int y, int x, int w);

#endif
