/* bench_timeit — run a command several times; report its wall time and the
 * peak resident set size of the command's own process (not of a wrapper).
 *
 *   bench_timeit [-r RUNS] [-w WARMUP] [-o FILE] -- CMD [ARG...]
 *
 * Each run fork()s and execvp()s CMD with stdout sent to FILE (default
 * /dev/null; stderr untouched) and reaps it with wait4(), whose rusage is
 * that child's alone: ru_maxrss is its peak RSS in KiB.  Wall time is
 * CLOCK_MONOTONIC from just before fork() to wait4()'s return.  WARMUP runs
 * (default 1) are made first and not counted.  CPU time is the child's
 * ru_utime + ru_stime: less disturbed than wall time when other processes
 * compete for the CPUs.  Prints one line:
 *   runs=5 wall_ms_min=12.3 wall_ms_median=12.9 wall_ms_max=14.0 cpu_ms_median=11.8 maxrss_kib=6120
 * (maxrss_kib is the largest over the counted runs).  Exit status: 0 when
 * every run exited 0; 1 when a run failed (its status is printed to stderr);
 * 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_RUNS 1000

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* One run: 0 and *ms, *cpu_ms, *rss_kib filled when the child exited 0; -1 otherwise. */
static int run_once(char **argv, const char *outfile, double *ms, double *cpu_ms, long *rss_kib)
{
	double t0 = now_ms();
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "bench_timeit: fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int fd = open(outfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
			fprintf(stderr, "bench_timeit: %s: %s\n", outfile, strerror(errno));
			_exit(127);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "bench_timeit: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	int status;
	struct rusage ru;
	pid_t r;
	do
		r = wait4(pid, &status, 0, &ru);
	while (r < 0 && errno == EINTR);
	*ms = now_ms() - t0;
	if (r < 0) {
		fprintf(stderr, "bench_timeit: wait4: %s\n", strerror(errno));
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		if (WIFSIGNALED(status))
			fprintf(stderr, "bench_timeit: %s killed by signal %d\n", argv[0], WTERMSIG(status));
		else
			fprintf(stderr, "bench_timeit: %s exited %d\n", argv[0], WEXITSTATUS(status));
		return -1;
	}
	*rss_kib = ru.ru_maxrss;
	*cpu_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		  (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Median of a sorted array of n > 0 values. */
static double median(const double *v, int n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int parse_count(const char *s, const char *what, int min, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > MAX_RUNS) {
		fprintf(stderr, "bench_timeit: %s must be a number from %d to %d, not '%s'\n",
			what, min, MAX_RUNS, s);
		return -1;
	}
	*out = (int)v;
	return 0;
}

int main(int argc, char **argv)
{
	int runs = 5, warmup = 1, opt;
	const char *outfile = "/dev/null";

	while ((opt = getopt(argc, argv, "+r:w:o:h")) != -1) {
		switch (opt) {
		case 'r':
			if (parse_count(optarg, "-r RUNS", 1, &runs))
				return 2;
			break;
		case 'w':
			if (parse_count(optarg, "-w WARMUP", 0, &warmup))
				return 2;
			break;
		case 'o':
			outfile = optarg;
			break;
		case 'h':
			printf("usage: bench_timeit [-r RUNS] [-w WARMUP] [-o FILE] -- CMD [ARG...]\n");
			return 0;
		default:
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: bench_timeit [-r RUNS] [-w WARMUP] [-o FILE] -- CMD [ARG...]\n");
		return 2;
	}
	char **cmd = argv + optind;

	static double wall[MAX_RUNS], cpu[MAX_RUNS];
	double ms, cms;
	long rss, maxrss = 0;
	for (int i = 0; i < warmup; i++)
		if (run_once(cmd, outfile, &ms, &cms, &rss))
			return 1;
	for (int i = 0; i < runs; i++) {
		if (run_once(cmd, outfile, &wall[i], &cpu[i], &rss))
			return 1;
		if (rss > maxrss)
			maxrss = rss;
	}
	qsort(wall, (size_t)runs, sizeof(wall[0]), cmp_double);
	qsort(cpu, (size_t)runs, sizeof(cpu[0]), cmp_double);
	printf("runs=%d wall_ms_min=%.1f wall_ms_median=%.1f wall_ms_max=%.1f cpu_ms_median=%.1f maxrss_kib=%ld\n",
	       runs, wall[0], median(wall, runs), wall[runs - 1], median(cpu, runs), maxrss);
	return 0;
}
