/* fileio — whole writes and directory paths, the loops every writer needs.
 *
 *  fileio_write_all   write() all n bytes, retrying on EINTR and short
 *                     writes: 0 or -errno
 *  fileio_pwrite_all  the same with pwrite() from offset off
 *  fileio_pread_all   pread() all n bytes from offset off, retrying on EINTR
 *                     and short reads: 0, -errno, or -EIO when the file
 *                     ends first
 *  fileio_read_file   the whole of regular file path, at most max bytes, into
 *                     a malloc'ed NUL-terminated *buf of *n bytes: 0, or
 *                     -errno from open/read, -EINVAL not a regular file,
 *                     -EFBIG over max (or grew past max while read)
 *  fileio_mkdir_p     make path and its missing parents with mode (existing
 *                     ones are kept as they are): 0 or -errno
 *                     (-ENAMETOOLONG past PATH_MAX).  For trusted paths only
 *                     (the user's own config dir, the lab's state dir): it
 *                     walks the path string, so it follows links.
 *  fileio_abspath     path as an absolute path into out (the form brisk's
 *                     JSON and OpenMetrics give every path): with resolve,
 *                     realpath() when it resolves; else (or when it does
 *                     not) a relative path behind the current directory,
 *                     links not followed ("" stays "").  Cut to fit len.
 */
#ifndef BRISK_FILEIO_H
#define BRISK_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

int fileio_write_all(int fd, const void *buf, size_t n);
int fileio_pwrite_all(int fd, const void *buf, size_t n, off_t off);
int fileio_pread_all(int fd, void *buf, size_t n, off_t off);
int fileio_read_file(const char *path, size_t max, char **buf, size_t *n);
int fileio_mkdir_p(const char *path, mode_t mode);
void fileio_abspath(char *out, size_t len, const char *path, int resolve);

#endif
