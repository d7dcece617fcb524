#include "load_priv.h"
#include "loaddist.h"
#include "loadthink.h"
#include "msg.h"
#include "parse.h"
#include "text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const kind_names[LOAD_KIND_COUNT] = {
	[LOAD_SEQ_WRITE] = "seq-write",
	[LOAD_SEQ_READ] = "seq-read",
	[LOAD_RAND_READ] = "rand-read",
	[LOAD_RAND_WRITE] = "rand-write",
	[LOAD_FSYNC_WRITE] = "fsync-heavy",
	[LOAD_MIXED] = "mixed",
	[LOAD_RAND_MIXED] = "rand-mixed",
	[LOAD_COPY] = "copy",
};

const char *load_kind_name(enum load_kind k)
{
	return (unsigned)k < LOAD_KIND_COUNT ? kind_names[k] : "?";
}

const char *load_end_name(enum load_end e)
{
	switch (e) {
	case LOAD_RUNNING: return "running";
	case LOAD_END_STOPPED: return "stopped";
	case LOAD_END_DONE: return "done";
	case LOAD_END_FLOOR: return "free-space floor";
	case LOAD_END_ENOSPC: return "ENOSPC";
	case LOAD_END_EDQUOT: return "EDQUOT";
	case LOAD_END_ERROR: return "I/O error";
	case LOAD_END_DIED: return "died";
	}
	return "?";
}

const char *load_engine_name(enum load_engine e)
{
	return e == LOAD_ENGINE_IO_URING ? "io_uring" : e == LOAD_ENGINE_SYNC ? "sync" : "?";
}

int load_bssplit_parse(const char *text, struct load_spec *s)
{
	char buf[512];
	if (!*text || strlen(text) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, text);
	unsigned n = 0, sum = 0, open_pct = 0;
	struct load_bssplit e[LOAD_BSSPLIT_MAX];
	memset(e, 0, sizeof(e));    /* profile_equal() compares entries whole */
	char *save = NULL;
	for (char *it = strtok_r(buf, ":", &save); it; it = strtok_r(NULL, ":", &save)) {
		if (n >= LOAD_BSSPLIT_MAX || open_pct)
			return -EINVAL;
		char *slash = strchr(it, '/');
		int64_t pct = -1;
		if (slash) {
			*slash = '\0';
			if (parse_int(slash + 1, 0, 100, &pct) < 0)
				return -EINVAL;
		}
		if (parse_size(it, &e[n].bs) < 0 || e[n].bs == 0 || e[n].bs > 64 * MiB)
			return -EINVAL;
		if (pct < 0)
			open_pct = 1;       /* the rest, filled in below */
		else if (pct == 0)
			continue;           /* fio: a 0 % entry is never used */
		e[n].pct = pct < 0 ? 0 : (unsigned)pct;
		sum += e[n].pct;
		n++;
	}
	if (!n || sum > 100)
		return -EINVAL;
	if (open_pct) {
		if (sum == 100)
			return -EINVAL;
		e[n - 1].pct = 100 - sum;
		sum = 100;
	}
	if (sum != 100)
		return -EINVAL;
	s->n_bssplit = n;
	s->bs_lo = UINT64_MAX;
	s->bs_hi = 0;
	for (unsigned i = 0; i < n; i++) {
		s->bssplit[i] = e[i];
		if (e[i].bs < s->bs_lo)
			s->bs_lo = e[i].bs;
		if (e[i].bs > s->bs_hi)
			s->bs_hi = e[i].bs;
	}
	return 0;
}

void load_bssplit_format(const struct load_spec *s, char *buf, size_t len)
{
	size_t o = 0;
	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < s->n_bssplit && o < len; i++) {
		char b[24];
		parse_format_size(b, sizeof(b), s->bssplit[i].bs);
		o += (size_t)snprintf(buf + o, len - o, "%s%s/%u", i ? ":" : "", b,
				      s->bssplit[i].pct);
	}
}

int load_kind_writes(enum load_kind k)
{
	return k == LOAD_SEQ_WRITE || k == LOAD_RAND_WRITE || k == LOAD_FSYNC_WRITE ||
	       k == LOAD_COPY || load_kind_mixed(k);
}

int load_kind_splits(enum load_kind k)
{
	return k == LOAD_COPY || load_kind_mixed(k);
}

int load_kind_mixed(enum load_kind k)
{
	return k == LOAD_MIXED || k == LOAD_RAND_MIXED;
}

int load_kind_random(enum load_kind k)
{
	return k == LOAD_RAND_READ || k == LOAD_RAND_WRITE || k == LOAD_RAND_MIXED;
}

int load_kind_needs_file(enum load_kind k)
{
	return k == LOAD_SEQ_READ || k == LOAD_RAND_READ || k == LOAD_RAND_WRITE ||
	       k == LOAD_COPY || load_kind_mixed(k);
}

static void spec_defaults(struct load_spec *s, enum load_kind k)
{
	*s = (struct load_spec){ .kind = k, .count = 1, .ioprio_class = -1 };
	switch (k) {
	case LOAD_SEQ_WRITE:
		s->bs_lo = s->bs_hi = MiB;
		break;
	case LOAD_SEQ_READ:
		s->bs_lo = s->bs_hi = MiB;
		s->size = 256 * MiB;
		break;
	case LOAD_RAND_READ:
	case LOAD_RAND_WRITE:
		s->bs_lo = s->bs_hi = 4096;
		s->size = 256 * MiB;
		break;
	case LOAD_FSYNC_WRITE:
		s->bs_lo = s->bs_hi = 4096;
		s->size = 64 * MiB;
		s->fsync_every = 4096;
		break;
	case LOAD_MIXED:
		s->bs_lo = s->bs_hi = MiB;
		s->size = 256 * MiB;
		s->mix_read = 50;
		break;
	case LOAD_RAND_MIXED:
		s->bs_lo = s->bs_hi = 4096;
		s->size = 256 * MiB;
		s->mix_read = 50;
		break;
	case LOAD_COPY:
		s->bs_lo = s->bs_hi = MiB;
		s->size = 1024 * MiB;
		break;
	case LOAD_KIND_COUNT:
		break;
	}
}


int load_ionice_parse(const char *v, int *cls_out, int *level_out)
{
	static const char *const names[] = { "none", "rt", "be", "idle" };
	char cls[16];
	const char *slash = strchr(v, '/');
	size_t n = slash ? (size_t)(slash - v) : strlen(v);
	if (n == 0 || n >= sizeof(cls))
		return -EINVAL;
	memcpy(cls, v, n);
	cls[n] = '\0';
	int c = -1;
	for (int i = 0; i < 4; i++)
		if (strcasecmp(cls, names[i]) == 0)
			c = i;
	if (c < 0) {
		int64_t x;
		if (parse_int(cls, 0, 3, &x) < 0)
			return -EINVAL;
		c = (int)x;
	}
	int64_t level = 4;   /* the kernel's default best-effort level */
	if (slash && (c == 0 || parse_int(slash + 1, 0, 7, &level) < 0))
		return -EINVAL;  /* none takes no level */
	if (c == 3 || c == 0)
		level = 0;
	*cls_out = c;
	*level_out = (int)level;
	return 0;
}

void load_ionice_format(int cls, int level, char *buf, size_t len)
{
	static const char *const cn[] = { "none", "rt", "be", "idle" };
	if (cls < 0 || cls > 3)
		snprintf(buf, len, "-");
	else if (cls == 0 || cls == 3)
		snprintf(buf, len, "%s", cn[cls]);
	else
		snprintf(buf, len, "%s/%d", cn[cls], level);
}

/* The keys of when a load pauses (loadthink.h): 0 or -EINVAL when key is
 * one of them, 1 when it is not. */
static int pause_key(const char *key, const char *val, struct load_spec *s)
{
	int64_t n;
	int rc;
	if (strcmp(key, "thinktime") == 0)
		return loadthink_parse_time(val, 1000, &s->think_ns);
	if (strcmp(key, "thinktime_spin") == 0)
		return loadthink_parse_time(val, 1000, &s->think_spin_ns);
	if (strcmp(key, "thinktime_blocks") == 0) {
		rc = parse_int(val, 1, 1000000, &n);
		s->think_blocks = rc == 0 ? (unsigned)n : s->think_blocks;
		return rc < 0 ? -EINVAL : 0;
	}
	if (strcmp(key, "thinktime_blocks_type") == 0) {
		s->think_issue = strcmp(val, "issue") == 0;
		return s->think_issue || strcmp(val, "complete") == 0 ? 0 : -EINVAL;
	}
	if (strcmp(key, "startdelay") == 0)
		return loadthink_parse_range(val, 1000000000ull, &s->delay_lo_ns, &s->delay_hi_ns);
	return 1;
}

/* Pause keys that need another: 0, or -EINVAL with the message. */
static int pause_check(const struct load_spec *s, const char *text, char *err, size_t errlen)
{
	if (!s->think_ns && (s->think_spin_ns || s->think_blocks || s->think_issue))
		return msg_fail(-EINVAL, err, errlen, "load '%s': thinktime_spin, thinktime_blocks "
			    "and thinktime_blocks_type need thinktime= (the pause they shape)", text);
	if (s->think_spin_ns > s->think_ns)
		return msg_fail(-EINVAL, err, errlen, "load '%s': thinktime_spin is the busy part of "
			    "thinktime, expected at most thinktime", text);
	return 0;
}

int load_dir_check(const char *path, char *why, size_t whylen)
{
	const char *bad = NULL;
	if (path[0] != '/')
		bad = "it must be an absolute path (begin with /)";
	else if (strlen(path) >= LOAD_DIR_MAX)
		bad = "it is too long (at most 255 bytes)";
	else if (strpbrk(path, ",="))
		bad = "a path with ',' or '=' cannot be written in a load spec";
	for (const char *p = path; !bad && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			bad = "it holds a control character";
	size_t off;
	char what[64];
	if (!bad && text_check(path, &off) < 0) {   /* bad UTF-8, bidi marks */
		snprintf(why, whylen, "it holds a %s at byte %zu",
			 text_bad_name(path + off, strlen(path + off), what, sizeof(what)), off);
		return -EINVAL;
	}
	if (!bad)
		return 0;
	snprintf(why, whylen, "%s", bad);
	return -EINVAL;
}

/* A copy reads and writes in order with one call in flight, as cp does:
 * the keys that shape another kind's calls are refused.  0 or -EINVAL. */
static int copy_check(const struct load_spec *s, const char *text, char *err, size_t errlen)
{
	const char *bad = s->kind != LOAD_COPY ? NULL :
			  s->engine != LOAD_ENGINE_SYNC ? "engine" :
			  s->skip ? "skip" : s->flow_weight ? "flow" : NULL;
	if (!bad)
		return 0;
	return msg_fail(-EINVAL, err, errlen, "load '%s': %s does not apply to copy (it reads "
			"its source and writes its copy in order, one call at a time, as cp does)",
			text, bad);
}

int load_spec_parse(const char *text, struct load_spec *out, char *err, size_t errlen)
{
	char buf[1024];
	if (strlen(text) >= sizeof(buf))
		return msg_fail(-EINVAL, err, errlen, "load '%.60s...': too long", text);
	strcpy(buf, text);
	char *opts = strchr(buf, ':');
	if (opts)
		*opts++ = '\0';
	int kind = -1;
	for (int i = 0; i < LOAD_KIND_COUNT; i++)
		if (strcmp(buf, kind_names[i]) == 0)
			kind = i;
	if (kind < 0)
		return msg_fail(-EINVAL, err, errlen, "load '%s': unknown kind '%s' (seq-write, seq-read, "
			    "rand-read, rand-write, fsync-heavy, mixed, rand-mixed)", text, buf);
	struct load_spec s;
	spec_defaults(&s, (enum load_kind)kind);
	char *save = NULL;
	for (char *kv = opts ? strtok_r(opts, ",", &save) : NULL; kv;
	     kv = strtok_r(NULL, ",", &save)) {
		char *val = strchr(kv, '=');
		if (val)
			*val++ = '\0';
		int rc = 0;
		int64_t n;
		if (strcmp(kv, "direct") == 0 && !val) {
			s.direct = 1;
		} else if (strcmp(kv, "poisson") == 0 && !val) {
			s.poisson = 1;
		} else if (!val) {
			return msg_fail(-EINVAL, err, errlen, "load '%s': '%s' needs a value (key=value)", text, kv);
		} else if (strcmp(kv, "count") == 0) {
			rc = parse_int(val, 1, 256, &n);
			s.count = (unsigned)n;
		} else if (strcmp(kv, "bs") == 0) {
			rc = parse_size_range(val, &s.bs_lo, &s.bs_hi);
			if (rc == 0 && (s.bs_lo == 0 || s.bs_hi > 64 * MiB))
				rc = -ERANGE;
		} else if (strcmp(kv, "size") == 0) {
			rc = parse_size(val, &s.size);
			if (rc == 0 && s.size > LOAD_SIZE_MAX)
				return msg_fail(-EINVAL, err, errlen, "load '%s': size %s is absurd "
					    "(at most 1 PiB)", text, val);
		} else if (strcmp(kv, "total") == 0) {
			rc = parse_size(val, &s.total);
			if (rc == 0 && s.total > LOAD_SIZE_MAX)
				return msg_fail(-EINVAL, err, errlen, "load '%s': total %s is absurd "
					    "(at most 1 PiB)", text, val);
		} else if (strcmp(kv, "rate") == 0) {
			rc = parse_size(val, &s.rate);
		} else if (strcmp(kv, "fsync") == 0) {
			rc = parse_size(val, &s.fsync_every);
			if (rc == 0 && s.fsync_every > LOAD_SIZE_MAX)
				rc = -ERANGE;
		} else if (strcmp(kv, "direct") == 0) {
			rc = parse_int(val, 0, 1, &n);
			s.direct = (int)n;
		} else if (strcmp(kv, "ionice") == 0) {
			rc = load_ionice_parse(val, &s.ioprio_class, &s.ioprio_level);
		} else if (strcmp(kv, "engine") == 0) {
			if (strcmp(val, "sync") == 0)
				s.engine = LOAD_ENGINE_SYNC;
			else if (strcmp(val, "io_uring") == 0)
				s.engine = LOAD_ENGINE_IO_URING;
			else
				rc = -EINVAL;
		} else if (strcmp(kv, "iodepth") == 0) {
			rc = parse_int(val, 1, LOAD_IODEPTH_MAX, &n);
			s.iodepth = (unsigned)n;
		} else if (strcmp(kv, "bssplit") == 0) {
			rc = load_bssplit_parse(val, &s);
		} else if (strcmp(kv, "flow") == 0) {
			rc = parse_int(val, 1, 1000000, &n);
			s.flow_weight = (unsigned)n;
		} else if (strcmp(kv, "flow_id") == 0) {
			rc = parse_int(val, 0, 15, &n);
			s.flow_id = (unsigned)n;
		} else if (strcmp(kv, "flow_sleep") == 0) {
			rc = parse_int(val, 0, 10000000, &n);
			s.flow_sleep_us = (unsigned)n;
		} else if (strcmp(kv, "dir") == 0) {
			char why[96];
			if (load_dir_check(val, why, sizeof(why)) < 0)
				return msg_fail(-EINVAL, err, errlen, "load '%s': dir=%s: %s", text,
						val, why);
			snprintf(s.dir, sizeof(s.dir), "%s", val);
		} else if (strcmp(kv, "mix") == 0) {
			rc = parse_int(val, 0, 100, &n);
			s.mix_read = (unsigned)n;
			if (rc == 0 && !load_kind_mixed(s.kind))
				return msg_fail(-EINVAL, err, errlen, "load '%s': mix applies to the "
					    "mixed kinds only (mixed, rand-mixed)", text);
		} else if (strcmp(kv, "dist") == 0) {
			rc = loaddist_parse(val, &s);
			if (rc == 0 && !load_kind_random(s.kind))
				return msg_fail(-EINVAL, err, errlen, "load '%s': dist applies to the "
					    "random kinds only (rand-read, rand-write, rand-mixed)", text);
		} else if (strcmp(kv, "skip") == 0) {
			uint64_t b;
			rc = parse_size(val[0] == '-' ? val + 1 : val, &b);
			if (rc == 0 && b > LOAD_SIZE_MAX)
				rc = -ERANGE;
			s.skip = val[0] == '-' ? -(int64_t)b : (int64_t)b;
			if (rc == 0 && (load_kind_random(s.kind) || s.kind == LOAD_FSYNC_WRITE))
				return msg_fail(-EINVAL, err, errlen, "load '%s': skip applies to the "
					    "sequential kinds only (seq-write, seq-read, mixed)", text);
		} else if ((rc = pause_key(kv, val, &s)) <= 0) {
			/* thinktime, thinktime_spin, thinktime_blocks(_type), startdelay */
		} else {
			return msg_fail(-EINVAL, err, errlen, "load '%s': unknown option '%s' (count, bs, size, "
				    "total, rate, fsync, direct, ionice, engine, iodepth, bssplit, mix, dist, "
				    "skip, poisson, flow, flow_id, flow_sleep, thinktime, thinktime_spin, "
				    "thinktime_blocks, thinktime_blocks_type, startdelay, dir)", text, kv);
		}
		if (rc < 0)
			return msg_fail(-EINVAL, err, errlen, "load '%s': bad value for '%s'", text, kv);
	}
	if (load_kind_needs_file(s.kind) && s.size < s.bs_hi)
		return msg_fail(-EINVAL, err, errlen, "load '%s': size must be at least the block size "
			    "(it is the file %s works on)", text, buf);
	if (s.size && s.size < s.bs_hi)
		return msg_fail(-EINVAL, err, errlen, "load '%s': size is smaller than bs", text);
	if (s.direct && (s.bs_lo % 4096 || s.bs_hi % 4096 || s.size % 4096))
		return msg_fail(-EINVAL, err, errlen, "load '%s': direct needs bs and size in multiples "
			    "of 4k", text);
	if (!load_kind_writes(s.kind) && s.fsync_every)
		return msg_fail(-EINVAL, err, errlen, "load '%s': fsync applies to writers only", text);
	if (s.poisson && !s.rate)
		return msg_fail(-EINVAL, err, errlen, "load '%s': poisson needs rate= (the mean "
			    "rate its calls arrive at)", text);
	if (s.skip < 0 && !s.size)
		return msg_fail(-EINVAL, err, errlen, "load '%s': a negative skip needs size= (the "
			    "region to go backwards in)", text);
	if (s.direct && s.skip % 4096)
		return msg_fail(-EINVAL, err, errlen, "load '%s': direct needs skip in multiples of "
			    "4k", text);
	if (s.iodepth > 1 && s.engine != LOAD_ENGINE_IO_URING)
		return msg_fail(-EINVAL, err, errlen, "load '%s': iodepth above 1 needs engine=io_uring "
			    "(the sync engine has one call in flight)", text);
	for (unsigned i = 0; i < s.n_bssplit && s.direct; i++)
		if (s.bssplit[i].bs % 4096)
			return msg_fail(-EINVAL, err, errlen, "load '%s': direct needs bssplit sizes in "
				    "multiples of 4k", text);
	if (pause_check(&s, text, err, errlen) < 0 || copy_check(&s, text, err, errlen) < 0)
		return -EINVAL;
	*out = s;
	return 0;
}

void load_spec_format(const struct load_spec *s, char *buf, size_t len)
{
	char a[24], b[24];
	size_t o = 0;
	parse_format_size(a, sizeof(a), s->bs_lo);
	parse_format_size(b, sizeof(b), s->bs_hi);
	if (s->n_bssplit) {
		char split[512];
		load_bssplit_format(s, split, sizeof(split));
		o += (size_t)snprintf(buf + o, len - o, "%s:count=%u,bssplit=%s",
				      load_kind_name(s->kind), s->count, split);
	} else {
		o += (size_t)snprintf(buf + o, len - o, "%s:count=%u,bs=%s", load_kind_name(s->kind),
				      s->count, a);
		if (s->bs_hi != s->bs_lo && o < len)
			o += (size_t)snprintf(buf + o, len - o, "-%s", b);
	}
	if (s->engine == LOAD_ENGINE_IO_URING && o < len)
		o += (size_t)snprintf(buf + o, len - o, ",engine=io_uring");
	if (s->iodepth > 1 && o < len)
		o += (size_t)snprintf(buf + o, len - o, ",iodepth=%u", s->iodepth);
	struct { const char *k; uint64_t v; } nums[] = {
		{ "size", s->size }, { "total", s->total }, { "rate", s->rate },
		{ "fsync", s->fsync_every },
	};
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		if (!nums[i].v || o >= len)
			continue;
		parse_format_size(a, sizeof(a), nums[i].v);
		o += (size_t)snprintf(buf + o, len - o, ",%s=%s", nums[i].k, a);
	}
	if (load_kind_mixed(s->kind) && o < len)
		o += (size_t)snprintf(buf + o, len - o, ",mix=%u", s->mix_read);
	if (s->dist != LOAD_DIST_RANDOM && o < len) {
		char d[160];
		loaddist_format(s, d, sizeof(d));
		o += (size_t)snprintf(buf + o, len - o, ",dist=%s", d);
	}
	if (s->skip && o < len) {
		parse_format_size(a, sizeof(a), (uint64_t)(s->skip < 0 ? -s->skip : s->skip));
		o += (size_t)snprintf(buf + o, len - o, ",skip=%s%s", s->skip < 0 ? "-" : "", a);
	}
	if (s->poisson && o < len)
		o += (size_t)snprintf(buf + o, len - o, ",poisson");
	if (s->flow_weight && o < len)
		o += (size_t)snprintf(buf + o, len - o, ",flow=%u", s->flow_weight);
	if (s->flow_id && o < len)
		o += (size_t)snprintf(buf + o, len - o, ",flow_id=%u", s->flow_id);
	if (s->flow_sleep_us && o < len)
		o += (size_t)snprintf(buf + o, len - o, ",flow_sleep=%u", s->flow_sleep_us);
	char t[32], sp[32];
	loadthink_format_time(t, sizeof(t), s->think_ns);
	loadthink_format_time(sp, sizeof(sp), s->think_spin_ns);
	if (s->think_ns && o < len)
		o += (size_t)snprintf(buf + o, len - o, ",thinktime=%s", t);
	if (s->think_spin_ns && o < len)
		o += (size_t)snprintf(buf + o, len - o, ",thinktime_spin=%s", sp);
	if (s->think_blocks && o < len)
		o += (size_t)snprintf(buf + o, len - o, ",thinktime_blocks=%u", s->think_blocks);
	if (s->think_issue && o < len)
		o += (size_t)snprintf(buf + o, len - o, ",thinktime_blocks_type=issue");
	if (s->delay_hi_ns && o < len) {
		char d[64];
		loadthink_format_range(d, sizeof(d), s->delay_lo_ns, s->delay_hi_ns);
		o += (size_t)snprintf(buf + o, len - o, ",startdelay=%s", d);
	}
	if (s->direct && o < len)
		o += (size_t)snprintf(buf + o, len - o, ",direct");
	if (s->ioprio_class >= 0 && o < len) {
		char io[16];
		load_ionice_format(s->ioprio_class, s->ioprio_level, io, sizeof(io));
		o += (size_t)snprintf(buf + o, len - o, ",ionice=%s", io);
	}
	if (s->dir[0] && o < len)
		snprintf(buf + o, len - o, ",dir=%s", s->dir);
}

int load_spec_check(const struct load_spec *s, char *err, size_t errlen)
{
	char text[1024];
	struct load_spec chk;
	load_spec_format(s, text, sizeof(text));
	return load_spec_parse(text, &chk, err, errlen);
}

uint64_t load_spec_prepare_bytes(const struct load_spec *s)
{
	return load_kind_needs_file(s->kind) ? s->size : 0;
}

int load_spec_need(const struct load_spec *s, uint64_t *out)
{
	return __builtin_mul_overflow(load_spec_prepare_bytes(s), (uint64_t)s->count, out) ?
	       -EOVERFLOW : 0;
}
