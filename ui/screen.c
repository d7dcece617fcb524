#include "screen.h"

#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "text.h"

static SCREEN *scr;
static int winch_fd = -1;
static int open_, utf8, color;
static int attrs[SCREEN_ROLE_COUNT];
/* The parts of a breakdown bar (timesplit.h order: cpu, runq, device,
 * queued, admit, throttled, blocked, sleep), drawn reversed: the colour
 * is the cell's background. */
static const short part_colors[SCREEN_PARTS] = {
	COLOR_GREEN, COLOR_YELLOW, COLOR_BLUE, COLOR_RED, COLOR_MAGENTA, COLOR_CYAN,
	COLOR_WHITE, COLOR_BLACK,
};

int screen_is_open(void)
{
	return open_;
}

int screen_utf8(void)
{
	return utf8;
}

int screen_color(void)
{
	return color;
}

int screen_attr(enum screen_role r)
{
	return r < SCREEN_ROLE_COUNT ? attrs[r] : 0;
}

int screen_part_attr(int part, int alt)
{
	if (color && part >= 0 && part < SCREEN_PARTS)
		return (int)(COLOR_PAIR(7 + part) | A_REVERSE);
	return alt ? A_BOLD : A_REVERSE;
}

static void set_roles(void)
{
	const char *nc = getenv("NO_COLOR");
	color = has_colors() && !(nc && *nc);
	if (color && start_color() == OK) {
		use_default_colors();
		init_pair(1, COLOR_CYAN, -1);
		init_pair(2, COLOR_GREEN, -1);
		init_pair(3, COLOR_YELLOW, -1);
		init_pair(4, COLOR_RED, -1);
		init_pair(5, COLOR_MAGENTA, -1);
		init_pair(6, COLOR_BLACK, COLOR_YELLOW);
		for (int i = 0; i < SCREEN_PARTS; i++)
			init_pair((short)(7 + i), part_colors[i], -1);
		attrs[SCREEN_NORMAL] = A_NORMAL;
		attrs[SCREEN_TITLE] = COLOR_PAIR(1) | A_BOLD;
		attrs[SCREEN_DIM] = A_DIM;
		attrs[SCREEN_GOOD] = COLOR_PAIR(2);
		attrs[SCREEN_WARN] = COLOR_PAIR(3) | A_BOLD;
		attrs[SCREEN_BAD] = COLOR_PAIR(4) | A_BOLD;
		attrs[SCREEN_MARK] = COLOR_PAIR(5) | A_BOLD;
		attrs[SCREEN_KEY] = COLOR_PAIR(1) | A_BOLD;
		attrs[SCREEN_SELECT] = A_REVERSE;
		attrs[SCREEN_BADGE] = COLOR_PAIR(6) | A_BOLD;
	} else {
		color = 0;
		attrs[SCREEN_NORMAL] = A_NORMAL;
		attrs[SCREEN_TITLE] = A_BOLD;
		attrs[SCREEN_DIM] = A_DIM;
		attrs[SCREEN_GOOD] = A_NORMAL;
		attrs[SCREEN_WARN] = A_BOLD;
		attrs[SCREEN_BAD] = A_BOLD | A_UNDERLINE;
		attrs[SCREEN_MARK] = A_BOLD;
		attrs[SCREEN_KEY] = A_BOLD;
		attrs[SCREEN_SELECT] = A_REVERSE;
		attrs[SCREEN_BADGE] = A_REVERSE | A_BOLD;
	}
}

int screen_open(char *err, size_t errlen)
{
	if (open_)
		return 0;
	const char *cs = nl_langinfo(CODESET);
	utf8 = cs && strcmp(cs, "UTF-8") == 0;
	scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		const char *t = getenv("TERM");
		snprintf(err, errlen, "cannot use the terminal (TERM=%s): no terminfo entry "
			 "or not a terminal", t ? t : "(unset)");
		return -1;
	}
	set_term(scr);
	open_ = 1;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	set_roles();
	return 0;
}

int screen_winch_fd(void)
{
	if (winch_fd >= 0)
		return winch_fd;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGWINCH);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -errno;
	winch_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (winch_fd < 0) {
		int e = errno;
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		return -e;
	}
	return winch_fd;
}

int screen_winch_read(void)
{
	struct signalfd_siginfo si;
	int got = 0;
	while (winch_fd >= 0 && read(winch_fd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		got = 1;
	struct winsize ws;
	if (!got || !open_ || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) < 0 || !ws.ws_row || !ws.ws_col)
		return 0;
	if (ws.ws_row == LINES && ws.ws_col == COLS)
		return 0;
	resizeterm(ws.ws_row, ws.ws_col);
	return 1;
}

int screen_cols(void)
{
	return open_ ? COLS : 0;
}

int screen_lines(void)
{
	return open_ ? LINES : 0;
}

int screen_key(void)
{
	if (!open_)
		return -1;
	int ch = getch();
	return ch == ERR ? -1 : ch;
}

void screen_close(void)
{
	if (winch_fd >= 0) {
		close(winch_fd);
		winch_fd = -1;
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, SIGWINCH);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
	}
	if (!open_)
		return;
	open_ = 0;
	curs_set(1);
	endwin();
	delscreen(scr);
	scr = NULL;
}

int screen_width(const char *text)
{
	char s[4096];   /* as screen_put() draws it */
	text_escape(s, sizeof(s), text);
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	int w = 0;
	const char *p = s;
	size_t left = strlen(s);
	while (left) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, p, left, &st);
		if (n == (size_t)-1 || n == (size_t)-2) {
			memset(&st, 0, sizeof(st));
			n = 1;
			wc = L'?';
		} else if (n == 0) {
			break;
		}
		int cw = wcwidth(wc);
		w += cw > 0 ? cw : 0;
		p += n;
		left -= n;
	}
	return w;
}

int screen_put(int y, int x, int maxw, enum screen_role r, const char *text)
{
	if (maxw <= 0 || y < 0 || y >= LINES || x >= COLS)
		return 0;
	/* Everything drawn passes here: device strings (a USB stick's model),
	 * paths and messages are shown with control bytes, bidirectional and
	 * invisible format characters (U+202E, U+2028, U+200B...) and invalid
	 * UTF-8 as \xHH (text.h), never handed to curses raw. */
	char s[4096];
	text_escape(s, sizeof(s), text);
	if (x + maxw > COLS)
		maxw = COLS - x;
	mbstate_t st;
	memset(&st, 0, sizeof(st));
	const char *p = s;
	size_t left = strlen(s);
	int w = 0;
	/* find how many bytes fit in maxw columns */
	while (left) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, p, left, &st);
		if (n == (size_t)-1 || n == (size_t)-2 || n == 0)
			break;
		int cw = wcwidth(wc);
		if (cw < 0)
			cw = 0;
		if (w + cw > maxw)
			break;
		w += cw;
		p += n;
		left -= n;
	}
	attron(screen_attr(r));
	mvaddnstr(y, x, s, (int)(p - s));
	attroff(screen_attr(r));
	return w;
}

int screen_printf(int y, int x, int maxw, enum screen_role r, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return screen_put(y, x, maxw, r, buf);
}

void screen_blank(int y, int x, int w)
{
	if (y < 0 || y >= LINES)
		return;
	if (x + w > COLS)
		w = COLS - x;
	if (w > 0)
		mvhline(y, x, ' ', w);
}

void screen_rule(int y, int x, int w, const char *title)
{
	if (y < 0 || y >= LINES || w <= 0)
		return;
	if (x + w > COLS)
		w = COLS - x;
	attron(screen_attr(SCREEN_DIM));
	mvhline(y, x, ACS_HLINE, w);
	attroff(screen_attr(SCREEN_DIM));
	if (title && *title && w > 4) {
		screen_put(y, x + 1, 1, SCREEN_NORMAL, " ");
		int tw = screen_put(y, x + 2, w - 4, SCREEN_TITLE, title);
		screen_put(y, x + 2 + tw, 1, SCREEN_NORMAL, " ");
	}
}

void screen_box(int y, int x, int h, int w, const char *title)
{
	if (h < 2 || w < 2)
		return;
	for (int i = 1; i < h - 1; i++)
		screen_blank(y + i, x + 1, w - 2);
	mvaddch(y, x, ACS_ULCORNER);
	mvaddch(y, x + w - 1, ACS_URCORNER);
	mvaddch(y + h - 1, x, ACS_LLCORNER);
	mvaddch(y + h - 1, x + w - 1, ACS_LRCORNER);
	mvhline(y, x + 1, ACS_HLINE, w - 2);
	mvhline(y + h - 1, x + 1, ACS_HLINE, w - 2);
	mvvline(y + 1, x, ACS_VLINE, h - 2);
	mvvline(y + 1, x + w - 1, ACS_VLINE, h - 2);
	if (title && *title && w > 6) {
		screen_put(y, x + 2, 1, SCREEN_NORMAL, " ");
		int tw = screen_put(y, x + 3, w - 6, SCREEN_TITLE, title);
		screen_put(y, x + 3 + tw, 1, SCREEN_NORMAL, " ");
	}
}
