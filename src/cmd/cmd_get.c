#include "cmd_get.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_set.h"
#include "text.h"
#include "tunable.h"

/* ----------------------------------------------------------------- get */

static void get_usage(FILE *f)
{
	fprintf(f,
		"usage: brisk get [-d DEVICE]... (DIR|DEVICE) [KEY...]\n"
		"\n"
		"Print the current value of KEY (default: every key brisk can set) on\n"
		"every disk behind DIR or on DEVICE, one 'DEVICE KEY=VALUE' line each;\n"
		"sysctls print as 'vm.NAME=VALUE'.  Works without root.\n"
		"\n"
		"  -d, --device DEV  only this disk of the stack (repeatable)\n"
		"  -h, --help        this text\n");
}

static int get_one(const char *dev, const struct tunable_key *key, int quiet_missing)
{
	char val[TUNABLE_VALUE_LEN * 2];
	int rc = tunable_read(dev, key, val, sizeof(val));
	if (rc == 0 || rc == -EOVERFLOW) {
		if (tunable_is_sysctl(key))
			printf("%s=%s\n", key->name, text_show(val));
		else
			printf("%s %s=%s\n", dev, key->name, text_show(val));
		return 0;
	}
	if (rc == -ENOENT && quiet_missing)
		return 0;
	if (rc == -ENOENT) {
		char why[TUNABLE_WHY_LEN] = "";
		if (key->kind == TUNABLE_IOSCHED) {
			char c[TUNABLE_VALUE_LEN];
			tunable_check(dev, key, "0", NULL, c, sizeof(c), why, sizeof(why));
		}
		fprintf(stderr, "brisk get: %s: %s\n", dev, why[0] ? why :
			"no such attribute on this device");
		return 2;
	}
	fprintf(stderr, "brisk get: %s %s: %s\n", dev ? dev : "", key->name, strerror(-rc));
	return 1;
}

int cmd_get_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *only[CMD_SET_MAX_ONLY];
	size_t n_only = 0;
	int c;
	optind = 1;
	/* options anywhere (a key never starts with '-'); "--" ends them */
	while ((c = getopt_long(argc, argv, "d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (n_only == CMD_SET_MAX_ONLY) {
				fprintf(stderr, "brisk get: at most %d -d options\n", CMD_SET_MAX_ONLY);
				return 2;
			}
			only[n_only++] = optarg;
			break;
		case 'h':
			get_usage(stdout);
			return 0;
		default:
			get_usage(stderr);
			return 2;
		}
	}
	if (argc - optind < 1) {
		get_usage(stderr);
		return 2;
	}
	int nk = argc - optind - 1;
	char **kargs = argv + optind + 1;
	struct tunable_key *keys = calloc((size_t)(nk ? nk : 1), sizeof(*keys));
	if (!keys)
		return 1;
	int rc = 0;
	for (int i = 0; i < nk; i++) {
		char why[TUNABLE_WHY_LEN];
		if (tunable_parse_key(kargs[i], &keys[i], why, sizeof(why)) < 0) {
			fprintf(stderr, "brisk get: %s\n", why);
			rc = 2;
		}
	}
	struct cmd_targets t;
	if (rc == 0)
		rc = cmd_set_targets("get", argv[optind], only, n_only, &t);
	if (rc)
		goto out;
	if (nk == 0) {
		for (size_t d = 0; d < t.n; d++) {
			struct tunable_key all[128];
			size_t n = tunable_list(t.name[d], d + 1 == t.n, all, 128);
			for (size_t i = 0; i < n && i < 128; i++) {
				int e = get_one(t.name[d], &all[i], 1);
				if (e > rc)
					rc = e;
			}
		}
		goto out;
	}
	for (int i = 0; i < nk; i++) {
		size_t nd = tunable_is_sysctl(&keys[i]) ? 1 : t.n;
		for (size_t d = 0; d < nd; d++) {
			int e = get_one(t.name[d], &keys[i], 0);
			if (e > rc)
				rc = e;
		}
	}
out:
	free(keys);
	return rc;
}

