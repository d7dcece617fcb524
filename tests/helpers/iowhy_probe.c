/* iowhy_probe — drive the breakdown's collector directly (tests): arm a
 * slot, fork a child that opens the window, runs CMD (a grandchild) and
 * waits for it, closes the window; print the slot's accounting and the
 * child's own rusage (it and what it waited for) as KEY=VALUE lines.
 *   iowhy_probe [-n] CMD [ARG...]
 * -n: the same without the collector (wall_ns only: the cost bench).
 * Exit 0; 2 with "unavailable: WHY" when the collector cannot be loaded. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "iowhy.h"
#include "now.h"
#include "timesplit.h"

int main(int argc, char **argv)
{
	int off = argc > 1 && strcmp(argv[1], "-n") == 0;
	argv += off;
	argc -= off;
	if (argc < 2) {
		fprintf(stderr, "usage: iowhy_probe [-n] CMD [ARG...]\n");
		return 1;
	}
	struct iowhy *w = NULL;
	char why[256];
	if (!off && iowhy_open(&w, why, sizeof(why)) < 0) {
		printf("unavailable: %s\n", why);
		return 2;
	}
	/* -n: the window in shared memory of our own, as the collector's is */
	volatile struct iowhy_window *win = off ? mmap(NULL, sizeof(*win), PROT_READ | PROT_WRITE,
						       MAP_SHARED | MAP_ANONYMOUS, -1, 0) : NULL;
	if (win == MAP_FAILED || (w && iowhy_arm(w, 5, &win) < 0))
		return 1;
	pid_t pid = fork();
	if (pid == 0) {
		win->from = now_ns();
		pid_t g = fork();
		if (g == 0) {
			execvp(argv[1], argv + 1);
			_exit(127);
		}
		int st;
		while (waitpid(g, &st, 0) < 0 && errno == EINTR)
			;
		win->to = now_ns();
		_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128);
	}
	iowhy_disarm(w);
	int st;
	if (off) {
		if (pid < 0 || waitpid(pid, &st, 0) < 0)
			return 1;
		printf("status=%d\nwall_ns=%llu\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1,
		       (unsigned long long)(win->to - win->from));
		return 0;
	}
	struct rusage ru;
	if (pid < 0 || wait4(pid, &st, 0, &ru) < 0)
		return 1;
	struct iowhy_acct a;
	int rc = iowhy_collect(w, 5, win->from, win->to, &a);
	if (rc < 0) {
		printf("collect: %s\n", strerror(-rc));
		return 1;
	}
	struct timesplit t;
	timesplit_from_acct(&t, &a);
	printf("status=%d\nwall_ns=%llu\nsum_ns=%llu\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1,
	       (unsigned long long)(win->to - win->from),
	       (unsigned long long)timesplit_wall_ns(&t));
	for (int p = 0; p < TIMESPLIT_NPARTS; p++)
		printf("%s_ns=%llu\n", timesplit_key(p), (unsigned long long)t.part_ns[p]);
	printf("rusage_ns=%llu\n", (unsigned long long)((ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
							1000000000ull +
							(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ull));
	printf("reads=%u\nread_bytes=%llu\nwrites=%u\nwrite_bytes=%llu\n", t.rq[0],
	       (unsigned long long)t.rq_bytes[0], t.rq[1], (unsigned long long)t.rq_bytes[1]);
	printf("ahead_writes=%u\nflags=%u\nincomplete=%d\ndropped=%llu\n", t.ahead[1],
	       (unsigned)t.flags, t.incomplete, (unsigned long long)iowhy_dropped(w));
	printf("tracked_after=%u\n", iowhy_tracked(w));   /* all reaped by now */
	iowhy_close(w);
	return 0;
}
