/* outfile — a report or profile written whole or not at all: "-" is
 * stdout; any other path is written to PATH.tmpXXXXXX (mode 0644) beside
 * it, flushed, fsync'ed, closed, optionally checked, and only then moved
 * into place; on any failure the temporary file is removed and PATH is
 * left as it was.
 *
 * Contract:
 *  - outfile_open: 0 with o->f ready; -errno with a message naming PATH.
 *  - outfile_close: ok = the caller's writing succeeded (0: discard);
 *    clobber = replace an existing PATH (else -EEXIST, "PATH exists");
 *    check (may be NULL) reads o->tmp before the move: 0 or -errno with
 *    its own message.  0, or -errno with a message; stdout is flushed
 *    (a failed flush is -EIO when ok).
 *  - outfile_place: move tmp to path; without clobber only when path does
 *    not exist, atomically (link), or by check-and-rename on file systems
 *    without hard links.  With clobber, only a regular file at path is
 *    replaced (rename); anything else there is left alone, -EINVAL: a
 *    symbolic link (never followed, nor removed: someone may have planted
 *    it, or it is /dev/stdout), a device node such as /dev/null, a FIFO, a
 *    socket, a directory.  0 or -errno (-EEXIST, -EINVAL).
 *  - outfile_check: can PATH be written later (by a replacing close)?  "-",
 *    a regular file, or a new name in a directory brisk may write; else
 *    -errno with a message naming PATH and what to do.  For the commands
 *    to check their output names before a long run, not only at its end.
 */
#ifndef BRISK_OUTFILE_H
#define BRISK_OUTFILE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

struct outfile {
	FILE *f;
	const char *path;
	char tmp[PATH_MAX];
};

int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen);
int outfile_close(struct outfile *o, int ok, int clobber,
		  int (*check)(struct outfile *o, char *err, size_t errlen), char *err,
		  size_t errlen);
int outfile_place(const char *tmp, const char *path, int clobber);
int outfile_check(const char *path, char *err, size_t errlen);

#endif
