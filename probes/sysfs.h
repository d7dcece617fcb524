/* sysfs — the one place brisk reads and writes kernel and udev state:
 * not only /sys but /proc (mountinfo, meminfo, pressure, vm sysctls,
 * boot_id, /proc/PID/stat) and udev's database files under /run/udev/data
 * (blockdev_list).  The name is the historical one: read "sysfs_*" as
 * "kernel attribute files", for any absolute path.  Nothing here checks
 * that a path is under /sys; the callers build the paths.
 *
 * Contract:
 *  - Every function returns 0 on success or a negative errno; nothing prints.
 *  - Strings read are NUL-terminated, with leading and trailing white space
 *    removed (models are space-padded); a value longer than the buffer is
 *    truncated and -EOVERFLOW is returned with the truncated text in place.
 *  - Writes go in one write(2) call, as the kernel expects for attributes
 *    (opened O_TRUNC like a shell's "echo >", which sysfs ignores and which
 *    umockdev testbeds, whose attributes are plain files, need),
 *    and report the kernel's errno (EINVAL for a refused value).
 *  - Paths are absolute; the *f variants format the path with printf rules.
 *  - BRISK_DEBUG=probe (trace.h) traces every write with its result and
 *    every failed read (a missing attribute too) on stderr.
 */
#ifndef BRISK_SYSFS_H
#define BRISK_SYSFS_H

#include <stddef.h>
#include <stdint.h>

int sysfs_read(const char *path, char *buf, size_t len);
int sysfs_readf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Whole file, raw (not trimmed); *n gets its length. For /proc tables. */
int sysfs_read_raw(const char *path, char *buf, size_t len, size_t *n);
int sysfs_read_s64(const char *path, int64_t *out);
/* The same relative to an open directory (sysfs_dir_open), so the kernel
 * walks one or two path components instead of the whole device path. */
int sysfs_dir_open(const char *path);   /* fd (O_PATH) or -errno; close() it */
int sysfs_read_at(int dirfd, const char *rel, char *buf, size_t len);
int sysfs_read_s64_at(int dirfd, const char *rel, int64_t *out);
int sysfs_list_at(int dirfd, const char *rel, char ***names, size_t *n);
int sysfs_read_u64(const char *path, uint64_t *out);
int sysfs_write(const char *path, const char *value);
/* Whole file into a malloc'ed NUL-terminated buffer (free()); for files of
 * unknown size such as mountinfo or a udev database entry; n may be NULL. */
int sysfs_read_alloc(const char *path, char **buf, size_t *n);
/* Names in a directory (no "." or ".."), sorted, into a malloc'ed array of
 * malloc'ed strings; free with sysfs_list_free(). -errno if unreadable. */
int sysfs_list(const char *dir, char ***names, size_t *n);
void sysfs_list_free(char **names, size_t n);
/* Resolve a symlink such as /sys/class/block/sda to the absolute path it
 * points to ("/sys/devices/.../block/sda"), collapsing "." and "..", with
 * one readlink(2) (no per-component walk).  0 or -errno. */
int sysfs_link(const char *path, char *out, size_t len);
/* The next component of a path: skips slashes at *p, returns the
 * component's start (its length in *n) and moves *p past it; NULL at the
 * end.  for (const char *c; (c = sysfs_path_next(&p, &n));) ... */
const char *sysfs_path_next(const char **p, size_t *n);
/* Does the path exist (any type)? */
int sysfs_exists(const char *path);
/* Strip leading/trailing white space in place; returns s. */
char *sysfs_trim(char *s);
/* Parse a scheduler list "none [mq-deadline] kyber": active gets the
 * bracketed name ("" when none is marked); list gets the names separated by
 * single spaces without brackets. */
void sysfs_parse_choice(const char *raw, char *active, size_t alen,
			char *list, size_t llen);

#endif
