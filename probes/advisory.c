#include "advisory.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ini.h>

struct load_ctx {
	struct advisory_db *db;
	int err;
	char msg[160];
};

static int set_field(char *dst, size_t len, const char *v)
{
	size_t n = strlen(v);
	if (n >= len)
		return -1;
	memcpy(dst, v, n + 1);
	return 0;
}

/* A finished section must have the three required keys. */
static int check_last(struct load_ctx *c)
{
	if (!c->db->n || c->err)
		return 0;
	const struct advisory *a = &c->db->v[c->db->n - 1];
	const char *miss = !a->models[0] ? "models" : !a->firmware[0] ? "firmware" :
			   !a->problem[0] ? "problem" : NULL;
	if (!miss)
		return 0;
	c->err = -EINVAL;
	snprintf(c->msg, sizeof(c->msg), "0: section [%s] has no '%s ='", a->id, miss);
	return -1;
}

/* inih's handler: 1 to go on, 0 marks this line as the error line. */
static int on_entry(void *user, const char *section, const char *name,
		    const char *value)
{
	struct load_ctx *c = user;
	struct advisory_db *db = c->db;
	if (c->err)
		return 1;
	if (!db->n || strcmp(db->v[db->n - 1].id, section) != 0) {
		if (check_last(c) < 0)
			return 1;
		struct advisory *nv = realloc(db->v, (db->n + 1) * sizeof(*nv));
		if (!nv) {
			c->err = -ENOMEM;
			return 1;
		}
		db->v = nv;
		memset(&db->v[db->n], 0, sizeof(db->v[0]));
		if (!*section || set_field(db->v[db->n].id, sizeof(db->v[0].id), section) < 0) {
			snprintf(c->msg, sizeof(c->msg), "key '%s' outside a [section] or section name too long", name);
			return 0;
		}
		db->n++;
	}
	struct advisory *a = &db->v[db->n - 1];
	int r;
	if (strcmp(name, "models") == 0)
		r = set_field(a->models, sizeof(a->models), value);
	else if (strcmp(name, "firmware") == 0)
		r = set_field(a->firmware, sizeof(a->firmware), value);
	else if (strcmp(name, "problem") == 0)
		r = set_field(a->problem, sizeof(a->problem), value);
	else if (strcmp(name, "fixed_in") == 0)
		r = set_field(a->fixed_in, sizeof(a->fixed_in), value);
	else if (strcmp(name, "source") == 0)
		r = set_field(a->source, sizeof(a->source), value);
	else {
		snprintf(c->msg, sizeof(c->msg),
			 "unknown key '%s' (expected models, firmware, problem, fixed_in, source)", name);
		return 0;
	}
	if (r < 0) {
		snprintf(c->msg, sizeof(c->msg), "value of '%s' is too long", name);
		return 0;
	}
	return 1;
}

int advisory_load(const char *path, struct advisory_db *db, char *err, size_t errlen)
{
	db->v = NULL;
	db->n = 0;
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	struct load_ctx c = { .db = db };
	int r = ini_parse_file(f, on_entry, &c);
	fclose(f);
	if (r > 0) {
		if (err)
			snprintf(err, errlen, "%d: %s", r, c.msg[0] ? c.msg : "syntax error (expected [section] or key = value)");
		advisory_free(db);
		return -EINVAL;
	}
	if (r == 0)
		check_last(&c);
	if (r < 0 || c.err) {
		if (err && c.err == -EINVAL)
			snprintf(err, errlen, "%s", c.msg);
		advisory_free(db);
		return c.err ? c.err : -EIO;
	}
	return 0;
}

int advisory_glob_any(const char *globs, const char *word)
{
	char g[128];
	const char *p = globs;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		size_t n = strcspn(p, " \t");
		if (n == 0)
			break;
		if (n < sizeof(g)) {
			memcpy(g, p, n);
			g[n] = '\0';
			if (fnmatch(g, word, 0) == 0)
				return 1;
		}
		p += n;
	}
	return 0;
}

const struct advisory *advisory_match(const struct advisory_db *db,
				      const char *model, const char *firmware)
{
	if (!db || !model || !*model || !firmware || !*firmware)
		return NULL;
	for (size_t i = 0; i < db->n; i++)
		if (advisory_glob_any(db->v[i].models, model) &&
		    advisory_glob_any(db->v[i].firmware, firmware))
			return &db->v[i];
	return NULL;
}

void advisory_free(struct advisory_db *db)
{
	free(db->v);
	db->v = NULL;
	db->n = 0;
}
