#include "stack.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "mountinfo.h"
#include "trace.h"
#include "sysfs.h"

#define STACK_MAX_DEPTH 16   /* dm on md on loop on ... : far more than real stacks */

static int build_node(const char *name, int depth, struct stack_node **out);
static int resolve_file(const char *path, int depth, struct stack **out);

static void node_free(struct stack_node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n_children; i++)
		node_free(n->children[i]);
	free(n->children);
	stack_free(n->backing);
	free(n);
}

void stack_free(struct stack *s)
{
	if (!s)
		return;
	node_free(s->root);
	free(s);
}

static int add_child(struct stack_node *n, struct stack_node *c)
{
	struct stack_node **v = realloc(n->children, (n->n_children + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	v[n->n_children++] = c;
	n->children = v;
	return 0;
}

static int build_from(struct stack_node *n, int depth)
{
	const struct blockdev *d = &n->dev;
	if (d->kind == BLOCKDEV_PARTITION && d->parent[0]) {
		struct stack_node *c;
		int rc = build_node(d->parent, depth + 1, &c);
		if (rc == 0 && (rc = add_child(n, c)) < 0)
			node_free(c);
		return rc == -ENODEV ? 0 : rc;
	}
	for (size_t i = 0; i < d->n_slaves; i++) {
		struct stack_node *c;
		int rc = build_node(d->slaves[i], depth + 1, &c);
		if (rc == -ENODEV)
			continue;   /* a slave that vanished meanwhile */
		if (rc == 0 && (rc = add_child(n, c)) < 0)
			node_free(c);
		if (rc < 0)
			return rc;
	}
	if (d->kind == BLOCKDEV_LOOP && d->backing_file[0]) {
		int rc = resolve_file(d->backing_file, depth + 1, &n->backing);
		if (rc < 0) {
			n->backing_err = rc;
			if (rc != -ENODEV) {   /* -ENODEV keeps the mount, root NULL */
				stack_free(n->backing);
				n->backing = NULL;
			}
		}
	}
	return 0;
}

static int build_node(const char *name, int depth, struct stack_node **out)
{
	if (depth > STACK_MAX_DEPTH)
		return -ELOOP;
	struct stack_node *n = calloc(1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	int rc = blockdev_probe(name, &n->dev);
	if (rc == 0)
		trace(TRACE_PROBE, "stack: %*s%s (%zu slaves%s%s)", depth * 2, "", name,
		      n->dev.n_slaves, n->dev.parent[0] ? ", partition of " : "", n->dev.parent);
	if (rc == 0)
		rc = build_from(n, depth);
	if (rc < 0) {
		node_free(n);
		return rc;
	}
	*out = n;
	return 0;
}

static int path_under(const char *path, const char *mnt)
{
	size_t n = strlen(mnt);
	if (n == 1 && mnt[0] == '/')
		return 1;
	return strncmp(path, mnt, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* Find the mount of `path` whose st_dev is `dev`; the longest matching
 * mount point wins (bind mounts share a device). */
static int find_mount(const char *path, dev_t dev, struct stack_mount *m)
{
	struct mountinfo mi;
	int rc = mountinfo_read(&mi);
	if (rc < 0)
		return rc;
	const struct mountinfo_entry *best = NULL;
	for (size_t i = 0; i < mi.n; i++) {
		const struct mountinfo_entry *e = &mi.v[i];
		if (makedev(e->major, e->minor) != dev || !path_under(path, e->target) ||
		    (best && strlen(e->target) < strlen(best->target)))
			continue;
		best = e;
	}
	if (best) {
		snprintf(m->target, sizeof(m->target), "%s", best->target);
		snprintf(m->source, sizeof(m->source), "%s", best->source);
		snprintf(m->fstype, sizeof(m->fstype), "%s", best->fstype);
		snprintf(m->options, sizeof(m->options), "%s", best->options);
		m->major = best->major;
		m->minor = best->minor;
	}
	mountinfo_free(&mi);
	return best ? 0 : -ENOENT;
}

/* The block device behind a mount: its own st_dev when that is a block
 * device; else (btrfs and others use anonymous device numbers) the source. */
static int mount_blockdev(const struct stack_mount *m, dev_t *out)
{
	char p[64];
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", m->major, m->minor);
	if (m->major != 0 && sysfs_exists(p) == 0) {
		*out = makedev(m->major, m->minor);
		return 0;
	}
	struct stat st;
	if (m->source[0] == '/' && stat(m->source, &st) == 0 && S_ISBLK(st.st_mode)) {
		*out = st.st_rdev;
		return 0;
	}
	return -ENODEV;
}

static int resolve_dev(dev_t dev, int depth, struct stack_node **out)
{
	struct blockdev d;
	int rc = blockdev_probe_devnum(dev, &d);
	if (rc < 0)
		return rc;
	return build_node(d.name, depth, out);
}

static int resolve_at(const char *canon, const struct stat *st, int depth, struct stack **out)
{
	struct stack *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	snprintf(s->path, sizeof(s->path), "%s", canon);
	int rc = find_mount(canon, st->st_dev, &s->mount);
	if (rc == -ENOENT) {   /* not in mountinfo (another namespace): use st_dev */
		s->mount.major = major(st->st_dev);
		s->mount.minor = minor(st->st_dev);
		rc = 0;
	}
	dev_t bdev;
	if (rc == 0)
		rc = mount_blockdev(&s->mount, &bdev);
	if (rc == 0)
		rc = resolve_dev(bdev, depth, &s->root);
	*out = s;
	trace(TRACE_PROBE, "stack %s: mount %u:%u %s, %s", canon, s->mount.major, s->mount.minor,
	      s->mount.fstype, rc == 0 ? s->root->dev.name : rc == -ENODEV ? "no block device"
	      : strerror(-rc));
	if (rc < 0 && rc != -ENODEV) {
		stack_free(s);
		*out = NULL;
	}
	return rc;
}

static int resolve_file(const char *path, int depth, struct stack **out)
{
	*out = NULL;
	if (depth > STACK_MAX_DEPTH)
		return -ELOOP;
	char canon[PATH_MAX];
	struct stat st;
	if (!realpath(path, canon) || stat(canon, &st) < 0)
		return -errno;
	return resolve_at(canon, &st, depth, out);
}

int stack_resolve_path(const char *path, struct stack **out)
{
	*out = NULL;
	char canon[PATH_MAX];
	struct stat st;
	if (!realpath(path, canon) || stat(canon, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (access(canon, R_OK | X_OK) < 0)
		return -errno;
	return resolve_at(canon, &st, 0, out);
}

int stack_resolve_device(const char *name, struct stack **out)
{
	*out = NULL;
	struct stack *s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	int rc = build_node(name, 0, &s->root);
	trace(TRACE_PROBE, "stack of device %s: %s", name, rc < 0 ? strerror(-rc) : "ok");
	if (rc < 0) {
		free(s);
		return rc;
	}
	*out = s;
	return 0;
}

static int is_leaf(const struct stack_node *n)
{
	return n->n_children == 0 &&
	       (n->dev.kind == BLOCKDEV_DISK || n->dev.kind == BLOCKDEV_LOOP ||
		n->dev.kind == BLOCKDEV_ZRAM);
}

static void collect(const struct stack_node *n, const struct blockdev **out, size_t max,
		    size_t *cnt)
{
	if (is_leaf(n)) {
		for (size_t i = 0; i < *cnt && i < max; i++)
			if (!strcmp(out[i]->name, n->dev.name))
				return;
		if (*cnt < max)
			out[*cnt] = &n->dev;
		(*cnt)++;
		return;
	}
	for (size_t i = 0; i < n->n_children; i++)
		collect(n->children[i], out, max, cnt);
}

size_t stack_leaves(const struct stack *s, const struct blockdev **out, size_t max)
{
	size_t cnt = 0;
	if (s && s->root)
		collect(s->root, out, max, &cnt);
	return cnt;
}

static const struct blockdev *find_in(const struct stack_node *n, const char *name)
{
	if (!strcmp(n->dev.name, name))
		return &n->dev;
	for (size_t i = 0; i < n->n_children; i++) {
		const struct blockdev *d = find_in(n->children[i], name);
		if (d)
			return d;
	}
	return n->backing ? stack_find(n->backing, name) : NULL;
}

const struct blockdev *stack_find(const struct stack *s, const char *name)
{
	return s && s->root ? find_in(s->root, name) : NULL;
}
