#include "jout.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

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

struct json_object *jout_interval(double est, double lo, double hi)
{
	struct json_object *o = jout_object();
	json_object_object_add(o, "est", jout_finite(est));
	json_object_object_add(o, "lo", jout_finite(lo));
	json_object_object_add(o, "hi", jout_finite(hi));
	return o;
}

int jout_write(FILE *f, struct json_object *o, int flags)
{
	const char *text = json_object_to_json_string_ext(o, flags);
	int rc = 0;
	if (!text)
		rc = -ENOMEM;
	else if (fputs(text, f) == EOF || fputc('\n', f) == EOF)
		rc = -EIO;
	json_object_put(o);
	return rc;
}
