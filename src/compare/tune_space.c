#include "tune_space.h"

#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "msg.h"
#include "text.h"

const char tune_space_default_text[] =
	"# brisk tune's desktop space: every scheduler the disks offer, with and\n"
	"# without writeback throttling and a small dirty limit, and one main\n"
	"# tunable of each scheduler that has one\n"
	"[space]\n"
	"scheduler = offered\n"
	"wbt_lat_usec = keep, 0\n"
	"vm.dirty_bytes = keep, 64m\n"
	"[bfq]\n"
	"low_latency = keep, 0\n"
	"[kyber]\n"
	"read_lat_nsec = keep, 500000\n"
	"[mq-deadline]\n"
	"read_expire = keep, 100\n";

/* The parser's state: inih calls the reader once per line, so the
 * reader's count is the line of the key the handler sees. */
struct pstate {
	struct tune_space *sp;
	const char *text;     /* what is left to read */
	int line;
	int err_line;         /* the line err is about */
	char err[300];
};

static int perr(struct pstate *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int perr(struct pstate *p, const char *fmt, ...)
{
	if (p->err_line)
		return 0;   /* the first one is said */
	p->err_line = p->line;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err, sizeof(p->err), fmt, ap);
	va_end(ap);
	return 0;
}

static char *reader(char *str, int num, void *stream)
{
	struct pstate *p = stream;
	if (!*p->text || num < 2)
		return NULL;
	const char *nl = strchr(p->text, '\n');
	size_t len = nl ? (size_t)(nl - p->text) + 1 : strlen(p->text);
	if (len > (size_t)num - 1)
		len = (size_t)num - 1;   /* inih reads the rest as the next "line" */
	memcpy(str, p->text, len);
	str[len] = '\0';
	p->text += len;
	if (len && str[len - 1] == '\n')
		p->line++;
	return str;
}

/* The comma-separated words of value into out[]; their count or -1. */
static int words(const char *value, char *out, size_t stride, size_t max)
{
	size_t n = 0;
	const char *s = value;
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		size_t l = strcspn(s, ",");
		size_t e = l;
		while (e && (s[e - 1] == ' ' || s[e - 1] == '\t'))
			e--;
		if (!e || e >= stride || n == max)
			return -1;
		memcpy(out + n * stride, s, e);
		out[n++ * stride + e] = '\0';
		s += l;
		if (*s == ',' && !*++s)
			return -1;   /* a trailing comma */
	}
	return (int)n;
}

static int on_scheduler(struct pstate *p, const char *value)
{
	struct tune_space *sp = p->sp;
	if (sp->sched_line)
		return perr(p, "scheduler given twice (first on line %d)", sp->sched_line);
	sp->sched_line = p->line;
	if (!strcmp(value, "offered")) {
		sp->offered = 1;
		return 1;
	}
	int n = words(value, sp->scheds[0], sizeof(sp->scheds[0]), TUNE_MAX_SCHEDS);
	if (n <= 0)
		return perr(p, "scheduler: 'offered' or up to %d names separated by commas",
			    TUNE_MAX_SCHEDS);
	sp->n_scheds = (size_t)n;
	for (size_t i = 0; i < sp->n_scheds; i++) {
		struct tunable_key k;
		char canon[TUNABLE_VALUE_LEN], why[TUNABLE_WHY_LEN];
		if (tunable_parse_key("scheduler", &k, why, sizeof(why)) < 0 ||
		    tunable_check_value(&k, NULL, sp->scheds[i], canon, sizeof(canon), why,
					sizeof(why)) < 0)
			return perr(p, "scheduler '%s': %s", sp->scheds[i], why);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(sp->scheds[i], sp->scheds[j]))
				return perr(p, "scheduler %s given twice", sp->scheds[i]);
	}
	return 1;
}

static int handler(void *user, const char *section, const char *name, const char *value)
{
	struct pstate *p = user;
	struct tune_space *sp = p->sp;
	int global = !strcmp(section, "space");
	const struct tunable_def *d = tunable_def_find(name);
	struct tunable_key k;
	char why[TUNABLE_WHY_LEN], canon[TUNABLE_VALUE_LEN];
	if (text_check(section, NULL) < 0 || text_check(name, NULL) < 0 ||
	    text_check(value, NULL) < 0)
		return perr(p, "control bytes or invalid UTF-8");
	if (!section[0])
		return perr(p, "%s outside a section: keys go under [space] or [SCHEDULER]", name);
	if (!global && (tunable_parse_key("scheduler", &k, why, sizeof(why)) < 0 ||
			tunable_check_value(&k, NULL, section, canon, sizeof(canon), why,
					    sizeof(why)) < 0))
		return perr(p, "[%.40s]: a section is [space] or a scheduler's name", section);
	if (global && !strcmp(name, "scheduler"))
		return on_scheduler(p, value);
	if (!d || d->kind == TUNABLE_SCHEDULER)
		return perr(p, "unknown key '%.60s' (brisk set --list-keys shows them)", name);
	if (global && d->kind == TUNABLE_IOSCHED)
		return perr(p, "%s is %s's: put it under [%s]", name, d->sched, d->sched);
	if (!global && d->kind != TUNABLE_IOSCHED)
		return perr(p, "[%.40s]: %s is not a scheduler's tunable: put it under [space]",
			    section, name);
	if (!global && strcmp(d->sched, section))
		return perr(p, "[%.40s]: %s is %s's, not %.40s's", section, name, d->sched,
			    section);
	for (size_t i = 0; i < sp->n_f; i++)
		if (!strcmp(sp->f[i].key, name) && !strcmp(sp->f[i].sched, global ? "" : section))
			return perr(p, "%s given twice (first on line %d; levels go on one line, "
				    "separated by commas)", name, sp->f[i].line);
	if (sp->n_f == TUNE_MAX_FACTORS)
		return perr(p, "more than %d keys", TUNE_MAX_FACTORS);
	struct tune_factor *f = &sp->f[sp->n_f];
	memset(f, 0, sizeof(*f));
	snprintf(f->key, sizeof(f->key), "%s", name);
	snprintf(f->sched, sizeof(f->sched), "%s", global ? "" : section);
	f->line = p->line;
	int n = words(value, f->levels[0], sizeof(f->levels[0]), TUNE_MAX_LEVELS);
	if (n < 2)
		return perr(p, "%s: two to %d levels separated by commas ('%s' leaves the value "
			    "in place)", name, TUNE_MAX_LEVELS, TUNE_KEEP);
	f->n_levels = (size_t)n;
	char full[TUNABLE_NAME_LEN + 8];
	snprintf(full, sizeof(full), "%s%s", d->kind == TUNABLE_IOSCHED ? "iosched/" : "", name);
	if (tunable_parse_key(full, &k, why, sizeof(why)) < 0)
		return perr(p, "%s: %s", name, why);
	for (size_t i = 0; i < f->n_levels; i++) {
		if (strcmp(f->levels[i], TUNE_KEEP)) {
			if (tunable_check_value(&k, d->sched, f->levels[i], canon, sizeof(canon), why,
						sizeof(why)) < 0)
				return perr(p, "%s = %s: %s", name, f->levels[i], why);
			snprintf(f->levels[i], sizeof(f->levels[i]), "%s", canon);
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(f->levels[i], f->levels[j]))
				return perr(p, "%s: level %s given twice", name, f->levels[i]);
	}
	sp->n_f++;
	return 1;
}

int tune_space_parse(const char *text, const char *source, struct tune_space *sp, char *err,
		     size_t errlen)
{
	memset(sp, 0, sizeof(*sp));
	snprintf(sp->source, sizeof(sp->source), "%s", source);
	struct pstate p = { .sp = sp, .text = text };
	int line = ini_parse_stream(reader, &p, handler, &p);
	if (line) {
		return msg_fail(-EINVAL, err, errlen, "%s:%d: %s", source, line,
				p.err[0] && p.err_line == line ? p.err :
				"not INI: a [section] or key = value expected");
	}
	if (!sp->sched_line && !sp->n_f)
		return msg_fail(-EINVAL, err, errlen, "%s: no keys: [space] wants scheduler = "
				"... and keys with levels", source);
	if (!sp->sched_line)
		sp->offered = 1;   /* every scheduler the disks offer */
	return 0;
}

int tune_space_load(const char *path, struct tune_space *sp, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return msg_fail(-errno, err, errlen, "--space %s: %s%s", path, strerror(errno),
				errno == ELOOP ? " (a symbolic link: give the file it points to)" : "");
	struct stat st;
	char *buf = NULL;
	int rc = 0;
	if (fstat(fd, &st) < 0)
		rc = msg_fail(-errno, err, errlen, "--space %s: %s", path, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		rc = msg_fail(-EINVAL, err, errlen, "--space %s: not a regular file", path);
	else if (st.st_size > TUNE_SPACE_MAX_BYTES)
		rc = msg_fail(-EINVAL, err, errlen, "--space %s: larger than %d bytes", path,
			      TUNE_SPACE_MAX_BYTES);
	else if (!(buf = calloc(1, (size_t)st.st_size + 1)))
		rc = -ENOMEM;
	ssize_t got = rc ? 0 : read(fd, buf, (size_t)st.st_size);
	if (!rc && got != st.st_size)
		rc = msg_fail(-EIO, err, errlen, "--space %s: short read", path);
	close(fd);
	if (!rc && memchr(buf, '\0', (size_t)st.st_size))
		rc = msg_fail(-EINVAL, err, errlen, "%s: holds a NUL byte: not a space file", path);
	if (!rc)
		rc = tune_space_parse(buf, path, sp, err, errlen);
	free(buf);
	return rc;
}

/* ---- the arms ---- */

/* A short word for a key in labels: its last part's first word
 * ("wbt_lat_usec" -> "wbt", "vm.dirty_bytes" -> "dirty"). */
static void key_word(const char *key, char *out, size_t len)
{
	const char *dot = strrchr(key, '.');
	const char *s = dot ? dot + 1 : key;
	snprintf(out, len, "%.*s", (int)strcspn(s, "_"), s);
}

static void note(struct tune_space *sp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct tune_space *sp, const char *fmt, ...)
{
	if (sp->n_notes == sizeof(sp->notes) / sizeof(sp->notes[0]))
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(sp->notes[sp->n_notes++], sizeof(sp->notes[0]), fmt, ap);
	va_end(ap);
}

/* The schedulers of the space the disks offer, into list (strict: each
 * one named must be offered).  Their count, or -EINVAL. */
static int schedulers(struct tune_space *sp, const struct settings *st, int strict,
		      char list[][TUNABLE_SCHED_LEN], char *err, size_t errlen)
{
	char offered[256], padded[260], word[TUNABLE_SCHED_LEN + 2];
	settings_schedulers(st, offered, sizeof(offered));
	size_t n = 0;
	if (sp->offered) {
		char *save = NULL;
		for (char *t = strtok_r(offered, " ", &save); t && n < TUNE_MAX_SCHEDS;
		     t = strtok_r(NULL, " ", &save))
			snprintf(list[n++], TUNABLE_SCHED_LEN, "%s", t);
		return (int)n;
	}
	snprintf(padded, sizeof(padded), " %s ", offered);
	for (size_t i = 0; i < sp->n_scheds; i++) {
		snprintf(word, sizeof(word), " %s ", sp->scheds[i]);
		if (strstr(padded, word))
			snprintf(list[n++], TUNABLE_SCHED_LEN, "%s", sp->scheds[i]);
		else if (strict)
			return msg_fail(-EINVAL, err, errlen, "%s:%d: the disks do not offer %s (they "
					"offer: %s)", sp->source,
					sp->sched_line, sp->scheds[i], offered);
		else
			note(sp, "the disks do not offer %s", sp->scheds[i]);
	}
	return (int)n;
}

/* Is factor f's level lv taken on the disks with scheduler sched?  A
 * one-setting arm checked as compare would check it. */
static int level_ok(const struct tune_factor *f, size_t lv, const char *sched,
		    const struct settings *st, char *why, size_t whylen)
{
	if (!strcmp(f->levels[lv], TUNE_KEEP))
		return 0;
	char text[TUNABLE_SCHED_LEN + TUNABLE_NAME_LEN + TUNABLE_VALUE_LEN + 16];
	struct compare_arm a;
	snprintf(text, sizeof(text), "scheduler=%.31s,%s=%s", sched, f->key, f->levels[lv]);
	int rc = compare_arm_parse(text, st, &a, why, whylen);
	compare_arm_free(&a);
	return rc;
}

/* Factor f's levels on the disks (each scheduler it goes with); strict:
 * an error naming its line, else the factor is left out (-1). */
static int factor_check(struct tune_space *sp, size_t i, const struct settings *st, int strict,
			char list[][TUNABLE_SCHED_LEN], size_t ns, char *err, size_t errlen)
{
	const struct tune_factor *f = &sp->f[i];
	for (size_t s = 0; s < ns; s++) {
		if (f->sched[0] && strcmp(f->sched, list[s]))
			continue;
		for (size_t lv = 0; lv < f->n_levels; lv++) {
			char why[300];
			int rc = level_ok(f, lv, list[s], st, why, sizeof(why));
			if (rc == -ENOMEM)
				return rc;
			if (rc == 0)
				continue;
			if (!strict) {
				note(sp, "left out %s (%.150s)", f->key, why);
				return -1;
			}
			return msg_fail(-EINVAL, err, errlen, "%s:%d: %s = %s with scheduler %s on "
					"these disks: %s", sp->source,
					f->line, f->key, f->levels[lv],
					list[s], why);
		}
	}
	return 0;
}

void tune_space_shown(const char *key, const char *value, char *out, size_t len)
{
	const struct tunable_def *d = tunable_def_find(key);
	unsigned long long b = strtoull(value, NULL, 10);
	if (d && d->type == TUNABLE_TYPE_BYTES && b && b % (1ull << 20) == 0)
		snprintf(out, len, "%llum", b >> 20);
	else
		snprintf(out, len, "%s", value);
}

/* Arm text and label of scheduler sched at the levels of pt. */
static void arm_text(const struct tune_space *sp, const struct tune_point *pt, char *text,
		     size_t tlen, char *label, size_t llen)
{
	size_t t = (size_t)snprintf(text, tlen, "scheduler=%s", pt->sched);
	size_t l = (size_t)snprintf(label, llen, "%s", strcmp(pt->sched, "mq-deadline") ?
				    pt->sched : "mq-dl");
	for (size_t i = 0; i < sp->n_f; i++) {
		if (pt->level[i] < 0 || !strcmp(sp->f[i].levels[pt->level[i]], TUNE_KEEP))
			continue;
		const char *v = sp->f[i].levels[pt->level[i]];
		char w[TUNABLE_NAME_LEN];
		key_word(sp->f[i].key, w, sizeof(w));
		if (t < tlen)
			t += (size_t)snprintf(text + t, tlen - t, ",%s=%s", sp->f[i].key, v);
		char shown[TUNABLE_VALUE_LEN];
		tune_space_shown(sp->f[i].key, v, shown, sizeof(shown));
		if (l < llen)
			l += (size_t)snprintf(label + l, llen - l, " %s=%s", w, shown);
	}
}

int tune_space_arms(struct tune_space *sp, const struct settings *st, int strict,
		    struct compare_arm *arms, struct tune_point *points, size_t max, size_t *n,
		    char *err, size_t errlen)
{
	char list[TUNE_MAX_SCHEDS][TUNABLE_SCHED_LEN];
	int on[TUNE_MAX_FACTORS];
	*n = 0;
	sp->n_notes = 0;
	int ns = schedulers(sp, st, strict, list, err, errlen);
	if (ns < 0)
		return ns;
	if (ns == 0)
		return msg_fail(-EINVAL, err, errlen, "%s: the disks offer none of its schedulers",
				sp->source);
	for (size_t i = 0; i < sp->n_f; i++) {
		int rc = factor_check(sp, i, st, strict, list, (size_t)ns, err, errlen);
		if (rc < -1)
			return rc;
		on[i] = rc == 0;
	}
	/* count first: every scheduler times its factors' levels */
	size_t total = 1;
	for (int s = 0; s < ns; s++) {
		size_t k = 1;
		for (size_t i = 0; i < sp->n_f; i++)
			if (on[i] && (!sp->f[i].sched[0] || !strcmp(sp->f[i].sched, list[s])))
				k *= sp->f[i].n_levels;
		total += k;
		if (total > max)
			break;
	}
	if (total > max)
		return msg_fail(-EINVAL, err, errlen, "%s: more than %zu arms (every scheduler "
				"times its keys' levels, and current): take fewer levels or keys",
				sp->source, max);
	int rc = compare_arm_parse("current", st, &arms[0], err, errlen);
	if (rc < 0)
		return rc;
	memset(&points[0], 0, sizeof(points[0]));
	memset(points[0].level, -1, sizeof(points[0].level));
	size_t k = 1;
	for (int s = 0; s < ns; s++) {
		signed char lv[TUNE_MAX_FACTORS];
		for (size_t i = 0; i < TUNE_MAX_FACTORS; i++)
			lv[i] = (signed char)(i < sp->n_f && on[i] && (!sp->f[i].sched[0] ||
					      !strcmp(sp->f[i].sched, list[s])) ? 0 : -1);
		for (;;) {   /* every combination: an odometer over the factors */
			struct tune_point *pt = &points[k];
			snprintf(pt->sched, sizeof(pt->sched), "%.*s", (int)sizeof(pt->sched) - 1, list[s]);
			memcpy(pt->level, lv, sizeof(pt->level));
			char text[sizeof(arms[0].name)], label[sizeof(arms[0].label)];
			arm_text(sp, pt, text, sizeof(text), label, sizeof(label));
			rc = compare_arm_parse(text, st, &arms[k], err, errlen);
			if (rc < 0) {
				*n = k;
				return rc;
			}
			snprintf(arms[k].label, sizeof(arms[k].label), "%s", label);
			k++;
			size_t i = 0;
			for (; i < sp->n_f; i++) {
				if (lv[i] < 0)
					continue;
				if ((size_t)++lv[i] < sp->f[i].n_levels)
					break;
				lv[i] = 0;
			}
			if (i == sp->n_f)
				break;
		}
	}
	*n = k;
	return 0;
}
