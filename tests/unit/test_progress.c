/* progress.h: the ETA format, and the line as a terminal gets it (a pty
 * on fd 2): erase + text + ETA, never wider than the terminal, text
 * escaped, cut at a whole character, erased by clear/end and by SIGTERM;
 * nothing at all with quiet, when fd 2 is not a terminal, or while a
 * BRISK_DEBUG trace is on; TERM=dumb blanks with spaces. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <cmocka.h>

#include "progress.h"
#include "trace.h"

#define SEC 1000000000ull

static void test_eta(void **state)
{
	(void)state;
	char b[24];
	assert_string_equal(progress_eta(b, sizeof(b), 0), "0:00");
	assert_string_equal(progress_eta(b, sizeof(b), 23 * SEC), "0:23");
	assert_string_equal(progress_eta(b, sizeof(b), 23 * SEC + SEC / 2), "0:24");   /* rounded */
	assert_string_equal(progress_eta(b, sizeof(b), 460 * SEC), "7:40");
	assert_string_equal(progress_eta(b, sizeof(b), 3599 * SEC), "59:59");
	assert_string_equal(progress_eta(b, sizeof(b), 3600 * SEC), "1:00:00");
	assert_string_equal(progress_eta(b, sizeof(b), 3723 * SEC), "1:02:03");
	assert_string_equal(progress_eta(b, sizeof(b), 100 * 3600 * SEC), "100:00:00");
	assert_string_equal(progress_eta(b, sizeof(b), PROGRESS_ETA_UNKNOWN), "?");
}

/* fd 2 becomes the slave of a pty of `cols` columns; *master to read it. */
static int saved_err = -1;

static void pty_stderr(int cols, int *master)
{
	int s;
	struct winsize ws = { .ws_row = 24, .ws_col = (unsigned short)cols };
	assert_int_equal(openpty(master, &s, NULL, NULL, &ws), 0);
	/* raw: the bytes as written, no CR/LF translation */
	struct termios t;
	assert_int_equal(tcgetattr(s, &t), 0);
	cfmakeraw(&t);
	assert_int_equal(tcsetattr(s, TCSANOW, &t), 0);
	if (saved_err < 0)
		saved_err = dup(2);
	assert_true(dup2(s, 2) == 2);
	close(s);
	fcntl(*master, F_SETFL, O_NONBLOCK);
}

static void stderr_back(int master)
{
	dup2(saved_err, 2);
	close(master);
}

/* Everything the pty has for us now. */
static size_t drain(int master, char *buf, size_t cap)
{
	size_t n = 0;
	for (;;) {
		struct pollfd p = { .fd = master, .events = POLLIN };
		if (poll(&p, 1, 100) <= 0)
			break;
		ssize_t r = read(master, buf + n, cap - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	return n;
}

/* Columns of the visible text after the last erase, as progress counts
 * them: ASCII one, a multi-byte character two. */
static int visible_cols(const char *s)
{
	const char *e = strstr(s, "\033[K");
	const char *last = NULL;
	while (e) {
		last = e;
		e = strstr(e + 1, "\033[K");
	}
	s = last ? last + 3 : s;
	int cols = 0;
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		cols += *c < 0x80 ? 1 : (*c & 0xc0) == 0xc0 ? 2 : 0;
	return cols;
}

static void test_line(void **state)
{
	(void)state;
	int m;
	char buf[4096];
	unsetenv("TERM");
	pty_stderr(40, &m);
	struct progress p;
	assert_int_equal(progress_begin(&p, "run", 0), 1);
	progress_show(&p, 23 * SEC, "loaded  samples %d/%d", 12, 40);
	drain(m, buf, sizeof(buf));
	assert_string_equal(buf, "\r\033[Krun: loaded  samples 12/40  ETA 0:23");

	/* too long for 40 columns: the text is cut, the ETA kept, <= 39 */
	progress_show(&p, 460 * SEC, "round 2/6, bfq loaded 3/6; leader bfq ssh-like 0.16x");
	drain(m, buf, sizeof(buf));
	assert_memory_equal(buf, "\r\033[K", 4);
	assert_int_equal(visible_cols(buf), 39);
	assert_non_null(strstr(buf, "  ETA 7:40"));
	assert_null(strchr(buf + 4, '\n'));

	/* a caller's control bytes are escaped, never sent */
	progress_show(&p, 0, "a\033[2Jb\rc\n");
	drain(m, buf, sizeof(buf));
	assert_null(strchr(buf + 4, '\033'));
	assert_null(strchr(buf + 4, '\r'));
	assert_null(strchr(buf + 4, '\n'));
	assert_non_null(strstr(buf, "a\\x1b[2Jb\\x0dc\\x0a"));

	/* cut at a whole character: "é" (2 bytes) counts two columns */
	progress_show(&p, 0, "%s", "ééééééééééééééééééééééééé");
	drain(m, buf, sizeof(buf));
	assert_true(visible_cols(buf) <= 39);
	const char *t = buf + 4 + strlen("run: ");
	size_t n = strstr(t, "  ETA")  - t;
	assert_int_equal(n % 2, 0);   /* whole two-byte characters only */

	progress_clear(&p);
	drain(m, buf, sizeof(buf));
	assert_string_equal(buf, "\r\033[K");
	progress_clear(&p);   /* not shown: nothing */
	assert_int_equal(drain(m, buf, sizeof(buf)), 0);

	progress_show(&p, 1 * SEC, "x");
	progress_end(&p);
	drain(m, buf, sizeof(buf));
	assert_string_equal(buf, "\r\033[Krun: x  ETA 0:01\r\033[K");
	progress_end(&p);   /* again: nothing */
	progress_show(&p, 1 * SEC, "after the end");
	assert_int_equal(drain(m, buf, sizeof(buf)), 0);

	/* a very narrow terminal: still one line, within it */
	struct winsize ws = { .ws_row = 24, .ws_col = 8 };
	ioctl(2, TIOCSWINSZ, &ws);
	progress_begin(&p, "compare", 0);
	progress_show(&p, 5 * SEC, "round 1/3");
	drain(m, buf, sizeof(buf));
	assert_true(visible_cols(buf) <= 7);
	progress_end(&p);
	stderr_back(m);
}

static void test_off(void **state)
{
	(void)state;
	int m;
	char buf[1024];
	struct progress p;
	pty_stderr(80, &m);
	/* -q: nothing */
	assert_int_equal(progress_begin(&p, "run", 1), 0);
	progress_show(&p, SEC, "x");
	progress_clear(&p);
	progress_end(&p);
	assert_int_equal(drain(m, buf, sizeof(buf)), 0);
	/* a trace on: nothing either (trace lines go to fd 2 directly) */
	setenv("BRISK_DEBUG", "session", 1);
	trace_init();
	assert_int_equal(progress_begin(&p, "run", 0), 0);
	progress_show(&p, SEC, "x");
	progress_end(&p);
	assert_int_equal(drain(m, buf, sizeof(buf)), 0);
	unsetenv("BRISK_DEBUG");
	trace_init();
	stderr_back(m);

	/* fd 2 a pipe: nothing, not a byte */
	int pf[2];
	assert_int_equal(pipe(pf), 0);
	dup2(pf[1], 2);
	close(pf[1]);
	fcntl(pf[0], F_SETFL, O_NONBLOCK);
	assert_int_equal(progress_begin(&p, "run", 0), 0);
	progress_show(&p, SEC, "x");
	progress_clear(&p);
	progress_end(&p);
	assert_true(read(pf[0], buf, sizeof(buf)) < 0 && errno == EAGAIN);
	close(pf[0]);
	dup2(saved_err, 2);
}

static void test_dumb(void **state)
{
	(void)state;
	int m;
	char buf[1024];
	struct progress p;
	setenv("TERM", "dumb", 1);
	pty_stderr(80, &m);
	progress_begin(&p, "run", 0);
	progress_show(&p, SEC, "abc");
	drain(m, buf, sizeof(buf));
	assert_string_equal(buf, "\r\rrun: abc  ETA 0:01");
	progress_show(&p, SEC, "d");
	drain(m, buf, sizeof(buf));
	/* the 18 columns drawn are blanked, then the new text */
	assert_string_equal(buf, "\r                  \rrun: d  ETA 0:01");
	progress_end(&p);
	drain(m, buf, sizeof(buf));
	assert_string_equal(buf, "\r                \r");
	assert_null(strchr(buf, '\033'));
	unsetenv("TERM");
	stderr_back(m);
}

/* SIGTERM while the line is shown: erased, then the default action. */
static void test_signal(void **state)
{
	(void)state;
	int m;
	char buf[1024];
	unsetenv("TERM");
	pty_stderr(80, &m);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct progress p;
		progress_begin(&p, "lab calibrate", 0);
		progress_show(&p, 4 * SEC, "random reads 120/~400");
		raise(SIGTERM);
		_exit(0);   /* not reached */
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st));
	assert_int_equal(WTERMSIG(st), SIGTERM);
	drain(m, buf, sizeof(buf));
	assert_string_equal(buf, "\r\033[Klab calibrate: random reads 120/~400  ETA 0:04\r\033[K");
	/* the handlers are put back at the end */
	struct progress p;
	progress_begin(&p, "run", 0);
	progress_end(&p);
	struct sigaction sa;
	sigaction(SIGTERM, NULL, &sa);
	assert_true(sa.sa_handler == SIG_DFL);
	drain(m, buf, sizeof(buf));
	stderr_back(m);
}

/* After each test, failed or not: stderr is stderr again (cmocka's
 * messages must not vanish into a pty). */
static int restore(void **state)
{
	(void)state;
	if (saved_err >= 0)
		dup2(saved_err, 2);
	unsetenv("TERM");
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eta),
		cmocka_unit_test_teardown(test_line, restore),
		cmocka_unit_test_teardown(test_off, restore),
		cmocka_unit_test_teardown(test_dumb, restore),
		cmocka_unit_test_teardown(test_signal, restore),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
