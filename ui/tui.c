#include "tui.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "keys.h"
#include "screen.h"

void tui_say(struct tui *t, int role, const char *fmt, ...)
{
	char m[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	if (t->in_compare) {
		comparescr_message(&t->cs, role, "%s", m);
		comparescr_draw(&t->cs, t->cmp, 0);
	} else {
		dash_message(&t->d, role, "%s", m);
		keys_draw(&t->d, 0);
	}
}

void tui_on_winch(void *ctx, int fd, short revents)
{
	struct tui *t = ctx;
	(void)fd;
	(void)revents;
	if (t->in_compare) {
		if (screen_winch_read())
			comparescr_draw(&t->cs, t->cmp, 1);
		return;
	}
	keys_winch(&t->d);
}

/* A background job's one-line result ("saved ...", "cannot ..."). */
void tui_on_job(void *ctx, int fd, short revents)
{
	struct tui *t = ctx;
	char buf[640];
	(void)revents;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	tui_say(t, strncmp(buf, "saved ", 6) == 0 ? SCREEN_GOOD : SCREEN_BAD, "%s", buf);
}

/* A background job (the profile save's child) ended: the loop reaped it
 * (session.h).  Its result came over the job pipe; say so only when it
 * could not have. */
void tui_on_child(void *ctx, pid_t pid, int status)
{
	struct tui *t = ctx;
	if (pid == t->save_pid)
		t->save_pid = 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return;
	if (WIFSIGNALED(status))
		tui_say(t, SCREEN_BAD, "the background job (profile save) died: signal %d",
			WTERMSIG(status));
	else
		tui_say(t, SCREEN_BAD, "the background job (profile save) could not report (exit "
			"status %d)", WEXITSTATUS(status));
}
