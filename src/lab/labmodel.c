/* labmodel — timing model of an emulated slow disk; see labmodel.h. */
#include "labmodel.h"

#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t ms_to_ns(double ms)
{
	return (uint64_t)(ms * 1e6 + 0.5);
}

static uint64_t xfer_ns(double mb_s, uint64_t len)
{
	return (uint64_t)((double)len * 1000.0 / mb_s + 0.5);
}

uint64_t labmodel_rotation_ns(const struct labmodel *m)
{
	return m->rpm > 0 ? (uint64_t)(60e9 / m->rpm + 0.5) : 0;
}

uint64_t labmodel_seek_ns(const struct labmodel *m, uint64_t d, uint64_t disk_bytes)
{
	if (m->rpm <= 0 || d == 0)
		return 0;
	if (disk_bytes == 0 || d > disk_bytes)
		disk_bytes = d;
	double k = (m->seek_avg_ms - m->seek_track_ms) * 15.0 / 8.0;
	return ms_to_ns(m->seek_track_ms + k * sqrt((double)d / (double)disk_bytes));
}

/* The cost of a request started at now_ns with the head as *h says
 * (transfer as for len bytes); changes nothing. */
static void cost_of(const struct labmodel *m, const struct labmodel_head *h,
		    uint64_t disk_bytes, int write, uint64_t off, uint64_t len,
		    uint64_t now_ns, struct labmodel_cost *cp)
{
	struct labmodel_cost c = { 0 };
	int contiguous = h->started && off == h->pos;

	c.transfer = xfer_ns(write ? m->write_mb_s : m->read_mb_s, len);
	if (contiguous && now_ns > h->done_ns) {
		/* The drive's read-ahead / write cache kept the stream going
		 * while the host was between requests. */
		uint64_t gap = now_ns - h->done_ns;
		c.transfer -= gap < c.transfer ? gap : c.transfer;
	}
	if (!contiguous)
		c.overhead = ms_to_ns(m->overhead_ms);
	if (m->rpm > 0 && !contiguous) {
		uint64_t from = h->started ? h->pos : 0;
		uint64_t rot = labmodel_rotation_ns(m);
		/* Bytes passing under the head in one rotation. */
		double track = m->read_mb_s * 1e6 * (double)rot / 1e9;
		double target = fmod((double)off, track) / track;
		uint64_t t = now_ns + c.overhead;

		c.seek = labmodel_seek_ns(m, off > from ? off - from : from - off,
					  disk_bytes);
		t += c.seek;
		double head = (double)(t % rot) / (double)rot;
		double wait = target - head;
		if (wait < 0)
			wait += 1.0;
		c.rotation = (uint64_t)(wait * (double)rot);
	}
	if (m->rpm <= 0 && write && !(h->wstarted && off == h->wpos))
		c.penalty = ms_to_ns(m->random_write_ms);
	*cp = c;
}

uint64_t labmodel_position_ns(const struct labmodel *m, const struct labmodel_head *h,
			      uint64_t disk_bytes, int write, uint64_t off, uint64_t now_ns)
{
	struct labmodel_cost c;
	cost_of(m, h, disk_bytes, write, off, 0, now_ns, &c);
	return c.overhead + c.seek + c.rotation + c.penalty;
}

int labmodel_pick(const struct labmodel *m, const struct labmodel_head *h,
		  uint64_t disk_bytes, const struct labmodel_req *q, int n, uint64_t now_ns,
		  int *aged)
{
	uint64_t age = ms_to_ns(m->queue_age_ms);
	int oldest = -1, best = -1;
	uint64_t best_t = 0;

	if (aged)
		*aged = 0;
	for (int i = 0; i < n; i++)
		if (oldest < 0 || q[i].arrival_ns < q[oldest].arrival_ns)
			oldest = i;
	if (oldest < 0 || m->queue_depth <= 1)
		return oldest;
	if (now_ns >= q[oldest].arrival_ns && now_ns - q[oldest].arrival_ns >= age) {
		if (aged)
			*aged = 1;
		return oldest;
	}
	for (int i = 0; i < n; i++) {
		uint64_t t = labmodel_position_ns(m, h, disk_bytes, q[i].write, q[i].off, now_ns);
		if (best < 0 || t < best_t ||
		    (t == best_t && q[i].arrival_ns < q[best].arrival_ns)) {
			best = i;
			best_t = t;
		}
	}
	return best;
}

uint64_t labmodel_service_ns(const struct labmodel *m, struct labmodel_head *h,
			     uint64_t disk_bytes, int write, uint64_t off,
			     uint64_t len, uint64_t now_ns,
			     struct labmodel_cost *cost)
{
	struct labmodel_cost c;

	cost_of(m, h, disk_bytes, write, off, len, now_ns, &c);
	h->pos = off + len;
	h->started = 1;
	if (write) {
		h->wpos = off + len;
		h->wstarted = 1;
	}
	uint64_t total = c.overhead + c.seek + c.rotation + c.transfer + c.penalty;
	h->done_ns = now_ns + total;
	if (cost)
		*cost = c;
	return total;
}

uint64_t labmodel_expect_random_read_ns(const struct labmodel *m, uint64_t len)
{
	uint64_t t = ms_to_ns(m->overhead_ms) + xfer_ns(m->read_mb_s, len);
	if (m->rpm > 0)
		t += ms_to_ns(m->seek_avg_ms) + labmodel_rotation_ns(m) / 2;
	return t;
}

double labmodel_expect_seq_read_bps(const struct labmodel *m)
{
	return m->read_mb_s * 1e6;
}

int labmodel_class_ok(const char *name)
{
	static const char *const classes[] = { "rotational", "ssd", "nvme", "mmc", "usb" };
	for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
		if (strcmp(name, classes[i]) == 0)
			return 1;
	return 0;
}

int labmodel_validate(const struct labmodel *m, char *err, size_t errlen)
{
	const char *why = NULL;

	if (m->rpm != 0 && (m->rpm < 1000 || m->rpm > 20000))
		why = "rpm must be 0 (flash) or 1000..20000";
	else if (m->rpm > 0 && (m->seek_track_ms <= 0 || m->seek_track_ms > 50))
		why = "seek_track_ms must be in (0, 50]";
	else if (m->rpm > 0 && (m->seek_avg_ms < m->seek_track_ms || m->seek_avg_ms > 100))
		why = "seek_avg_ms must be in [seek_track_ms, 100]";
	else if (!(m->read_mb_s > 0 && m->read_mb_s <= 100000))
		why = "read_mb_s must be in (0, 100000]";
	else if (!(m->write_mb_s > 0 && m->write_mb_s <= 100000))
		why = "write_mb_s must be in (0, 100000]";
	else if (!(m->overhead_ms >= 0 && m->overhead_ms <= 1000))
		why = "overhead_ms must be in [0, 1000]";
	else if (!(m->random_write_ms >= 0 && m->random_write_ms <= 10000))
		why = "random_write_ms must be in [0, 10000]";
	else if (m->rotational != 0 && m->rotational != 1)
		why = "rotational must be 0 or 1";
	else if (m->queue_depth < 1 || m->queue_depth > LABMODEL_DEPTH_MAX)
		why = "queue_depth must be in 1..128";
	else if (!(m->queue_age_ms > 0 && m->queue_age_ms <= 60000))
		why = "queue_age_ms must be in (0, 60000]";
	else if (m->disk_class[0] && !labmodel_class_ok(m->disk_class))
		why = "class must be rotational, ssd, nvme, mmc or usb";
	else if (m->ssh_lo_s > m->ssh_hi_s)
		why = "ssh_like_s must be LOW-HIGH with LOW <= HIGH";
	else if (m->scheduler[0] == '\0' ||
		 strspn(m->scheduler, "abcdefghijklmnopqrstuvwxyz-") != strlen(m->scheduler))
		why = "scheduler must be a scheduler name such as mq-deadline";
	if (!why)
		return 0;
	snprintf(err, errlen, "model [%s]: %s", m->name, why);
	return -EINVAL;
}

/* ---- INI loading ---- */

enum { K_ROT = 1, K_RPM = 2, K_TRACK = 4, K_AVG = 8, K_READ = 16, K_WRITE = 32,
       K_OVH = 64 };
#define K_REQUIRED (K_ROT | K_RPM | K_READ | K_WRITE | K_OVH)

struct loader {
	struct labmodel *out;
	int max, n;
	unsigned keys[LABMODEL_MAX];
	char err[160];
};

static int num(const char *v, double *out)
{
	char *end;
	errno = 0;
	double d = strtod(v, &end);
	if (end == v || *end || errno || !isfinite(d))
		return -1;
	*out = d;
	return 0;
}

static int on_key(void *user, const char *section, const char *name, const char *value)
{
	struct loader *l = user;
	struct labmodel *m;
	double *dp = NULL;
	unsigned bit = 0;

	if (l->err[0])
		return 0;
	if (l->n == 0 || strcmp(l->out[l->n - 1].name, section) != 0) {
		for (int i = 0; i < l->n; i++)
			if (strcmp(l->out[i].name, section) == 0) {
				snprintf(l->err, sizeof l->err,
					 "[%s] appears twice (or is split)", section);
				return 0;
			}
		if (l->n == l->max) {
			snprintf(l->err, sizeof l->err, "more than %d models", l->max);
			return 0;
		}
		if (!section[0] || strlen(section) >= LABMODEL_NAME_MAX ||
		    strspn(section, "abcdefghijklmnopqrstuvwxyz0123456789-_.") != strlen(section)) {
			snprintf(l->err, sizeof l->err,
				 "bad model name '%s' (lower case, digits, - _ .; at most %d)",
				 section, LABMODEL_NAME_MAX - 1);
			return 0;
		}
		m = &l->out[l->n];
		memset(m, 0, sizeof *m);
		snprintf(m->name, sizeof m->name, "%s", section);
		snprintf(m->scheduler, sizeof m->scheduler, "mq-deadline");
		m->queue_depth = 1;
		m->queue_age_ms = LABMODEL_AGE_MS_DEFAULT;
		l->keys[l->n++] = 0;
	}
	m = &l->out[l->n - 1];

	if (strcmp(name, "description") == 0) {
		snprintf(m->description, sizeof m->description, "%s", value);
		return 1;
	}
	if (strcmp(name, "scheduler") == 0) {
		if (strlen(value) >= sizeof m->scheduler) {
			snprintf(l->err, sizeof l->err, "scheduler '%s' too long", value);
			return 0;
		}
		snprintf(m->scheduler, sizeof m->scheduler, "%s", value);
		return 1;
	}
	if (strcmp(name, "class") == 0) {
		if (!labmodel_class_ok(value))
			goto bad;
		snprintf(m->disk_class, sizeof m->disk_class, "%s", value);
		return 1;
	}
	if (strcmp(name, "ssh_like_s") == 0) {
		char lo[32], hi[32];
		const char *dash = strchr(value, '-');
		if (!dash || (size_t)(dash - value) >= sizeof lo || strlen(dash + 1) >= sizeof hi)
			goto bad;
		memcpy(lo, value, (size_t)(dash - value));
		lo[dash - value] = '\0';
		snprintf(hi, sizeof hi, "%s", dash + 1);
		if (num(lo, &m->ssh_lo_s) || num(hi, &m->ssh_hi_s) || m->ssh_lo_s <= 0)
			goto bad;
		return 1;
	}
	if (strcmp(name, "queue_depth") == 0) {
		char *end;
		errno = 0;
		long d = strtol(value, &end, 10);
		if (end == value || *end || errno || d < 1 || d > LABMODEL_DEPTH_MAX)
			goto bad;
		m->queue_depth = (int)d;
		return 1;
	}
	if (strcmp(name, "rotational") == 0) {
		if (strcmp(value, "0") && strcmp(value, "1"))
			goto bad;
		m->rotational = value[0] - '0';
		l->keys[l->n - 1] |= K_ROT;
		return 1;
	}
	if (strcmp(name, "rpm") == 0)
		dp = &m->rpm, bit = K_RPM;
	else if (strcmp(name, "seek_track_ms") == 0)
		dp = &m->seek_track_ms, bit = K_TRACK;
	else if (strcmp(name, "seek_avg_ms") == 0)
		dp = &m->seek_avg_ms, bit = K_AVG;
	else if (strcmp(name, "read_mb_s") == 0)
		dp = &m->read_mb_s, bit = K_READ;
	else if (strcmp(name, "write_mb_s") == 0)
		dp = &m->write_mb_s, bit = K_WRITE;
	else if (strcmp(name, "overhead_ms") == 0)
		dp = &m->overhead_ms, bit = K_OVH;
	else if (strcmp(name, "random_write_ms") == 0)
		dp = &m->random_write_ms;
	else if (strcmp(name, "queue_age_ms") == 0)
		dp = &m->queue_age_ms;
	else {
		snprintf(l->err, sizeof l->err, "[%s]: unknown key '%s'", section, name);
		return 0;
	}
	if (num(value, dp))
		goto bad;
	l->keys[l->n - 1] |= bit;
	return 1;
bad:
	snprintf(l->err, sizeof l->err, "[%s]: bad value '%s' for %s", section, value, name);
	return 0;
}

int labmodel_load(const char *path, struct labmodel *out, int max, int *n,
		  char *err, size_t errlen)
{
	struct loader l = { .out = out, .max = max };
	FILE *f = fopen(path, "r");

	*n = 0;
	if (!f) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	int line = ini_parse_file(f, on_key, &l);
	fclose(f);
	if (line < 0) {
		snprintf(err, errlen, "%s: cannot read", path);
		return -EIO;
	}
	if (line > 0) {
		snprintf(err, errlen, "%s:%d: %s", path, line,
			 l.err[0] ? l.err : "syntax error (expected [model] or key = value)");
		return -EINVAL;
	}
	if (l.n == 0) {
		snprintf(err, errlen, "%s: no models", path);
		return -EINVAL;
	}
	for (int i = 0; i < l.n; i++) {
		unsigned need = K_REQUIRED | (out[i].rpm > 0 ? K_TRACK | K_AVG : 0);
		char why[200];
		if ((l.keys[i] & need) != need) {
			snprintf(err, errlen, "%s: model [%s] lacks one of rotational, rpm, "
				 "read_mb_s, write_mb_s, overhead_ms%s", path, out[i].name,
				 out[i].rpm > 0 ? ", seek_track_ms, seek_avg_ms" : "");
			return -EINVAL;
		}
		if (!out[i].disk_class[0])
			snprintf(out[i].disk_class, sizeof out[i].disk_class, "%s",
				 out[i].rotational ? "rotational" : "ssd");
		if (labmodel_validate(&out[i], why, sizeof why)) {
			snprintf(err, errlen, "%s: %s", path, why);
			return -EINVAL;
		}
	}
	*n = l.n;
	return 0;
}

const struct labmodel *labmodel_find(const struct labmodel *models, int n,
				     const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(models[i].name, name) == 0)
			return &models[i];
	return NULL;
}
