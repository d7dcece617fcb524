#include "loadscope.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "msg.h"
#include "session.h"
#include "settings.h"
#include "stack.h"

int loadscope_key(const char *key)
{
	return strncmp(key, SETTINGS_LOAD_PREFIX, strlen(SETTINGS_LOAD_PREFIX)) == 0;
}

/* Add the leaf disks behind dir to names[] (no repeats): 0 or -errno. */
static int add_leaves(const char *dir, char names[][32], size_t *n, char *err, size_t errlen)
{
	struct stack *st = NULL;
	int rc = stack_resolve_path(dir, &st);
	if (rc < 0) {
		stack_free(st);
		return msg_fail(rc, err, errlen, "load dir=%s: cannot find its disks: %s", dir,
				strerror(-rc));
	}
	const struct blockdev *leaves[SETTINGS_MAX_DEVS];
	size_t nl = stack_leaves(st, leaves, SETTINGS_MAX_DEVS);
	for (size_t i = 0; i < nl && i < SETTINGS_MAX_DEVS; i++) {
		int seen = 0;
		for (size_t k = 0; k < *n && !seen; k++)
			seen = strcmp(names[k], leaves[i]->name) == 0;
		if (!seen && *n < SETTINGS_MAX_DEVS)
			snprintf(names[(*n)++], 32, "%s", leaves[i]->name);
	}
	stack_free(st);
	return 0;
}

int loadscope_init(const struct session_config *c, struct settings *st, struct settings *load,
		   char *err, size_t errlen)
{
	char names[SETTINGS_MAX_DEVS][32];
	const char *ptr[SETTINGS_MAX_DEVS];
	size_t n = 0;
	int any = 0;
	for (size_t i = 0; i < c->n_loads; i++) {
		if (!c->loads[i].dir[0])
			continue;
		any = 1;
		int rc = add_leaves(c->loads[i].dir, names, &n, err, errlen);
		if (rc < 0)
			return rc;
	}
	if (!any)
		return 0;
	for (size_t i = 0; i < n; i++)
		ptr[i] = names[i];
	char note[256];
	settings_init(load, st->kind, ptr, n, st->root, st->what, note, sizeof(note));
	settings_attach_load(st, load);
	return 1;
}
