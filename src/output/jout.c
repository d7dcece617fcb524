#include "jout.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "msg.h"
#include "outfile.h"
#include "parse.h"
#include "tunable.h"

static struct json_object *need(struct json_object *o)
{
	if (!o) {
		fputs("brisk: out of memory while building JSON output\n", stderr);
		exit(1);
	}
	return o;
}

struct json_object *jout_object(void)
{
	return need(json_object_new_object());
}

struct json_object *jout_array(void)
{
	return need(json_object_new_array());
}

struct json_object *jout_string(const char *s)
{
	return need(json_object_new_string(s));
}

struct json_object *jout_int64(int64_t v)
{
	return need(json_object_new_int64(v));
}

struct json_object *jout_uint64(uint64_t v)
{
	return need(json_object_new_uint64(v));
}

struct json_object *jout_double(double v)
{
	return need(json_object_new_double(v));
}

struct json_object *jout_bool(int v)
{
	return need(json_object_new_boolean(v));
}

struct json_object *jout_finite(double v)
{
	return isfinite(v) ? jout_double(v) : NULL;
}

struct json_object *jout_ci(const struct stats_ci *ci)
{
	struct json_object *o = jout_object();
	json_object_object_add(o, "est", jout_finite(ci->est));
	json_object_object_add(o, "lo", jout_finite(ci->lo));
	json_object_object_add(o, "hi", jout_finite(ci->hi));
	return o;
}

struct json_object *jout_setting(const char *key, const char *sched, const char *value)
{
	if (!value)
		return NULL;
	struct tunable_key k;
	const struct tunable_def *d = NULL;
	if (key && tunable_parse_key(key, &k, NULL, 0) == 0) {
		if (k.kind == TUNABLE_SCHEDULER)
			return jout_string(value);
		d = tunable_key_def(&k, sched);
	}
	int64_t n;
	if ((!d || d->type != TUNABLE_TYPE_SCHED) &&
	    (value[0] == '-' || (value[0] >= '0' && value[0] <= '9')) &&
	    parse_int(value, INT64_MIN, INT64_MAX, &n) == 0)
		return jout_int64(n);
	return jout_string(value);
}

struct json_object *jout_path(const char *path, int resolve)
{
	char abs[PATH_MAX];
	fileio_abspath(abs, sizeof(abs), path, resolve);
	return jout_string(abs);
}

int jout_write(FILE *f, struct json_object *o, int flags)
{
	const char *text = json_object_to_json_string_ext(o, flags);
	int rc = 0;
	errno = 0;
	if (!text)
		rc = -ENOMEM;
	else if (fputs(text, f) == EOF || fputc('\n', f) == EOF)
		rc = errno ? -errno : -EIO;
	json_object_put(o);
	return rc;
}

int jout_save(const char *path, struct json_object *o, char *err, size_t errlen)
{
	struct outfile of;
	int rc = outfile_open(&of, path, err, errlen);
	if (rc < 0) {
		json_object_put(o);
		return rc;
	}
	rc = jout_write(of.f, o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	const char *name = strcmp(path, "-") == 0 ? "standard output" : path;
	if (rc == -ENOMEM)
		msg_set(err, errlen, "%s: out of memory while writing JSON", name);
	else if (rc < 0)
		msg_set(err, errlen, "cannot write %s: %s", name, strerror(-rc));
	int wrc = outfile_close(&of, rc == 0, 1, NULL, err, errlen);
	return rc < 0 ? rc : wrc;
}
