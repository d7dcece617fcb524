/* mountinfo — the mount table of this process (/proc/self/mountinfo).
 *
 * Contract: mountinfo_read() fills *mi with every mount, in the kernel's
 * order (a later entry is mounted on top of an earlier one at the same
 * target); strings are unescaped (\040 is a space) and point into mi's own
 * buffer; free with mountinfo_free().  0 or -errno.  Nothing prints.
 */
#ifndef BRISK_MOUNTINFO_H
#define BRISK_MOUNTINFO_H

#include <stddef.h>

struct mountinfo_entry {
	unsigned major, minor;   /* st_dev of the file system */
	const char *target;      /* mount point */
	const char *options;     /* per-mount options */
	const char *fstype;
	const char *source;
};

struct mountinfo {
	char *buf;
	struct mountinfo_entry *v;
	size_t n;
};

int mountinfo_read(struct mountinfo *mi);
void mountinfo_free(struct mountinfo *mi);

#endif
