/* machine — the "machine" object of a result file: where it was
 * measured.  Contract in machine.h. */
#include "machine.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <json-c/json.h>
#include <systemd/sd-id128.h>

#include "blockdev.h"
#include "devclass.h"
#include "jout.h"
#include "lab.h"
#include "stack.h"

/* ---- the machine id ---- */

int machine_id(char out[33])
{
	sd_id128_t app, id;
	out[0] = '\0';
	int rc = sd_id128_from_string(MACHINE_APP_ID, &app);
	if (rc == 0)
		rc = sd_id128_get_machine_app_specific(app, &id);
	if (rc < 0)
		return rc;
	sd_id128_to_string(id, out);
	return 0;
}

/* ---- the object ---- */

static void add(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

/* /etc/machine-id, hashed; NULL when it cannot be read. */
static struct json_object *machine_id_json(void)
{
	char id[33];
	if (machine_id(id) < 0)
		return NULL;
	return jout_string(id);
}

static struct json_object *disk_json(const struct blockdev *b, const struct machine_measured *m,
				     size_t n)
{
	struct json_object *o = jout_object();
	char model[160], cls[LABMODEL_CLASS_MAX];
	lab_disk_model(b, model, sizeof(model), cls, sizeof(cls));
	const char *sched = b->queue.scheduler;
	for (size_t i = 0; i < n; i++)
		if (m[i].name && m[i].scheduler && m[i].scheduler[0] && strcmp(m[i].name, b->name) == 0)
			sched = m[i].scheduler;
	add(o, "name", jout_string(b->name));
	add(o, "class", jout_string(cls[0] ? cls : devclass_name(b)));
	add(o, "model", jout_string(model));
	add(o, "vendor", jout_string(b->vendor));
	add(o, "firmware", jout_string(b->firmware));
	add(o, "transport", jout_string(b->transport));
	add(o, "rotational", b->rotational < 0 ? NULL : jout_bool(b->rotational));
	add(o, "scheduler", sched[0] ? jout_string(sched) : NULL);
	return o;
}

struct json_object *machine_json(const char *dir, const struct machine_measured *measured,
				       size_t n)
{
	struct json_object *o = jout_object();
	struct utsname u;
	int un = uname(&u) == 0;
	add(o, "hostname", un ? jout_string(u.nodename) : NULL);
	add(o, "kernel", un ? jout_string(u.release) : NULL);
	add(o, "machine_id", machine_id_json());
	add(o, "disks", machine_disks_json(dir, measured, n));
	return o;
}

struct json_object *machine_disks_json(const char *dir, const struct machine_measured *measured,
				       size_t n)
{
	struct json_object *disks = jout_array();
	struct stack *st = NULL;
	if (dir && stack_resolve_path(dir, &st) == 0 && st) {
		const struct blockdev *leaves[MACHINE_MAX_DISKS];
		size_t nl = stack_leaves(st, leaves, MACHINE_MAX_DISKS);
		for (size_t i = 0; i < nl && i < MACHINE_MAX_DISKS; i++)
			json_object_array_add(disks, disk_json(leaves[i], measured, n));
	}
	stack_free(st);
	return disks;
}
