/* progress — the batch commands' live progress line; see progress.h. */
#include "progress.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "text.h"
#include "trace.h"

#define DEFAULT_COLS 80
#define TAB_COLS 8
#define MAX_COLS 1000   /* wider terminals get a line this long */

/* What the signal handler needs: the line shown (its columns), how to
 * erase it, whose it is, and the actions to go back to. */
static const int sigs[3] = { SIGINT, SIGTERM, SIGHUP };
static volatile sig_atomic_t shown_cols;
static volatile sig_atomic_t shown_dumb;
static pid_t owner;
static struct sigaction old_actions[3]; /* as they were at progress_begin() */
static int handled[3];                  /* set by us (not ignored on entry) */

static const char spaces[] = "                                                                ";

/* Write all of buf to fd 2 (async-signal-safe). */
static void put(const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(STDERR_FILENO, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;   /* a terminal that is gone: nothing to erase */
		buf += w;
		n -= (size_t)w;
	}
}

/* Erase a line of `cols` columns (async-signal-safe). */
static void erase(int cols, int dumb)
{
	if (!dumb) {
		put("\r\033[K", 4);
		return;
	}
	put("\r", 1);
	for (int left = cols; left > 0; left -= (int)(sizeof(spaces) - 1))
		put(spaces, left < (int)(sizeof(spaces) - 1) ? (size_t)left : sizeof(spaces) - 1);
	put("\r", 1);
}

static void on_signal(int sig)
{
	int saved = errno;
	if (getpid() == owner && shown_cols > 0) {
		erase(shown_cols, shown_dumb);
		shown_cols = 0;
	}
	/* the action that was there before (the default), then again */
	for (int i = 0; i < 3; i++)
		if (sigs[i] == sig)
			sigaction(sig, &old_actions[i], NULL);
	errno = saved;
	raise(sig);
}

static void handlers_set(void)
{
	owner = getpid();
	for (int i = 0; i < 3; i++) {
		struct sigaction cur;
		if (sigaction(sigs[i], NULL, &cur) < 0)
			continue;
		if (cur.sa_handler == on_signal)
			continue;   /* still ours (a progress not ended): keep what was before */
		handled[i] = 0;
		old_actions[i] = cur;
		if (cur.sa_handler == SIG_IGN)
			continue;   /* ignored when we started (a background job): stays so */
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		handled[i] = sigaction(sigs[i], &sa, NULL) == 0;
	}
}

static void handlers_reset(void)
{
	for (int i = 0; i < 3; i++)
		if (handled[i])
			sigaction(sigs[i], &old_actions[i], NULL);
	memset(handled, 0, sizeof(handled));
}

int progress_begin(struct progress *p, const char *name, int quiet)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	if (quiet || !isatty(STDERR_FILENO) || trace_on(TRACE_ALL))
		return 0;
	const char *term = getenv("TERM");
	p->dumb = term && strcmp(term, "dumb") == 0;
	p->on = 1;
	handlers_set();
	return 1;
}

char *progress_eta(char *buf, size_t len, uint64_t ns)
{
	if (ns == PROGRESS_ETA_UNKNOWN) {
		snprintf(buf, len, "?");
		return buf;
	}
	uint64_t s = (ns + 500000000ull) / 1000000000ull;
	if (s >= 3600)
		snprintf(buf, len, "%llu:%02u:%02u", (unsigned long long)(s / 3600),
			 (unsigned)(s / 60 % 60), (unsigned)(s % 60));
	else
		snprintf(buf, len, "%u:%02u", (unsigned)(s / 60), (unsigned)(s % 60));
	return buf;
}

static int term_cols(void)
{
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return DEFAULT_COLS;
}

/* Columns of the character at s (clean text: text_escape's output). */
static int char_cols(const char *s, size_t n, size_t *len)
{
	unsigned char c = (unsigned char)*s;
	*len = 1;
	if (c == '\t')
		return TAB_COLS;
	if (c < 0x80)
		return 1;
	size_t l = text_char_len(s, n);
	*len = l ? l : 1;
	return 2;   /* wide or not: never more than two columns */
}

/* Bytes of s that fit into max columns (whole characters); *cols gets
 * the columns they take. */
static size_t fit(const char *s, int max, int *cols)
{
	size_t n = strlen(s), i = 0;
	int used = 0;
	while (i < n) {
		size_t l;
		int w = char_cols(s + i, n - i, &l);
		if (used + w > max)
			break;
		used += w;
		i += l;
	}
	*cols = used;
	return i;
}

void progress_show(struct progress *p, uint64_t eta_ns, const char *fmt, ...)
{
	if (!p->on)
		return;
	/* line: CR, MAX_COLS blanks, CR, then the text and the tail */
	char text[512], clean[1024], line[MAX_COLS + 2 + 1024 + 32], eta[24], tail[32];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n < 0)
		text[0] = '\0';
	char head[600];
	snprintf(head, sizeof(head), "%s: %s", p->name, text);
	text_escape_flags(clean, sizeof(clean), head, TEXT_KEEP_BACKSLASH);
	snprintf(tail, sizeof(tail), "  ETA %s", progress_eta(eta, sizeof(eta), eta_ns));

	int width = term_cols() - 1, tail_cols, head_cols;
	if (width < 1)
		width = 1;
	if (width > MAX_COLS)
		width = MAX_COLS;
	size_t tl = fit(tail, width, &tail_cols);
	size_t hl = tl == strlen(tail) ? fit(clean, width - tail_cols, &head_cols) : 0;
	if (!hl)
		head_cols = 0;
	/* erase the old line and draw the new one in one write */
	size_t l = 0;
	if (p->dumb) {
		line[l++] = '\r';
		for (int i = 0; i < p->cols; i++)
			line[l++] = ' ';
		line[l++] = '\r';
	} else {
		memcpy(line, "\r\033[K", 4);
		l = 4;
	}
	memcpy(line + l, clean, hl);
	l += hl;
	memcpy(line + l, tail, tl);
	l += tl;
	put(line, l);
	p->cols = head_cols + tail_cols > 0 ? head_cols + tail_cols : 1;   /* shown */
	shown_dumb = p->dumb;
	shown_cols = p->cols;
}

void progress_clear(struct progress *p)
{
	if (!p->on || !p->cols)
		return;
	erase(p->cols, p->dumb);
	p->cols = 0;
	shown_cols = 0;
}

void progress_end(struct progress *p)
{
	if (!p->on)
		return;
	progress_clear(p);
	handlers_reset();
	p->on = 0;
}
