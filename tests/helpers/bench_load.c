/* bench_load DIR SPEC SECONDS — run one brisk load alone for SECONDS and
 * print "bytes seconds MiB/s worst-call-ms end" (for tests/bench/run_engine.sh,
 * which compares it with fio running the same pattern). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "load.h"
#include "parse.h"

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	struct load_spec spec;
	char err[256];
	uint64_t dur;
	if (argc != 4 || load_spec_parse(argv[2], &spec, err, sizeof(err)) < 0 ||
	    parse_duration(argv[3], &dur) < 0) {
		fprintf(stderr, "usage: bench_load DIR SPEC DURATION\n%s\n", argc == 4 ? err : "");
		return 2;
	}
	struct load l;
	int dfd = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = dfd < 0 ? -errno : load_prepare(&l, &spec, 1, dfd);
	if (rc == 0)
		rc = load_start(&l, 0);
	if (rc < 0) {
		fprintf(stderr, "bench_load: %s\n", strerror(-rc));
		return 1;
	}
	uint64_t end = now_ns() + dur;
	int stopped = 0;
	while (l.fd >= 0) {
		uint64_t now = now_ns();
		if (!stopped && now >= end) {
			load_stop(&l);
			stopped = 1;
		}
		struct pollfd p = { .fd = l.fd, .events = POLLIN };
		poll(&p, 1, stopped ? 100 : (int)((end - now) / 1000000 + 1));
		load_read(&l);
	}
	int st;
	waitpid(l.pid, &st, 0);
	load_reaped(&l, st);
	unlinkat(dfd, l.name, 0);
	close(dfd);
	printf("%llu %.3f %.1f %.2f %s\n", (unsigned long long)l.bytes,
	       (double)(l.t_last - l.t_start) / 1e9, load_mibps(&l), (double)l.worst_ns / 1e6,
	       load_end_name(l.end));
	load_free(&l);
	return 0;
}
