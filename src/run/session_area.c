/* session_area — the work areas of a run: DIR's (areas[0]: the actions'
 * files, and the loads without a dir= of their own) and one in each
 * distinct load directory (a load spec's dir=), each with what DIR's has:
 * one checked directory descriptor, the free-space floor of its own file
 * system, .brisk-X made, owned and removed by descriptor, killed runs'
 * areas collected.  Also the disks the session samples: DIR's stack's and
 * each load directory's (session_priv.h; brisk-run(1) "LOAD DIRECTORIES"). */
#include "session_priv.h"
#include "msg.h"
#include "parse.h"
#include "stack.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- opening ---- */

/* The area already opened on the directory st is (DIR, or a load
 * directory under another name), or -1. */
static int area_same(const struct session *s, const struct stat *st)
{
	for (size_t i = 0; i < s->run->n_areas; i++) {
		struct stat ast;
		if (fstat(s->run->areas[i].dir_fd, &ast) == 0 && ast.st_dev == st->st_dev &&
		    ast.st_ino == st->st_ino)
			return (int)i;
	}
	return -1;
}

/* Open and check one load directory; its area (new or an alias) in *area. */
static int area_open(struct session *s, const char *dir, unsigned *area, char *err, size_t errlen)
{
	struct stat st;
	if (stat(dir, &st) < 0)
		return msg_fail(-errno, err, errlen, "load dir=%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return msg_fail(-ENOTDIR, err, errlen, "load dir=%s: not a directory", dir);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return msg_fail(-errno, err, errlen, "load dir=%s: %s", dir, strerror(errno));
	struct stat fst;
	int same = fstat(fd, &fst) == 0 ? area_same(s, &fst) : -1;
	if (same >= 0) {   /* DIR itself, or a load directory already open */
		close(fd);
		*area = (unsigned)same;
		return 0;
	}
	char why[512];
	int rc = session_dir_check(&s->cfg, dir, fd, why, sizeof(why));
	if (rc < 0) {
		close(fd);
		return msg_fail(rc, err, errlen, "load dir=: %s", why);
	}
	struct session_area *a = &s->run->areas[s->run->n_areas];
	memset(a, 0, sizeof(*a));
	snprintf(a->dir, sizeof(a->dir), "%s", dir);
	a->dir_fd = fd;
	a->work_fd = a->owner_fd = -1;
	struct session_loaddir *ld = &s->loaddirs[s->n_loaddirs++];
	snprintf(ld->dir, sizeof(ld->dir), "%s", dir);
	*area = (unsigned)s->run->n_areas++;
	return 0;
}

int session_areas_open(struct session *s, char *err, size_t errlen)
{
	struct session_run *r = s->run;
	for (size_t i = 0; i < s->cfg.n_loads; i++) {
		const char *dir = s->cfg.loads[i].dir;
		int known = !dir[0];
		for (size_t k = 0; k < r->n_dirmap && !known; k++)
			known = strcmp(r->dirmap[k].dir, dir) == 0;
		if (known)
			continue;
		struct session_dirmap *m = &r->dirmap[r->n_dirmap];
		int rc = area_open(s, dir, &m->area, err, errlen);
		if (rc < 0)
			return rc;
		snprintf(m->dir, sizeof(m->dir), "%s", dir);
		r->n_dirmap++;
	}
	return 0;
}

unsigned session_area_of(const struct session *s, const struct load_spec *sp)
{
	for (size_t k = 0; sp->dir[0] && k < s->run->n_dirmap; k++)
		if (strcmp(s->run->dirmap[k].dir, sp->dir) == 0)
			return s->run->dirmap[k].area;
	return 0;
}

uint64_t session_load_floor(const struct session *s, const struct load_spec *sp)
{
	return s->run->areas[session_area_of(s, sp)].floor_bytes;
}

/* ---- making ---- */

/* The bytes of files each area gets, and whether a writer works there. */
static int areas_need(struct session *s)
{
	const struct session_config *c = &s->cfg;
	struct session_area *a0 = &s->run->areas[0];
	int over = 0;
	a0->need = 16 * MiB;   /* ls tree, save file, slack */
	if (c->actions & (1u << ACTION_SSH)) {   /* one file per instance */
		uint64_t ssh;
		unsigned k = c->concurrency > 1 ? c->concurrency : 1;
		over |= __builtin_mul_overflow(c->action.ssh_file, (uint64_t)k, &ssh);
		over |= __builtin_add_overflow(a0->need, ssh, &a0->need);
	}
	for (size_t i = 0; i < c->n_loads; i++) {
		struct session_area *a = &s->run->areas[session_area_of(s, &c->loads[i])];
		/* a copy's source is in DIR's area; the copy grows in its own
		 * up to the floor, as a writer does */
		struct session_area *made = c->loads[i].kind == LOAD_COPY ? a0 : a;
		uint64_t b;
		over |= load_spec_need(&c->loads[i], &b) < 0;
		over |= __builtin_add_overflow(made->need, b, &made->need);
		a->writes |= load_kind_writes(c->loads[i].kind);
	}
	return over ? -EOVERFLOW : 0;
}

/* The area's floor, and room for its files above it. */
static int area_room(struct session *s, struct session_area *a, char *err, size_t errlen)
{
	const struct session_config *c = &s->cfg;
	int rc = load_floor(a->dir_fd, c->floor_pct, c->floor_min, &a->floor_bytes);
	if (rc == 0 && c->floor_bytes)
		a->floor_bytes = c->floor_bytes;
	if (c->no_floor || !a->writes)   /* the floor is what writers leave */
		a->floor_bytes = 0;
	uint64_t avail = 0, want;
	if (rc == 0)
		rc = load_avail(a->dir_fd, &avail);
	if (rc < 0)
		return msg_fail(rc, err, errlen, "%s: statvfs: %s", a->dir, strerror(-rc));
	if (__builtin_add_overflow(a->need, a->floor_bytes, &want) || avail < want) {
		char av[32], n[32], f[32];
		parse_format_iec(av, sizeof(av), avail);
		parse_format_iec(n, sizeof(n), a->need);
		parse_format_iec(f, sizeof(f), a->floor_bytes);
		return msg_fail(-ENOSPC, err, errlen, "%s: %s available; brisk needs %s for its "
				"files plus the free-space floor of %s (see --floor)", a->dir, av,
				n, f);
	}
	return 0;
}

int session_areas_make(struct session *s, char *err, size_t errlen)
{
	struct session_run *r = s->run;
	if (areas_need(s) < 0)
		return msg_fail(-EOVERFLOW, err, errlen, "the loads' sizes add up to more than "
			    "16 EiB: an absurd size (see size= and count=)");
	/* first: the space of killed runs' areas counts as free below */
	for (size_t i = 0; i < r->n_areas; i++)
		session_work_reap_orphans(s, &r->areas[i]);
	for (size_t i = 0; i < r->n_areas; i++) {
		int rc = area_room(s, &r->areas[i], err, errlen);
		if (rc < 0)
			return rc;
	}
	s->floor_bytes = r->areas[0].floor_bytes;
	for (size_t i = 0; i < r->n_areas; i++) {
		struct session_area *a = &r->areas[i];
		int rc = session_work_make(s, a, err, errlen);
		if (i == 0)
			snprintf(s->workdir, sizeof(s->workdir), "%s", a->workdir);
		if (rc < 0)
			return rc;
		if ((rc = session_work_own(a)) < 0)
			return msg_fail(rc, err, errlen, "%s: cannot create its owner file: %s",
					a->workdir, strerror(-rc));
		if (i > 0) {
			struct session_loaddir *ld = &s->loaddirs[i - 1];
			snprintf(ld->workdir, sizeof(ld->workdir), "%s", a->workdir);
			ld->floor_bytes = a->floor_bytes;
		}
	}
	return 0;
}

void session_areas_remove(struct session *s)
{
	for (size_t i = s->run->n_areas; i-- > 0;) {
		struct session_area *a = &s->run->areas[i];
		session_work_remove(s, a);
		if (a->owner_fd >= 0)
			close(a->owner_fd);
		a->owner_fd = -1;
		if (a->work_fd >= 0)
			close(a->work_fd);
		a->work_fd = -1;
	}
}

void session_areas_close(struct session *s)
{
	for (size_t i = 0; i < s->run->n_areas; i++) {
		struct session_area *a = &s->run->areas[i];
		if (a->owner_fd >= 0)
			close(a->owner_fd);
		if (a->work_fd >= 0)
			close(a->work_fd);
		if (a->dir_fd >= 0)
			close(a->dir_fd);
		a->owner_fd = a->work_fd = a->dir_fd = -1;
	}
}

void session_areas_sync(const struct session *s)
{
	for (size_t i = 0; i < s->run->n_areas; i++) {
		const struct session_area *a = &s->run->areas[i];
		syncfs(a->work_fd >= 0 ? a->work_fd : a->dir_fd);
	}
}

/* ---- the disks ---- */

static void dev_add(struct session *s, const char *name, size_t *dropped, uint32_t bit)
{
	for (size_t i = 0; i < s->n_devs; i++)
		if (strcmp(s->devs[i].name, name) == 0) {
			s->devs[i].stacks |= bit;
			return;
		}
	if (s->n_devs == SESSION_MAX_DEVS) {
		(*dropped)++;
		return;
	}
	s->devs[s->n_devs].stacks = bit;
	snprintf(s->devs[s->n_devs++].name, sizeof(s->devs[0].name), "%s", name);
}

/* The leaves of a stack, then those of any loop device's backing file
 * (a loop device's I/O ends up on the disk under its file). */
static void dev_collect(struct session *s, const struct stack *st, size_t *dropped, int depth,
			uint32_t bit)
{
	const struct blockdev *leaves[SESSION_MAX_DEVS];
	size_t n = stack_leaves(st, leaves, SESSION_MAX_DEVS);
	*dropped += n > SESSION_MAX_DEVS ? n - SESSION_MAX_DEVS : 0;
	for (size_t i = 0; i < n && i < SESSION_MAX_DEVS; i++)
		dev_add(s, leaves[i]->name, dropped, bit);
	/* walk the tree for backing stacks, a few levels at most */
	const struct stack_node *todo[64];
	size_t nt = 0;
	if (st->root)
		todo[nt++] = st->root;
	while (nt && depth < 4) {
		const struct stack_node *node = todo[--nt];
		if (node->backing && node->backing->root)
			dev_collect(s, node->backing, dropped, depth + 1, bit);
		for (size_t i = 0; i < node->n_children && nt < 64; i++)
			todo[nt++] = node->children[i];
	}
}

/* One directory's stack: its disks into devs[], its fstype and top
 * device out.  0 or -errno (said in a message). */
static int devices_of(struct session *s, const char *dir, uint32_t bit, char *fstype,
		      size_t flen, char *top, size_t tlen)
{
	struct stack *st = NULL;
	int rc = stack_resolve_path(dir, &st);
	if (st)
		snprintf(fstype, flen, "%s", st->mount.fstype);
	if (rc == 0 && st->root)
		snprintf(top, tlen, "%s", st->root->dev.name);
	if (rc == 0) {
		size_t dropped = 0;
		dev_collect(s, st, &dropped, 0, bit);
		if (dropped)
			session_msg(s, "more than %d devices behind %s: sampling the first %d",
				    SESSION_MAX_DEVS, dir, SESSION_MAX_DEVS);
	} else {
		session_msg(s, "no block device found behind %s (%s): no device statistics",
			    dir, rc == -ENODEV ? "not a block-device file system" : strerror(-rc));
	}
	stack_free(st);
	return rc;
}

void session_devices_init(struct session *s)
{
	devices_of(s, s->cfg.dir, 1, s->fstype, sizeof(s->fstype), s->fsdev.name,
		   sizeof(s->fsdev.name));
	for (size_t k = 0; k < s->n_loaddirs; k++) {
		struct session_loaddir *ld = &s->loaddirs[k];
		devices_of(s, ld->dir, 2u << k, ld->fstype, sizeof(ld->fstype), ld->dev, sizeof(ld->dev));
	}
	/* The load window's device: the loads' file system's.  When they are on
	 * more than one, DIR's if some load is there, else the first one's. */
	unsigned first = 0, mixed = 0, n = 0;
	for (size_t i = 0; i < s->cfg.n_loads; i++) {
		if (!s->cfg.loads[i].count)
			continue;
		unsigned a = session_area_of(s, &s->cfg.loads[i]);
		if (n++ == 0)
			first = a;
		else if (a != first)
			mixed = 1;
	}
	int on_dir = first == 0;
	for (size_t i = 0; mixed && i < s->cfg.n_loads; i++)
		on_dir |= s->cfg.loads[i].count && session_area_of(s, &s->cfg.loads[i]) == 0;
	unsigned pick = mixed && on_dir ? 0 : first;
	if (pick > 0)
		snprintf(s->fsdev.name, sizeof(s->fsdev.name), "%s", s->loaddirs[pick - 1].dev);
	if (mixed)
		session_msg(s, "the loads work on more than one file system: the load window's "
			    "disk figures are %s's only (per-disk figures cover all)",
			    s->fsdev.name[0] ? s->fsdev.name : "no device");
}
