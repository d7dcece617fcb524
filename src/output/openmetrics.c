/* openmetrics — the OpenMetrics text writer, and what the three outputs
 * share (openmetrics_priv.h).  See openmetrics.h. */
#include "openmetrics.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "fileio.h"
#include "machine.h"
#include "msg.h"
#include "openmetrics_priv.h"
#include "outfile.h"
#include "stats.h"
#include "text.h"

void openmetrics_init(struct openmetrics *om, FILE *f)
{
	memset(om, 0, sizeof(*om));
	om->f = f;
}

static int fail(struct openmetrics *om, int rc)
{
	if (!om->err)
		om->err = rc;
	return om->err;
}

static int name_char(char c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

int openmetrics_label_name_ok(const char *s)
{
	if (!s || !s[0] || (s[0] == '_' && s[1] == '_') || strlen(s) >= OPENMETRICS_NAME_MAX)
		return 0;
	for (const char *p = s; *p; p++)
		if (!name_char(*p, p == s))
			return 0;
	return strcmp(s, "quantile") != 0 && strcmp(s, "le") != 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

int openmetrics_name_ok(const char *s)
{
	static const char *const reserved[] = { "_total", "_created", "_count", "_sum", "_bucket",
						"_gcount", "_gsum" };
	if (!s || !s[0] || strlen(s) >= OPENMETRICS_NAME_MAX)
		return 0;
	for (const char *p = s; *p; p++)
		if (!name_char(*p, p == s))
			return 0;
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (ends_with(s, reserved[i]))
			return 0;
	return 1;
}

static int unit_ok(const char *name, const char *unit)
{
	if (!unit[0])
		return 0;
	for (const char *p = unit; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return 0;
	size_t n = strlen(name), k = strlen(unit);
	return n > k + 1 && name[n - k - 1] == '_' && strcmp(name + n - k, unit) == 0;
}

static int help_ok(const char *help)
{
	return help && help[0] && !strpbrk(help, "\\\"") && text_check(help, NULL) == 0;
}

int openmetrics_family(struct openmetrics *om, const char *name, const char *unit,
		       const char *help)
{
	if (om->err)
		return om->err;
	if (om->ended || !openmetrics_name_ok(name) || (unit && !unit_ok(name, unit)) ||
	    !help_ok(help) || om->n_families == OPENMETRICS_MAX_FAMILIES)
		return fail(om, -EINVAL);
	for (size_t i = 0; i < om->n_families; i++)
		if (strcmp(om->families[i], name) == 0)
			return fail(om, -EINVAL);
	memcpy(om->families[om->n_families++], name, strlen(name) + 1);
	om->in_family = 1;
	om->headed = 0;
	om->unit = unit;
	om->help = help;
	return 0;
}

/* The family's TYPE, UNIT and HELP lines, before its first sample. */
static void head(struct openmetrics *om)
{
	const char *name = om->families[om->n_families - 1];
	fprintf(om->f, "# TYPE %s gauge\n", name);
	if (om->unit)
		fprintf(om->f, "# UNIT %s %s\n", name, om->unit);
	fprintf(om->f, "# HELP %s %s\n", name, om->help);
	om->headed = 1;
}

void openmetrics_escape(FILE *f, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = s ? strlen(s) : 0, i = 0;
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		size_t k;
		if (c == '\\') {
			fputs("\\\\", f);
			k = 1;
		} else if (c == '"') {
			fputs("\\\"", f);
			k = 1;
		} else if (c == '\n') {
			fputs("\\n", f);
			k = 1;
		} else if ((k = text_char_len(s + i, n - i)) > 0) {
			fwrite(s + i, 1, k, f);
		} else {
			/* \xHH as the value reads: the backslash itself escaped */
			fputs("\\\\x", f);
			fputc(hex[c >> 4], f);
			fputc(hex[c & 15], f);
			k = 1;
		}
		i += k;
	}
}

static void put_value(FILE *f, double v)
{
	if (isinf(v)) {
		fputs(v > 0 ? "+Inf" : "-Inf", f);
		return;
	}
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		fprintf(f, "%.0f", v);
		return;
	}
	fprintf(f, "%.15g", v);
}

int openmetrics_sample(struct openmetrics *om, const struct openmetrics_label *labels, size_t n,
		       double v)
{
	if (om->err)
		return om->err;
	if (om->ended || !om->in_family || n > OPENMETRICS_MAX_LABELS)
		return fail(om, -EINVAL);
	for (size_t i = 0; i < n; i++) {
		if (!openmetrics_label_name_ok(labels[i].name))
			return fail(om, -EINVAL);
		for (size_t j = 0; j < i; j++)
			if (strcmp(labels[i].name, labels[j].name) == 0)
				return fail(om, -EINVAL);
	}
	if (isnan(v))
		return 0;
	if (!om->headed)
		head(om);
	fputs(om->families[om->n_families - 1], om->f);
	if (n) {
		fputc('{', om->f);
		for (size_t i = 0; i < n; i++) {
			fprintf(om->f, "%s%s=\"", i ? "," : "", labels[i].name);
			openmetrics_escape(om->f, labels[i].value);
			fputc('"', om->f);
		}
		fputc('}', om->f);
	}
	fputc(' ', om->f);
	put_value(om->f, v);
	fputc('\n', om->f);
	return 0;
}

int openmetrics_finish(struct openmetrics *om)
{
	if (!om->ended) {
		fputs("# EOF\n", om->f);
		om->ended = 1;
		om->in_family = 0;
	}
	if (!om->err && ferror(om->f))
		om->err = -EIO;
	return om->err;
}

/* ---- shared by the outputs (openmetrics_priv.h) ---- */

static int list_has(const char *list, const char *item)
{
	size_t k = strlen(item);
	for (const char *p = list; *p;) {
		const char *e = strchr(p, ',');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n == k && strncmp(p, item, k) == 0)
			return 1;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

void openmetrics_list_add(char *list, size_t len, const char *item)
{
	if (!item || !item[0] || list_has(list, item))
		return;
	size_t n = strlen(list), k = strlen(item);
	if (n + (n ? 1 : 0) + k + 1 > len)
		return;
	if (n)
		list[n++] = ',';
	memcpy(list + n, item, k + 1);
}

static void copy_str(char *dst, size_t len, struct json_object *o, const char *key)
{
	struct json_object *v;
	const char *s = json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
			? json_object_get_string(v) : "";
	snprintf(dst, len, "%s", s);
}

void openmetrics_where_get(struct openmetrics_where *w, const char *dir,
			   const struct machine_measured *measured, size_t n)
{
	memset(w, 0, sizeof(*w));
	struct json_object *m = machine_json(dir, measured, n), *disks;
	copy_str(w->hostname, sizeof(w->hostname), m, "hostname");
	copy_str(w->kernel, sizeof(w->kernel), m, "kernel");
	if (json_object_object_get_ex(m, "disks", &disks) &&
	    json_object_is_type(disks, json_type_array)) {
		size_t nd = json_object_array_length(disks);
		for (size_t i = 0; i < nd && w->n_disks < OPENMETRICS_MAX_DISKS; i++) {
			struct json_object *d = json_object_array_get_idx(disks, i);
			struct openmetrics_disk *x = &w->disks[w->n_disks++];
			copy_str(x->name, sizeof(x->name), d, "name");
			copy_str(x->model, sizeof(x->model), d, "model");
			copy_str(x->firmware, sizeof(x->firmware), d, "firmware");
			copy_str(x->cls, sizeof(x->cls), d, "class");
			copy_str(x->transport, sizeof(x->transport), d, "transport");
			copy_str(x->scheduler, sizeof(x->scheduler), d, "scheduler");
			openmetrics_list_add(w->devices, sizeof(w->devices), x->name);
			openmetrics_list_add(w->models, sizeof(w->models), x->model);
			openmetrics_list_add(w->schedulers, sizeof(w->schedulers), x->scheduler);
		}
	}
	json_object_put(m);
}

int openmetrics_info(struct openmetrics *om, const char *command, const char *dir,
		     const char *by, const struct openmetrics_where *w)
{
	openmetrics_family(om, "brisk_info", NULL,
			   "The brisk that wrote this file, where: 1 (command, dir or by, version, "
			   "kernel, hostname).");
	const struct openmetrics_label info[] = {
		{ "command", command }, { "dir", dir }, { "by", by }, { "version", BRISK_VERSION },
		{ "kernel", w->kernel }, { "hostname", w->hostname },
	};
	openmetrics_sample(om, info, sizeof(info) / sizeof(info[0]), 1);
	openmetrics_family(om, "brisk_disk_info", NULL,
			   "A leaf disk behind dir, as measured: 1 (model, firmware, class, transport, "
			   "scheduler).");
	for (size_t i = 0; i < w->n_disks; i++) {
		const struct openmetrics_disk *d = &w->disks[i];
		const struct openmetrics_label l[] = {
			{ "command", command }, { "dir", dir }, { "device", d->name },
			{ "model", d->model }, { "firmware", d->firmware }, { "class", d->cls },
			{ "transport", d->transport }, { "scheduler", d->scheduler },
		};
		openmetrics_sample(om, l, sizeof(l) / sizeof(l[0]), 1);
	}
	return om->err;
}

void openmetrics_dir(char *out, size_t len, const char *dir)
{
	fileio_abspath(out, len, dir, 1);
}

double openmetrics_realtime(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int openmetrics_write(const char *path, int (*fn)(struct openmetrics *om, const void *ctx),
		      const void *ctx, char *err, size_t errlen)
{
	struct outfile o;
	int rc = outfile_open(&o, path, err, errlen);
	if (rc < 0)
		return rc;
	struct openmetrics om;
	openmetrics_init(&om, o.f);
	rc = fn(&om, ctx);
	int frc = openmetrics_finish(&om);
	if (!rc && frc != -EIO)   /* a write error: outfile_close names it */
		rc = frc;
	int wrc = outfile_close(&o, rc == 0, 1, NULL, err, errlen);
	if (rc == -ENOMEM)
		return msg_fail(rc, err, errlen, "%s: out of memory", path);
	if (rc == -EINVAL)   /* a name or label of ours: a bug, said so */
		return msg_fail(rc, err, errlen, "%s: internal error: brisk made a metric the "
				"OpenMetrics writer refuses; nothing written", path);
	if (rc < 0)
		return msg_fail(rc, err, errlen, "cannot write %s: %s", path, strerror(-rc));
	return wrc;
}

void openmetrics_ci(struct openmetrics *om, struct openmetrics_label *l, size_t n,
		    const struct stats_ci *ci, double scale)
{
	static const char *const bounds[] = { "estimate", "lower", "upper" };
	const double v[] = { ci->est, ci->lo, ci->hi };
	for (size_t b = 0; b < 3; b++) {
		l[n] = (struct openmetrics_label){ "bound", bounds[b] };
		openmetrics_sample(om, l, n + 1, v[b] * scale);
	}
}
