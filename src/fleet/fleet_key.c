/* fleet_key — which machine and which group a result belongs to, and
 * the names of the groupings and phases.  Contract in fleet.h and
 * fleet_priv.h. */
#include "fleet.h"
#include "fleet_priv.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const by_names[] = { "class", "model", "model,firmware", "machine",
					"kernel" };

const char *fleet_by_name(enum fleet_by by)
{
	return (unsigned)by < sizeof(by_names) / sizeof(by_names[0]) ? by_names[by] : "?";
}

int fleet_by_parse(const char *s, enum fleet_by *out)
{
	for (size_t i = 0; i < sizeof(by_names) / sizeof(by_names[0]); i++)
		if (strcmp(s, by_names[i]) == 0) {
			*out = (enum fleet_by)i;
			return 0;
		}
	if (strcmp(s, "firmware,model") == 0) {
		*out = FLEET_BY_MODEL_FW;
		return 0;
	}
	return -EINVAL;
}

const char *fleet_phase_name(enum fleet_phase p)
{
	return p == FLEET_LOADED ? "loaded" : p == FLEET_IDLE ? "idle" : "?";
}

void fleet_machine_key(const struct fleet_result *r, char *key, size_t klen, char *name,
		       size_t nlen)
{
	const struct fleet_machine *m = &r->m;
	if (r->host[0]) {   /* fleet_identify: the host folder */
		if (r->host_id[0])
			snprintf(key, klen, "id:%s", r->host_id);
		else
			snprintf(key, klen, "folder:%s", r->host);
		snprintf(name, nlen, "%.120s", r->host);
	} else if (m->machine_id[0]) {
		snprintf(key, klen, "id:%s", m->machine_id);
		snprintf(name, nlen, "%s", m->hostname[0] ? m->hostname : m->machine_id);
	} else if (m->hostname[0]) {
		snprintf(key, klen, "host:%s", m->hostname);
		snprintf(name, nlen, "%s", m->hostname);
	} else {
		size_t pl = strlen(r->path);
		snprintf(key, klen, "file:%.*s", (int)(klen > 6 ? klen - 6 : 0), r->path);
		/* the end of the path: the file name matters most */
		const char *tail = pl + 1 > nlen ? r->path + pl - (nlen - 1) : r->path;
		snprintf(name, nlen, "%.*s", (int)(nlen - 1), tail);
	}
}

/* One string of every disk, the same for all ("" when none; "mixed"). */
static void disks_same(const struct fleet_machine *m, size_t off, char *out, size_t len)
{
	const char *s = NULL;
	int mixed = 0;
	for (size_t i = 0; i < m->n_disks; i++) {
		const char *v = (const char *)&m->disks[i] + off;
		if (s && strcmp(s, v) != 0)
			mixed = 1;
		if (!s)
			s = v;
	}
	snprintf(out, len, "%s", mixed ? "mixed" : s ? s : "");
}

void fleet_group_key(const struct fleet_result *r, enum fleet_by by, char *key, size_t len)
{
	const struct fleet_machine *m = &r->m;
	char a[FLEET_STR], b[FLEET_STR], name[FLEET_STR];
	switch (by) {
	case FLEET_BY_CLASS:
		disks_same(m, offsetof(struct fleet_disk, cls), a, sizeof(a));
		snprintf(key, len, "%s", a[0] ? a : "unknown");
		return;
	case FLEET_BY_MODEL:
		disks_same(m, offsetof(struct fleet_disk, model), a, sizeof(a));
		snprintf(key, len, "%s", a[0] ? a : "unknown model");
		return;
	case FLEET_BY_MODEL_FW:
		disks_same(m, offsetof(struct fleet_disk, model), a, sizeof(a));
		disks_same(m, offsetof(struct fleet_disk, firmware), b, sizeof(b));
		if (strcmp(a, "mixed") == 0)
			snprintf(key, len, "mixed");
		else
			snprintf(key, len, "%s fw %s", a[0] ? a : "unknown model",
				 b[0] ? b : "unknown");
		return;
	case FLEET_BY_MACHINE:
		fleet_machine_key(r, a, sizeof(a), name, sizeof(name));
		snprintf(key, len, "%s", name);
		return;
	case FLEET_BY_KERNEL:
		snprintf(key, len, "%s", m->kernel[0] ? m->kernel : "unknown kernel");
		return;
	}
	snprintf(key, len, "?");
}
