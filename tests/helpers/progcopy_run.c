/* progcopy_run — copy one program as the exec action copies its default
 * one, for tests (tests/cli/exec_ldconfig.sh).
 *
 *   progcopy_run PROGRAM WORKDIR
 *
 * Copies PROGRAM, its interpreter and every library it needs (resolved
 * as progcopy resolves them) into WORKDIR/prog, prints each copied file,
 * one a line, then the command line that starts the copy; exit 0, or the
 * error on stderr and exit 1 (2 for bad arguments). */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "progcopy.h"

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: progcopy_run PROGRAM WORKDIR\n");
		return 2;
	}
	int dfd = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		perror(argv[2]);
		return 2;
	}
	struct progcopy pc;
	char err[512];
	if (progcopy_make_program(&pc, dfd, argv[1], NULL, err, sizeof(err)) < 0) {
		fprintf(stderr, "progcopy_run: %s\n", err);
		progcopy_free(&pc);
		return 1;
	}
	for (size_t i = 0; i < pc.n_files; i++)
		printf("%s\n", pc.files[i]);
	for (size_t i = 0; pc.argv && pc.argv[i]; i++)
		printf("%s%s", i ? " " : "run: ", pc.argv[i]);
	printf("\n");
	progcopy_free(&pc);
	close(dfd);
	return 0;
}
