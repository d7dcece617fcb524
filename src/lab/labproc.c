/* labproc — the lab's processes told apart by start time; see labproc.h. */
#include "labproc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sysfs.h"

void labproc_nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Start time (clock ticks since boot) and state letter of pid. */
int labproc_start(pid_t pid, unsigned long long *start, char *state)
{
	char path[64], buf[1024];
	size_t n;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	int rc = sysfs_read_raw(path, buf, sizeof buf, &n);
	if (rc && rc != -EOVERFLOW)
		return rc;
	char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return -EINVAL;
	p += 2;
	*state = *p;
	/* p is field 3; starttime is field 22. */
	for (int f = 3; f < 22; f++) {
		p = strchr(p, ' ');
		if (!p)
			return -EINVAL;
		p++;
	}
	*start = strtoull(p, NULL, 10);
	return 0;
}

int labproc_alive(pid_t pid, unsigned long long start)
{
	unsigned long long st;
	char state;
	if (pid <= 0)
		return 0;
	waitpid(pid, NULL, WNOHANG); /* reap it if it is our child */
	if (labproc_start(pid, &st, &state))
		return 0;
	return st == start && state != 'Z' && state != 'X';
}

unsigned long long labproc_self_start(void)
{
	unsigned long long st = 0;
	char c;
	labproc_start(getpid(), &st, &c);
	return st;
}

int labproc_wait_gone(pid_t pid, unsigned long long start, long ms)
{
	for (long t = 0; t <= ms; t += 20) {
		if (!labproc_alive(pid, start))
			return 1;
		labproc_nap_ms(20);
	}
	return 0;
}
