/* stack — the storage stack behind a directory or a device.
 *
 * directory -> mount (st_dev + /proc/self/mountinfo) -> block device ->
 * dm/md slaves -> partitions -> whole disks.  A loop device's backing file
 * gets its own stack (stack_node.backing).
 *
 * Contract:
 *  - stack_resolve_*() allocate *out; free it with stack_free().
 *  - 0 on success; -ENOENT/-ENOTDIR/-EACCES from the path;
 *    -ENODEV when the file system has no block device (tmpfs, proc):
 *    then *out is still set, with mount filled and root == NULL.
 *  - Children of a node are what it is built on: a dm/md device's slaves,
 *    a partition's whole disk.  Leaves are the devices whose queue
 *    settings matter (whole disks and loop devices).
 */
#ifndef BRISK_STACK_H
#define BRISK_STACK_H

#include <limits.h>
#include <stddef.h>
#include "blockdev.h"

struct stack;

struct stack_node {
	struct blockdev dev;
	struct stack_node **children;
	size_t n_children;
	struct stack *backing;   /* loop: stack of the backing file, or NULL */
	int backing_err;         /* -errno when the backing file's stack could
				  * not be resolved (backing NULL), or -ENODEV
				  * when its file system has no block device
				  * (backing has the mount, root NULL); 0 else */
};

struct stack_mount {
	char target[1024];
	char source[1024];
	char fstype[32];
	char options[256];
	unsigned major, minor;   /* st_dev of the file system */
};

struct stack {
	char path[PATH_MAX];     /* canonical path resolved ("" from a device) */
	struct stack_mount mount;
	struct stack_node *root;
};

int stack_resolve_path(const char *path, struct stack **out);
int stack_resolve_device(const char *name, struct stack **out);
void stack_free(struct stack *s);
/* Leaf devices in tree order without duplicates (does not enter a loop's
 * backing stack); returns how many there are (may exceed max). */
size_t stack_leaves(const struct stack *s, const struct blockdev **out, size_t max);
/* Find a device in the stack (backing stacks included) by kernel name. */
const struct blockdev *stack_find(const struct stack *s, const char *name);

#endif
