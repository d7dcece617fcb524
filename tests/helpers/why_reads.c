/* why_reads — N random 4 KiB O_DIRECT reads of FILE, one at a time (the
 * lab cross-check's sample: tests/cli/lab_breakdown.sh).
 *   why_reads FILE N [SEED]
 * Offsets are 4 KiB-aligned, uniform over the file, from SEED (default 1).
 * Exit 0 when all N reads returned 4 KiB; 1 with a message otherwise. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BS 4096

static uint64_t next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: why_reads FILE N [SEED]\n");
		return 1;
	}
	long n = strtol(argv[2], NULL, 10);
	uint64_t x = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
	if (x == 0)
		x = 1;
	int fd = open(argv[1], O_RDONLY | O_DIRECT | O_CLOEXEC);
	struct stat st;
	void *buf;
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size < BS || n <= 0 ||
	    posix_memalign(&buf, BS, BS)) {
		fprintf(stderr, "why_reads: %s: %s\n", argv[1], fd < 0 ? strerror(errno) :
			"need a file of at least 4 KiB and N > 0");
		return 1;
	}
	uint64_t blocks = (uint64_t)st.st_size / BS;
	for (long i = 0; i < n; i++) {
		off_t off = (off_t)(next(&x) % blocks * BS);
		ssize_t r = pread(fd, buf, BS, off);
		if (r < 0 && errno == EINTR) {
			i--;
			continue;
		}
		if (r != BS) {
			fprintf(stderr, "why_reads: read at %lld: %s\n", (long long)off,
				r < 0 ? strerror(errno) : "short read");
			return 1;
		}
	}
	free(buf);
	close(fd);
	return 0;
}
