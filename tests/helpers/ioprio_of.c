/* ioprio_of — the I/O priority of a process's threads, as the kernel
 * reports it (ioprio_get), for the load_ionice test.
 *
 *   ioprio_of PID
 *
 * One line per thread of PID: "TID CLASS" with CLASS as brisk and
 * ionice(1) name it: none, rt/N, be/N, idle.  Exit 0; 1 when PID or a
 * thread cannot be read; 2 for bad arguments. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define IOPRIO_CLASS_SHIFT 13
#define IOPRIO_WHO_PROCESS 1

int main(int argc, char **argv)
{
	char *end;
	long pid = argc == 2 ? strtol(argv[1], &end, 10) : 0;
	if (argc != 2 || *end || pid <= 0) {
		fprintf(stderr, "usage: ioprio_of PID\n");
		return 2;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/%ld/task", pid);
	DIR *d = opendir(path);
	if (!d) {
		fprintf(stderr, "ioprio_of: %s: %s\n", path, strerror(errno));
		return 1;
	}
	static const char *const names[] = { "none", "rt", "be", "idle" };
	int rc = 0;
	for (struct dirent *e; (e = readdir(d));) {
		long tid = strtol(e->d_name, &end, 10);
		if (*end || tid <= 0)
			continue;
		long p = syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, (int)tid);
		if (p < 0) {
			fprintf(stderr, "ioprio_of: ioprio_get %ld: %s\n", tid, strerror(errno));
			rc = 1;
			continue;
		}
		int cls = (int)(p >> IOPRIO_CLASS_SHIFT), level = (int)(p & 7);
		if (cls == 0 || cls == 3 || cls > 3)
			printf("%ld %s\n", tid, cls > 3 ? "?" : names[cls]);
		else
			printf("%ld %s/%d\n", tid, names[cls], level);
	}
	closedir(d);
	return rc;
}
