/* machine — the "machine" object every run and compare JSON carries: where
 * a result was measured (host, kernel, an app-specific machine id, the leaf
 * disks behind the directory).  brisk report reads it back (fleet.h). */
#ifndef BRISK_MACHINE_H
#define BRISK_MACHINE_H

#include <stddef.h>

struct json_object;

#define MACHINE_APP_ID "9ccc9b2e9b5241a99e87a03af009df9c"   /* machine_id hash key */
#define MACHINE_MAX_DISKS 8     /* per object (what brisk report reads) */

/* The scheduler a run measured a disk with (name, scheduler). */
struct machine_measured {
	const char *name, *scheduler;
};
/* { hostname, kernel, machine_id, disks: [{ name, class, model, vendor,
 * firmware, transport, rotational, scheduler }] } for the leaf disks behind
 * dir; a disk named in measured[] gets that scheduler, else the one read
 * now.  Never NULL (out of memory ends brisk, as jout does). */
struct json_object *machine_json(const char *dir, const struct machine_measured *measured,
				 size_t n);
/* Its "disks" array alone: the leaf disks behind dir (a load directory's). */
struct json_object *machine_disks_json(const char *dir, const struct machine_measured *measured,
				       size_t n);
/* This machine's id hashed with MACHINE_APP_ID (libsystemd's
 * sd_id128_get_machine_app_specific()): 32 hex digits; 0 or -errno. */
int machine_id(char out[33]);

#endif
