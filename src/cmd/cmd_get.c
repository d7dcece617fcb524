#include "cmd_get.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "cliopt.h"
#include "cmd_set.h"
#include "jout.h"
#include "text.h"
#include "tunable.h"

/* ----------------------------------------------------------------- get */

/* The command line. */
struct get_args {
	struct cmd_set_only only;
	int json;
};

static const struct optab get_options[] = {
	CMD_SET_DEVICE(offsetof(struct get_args, only)),
	CLIOPT_JSON_FLAG("print JSON: the same keys per disk under\n"
			 "devices[].settings and sysctls under sysctl;\n"
			 "numbers as numbers, the scheduler as a string\n"
			 "(the offered list in devices[].schedulers), a\n"
			 "missing attribute as null (see brisk-set(1))",
			 offsetof(struct get_args, json)),
	OPTAB_HELP,
	OPTAB_END,
};

static const struct optab_text get_usage_text = {
	"usage: brisk get [-d DEVICE]... [--json] (DIR|DEVICE) [KEY...]\n"
	"\n"
	"Print the current value of KEY (default: every key brisk can set) on\n"
	"every disk behind DIR or on DEVICE, one 'DEVICE KEY=VALUE' line each;\n"
	"sysctls print as 'vm.NAME=VALUE'.  Works without root.\n"
	"\n",
	20,
	""
};

/* Where values go: 'DEVICE KEY=VALUE' lines, or the JSON document. */
struct get_out {
	struct json_object *root;      /* NULL: text */
	struct json_object *sysctl;    /* { "vm.NAME": VALUE } */
	struct json_object **settings; /* per target disk: { KEY: VALUE } */
};

static void get_put(struct get_out *o, size_t d, const struct tunable_key *key,
		    struct json_object *v)
{
	if (tunable_is_sysctl(key))
		json_object_object_add(o->sysctl, key->name, v);
	else
		json_object_object_add(o->settings[d], key->name, v);
}

/* KEY on target d (DEV): printed, or put into the JSON (null when it
 * cannot be read, which is also said on stderr).  0, or the exit status. */
static int get_one(struct get_out *o, size_t d, const char *dev,
		   const struct tunable_key *key, int quiet_missing)
{
	char val[TUNABLE_VALUE_LEN * 2];
	int rc = tunable_read(dev, key, val, sizeof(val));
	if (rc == 0 || rc == -EOVERFLOW) {
		if (o->root)   /* a cut-off value is not the number it seems */
			get_put(o, d, key, rc ? jout_string(val) : jout_setting(key->name, NULL, val));
		else if (tunable_is_sysctl(key))
			printf("%s=%s\n", key->name, text_show(val));
		else
			printf("%s %s=%s\n", dev, key->name, text_show(val));
		return 0;
	}
	if (rc == -ENOENT && quiet_missing)
		return 0;
	if (o->root)
		get_put(o, d, key, NULL);
	if (rc == -ENOENT) {
		char why[TUNABLE_WHY_LEN] = "";
		if (key->kind == TUNABLE_IOSCHED) {
			char c[TUNABLE_VALUE_LEN];
			tunable_check(dev, key, "0", NULL, c, sizeof(c), why, sizeof(why));
		}
		fprintf(stderr, "brisk get: %s: %s\n", dev, why[0] ? why :
			"no such attribute on this device");
		return EXIT_USAGE;
	}
	fprintf(stderr, "brisk get: %s %s: %s\n", dev ? dev : "", key->name, strerror(-rc));
	return EXIT_FAILED;
}

#define GET_FORMAT_VERSION 1   /* brisk-get.schema.json */

/* The JSON skeleton: { format_version, kind, brisk_version, brisk, query,
 * devices: [{ name, schedulers, settings }], sysctl }; 0, or 1 (out of
 * memory, said). */
static int get_json_open(struct get_out *o, const char *query, const struct cmd_targets *t)
{
	o->settings = calloc(t->n ? t->n : 1, sizeof(*o->settings));
	if (!o->settings) {
		fprintf(stderr, "brisk get: out of memory\n");
		return EXIT_FAILED;
	}
	o->root = jout_object();
	json_object_object_add(o->root, "format_version", jout_int64(GET_FORMAT_VERSION));
	json_object_object_add(o->root, "kind", jout_string("get"));
	json_object_object_add(o->root, "brisk_version", jout_string(BRISK_VERSION));
	json_object_object_add(o->root, "brisk", jout_string(BRISK_VERSION));   /* the old name */
	json_object_object_add(o->root, "query", jout_string(query));
	struct json_object *devs = jout_array();
	json_object_object_add(o->root, "devices", devs);
	for (size_t d = 0; d < t->n; d++) {
		struct json_object *dev = jout_object();
		json_object_array_add(devs, dev);
		json_object_object_add(dev, "name", jout_string(t->name[d]));
		char active[TUNABLE_SCHED_LEN], offered[256];
		struct json_object *list = NULL;
		if (tunable_schedulers(t->name[d], active, sizeof(active), offered,
				       sizeof(offered)) == 0) {
			list = jout_array();
			char *save = NULL;
			for (char *w = strtok_r(offered, " ", &save); w; w = strtok_r(NULL, " ", &save))
				json_object_array_add(list, jout_string(w));
		}
		json_object_object_add(dev, "schedulers", list);
		o->settings[d] = jout_object();
		json_object_object_add(dev, "settings", o->settings[d]);
	}
	o->sysctl = jout_object();
	json_object_object_add(o->root, "sysctl", o->sysctl);
	return 0;
}

/* Print the JSON (whatever the exit status: the nulls say what failed);
 * rc, or 1 when rc was 0 and stdout failed. */
static int get_json_close(struct get_out *o, int rc)
{
	int e = jout_write(stdout, o->root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE);
	free(o->settings);
	if (e < 0) {
		fprintf(stderr, "brisk get: cannot print the JSON output: %s\n", strerror(-e));
		return rc ? rc : EXIT_FAILED;
	}
	return rc;
}

int cmd_get_main(int argc, char **argv)
{
	struct get_args a = { 0 };
	const struct optab_cmd cmd = { "get", get_options, NULL, &a, &get_usage_text };
	/* options anywhere (a key never starts with '-'); "--" ends them */
	int rc = optab_parse(&cmd, argc, argv);
	if (rc)
		return rc == OPTAB_DONE ? 0 : rc;
	if (argc - optind < 1)
		return optab_usage_error("get", "expected a DIR or DEVICE, then any KEYs");
	int nk = argc - optind - 1;
	char **kargs = argv + optind + 1;
	struct tunable_key *keys = calloc((size_t)(nk ? nk : 1), sizeof(*keys));
	if (!keys)
		return EXIT_FAILED;
	for (int i = 0; i < nk; i++) {
		char why[TUNABLE_WHY_LEN];
		if (tunable_parse_key(kargs[i], &keys[i], why, sizeof(why)) < 0) {
			fprintf(stderr, "brisk get: %s\n", why);
			rc = EXIT_USAGE;
		}
	}
	struct cmd_targets t;
	struct get_out o = { 0 };
	if (rc == 0)
		rc = cmd_set_targets("get", argv[optind], &a.only, &t);
	if (rc == 0 && a.json)
		rc = get_json_open(&o, argv[optind], &t);
	if (rc)
		goto out;
	if (nk == 0) {
		for (size_t d = 0; d < t.n; d++) {
			struct tunable_key all[128];
			size_t n = tunable_list(t.name[d], d + 1 == t.n, all, 128);
			for (size_t i = 0; i < n && i < 128; i++) {
				int e = get_one(&o, d, t.name[d], &all[i], 1);
				if (e > rc)
					rc = e;
			}
		}
	} else {
		for (int i = 0; i < nk; i++) {
			size_t nd = tunable_is_sysctl(&keys[i]) ? 1 : t.n;
			for (size_t d = 0; d < nd; d++) {
				int e = get_one(&o, d, t.name[d], &keys[i], 0);
				if (e > rc)
					rc = e;
			}
		}
	}
	if (o.root)
		rc = get_json_close(&o, rc);
out:
	free(keys);
	return rc;
}
