/* profile_write — a profile as INI text that profile_parse_buffer() reads
 * back into an equal profile; values that would not survive the trip, or
 * are not clean text, are refused (-EINVAL, message).  Contract in
 * profile.h. */
#include "profile.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "loaddist.h"
#include "loadkeys.h"
#include "loadthink.h"
#include "msg.h"
#include "parse.h"
#include "text.h"
#include "str.h"

static int fmt_duration(char *b, size_t n, uint64_t ns)
{
	if (ns % 1000000ull)
		return -EINVAL;
	if (ns % 1000000000ull == 0)
		snprintf(b, n, "%" PRIu64 "s", (uint64_t)(ns / 1000000000ull));
	else
		snprintf(b, n, "%" PRIu64 "ms", (uint64_t)(ns / 1000000ull));
	return 0;
}

/* A value inih gives back unchanged and the loader accepts: no
 * leading/trailing space, no inline comment, clean text (text.h: no line
 * break or other control character, valid UTF-8), short enough. */
static int writable(const char *v, size_t room)
{
	size_t n = strlen(v);
	if (n == 0 || n > room || str_is_space((unsigned char)v[0]) || str_is_space((unsigned char)v[n - 1]) ||
	    v[0] == ';' || text_check(v, NULL) < 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i] == '\n' || v[i] == '\r' || v[i] == '\0')
			return 0;
		if (v[i] == ';' && i > 0 && str_is_space((unsigned char)v[i - 1]))
			return 0;
	}
	return 1;
}

#define PUT_CHECK(key, val)                                                              \
	do {                                                                             \
		if (!writable((val), PROFILE_MAX_LINE - strlen(key) - 3))                \
			return msg_fail(-EINVAL, err, errlen, "cannot write %s = '%s': empty, too " \
				    "long, has an inline comment, a control character or " \
				    "invalid UTF-8", text_show(key), text_show(val));    \
		fprintf(f, "%s = %s\n", (key), (val));                                   \
	} while (0)

/* [profile] and [target]. */
static int write_head(FILE *f, const struct profile *p, char *err, size_t errlen)
{
	char b[64];
	fprintf(f, "; brisk profile (see brisk-profile(5))\n[profile]\n");
	if (p->name[0])
		PUT_CHECK("name", p->name);
	if (p->description[0])
		PUT_CHECK("description", p->description);
	if (p->runtime_ns) {
		if (fmt_duration(b, sizeof(b), p->runtime_ns) < 0)
			return msg_fail(-EINVAL, err, errlen, "runtime has sub-millisecond precision");
		PUT_CHECK("runtime", b);
	}
	if (p->ramp_time_ns) {
		if (fmt_duration(b, sizeof(b), p->ramp_time_ns) < 0)
			return msg_fail(-EINVAL, err, errlen, "ramp_time has sub-millisecond precision");
		PUT_CHECK("ramp_time", b);
	}
	if (p->concurrency > 1) {
		snprintf(b, sizeof(b), "%u", p->concurrency);
		PUT_CHECK("concurrency", b);
	}
	if (p->finite_load)
		PUT_CHECK("finite_load", "1");
	if (p->directory[0] || p->n_devices) {
		fprintf(f, "\n[target]\n");
		if (p->directory[0])
			PUT_CHECK("directory", p->directory);
		if (p->n_devices) {
			char list[PROFILE_MAX_LINE + 2] = "";
			size_t o = 0;
			for (size_t i = 0; i < p->n_devices && o < sizeof(list); i++)
				o += (size_t)snprintf(list + o, sizeof(list) - o, "%s%s", i ? " " : "",
						      p->devices[i]);
			PUT_CHECK("devices", list);
		}
	}
	return 0;
}

/* [settings] and [settings CLASS], each in application order. */
static int write_settings(FILE *f, const struct profile *p, char *err, size_t errlen)
{
	for (int cls = 0; cls < PROFILE_CLASS_COUNT; cls++) {
		const struct profile_setting *eff[PROFILE_MAX_SETTINGS];
		size_t n = profile_class_settings(p, (enum profile_class)cls, eff,
						  PROFILE_MAX_SETTINGS);
		if (!n)
			continue;
		if (cls == PROFILE_CLASS_ALL)
			fprintf(f, "\n[settings]\n");
		else
			fprintf(f, "\n[settings %s]\n", profile_class_name((enum profile_class)cls));
		for (size_t i = 0; i < n; i++)
			PUT_CHECK(eff[i]->key, eff[i]->value);
	}
	return 0;
}

/* bs or bsrange. */
static int write_bs(FILE *f, uint64_t lo, uint64_t hi, char *err, size_t errlen)
{
	char b[64], b2[64];
	parse_format_size(b, sizeof(b), lo);
	if (lo != hi) {
		parse_format_size(b2, sizeof(b2), hi);
		char r[140];
		snprintf(r, sizeof(r), "%s-%s", b, b2);
		PUT_CHECK("bsrange", r);
	} else {
		PUT_CHECK("bs", b);
	}
	return 0;
}

/* When a load pauses: thinktime and its keys, startdelay (loadthink.h). */
static int write_load_pauses(FILE *f, const struct load_spec *s, char *err, size_t errlen)
{
	char b[64];
	if (s->think_ns) {
		loadthink_format_time(b, sizeof(b), s->think_ns);
		PUT_CHECK("thinktime", b);
	}
	if (s->think_spin_ns) {
		loadthink_format_time(b, sizeof(b), s->think_spin_ns);
		PUT_CHECK("thinktime_spin", b);
	}
	if (s->think_blocks) {
		snprintf(b, sizeof(b), "%u", s->think_blocks);
		PUT_CHECK("thinktime_blocks", b);
	}
	if (s->think_issue)
		PUT_CHECK("thinktime_blocks_type", "issue");
	if (s->delay_hi_ns) {
		loadthink_format_range(b, sizeof(b), s->delay_lo_ns, s->delay_hi_ns);
		PUT_CHECK("startdelay", b);
	}
	return 0;
}

/* fsync, direct, prioclass and prio of a load. */
static int write_load_flags(FILE *f, const struct profile_load *l, char *err, size_t errlen)
{
	const struct load_spec *s = &l->spec;
	char b[64];
	if (s->kind == LOAD_FSYNC_WRITE && !s->fsync_every)
		return msg_fail(-EINVAL, err, errlen, "load %s: fsync-heavy without fsync", l->name);
	if (s->fsync_every) {
		if (!s->bs_hi || s->fsync_every % s->bs_hi)
			return msg_fail(-EINVAL, err, errlen, "load %s: fsync every %" PRIu64 " bytes is not "
				    "a whole number of %" PRIu64 "-byte writes", l->name,
				    s->fsync_every, s->bs_hi);
		snprintf(b, sizeof(b), "%" PRIu64, s->fsync_every / s->bs_hi);
		PUT_CHECK("fsync", b);
	}
	if (s->direct)
		PUT_CHECK("direct", "1");
	if (s->ioprio_class > 0) {
		snprintf(b, sizeof(b), "%d", s->ioprio_class);
		PUT_CHECK("prioclass", b);
		if (s->ioprio_class != 3) {
			snprintf(b, sizeof(b), "%d", s->ioprio_level);
			PUT_CHECK("prio", b);
		}
	}
	return 0;
}

static int write_load(FILE *f, const struct profile_load *l, size_t i, char *err, size_t errlen)
{
	const struct load_spec *s = &l->spec;
	struct load_spec def;
	char b[64], e[128];
	if ((unsigned)s->kind >= LOAD_KIND_COUNT || !profile_name_ok(l->name, sizeof(l->name)))
		return msg_fail(-EINVAL, err, errlen, "load %zu: bad kind or name", i + 1);
	fprintf(f, "\n[load %s]\n", l->name);
	if (s->skip) {   /* fio's offset modifier: rw = read:-8k */
		char sk[40];
		parse_format_size(sk, sizeof(sk), (uint64_t)(s->skip < 0 ? -s->skip : s->skip));
		snprintf(b, sizeof(b), "%s:%s%s", loadkeys_rw_name(s->kind), s->skip < 0 ? "-" : "",
			 sk);
		PUT_CHECK("rw", b);
	} else {
		PUT_CHECK("rw", loadkeys_rw_name(s->kind));
	}
	if (load_kind_mixed(s->kind)) {
		snprintf(b, sizeof(b), "%u", s->mix_read);
		PUT_CHECK("rwmixread", b);
	}
	if (s->dist != LOAD_DIST_RANDOM) {
		char d[160];
		loaddist_format(s, d, sizeof(d));
		PUT_CHECK("random_distribution", d);
	}
	int fsync_kind = s->kind == LOAD_FSYNC_WRITE || s->fsync_every;
	load_spec_parse(load_kind_name(s->kind == LOAD_SEQ_WRITE && fsync_kind ?
				       LOAD_FSYNC_WRITE : s->kind), &def, e, sizeof(e));
	if (s->n_bssplit) {
		char split[512];
		load_bssplit_format(s, split, sizeof(split));
		PUT_CHECK("bssplit", split);
	} else if (write_bs(f, s->bs_lo, s->bs_hi, err, errlen) < 0) {
		return -EINVAL;
	}
	if (s->engine == LOAD_ENGINE_IO_URING) {
		PUT_CHECK("ioengine", "io_uring");
		if (s->iodepth > 1) {
			snprintf(b, sizeof(b), "%u", s->iodepth);
			PUT_CHECK("iodepth", b);
		}
	}
	if (s->size || def.size) {
		parse_format_size(b, sizeof(b), s->size);
		PUT_CHECK("size", b);
	}
	if (s->total) {
		parse_format_size(b, sizeof(b), s->total);
		PUT_CHECK("io_size", b);
	}
	if (s->count != 1) {
		snprintf(b, sizeof(b), "%u", s->count);
		PUT_CHECK("numjobs", b);
	}
	if (s->rate) {
		parse_format_size(b, sizeof(b), s->rate);
		PUT_CHECK("rate", b);
	}
	if (s->poisson)
		PUT_CHECK("rate_poisson", "1");
	const struct { const char *k; unsigned v; } fl[] = {
		{ "flow", s->flow_weight }, { "flow_id", s->flow_id },
		{ "flow_sleep", s->flow_sleep_us },
	};
	for (size_t k = 0; k < 3; k++)
		if (fl[k].v) {
			snprintf(b, sizeof(b), "%u", fl[k].v);
			PUT_CHECK(fl[k].k, b);
		}
	if (write_load_pauses(f, s, err, errlen) < 0)
		return -EINVAL;
	if (s->dir[0])
		PUT_CHECK("directory", s->dir);
	return write_load_flags(f, l, err, errlen);
}

/* type, startdelay, interval, loops. */
static int write_action_head(FILE *f, const struct profile_action *a, size_t i, char *err,
			     size_t errlen)
{
	char b[64];
	if ((unsigned)a->kind >= ACTION_KIND_COUNT || !profile_name_ok(a->name, sizeof(a->name)))
		return msg_fail(-EINVAL, err, errlen, "action %zu: bad kind or name", i + 1);
	fprintf(f, "\n[action %s]\n", a->name);
	PUT_CHECK("type", loadkeys_type_name(a->kind));
	if (a->startdelay_ns) {
		if (fmt_duration(b, sizeof(b), a->startdelay_ns) < 0)
			return msg_fail(-EINVAL, err, errlen, "action %s: startdelay has sub-millisecond "
				    "precision", a->name);
		PUT_CHECK("startdelay", b);
	}
	if (a->interval_ns) {
		if (fmt_duration(b, sizeof(b), a->interval_ns) < 0)
			return msg_fail(-EINVAL, err, errlen, "action %s: interval has sub-millisecond "
				    "precision", a->name);
		PUT_CHECK("interval", b);
	}
	if (a->loops) {
		snprintf(b, sizeof(b), "%u", a->loops);
		PUT_CHECK("loops", b);
	}
	return 0;
}

static int write_action(FILE *f, const struct profile_action *a, size_t i, char *err,
			size_t errlen)
{
	char b[64];
	if (write_action_head(f, a, i, err, errlen) < 0)
		return -EINVAL;
	switch (a->kind) {
	case ACTION_EXEC:
		if (a->cmd[0])
			PUT_CHECK("cmd", a->cmd);
		break;
	case ACTION_LS:
		snprintf(b, sizeof(b), "%u", a->cfg.ls_files);
		PUT_CHECK("nrfiles", b);
		break;
	case ACTION_SSH:
		if (write_bs(f, a->cfg.ssh_bs_lo, a->cfg.ssh_bs_hi, err, errlen) < 0)
			return -EINVAL;
		parse_format_size(b, sizeof(b), a->cfg.ssh_region);
		PUT_CHECK("size", b);
		parse_format_size(b, sizeof(b), a->cfg.ssh_file);
		PUT_CHECK("filesize", b);
		break;
	case ACTION_SAVE:
		parse_format_size(b, sizeof(b), a->cfg.save_size);
		PUT_CHECK("size", b);
		break;
	case ACTION_KIND_COUNT:
		break;
	}
	return 0;
}

int profile_write(FILE *f, const struct profile *p, char *err, size_t errlen)
{
	if (write_head(f, p, err, errlen) < 0 || write_settings(f, p, err, errlen) < 0)
		return -EINVAL;
	for (size_t i = 0; i < p->n_loads; i++)
		if (write_load(f, &p->loads[i], i, err, errlen) < 0)
			return -EINVAL;
	for (size_t i = 0; i < p->n_actions; i++)
		if (write_action(f, &p->actions[i], i, err, errlen) < 0)
			return -EINVAL;
	if (ferror(f))
		return msg_fail(-EINVAL, err, errlen, "write error");
	return 0;
}
