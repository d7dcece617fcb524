/* timesplit — see timesplit.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timesplit.h"
#include "parse.h"

static const char *const keys[TIMESPLIT_NPARTS] = {
	"cpu", "runq", "device", "queued", "admit", "throttled", "blocked", "sleep",
};
static const char *const labels[TIMESPLIT_NPARTS] = {
	"on CPU", "waiting for a CPU", "on the disk", "queued in the I/O scheduler",
	"held before the queue (wbt, tags)", "throttled by dirty limits",
	"other waits (page locks, journal)", "other sleep",
};

const char *timesplit_key(int part)
{
	return part >= 0 && part < TIMESPLIT_NPARTS ? keys[part] : "?";
}

const char *timesplit_label(int part)
{
	return part >= 0 && part < TIMESPLIT_NPARTS ? labels[part] : "?";
}

static int maker_cmp(const void *x, const void *y)
{
	const struct timesplit_maker *a = x, *b = y;
	if (a->n != b->n)
		return a->n < b->n ? 1 : -1;
	return a->pid < b->pid ? -1 : a->pid > b->pid;
}

void timesplit_from_acct(struct timesplit *t, const struct iowhy_acct *a)
{
	memset(t, 0, sizeof(*t));
	t->ok = 1;
	t->flags = (uint16_t)a->flags;
	t->incomplete = (a->flags & (IOWHY_F_DROPPED | IOWHY_F_NOWINDOW | IOWHY_F_MISSED)) != 0;
	memcpy(t->part_ns, a->part_ns, sizeof(t->part_ns));
	t->device_union_ns = a->device_union_ns;
	t->queued_union_ns = a->queued_union_ns;
	for (int op = 0; op < 2; op++) {
		t->rq[op] = a->rq[op];
		t->rq_bytes[op] = a->rq_bytes[op];
		t->ahead[op] = a->ahead[op];
		t->ahead_bytes[op] = a->ahead_bytes[op];
	}
	for (int i = 0; i < IOWHY_MAKERS; i++) {
		const struct iowhy_maker *m = &a->makers[i];
		if (!m->tgid)
			continue;
		struct timesplit_maker *o = &t->makers[t->n_makers++];
		o->pid = (int32_t)m->tgid;
		memcpy(o->comm, m->comm, sizeof(o->comm));
		o->comm[sizeof(o->comm) - 1] = '\0';
		o->n = m->n;
		o->bytes = m->bytes;
	}
	qsort(t->makers, t->n_makers, sizeof(t->makers[0]), maker_cmp);
	t->ahead_unnamed = a->ahead_unnamed;
}

const char *timesplit_role_name(int role)
{
	return role == TIMESPLIT_LOAD ? "load" : role == TIMESPLIT_SAMPLE ? "sample" : NULL;
}

uint64_t timesplit_wall_ns(const struct timesplit *t)
{
	uint64_t w = 0;
	for (int p = 0; p < TIMESPLIT_NPARTS; p++)
		w += t->part_ns[p];
	return w;
}

static int wall_cmp(const void *x, const void *y)
{
	uint64_t a = timesplit_wall_ns(*(const struct timesplit *const *)x);
	uint64_t b = timesplit_wall_ns(*(const struct timesplit *const *)y);
	return a < b ? -1 : a > b;
}

void timesplit_sum(const struct timesplit *const *v, size_t n, struct timesplit_sum *out)
{
	memset(out, 0, sizeof(*out));
	const struct timesplit **ok = calloc(n ? n : 1, sizeof(*ok));
	if (!ok)
		return;
	for (size_t i = 0; i < n; i++) {
		if (!v[i] || !v[i]->ok)
			continue;
		if (v[i]->incomplete) {
			out->n_incomplete++;
			continue;
		}
		uint64_t w = timesplit_wall_ns(v[i]);
		for (int p = 0; p < TIMESPLIT_NPARTS && w; p++)
			out->share[p] += (double)v[i]->part_ns[p] / (double)w;
		for (int op = 0; op < 2; op++) {
			out->ahead_mean[op] += v[i]->ahead[op];
			out->ahead_bytes_mean[op] += (double)v[i]->ahead_bytes[op];
		}
		ok[out->n++] = v[i];
	}
	if (out->n) {
		for (int p = 0; p < TIMESPLIT_NPARTS; p++)
			out->share[p] /= (double)out->n;
		for (int op = 0; op < 2; op++) {
			out->ahead_mean[op] /= (double)out->n;
			out->ahead_bytes_mean[op] /= (double)out->n;
		}
		qsort(ok, out->n, sizeof(*ok), wall_cmp);
		out->median = ok[(out->n - 1) / 2];   /* the lower median: a real sample */
	}
	free(ok);
}

size_t timesplit_legend(char *buf, size_t len)
{
	size_t o = 0;
	if (!len)
		return 0;
	buf[0] = '\0';
	for (int p = 0; p < TIMESPLIT_NPARTS && o < len; p++) {
		int k = snprintf(buf + o, len - o, "%s%s: %s", p ? "; " : "", timesplit_key(p),
				 timesplit_label(p));
		o += k > 0 ? (size_t)k : 0;
	}
	return o < len ? o : len - 1;
}

void timesplit_count_text(char *buf, size_t len, uint32_t n, uint64_t bytes, const char *what)
{
	char sz[32];
	parse_format_iec(sz, sizeof(sz), bytes);
	if (!n)
		snprintf(buf, len, "no %ss", what);
	else
		snprintf(buf, len, bytes ? "%u %s%s (%s)" : "%u %s%s", n, what, n == 1 ? "" : "s", sz);
}

/* " while 410 writes (400 MiB) went first" or "" */
static void ahead_words(const struct timesplit *t, char *buf, size_t len)
{
	char w[64], r[64];
	timesplit_count_text(w, sizeof(w), t->ahead[1], t->ahead_bytes[1], "write");
	timesplit_count_text(r, sizeof(r), t->ahead[0], t->ahead_bytes[0], "read");
	if (t->ahead[1] && t->ahead[0])
		snprintf(buf, len, " while %s and %s went first", w, r);
	else if (t->ahead[1] || t->ahead[0])
		snprintf(buf, len, " while %s went first", t->ahead[1] ? w : r);
	else
		buf[0] = '\0';
}

void timesplit_cause(const struct timesplit *t, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	uint64_t w = t && t->ok ? timesplit_wall_ns(t) : 0;
	if (!w)
		return;
	int order[TIMESPLIT_NPARTS];
	for (int p = 0; p < TIMESPLIT_NPARTS; p++)
		order[p] = p;
	for (int i = 1; i < TIMESPLIT_NPARTS; i++)   /* largest first, stable */
		for (int j = i; j > 0 && t->part_ns[order[j]] > t->part_ns[order[j - 1]]; j--) {
			int x = order[j];
			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	size_t at = 0;
	int said_ahead = 0;
	for (int i = 0; i < 3; i++) {
		int p = order[i];
		double pct = 100.0 * (double)t->part_ns[p] / (double)w;
		if (i && pct < 10)
			break;
		char ahead[160] = "";
		if (!said_ahead && (p == IOWHY_DEVICE || p == IOWHY_QUEUED)) {
			ahead_words(t, ahead, sizeof(ahead));
			said_ahead = 1;
		}
		int k = snprintf(buf + at, len - at, "%s%.0f %% %s%s", i ? ", " : "", pct,
				 timesplit_label(p), ahead);
		if (k < 0 || (size_t)k >= len - at)
			break;
		at += (size_t)k;
	}
}
