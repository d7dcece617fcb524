/* labloop — the lab's loop device; see labloop.h. */
#include "labloop.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/loop.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "journal.h"
#include "labproc.h"
#include "labstate.h"
#include "msg.h"
#include "sysfs.h"
#include "trace.h"

const char *labloop_base(const char *dev)
{
	const char *b = strrchr(dev, '/');
	return b ? b + 1 : dev;
}

/* Is the loop device bound to file? */
int labloop_bound_to(const char *dev, const char *file)
{
	char bf[LAB_PATH_MAX + 16];
	if (!dev[0])
		return 0;
	if (sysfs_readf(bf, sizeof bf, "/sys/block/%s/loop/backing_file", labloop_base(dev)))
		return 0;
	size_t n = strlen(file);
	return strncmp(bf, file, n) == 0 && (bf[n] == '\0' || strcmp(bf + n, " (deleted)") == 0);
}

int labloop_dio(const char *dev)
{
	int64_t v;
	char path[96];
	snprintf(path, sizeof path, "/sys/block/%s/loop/dio", labloop_base(dev));
	return sysfs_read_s64(path, &v) ? -1 : (int)v;
}

void labloop_scheduler(const char *dev, char *active, size_t len)
{
	char raw[256], list[256];
	active[0] = '\0';
	if (sysfs_readf(raw, sizeof raw, "/sys/block/%s/queue/scheduler", labloop_base(dev)) == 0)
		sysfs_parse_choice(raw, active, len, list, sizeof list);
}

int labloop_parse_tags(const char *text)
{
	const char *p = strstr(text, "\nbitmap_tags:\n");
	if (!p)
		return -EINVAL;
	p = strstr(p, "\ndepth=");
	if (!p)
		return -EINVAL;
	p += strlen("\ndepth=");
	int v = 0, digits = 0;
	for (; *p >= '0' && *p <= '9' && digits < 7; p++, digits++)
		v = v * 10 + (*p - '0');
	if (!digits || (*p != '\n' && *p != '\0') || v < 1)
		return -EINVAL;
	return v;
}

int labloop_tag_depth(const char *dev)
{
	char path[128], *text = NULL;
	size_t n;
	snprintf(path, sizeof path, LABLOOP_DEBUGFS "/block/%s/hctx0/tags", labloop_base(dev));
	int rc = sysfs_read_alloc(path, &text, &n);
	if (rc < 0)
		return rc;
	rc = strlen(text) == n ? labloop_parse_tags(text) : -EINVAL;
	free(text);
	return rc;
}

static int loop_attr(const char *dev, const char *attr, char *path, size_t len)
{
	return snprintf(path, len, "/sys/block/%s/%s", labloop_base(dev), attr) >= (int)len
		? -ENAMETOOLONG : 0;
}

/* What lab up is about to change, as found (the state's orig_* fields,
 * for information: the journal is what puts them back). */
static void read_orig(struct lab_state *s)
{
	char path[128];
	int64_t v;
	labloop_scheduler(s->loop, s->orig_scheduler, sizeof s->orig_scheduler);
	if (!loop_attr(s->loop, "queue/rotational", path, sizeof path) &&
	    !sysfs_read_s64(path, &v))
		s->orig_rotational = (int)v;
	if (!loop_attr(s->loop, "bdi/strict_limit", path, sizeof path) &&
	    !sysfs_read_s64(path, &v))
		s->orig_strict_limit = (int)v;
	if (!loop_attr(s->loop, "bdi/max_ratio_fine", path, sizeof path) &&
	    !sysfs_read_s64(path, &v))
		s->orig_max_ratio_fine = v;
	/* The hardware tag depth as found (debugfs), else the tag set's. */
	int d = labloop_tag_depth(s->loop);
	if (d > 0)
		s->orig_tag_depth = d;
	else if (!loop_attr(s->loop, "mq/0/nr_tags", path, sizeof path) &&
		 !sysfs_read_s64(path, &v) && v > 0 && v <= 1 << 20)
		s->orig_tag_depth = (int)v;
	if (sysfs_readf(s->diskseq, sizeof s->diskseq, "/sys/block/%s/diskseq",
			labloop_base(s->loop)) < 0 ||
	    strspn(s->diskseq, "0123456789") != strlen(s->diskseq))
		s->diskseq[0] = '\0';
}

/* Open the lab's journal, name it in the state, and journal the loop
 * device's attributes lab up may change (the scheduler is journaled by
 * journal_set when it is switched).  A missing attribute (an older
 * kernel's bdi) is left out. */
static int journal_begin(struct lab_state *s, struct journal **j, char *err, size_t errlen)
{
	static const char *const attrs[] = {
		"queue/rotational", "bdi/strict_limit", "bdi/max_ratio_fine",
	};
	char what[96];
	snprintf(what, sizeof what, "brisk lab up %s (%s)", s->name, s->loop);
	int rc = journal_open(JOURNAL_LAB, what, j);
	if (rc < 0)
		return msg_fail(rc, err, errlen, "cannot open the restore journal: %s",
				journal_error());
	snprintf(s->journal, sizeof s->journal, "%s", journal_name(*j));
	read_orig(s);
	if ((rc = labstate_save(s)))
		return msg_fail(rc, err, errlen, "cannot write the lab state file: %s",
				strerror(-rc));
	for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
		rc = journal_record_attr(*j, labloop_base(s->loop), attrs[i]);
		if (rc < 0 && rc != -ENOENT)
			return msg_fail(rc, err, errlen, "cannot journal %s of %s: %s", attrs[i],
					s->loop, strerror(-rc));
	}
	return 0;
}

int labloop_attach(struct lab_state *s, char *err, size_t errlen)
{
	int ffd = open(s->fusefile, O_RDWR | O_CLOEXEC | O_DIRECT);
	if (ffd < 0) {
		int e = errno;
		msg_set(err, errlen, "cannot open %s with O_DIRECT: %s", s->fusefile, strerror(e));
		return -e;
	}
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		int e = errno;
		close(ffd);
		msg_set(err, errlen, "/dev/loop-control: %s (is the loop module loaded?)",
		       strerror(e));
		return -e;
	}
	int lfd = -1, rc = -EBUSY;
	for (int tries = 0; tries < 20; tries++) {
		int nr = ioctl(ctl, LOOP_CTL_GET_FREE);
		if (nr < 0) {
			rc = -errno;
			msg_set(err, errlen, "no free loop device: %s", strerror(-rc));
			break;
		}
		snprintf(s->loop, sizeof s->loop, "/dev/loop%d", nr);
		if ((rc = labstate_save(s)))
			break;
		lfd = open(s->loop, O_RDWR | O_CLOEXEC);
		if (lfd < 0) {
			rc = -errno;
			msg_set(err, errlen, "%s: %s", s->loop, strerror(-rc));
			break;
		}
		struct loop_config cfg;
		memset(&cfg, 0, sizeof cfg);
		cfg.fd = (unsigned)ffd;
		/* No autoclear: lab down puts the device's settings back while
		 * it is still bound to us, then detaches it. */
		cfg.info.lo_flags = LO_FLAGS_DIRECT_IO;
		size_t fl = strlen(s->fusefile);
		if (fl >= sizeof cfg.info.lo_file_name)
			fl = sizeof cfg.info.lo_file_name - 1;
		memcpy(cfg.info.lo_file_name, s->fusefile, fl);
		if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0) {
			rc = 0;
			break;
		}
		rc = -errno;
		if (rc == -EINVAL) { /* a kernel refusing direct I/O here */
			cfg.info.lo_flags = 0;
			if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0) {
				rc = 0;
				break;
			}
			rc = -errno;
		}
		close(lfd);
		lfd = -1;
		if (rc != -EBUSY) {
			msg_set(err, errlen, "cannot attach %s to %s: %s", s->loop, s->fusefile,
			       strerror(-rc));
			break;
		}
	}
	close(ctl);
	close(ffd);
	if (rc && rc != -EBUSY)
		return rc;
	if (rc) {
		msg_set(err, errlen, "every free loop device was taken by someone else");
		return rc;
	}
	return lfd; /* held open until mounted */
}

static int set_rotational(struct lab_state *s, const struct labmodel *m, char *err,
			  size_t errlen)
{
	char path[128], val[32];
	int64_t v = -1;
	/* queue/rotational: a FUSE backing file makes loop say 0. */
	loop_attr(s->loop, "queue/rotational", path, sizeof path);
	snprintf(val, sizeof val, "%d", m->rotational);
	sysfs_write(path, val);
	sysfs_read_s64(path, &v);
	s->rotational = (int)v;
	if (s->rotational != m->rotational) {
		msg_set(err, errlen, "%s: cannot set %s (reads %d)", path, val, s->rotational);
		return -EINVAL;
	}
	return 0;
}

/* The model's scheduler, through the journal like any other setting. */
static int set_scheduler(struct lab_state *s, const struct labmodel *m, struct journal *j,
			 char *err, size_t errlen)
{
	char path[128];
	struct tunable_key key;
	pid_t holder = 0;
	int rc = tunable_parse_key("scheduler", &key, NULL, 0);
	if (rc == 0)
		rc = journal_set(j, labloop_base(s->loop), &key, m->scheduler, NULL, &holder);
	labloop_scheduler(s->loop, s->scheduler, sizeof s->scheduler);
	if (rc || strcmp(s->scheduler, m->scheduler) != 0) {
		loop_attr(s->loop, "queue/scheduler", path, sizeof path);
		msg_set(err, errlen, "%s: cannot set scheduler %s (%s); the device has [%s]",
		       path, m->scheduler, rc ? strerror(-rc) : "not taken", s->scheduler);
		return rc ? rc : -EINVAL;
	}
	return 0;
}

/* The hardware tag depth: written as nr_requests while the scheduler is
 * none (journaled by the switch: the old scheduler, its nr_requests and
 * tunables); it stays when set_scheduler switches to the model's. */
static int set_depth(struct lab_state *s, const struct labmodel *m, struct journal *j,
		     char *err, size_t errlen)
{
	char path[128], val[16];
	struct tunable_key key;
	pid_t holder = 0;
	int64_t got = -1;
	/* No fewer than it has: nothing to do; unknown: it could not be put
	 * back, so it is left alone (lab up says so). */
	if (s->orig_tag_depth <= 0 || m->queue_depth >= s->orig_tag_depth)
		return 0;
	int rc = tunable_parse_key("scheduler", &key, NULL, 0);
	if (rc == 0)
		rc = journal_set(j, labloop_base(s->loop), &key, "none", NULL, &holder);
	if (rc)
		return msg_fail(rc, err, errlen, "%s: cannot switch to scheduler none to set the "
				"queue depth: %s", s->loop, strerror(-rc));
	/* From here the state must say a depth was set, for the restore. */
	s->queue_depth = m->queue_depth < LABLOOP_MIN_DEPTH ? LABLOOP_MIN_DEPTH : m->queue_depth;
	if ((rc = labstate_save(s)))
		return msg_fail(rc, err, errlen, "cannot write the lab state file: %s",
				strerror(-rc));
	loop_attr(s->loop, "queue/nr_requests", path, sizeof path);
	snprintf(val, sizeof val, "%d", m->queue_depth);
	rc = sysfs_write(path, val);
	sysfs_read_s64(path, &got);
	if (rc || got != s->queue_depth)
		return msg_fail(rc ? rc : -EINVAL, err, errlen, "%s: cannot set the queue depth "
				"%s under scheduler none (%s; it reads %lld)", path, val,
				rc ? strerror(-rc) : "not taken", (long long)got);
	return 0;
}

/* Put the hardware tag depth back to what lab up found: it can only be
 * written under scheduler none, and there nr_requests reads the tag set's
 * depth again whatever the tags' depth is, and a write of the value it
 * reads is ignored; so write one less first.  Only on the device lab up
 * set (same diskseq). */
static void restore_depth(const struct lab_state *s)
{
	char path[128], val[16], seq[24] = "";
	int d = s->orig_tag_depth;
	if (s->queue_depth <= 0 || d <= 0 || !s->loop[0])
		return;
	if (!s->diskseq[0] || sysfs_readf(seq, sizeof seq, "/sys/block/%s/diskseq",
					  labloop_base(s->loop)) < 0 || strcmp(seq, s->diskseq)) {
		trace(TRACE_LAB, "%s %s: attached again since (diskseq %s, was %s): tag depth "
		      "left alone", s->name, s->loop, seq, s->diskseq);
		return;
	}
	loop_attr(s->loop, "queue/scheduler", path, sizeof path);
	int rc = sysfs_write(path, "none");
	loop_attr(s->loop, "queue/nr_requests", path, sizeof path);
	snprintf(val, sizeof val, "%d", d > LABLOOP_MIN_DEPTH ? d - 1 : d + 1);
	if (!rc)
		rc = sysfs_write(path, val);
	snprintf(val, sizeof val, "%d", d);
	if (!rc)
		rc = sysfs_write(path, val);
	trace(TRACE_LAB, "%s %s: tag depth back to %d: %s (reads %d)", s->name, s->loop, d,
	      rc ? strerror(-rc) : "ok", labloop_tag_depth(s->loop));
}

static int set_dirty_limit(struct lab_state *s, char *err, size_t errlen)
{
	char path[128], val[32];
	uint64_t got = 0;
	loop_attr(s->loop, "bdi/max_bytes", path, sizeof path);
	snprintf(val, sizeof val, "%" PRIu64, s->dirty_limit);
	int rc = sysfs_write(path, val);
	if (rc == -EINVAL) {
		/* More than the global dirty limit (vm.dirty_*): that one
		 * is the stricter already; leave the disk to it. */
		s->dirty_limit = 0;
		return 0;
	}
	sysfs_read_u64(path, &got);
	if (!rc) {
		loop_attr(s->loop, "bdi/strict_limit", path, sizeof path);
		rc = sysfs_write(path, "1");
	}
	/* max_bytes is kept as a ratio of the global limit: near, not equal */
	if (rc || got == 0 || got > s->dirty_limit + s->dirty_limit / 8) {
		msg_set(err, errlen, "%s: cannot set the dirty limit to %s (%s)", path, val,
		       rc ? strerror(-rc) : "not taken");
		return rc ? rc : -EINVAL;
	}
	s->dirty_limit = got;
	return 0;
}

int labloop_configure(struct lab_state *s, const struct labmodel *m, char *err, size_t errlen)
{
	struct journal *j = NULL;
	int rc = journal_begin(s, &j, err, errlen);
	if (!rc)
		rc = set_rotational(s, m, err, errlen);
	if (!rc)
		rc = set_depth(s, m, j, err, errlen);
	if (!rc)
		rc = set_scheduler(s, m, j, err, errlen);
	if (!rc && s->queue_depth > 0) {
		int d = labloop_tag_depth(s->loop);
		s->tag_depth = d > 0 ? d : -1;
	}
	if (!rc && s->dirty_limit)
		rc = set_dirty_limit(s, err, errlen);
	trace(TRACE_LAB, "%s %s: rotational %d, queue depth %d (tags read %d, were %d), "
	      "scheduler %s, dirty limit %llu: %s", s->name, s->loop, s->rotational,
	      s->queue_depth, s->tag_depth, s->orig_tag_depth, s->scheduler,
	      (unsigned long long)s->dirty_limit, rc ? err : "ok");
	/* the entries stay in the file for labloop_restore */
	journal_close(j);
	return rc;
}

void labloop_restore(const struct lab_state *s)
{
	restore_depth(s);
	if (!s->journal[0])
		return;
	int rc = journal_restore_file(s->journal, NULL, NULL);
	trace(TRACE_LAB, "%s %s: settings back from %s: %s", s->name, s->loop, s->journal,
	      rc < 0 ? strerror(-rc) : rc ? "some kept in it" : "all");
}

int labloop_detach(const struct lab_state *s, char *err, size_t errlen)
{
	int bound = s->loop[0] && s->fusefile[0] && labloop_bound_to(s->loop, s->fusefile);
	/* Not bound (any more): its journal still goes.  Each entry carries the
	 * device's diskseq, new at every attach: a device bound again since is
	 * reported gone and dropped, never written; a free one gets its
	 * settings back. */
	labloop_restore(s);
	if (!bound)
		return 0;
	int fd = open(s->loop, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (ioctl(fd, LOOP_CLR_FD, 0) < 0 && errno != ENXIO) {
			int e = errno;
			close(fd);
			msg_set(err, errlen, "cannot detach %s: %s", s->loop, strerror(e));
			return -e;
		}
		close(fd);
	}
	for (int t = 0; t < 500 && labloop_bound_to(s->loop, s->fusefile); t++)
		labproc_nap_ms(20);
	if (labloop_bound_to(s->loop, s->fusefile)) {
		msg_set(err, errlen, "%s is still open by someone and stays attached "
		       "to %s; close it and run 'brisk lab down %s' again",
		       s->loop, s->fusefile, s->name);
		return -EBUSY;
	}
	return 0;
}
