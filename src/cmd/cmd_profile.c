#include "cmd_profile.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "action.h"
#include "blockdev.h"
#include "devclass.h"
#include "fiojob.h"
#include "load.h"
#include "optab.h"
#include "parse.h"
#include "profile.h"
#include "stack.h"
#include "sysfs.h"
#include "text.h"
#include "tunable.h"
#include "fileio.h"

/* -o and -f, of save and of import: the first member of their contexts. */
struct prof_out {
	const char *out;
	int force;
};

/* The command line of save, and of import. */
struct save_args {
	struct prof_out o;
	struct profile *p;
	struct save_keep *keep;
	size_t nloads;
};

struct import_args {
	struct prof_out o;
	struct fiojob_opts fo;
	const char *name;
	int list;
};

enum { OPT_ALL = OPTAB_LONG, OPT_GROUP };

static optab_fn save_set, import_set;

static const struct optab prof_help[] = {
	OPTAB_HELP,
	OPTAB_END,
};

static const struct optab prof_out_options[] = {
	{ "output", 'o', "FILE", "write FILE instead ('-' = standard output)", optab_text,
	  offsetof(struct prof_out, out), NULL },
	{ "force", 'f', NULL, "replace FILE (or the saved profile) if it exists", optab_flag,
	  offsetof(struct prof_out, force), NULL },
	OPTAB_MORE(prof_help),
	OPTAB_END,
};

static const struct optab save_options[] = {
	{ "load", 'l', "SPEC",
	  "a load, as 'brisk run --load' (repeatable;\n"
	  "default: the quick workload's)", save_set, 0, NULL },
	{ "action", 'a', "LIST", "exec,ls,ssh-like,save (default: the quick one's)", save_set, 0,
	  NULL },
	{ "description", 'd', "TEXT", "the profile's description (one line)", save_set, 0, NULL },
	{ "runtime", 'r', "T", "the loaded phase's length (60s, 2m)", save_set, 0, NULL },
	{ "key", 'k', "KEY",
	  "record KEY whatever its value (repeatable);\n"
	  "otherwise only the scheduler and the values\n"
	  "that differ from the kernel's defaults are,\n"
	  "hardware-bound ones never", save_set, 0, NULL },
	{ "all", OPT_ALL, NULL, "record every value as it stands", save_set, 0, NULL },
	OPTAB_MORE(prof_out_options),
	OPTAB_END,
};

static const struct optab import_options[] = {
	{ "scale", 's', "F", "shrink sizes and start delays (0.01, 1/100, 1%)", import_set, 0,
	  NULL },
	{ "name", 'n', "NAME", "the profile's name (default: the file's)", optab_text,
	  offsetof(struct import_args, name), NULL },
	{ "env", OPTAB_LONG, NULL,
	  "read $VAR and ${VAR} from the environment\n"
	  "(refused otherwise)", optab_flag, offsetof(struct import_args, fo.env), NULL },
	{ "strict", OPTAB_LONG, NULL,
	  "refuse every fio key brisk does not honour\n"
	  "(harmless ones too)", optab_flag, offsetof(struct import_args, fo.strict), NULL },
	{ "group", OPT_GROUP, "N", "import the Nth stonewall group (default 1)", import_set, 0,
	  NULL },
	{ "list-keys", OPTAB_LONG, NULL, "print the table of fio keys: KEY GROUP TEXT", optab_flag,
	  offsetof(struct import_args, list), NULL },
	OPTAB_MORE(prof_out_options),
	OPTAB_END,
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: brisk profile list\n"
		"       brisk profile show NAME|FILE\n"
		"       brisk profile check FILE...\n"
		"       brisk profile save NAME [DIR] [--load SPEC]... [--action LIST]\n"
		"                          [--description TEXT] [--runtime T] [--key KEY]...\n"
		"                          [--all] [-o FILE] [--force]\n"
		"       brisk profile import JOBFILE [--scale F] [--name NAME] [--env] [--strict]\n"
		"                          [--group N] [-o FILE] [--force]\n"
		"       brisk profile import --list-keys\n"
		"\n"
		"  list     profiles by name: user ($XDG_CONFIG_HOME/brisk/profiles), system\n"
		"           (/etc/brisk/profiles), shipped; a name resolves in that order\n"
		"  show     print a profile as brisk reads it\n"
		"  check    validate profiles; errors are FILE:LINE: message (exit 2)\n"
		"  save     capture the settings of the disks behind DIR (default .) and a\n"
		"           workload into the user directory (reads sysfs only: no root needed)\n");
	optab_help(f, save_options, 4, 28);
	fprintf(f,
		"  import   convert a fio job file into a profile (on stdout by default);\n"
		"           notes on harmless keys go to stderr\n");
	optab_help(f, import_options, 4, 28);
	fprintf(f, "  save and import:\n");
	optab_help(f, prof_out_options, 4, 28);
	optab_help(f, prof_help, 2, 28);
	fprintf(f,
		"\n"
		"See brisk-profile(1) and brisk-profile(5).\n");
}

/* ---------- list ---------- */

static int cmd_list(void)
{
	struct profile_entry *ents = NULL;
	size_t n = 0;
	char dirs[3][PATH_MAX];
	if (profile_list(&ents, &n, dirs) < 0)
		return EXIT_FAILED;
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		struct profile *p = malloc(sizeof(*p));
		char err[PROFILE_ERR_LEN];
		if (!p)
			break;
		if (profile_parse_file(ents[i].path, NULL, p, err, sizeof(err)) == 0) {
			printf("%-24s %-8s %s\n", text_show(ents[i].name), ents[i].where,
			       text_show(p->description));
		} else {
			printf("%-24s %-8s (invalid: see brisk profile check %s)\n",
			       text_show(ents[i].name), ents[i].where, text_show(ents[i].path));
			bad = 1;
		}
		free(p);
	}
	if (!n)
		printf("no profiles (looked in %s%s%s, %s)\n", dirs[0][0] ? text_show(dirs[0]) : "",
		       dirs[0][0] ? ", " : "", text_show(dirs[1]), text_show(dirs[2]));
	free(ents);
	/* anyone who can write a profile directory names its files: a name
	 * that is no profile name is not listed (shells complete the list) */
	if (profile_list_refused(&ents, &n) < 0)
		return EXIT_FAILED;
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "brisk profile: %s: not listed: its name is no profile name "
			"(letters, digits, '-', '_' and '.', not first '-', at most %d); rename "
			"it\n", text_show(ents[i].path), PROFILE_NAME_LEN - 1);
	bad |= n > 0;
	free(ents);
	return bad ? EXIT_USAGE : 0;
}

/* ---------- show / check ---------- */

static int cmd_show(const char *name)
{
	struct profile *p = malloc(sizeof(*p));
	if (!p)
		return EXIT_FAILED;
	char path[PATH_MAX], err[PROFILE_ERR_LEN];
	int rc = profile_load_named(name, p, path, sizeof(path), err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "brisk profile: %s\n", err);
		free(p);
		return rc == -EINVAL || rc == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	printf("; %s\n", text_show(path));
	rc = profile_write(stdout, p, err, sizeof(err));
	free(p);
	if (rc < 0) {
		fprintf(stderr, "brisk profile: %s\n", err);
		return EXIT_FAILED;
	}
	return 0;
}

static int cmd_check(int n, char **files)
{
	struct profile *p = malloc(sizeof(*p));
	if (!p)
		return EXIT_FAILED;
	int status = 0;
	for (int i = 0; i < n; i++) {
		char err[PROFILE_ERR_LEN];
		if (profile_parse_file(files[i], NULL, p, err, sizeof(err)) < 0) {
			fprintf(stderr, "%s\n", err);
			status = EXIT_USAGE;
			continue;
		}
		printf("%s: ok: profile %s, %zu setting%s, %zu load%s, %zu action%s\n",
		       text_show(files[i]), text_show(p->name), p->n_settings, p->n_settings == 1 ? "" : "s", p->n_loads,
		       p->n_loads == 1 ? "" : "s", p->n_actions, p->n_actions == 1 ? "" : "s");
	}
	free(p);
	return status;
}

/* ---------- output ---------- */

/* Write the profile to path (profile_save: temporary file, fsync, rename)
 * or stdout. */
static int emit(const struct profile *p, const char *path, int force)
{
	char err[PROFILE_ERR_LEN];
	if (!path || strcmp(path, "-") == 0) {
		if (profile_write(stdout, p, err, sizeof(err)) < 0) {
			fprintf(stderr, "brisk profile: %s\n", err);
			return EXIT_USAGE;
		}
		return 0;
	}
	int rc = profile_save(p, path, force, err, sizeof(err));
	if (rc == -EEXIST)
		fprintf(stderr, "brisk profile: %s exists; use --force to replace it\n", path);
	else if (rc < 0)
		fprintf(stderr, "brisk profile: %s\n", err);
	if (rc == 0)
		return 0;
	return rc == -EEXIST || rc == -EINVAL || rc == -ENAMETOOLONG ? EXIT_USAGE : EXIT_FAILED;
}

/* ---------- save ---------- */

/* What `profile save` keeps (--key, --all) and, for each setting of the
 * profile being captured (by its index, stable while capturing: settings
 * are only appended), what the disks' values were: a value that differs
 * from its kernel default on any disk of the class keeps the key. */
struct save_keep {
	int all;
	size_t n_keys;
	char keys[PROFILE_MAX_SETTINGS][PROFILE_KEY_LEN];
	unsigned char changed[PROFILE_MAX_SETTINGS];
	unsigned char hw[PROFILE_MAX_SETTINGS];
};

/* What was left out, "KEY=VALUE, ..." each once, for the messages. */
struct save_left {
	size_t n_default, n_hw;
	char defaults[2048], hw[1024];
};

static int save_named(const struct save_keep *k, const char *key)
{
	for (size_t i = 0; i < k->n_keys; i++)
		if (strcmp(k->keys[i], key) == 0)
			return 1;
	return 0;
}

/* --key KEY: a setting profiles hold ("iosched/slice_idle" taken as
 * "slice_idle").  0, or -1 after a message. */
static int save_add_key(struct save_keep *k, const char *arg)
{
	const char *key = strncmp(arg, "iosched/", 8) == 0 ? arg + 8 : arg;
	if (profile_setting_info(key, NULL, NULL) < 0) {
		fprintf(stderr, "brisk profile save: --key '%s': not a setting brisk knows; "
			"expected a key 'brisk set --list-keys' lists, such as read_ahead_kb, "
			"slice_idle or vm.dirty_ratio\n", text_show(arg));
		return -1;
	}
	if (!save_named(k, key) && k->n_keys < PROFILE_MAX_SETTINGS)
		snprintf(k->keys[k->n_keys++], sizeof(k->keys[0]), "%s", key);
	return 0;
}

static void capture_one(struct profile *p, struct save_keep *keep, enum profile_class cls,
			const char *dev, const char *key, const char *value, int kept, int hw)
{
	char err[256] = "";
	int rc = profile_capture(p, cls, key, value, err, sizeof(err));
	if (rc == -EEXIST)
		fprintf(stderr, "brisk profile: warning: %s: %s=%s differs from the first %s disk's "
			"%s; saved %s\n", text_show(dev), key, text_show(value),
			profile_class_name(cls), err, err);
	else if (rc < 0 && rc != -ENOENT)
		fprintf(stderr, "brisk profile: warning: %s: %s=%s not saved: %s\n", text_show(dev),
			key, text_show(value), err);
	const struct profile_setting *s = profile_setting_get(p, cls, key);
	if (!s)
		return;
	size_t i = (size_t)(s - p->settings);
	if (kept)
		keep->changed[i] = 1;
	else if (hw)
		keep->hw[i] = 1;
}

/* A value read off disk d (facts f), judged against its kernel default. */
static void capture_val(struct profile *p, struct save_keep *keep, enum profile_class cls,
			const char *dev, const struct tunable_facts *f, const char *key,
			const char *value)
{
	int hw, kept = tunable_capture_keeps(tunable_def_find(key), f, f ? EXIT_FAILED : 0, value, &hw);
	capture_one(p, keep, cls, dev, key, value, kept, hw);
}

static void capture_num(struct profile *p, struct save_keep *keep, enum profile_class cls,
			const char *dev, const struct tunable_facts *f, const char *key,
			int64_t v, int64_t absent_below)
{
	if (v < absent_below)
		return;
	char b[32];
	snprintf(b, sizeof(b), "%" PRId64, v);
	capture_val(p, keep, cls, dev, f, key, b);
}

static void capture_device(struct profile *p, struct save_keep *keep, const struct blockdev *d)
{
	enum profile_class cls = devclass_of(d);
	const struct blockdev_queue *q = &d->queue;
	struct tunable_facts f;
	tunable_facts_read(d->name, &f);   /* what cannot be read stays unknown */
	/* the probe's own view of the disk where it has one */
	snprintf(f.sched, sizeof(f.sched), "%s", q->scheduler);
	if (d->rotational == 0 || d->rotational == 1)
		f.rotational = d->rotational;
	f.loop |= d->kind == BLOCKDEV_LOOP;
	if (q->max_sectors_kb >= 0)
		f.max_sectors_kb = q->max_sectors_kb;
	const char *dev = d->name;
	if (q->scheduler[0])
		capture_val(p, keep, cls, dev, &f, "scheduler", q->scheduler);
	for (size_t i = 0; i < q->n_iosched; i++) {
		const char *owner = NULL;
		enum profile_scope scope;
		if (profile_setting_info(q->iosched[i].name, &scope, &owner) == 0 &&
		    scope == PROFILE_SCOPE_IOSCHED && owner && strcmp(owner, q->scheduler) == 0)
			capture_val(p, keep, cls, dev, &f, q->iosched[i].name, q->iosched[i].value);
	}
	capture_num(p, keep, cls, dev, &f, "nr_requests", q->nr_requests, 0);
	capture_num(p, keep, cls, dev, &f, "read_ahead_kb", q->read_ahead_kb, 0);
	capture_num(p, keep, cls, dev, &f, "wbt_lat_usec", q->wbt_lat_usec, 0);
	capture_num(p, keep, cls, dev, &f, "max_sectors_kb", q->max_sectors_kb, 0);
	capture_num(p, keep, cls, dev, &f, "rq_affinity", q->rq_affinity, 0);
	capture_num(p, keep, cls, dev, &f, "nomerges", q->nomerges, 0);
	capture_num(p, keep, cls, dev, &f, "queue_depth", q->queue_depth, 0);
	/* the disk's dirty limits: a changed share once, as bytes (the ratio
	 * files are views of the same number: brisk-set(1)) */
	static const char *const bdi[] = { "bdi.strict_limit", "bdi.max_bytes", "bdi.min_bytes" };
	for (size_t i = 0; i < sizeof(bdi) / sizeof(bdi[0]); i++) {
		struct tunable_key k;
		char v[TUNABLE_VALUE_LEN];
		if (tunable_parse_key(bdi[i], &k, NULL, 0) == 0 &&
		    tunable_read(dev, &k, v, sizeof(v)) == 0)
			capture_val(p, keep, cls, dev, &f, bdi[i], v);
	}
}

static void capture_vm(struct profile *p, struct save_keep *keep)
{
	/* Of each ratio/bytes pair the kernel shows the one in use; the other
	 * reads 0. */
	static const char *const pairs[][2] = {
		{ "dirty_ratio", "dirty_bytes" },
		{ "dirty_background_ratio", "dirty_background_bytes" },
	};
	char v[64], key[64];
	for (size_t i = 0; i < 2; i++) {
		const char *use = pairs[i][0];
		if (sysfs_readf(v, sizeof(v), "/proc/sys/vm/%s", pairs[i][1]) == 0 &&
		    strcmp(v, "0") != 0)
			use = pairs[i][1];
		if (sysfs_readf(v, sizeof(v), "/proc/sys/vm/%s", use) == 0) {
			snprintf(key, sizeof(key), "vm.%s", use);
			capture_val(p, keep, PROFILE_CLASS_ALL, "vm", NULL, key, v);
		}
	}
	static const char *const plain[] = { "dirty_expire_centisecs",
					     "dirty_writeback_centisecs" };
	for (size_t i = 0; i < 2; i++)
		if (sysfs_readf(v, sizeof(v), "/proc/sys/vm/%s", plain[i]) == 0) {
			snprintf(key, sizeof(key), "vm.%s", plain[i]);
			capture_val(p, keep, PROFILE_CLASS_ALL, "vm", NULL, key, v);
		}
}

/* Append "KEY=VALUE" to list (", "-separated) unless it is there. */
static void left_add(char *list, size_t len, size_t *n, const struct profile_setting *s)
{
	char item[PROFILE_KEY_LEN + PROFILE_VALUE_LEN + 2];
	snprintf(item, sizeof(item), "%s=%s", s->key, s->value);
	for (const char *at = list; (at = strstr(at, item)) != NULL; at++)
		if ((at == list || at[-1] == ' ') && (at[strlen(item)] == ',' ||
						       at[strlen(item)] == '\0'))
			return;
	size_t used = strlen(list);
	snprintf(list + used, len - used, "%s%s", used ? ", " : "", item);
	(*n)++;
}

/* Drop from p what is at its kernel default, or hardware-bound, on every
 * disk it was read from, unless --all or --key keeps it; what was
 * dropped goes into left. */
static void save_leave_out(struct profile *p, const struct save_keep *keep,
			   struct save_left *left)
{
	memset(left, 0, sizeof(*left));
	if (keep->all)
		return;
	unsigned char drop[PROFILE_MAX_SETTINGS] = { 0 };
	size_t n = p->n_settings;
	for (size_t i = 0; i < n; i++) {
		const struct profile_setting *s = &p->settings[i];
		if (keep->changed[i] || save_named(keep, s->key))
			continue;
		drop[i] = 1;
		if (keep->hw[i])
			left_add(left->hw, sizeof(left->hw), &left->n_hw, s);
		else
			left_add(left->defaults, sizeof(left->defaults), &left->n_default, s);
	}
	for (size_t i = n; i-- > 0;)   /* from the end: the indices stay valid */
		if (drop[i])
			profile_unset(p, p->settings[i].cls, p->settings[i].key);
}

/* On stderr: what was left out, and the --key names no disk had. */
static void save_report(const struct profile *p, const struct save_keep *keep,
			const struct save_left *left, const char *dir)
{
	if (left->n_default)
		fprintf(stderr, "brisk profile save: left out %zu setting%s at %s kernel default%s "
			"(%s); --key KEY or --all keeps %s\n", left->n_default,
			left->n_default == 1 ? "" : "s", left->n_default == 1 ? "its" : "their",
			left->n_default == 1 ? "" : "s", left->defaults,
			left->n_default == 1 ? "it" : "them");
	if (left->n_hw)
		fprintf(stderr, "brisk profile save: left out %zu hardware-bound setting%s, which "
			"come%s from each disk's hardware (%s); --key KEY keeps one\n", left->n_hw,
			left->n_hw == 1 ? "" : "s", left->n_hw == 1 ? "s" : "", left->hw);
	for (size_t i = 0; i < keep->n_keys; i++) {
		int found = 0;
		for (size_t j = 0; j < p->n_settings && !found; j++)
			found = strcmp(p->settings[j].key, keep->keys[i]) == 0;
		if (!found)
			fprintf(stderr, "brisk profile save: note: --key %s: no disk behind %s has "
				"it now, so nothing was kept\n", keep->keys[i], text_show(dir));
	}
}

/* One option of `profile save` that shapes the profile (--load, --action,
 * --description, --runtime).  0, or -1 after a message. */
static int save_option(struct profile *p, int c, const char *arg, size_t *nloads)
{
	char err[PROFILE_ERR_LEN];
	switch (c) {
	case 'l': {
		struct load_spec s;
		if (load_spec_parse(arg, &s, err, sizeof(err)) < 0) {
			fprintf(stderr, "brisk profile save: %s\n", err);
			return -1;
		}
		if (*nloads >= PROFILE_MAX_LOADS) {
			fprintf(stderr, "brisk profile save: at most %d loads\n", PROFILE_MAX_LOADS);
			return -1;
		}
		struct profile_load *l = &p->loads[*nloads];
		memset(l, 0, sizeof(*l));
		snprintf(l->name, sizeof(l->name), "%s-%zu", load_kind_name(s.kind), *nloads + 1);
		l->spec = s;
		p->n_loads = ++*nloads;
		return 0;
	}
	case 'a': {
		unsigned mask;
		if (action_parse_list(arg, &mask, err, sizeof(err)) < 0) {
			fprintf(stderr, "brisk profile save: %s\n", err);
			return -1;
		}
		p->n_actions = 0;
		for (int k = 0; k < ACTION_KIND_COUNT; k++) {
			if (!(mask & (1u << k)))
				continue;
			struct profile_action *a = &p->actions[p->n_actions++];
			memset(a, 0, sizeof(*a));
			snprintf(a->name, sizeof(a->name), "%s", action_kind_name((enum action_kind)k));
			a->kind = (enum action_kind)k;
			action_config_default(&a->cfg);
			a->cfg.exec_cmd = NULL;
		}
		return 0;
	}
	case 'd':
		if (strlen(arg) >= sizeof(p->description) || strchr(arg, '\n')) {
			fprintf(stderr, "brisk profile save: description: at most %zu "
				"characters on one line\n", sizeof(p->description) - 1);
			return -1;
		}
		snprintf(p->description, sizeof(p->description), "%s", arg);
		return 0;
	case 'r':
		if (parse_duration(arg, &p->runtime_ns) < 0 || p->runtime_ns % 1000000) {
			fprintf(stderr, "brisk profile save: bad --runtime '%s', expected "
				"e.g. 60s or 2m\n", arg);
			return -1;
		}
		return 0;
	}
	return -1;
}

/* The directory and the settings of the disks behind dir, and vm.*.
 * 0, or the exit status after a message. */
static int capture_dir(struct profile *p, struct save_keep *keep, const char *dir)
{
	struct stack *st = NULL;
	int rc = stack_resolve_path(dir, &st);
	if (rc < 0 && !(rc == -ENODEV && st)) {
		fprintf(stderr, "brisk profile save: %s: %s\n", text_show(dir), strerror(-rc));
		stack_free(st);
		return rc == -ENOENT || rc == -ENOTDIR ? EXIT_USAGE : EXIT_FAILED;
	}
	if (strlen(st->path) >= sizeof(p->directory)) {
		fprintf(stderr, "brisk profile save: %s: path longer than %zu characters\n",
			text_show(st->path), sizeof(p->directory) - 1);
		stack_free(st);
		return EXIT_USAGE;
	}
	snprintf(p->directory, sizeof(p->directory), "%s", st->path);
	const struct blockdev *leaves[32];
	size_t nl = rc == 0 ? stack_leaves(st, leaves, 32) : 0;
	if (nl > 32)
		nl = 32;
	if (!nl)
		fprintf(stderr, "brisk profile save: warning: %s has no block device (%s); "
			"saving vm.* settings only\n", text_show(dir), text_show(st->mount.fstype));
	for (size_t i = 0; i < nl; i++)
		capture_device(p, keep, leaves[i]);
	stack_free(st);
	capture_vm(p, keep);
	return 0;
}

/* USERDIR/NAME.profile, the directory made.  0, or the exit status after
 * a message. */
static int user_path(const char *name, char *path, size_t len)
{
	char udir[PATH_MAX];
	int rc;
	if (profile_user_dir(udir, sizeof(udir)) < 0) {
		fprintf(stderr, "brisk profile save: no HOME or XDG_CONFIG_HOME; use -o FILE\n");
		return EXIT_FAILED;
	}
	if ((rc = fileio_mkdir_p(udir, 0755)) < 0) {
		fprintf(stderr, "brisk profile save: cannot create %s: %s\n", udir, strerror(-rc));
		return EXIT_FAILED;
	}
	if (strlen(udir) + strlen(name) + 10 > len) {
		fprintf(stderr, "brisk profile save: path too long\n");
		return EXIT_USAGE;
	}
	strcpy(path, udir);
	strcat(path, "/");
	strcat(path, name);
	strcat(path, ".profile");
	return 0;
}

/* NAME: no '/', and a name the loader takes.  0, or -1 after a message. */
static int check_save_name(const char *name, size_t max)
{
	char tmp[PATH_MAX], err[PROFILE_ERR_LEN];
	if (strchr(name, '/') || strlen(name) >= max) {
		fprintf(stderr, "brisk profile save: bad name '%s', expected letters, digits, "
			"'-', '_' or '.' (use -o FILE for a path)\n", name);
		return -1;
	}
	/* Validate the name the way the loader will. */
	if (profile_resolve(name, tmp, sizeof(tmp), err, sizeof(err)) == -EINVAL) {
		fprintf(stderr, "brisk profile save: %s\n", err);
		return -1;
	}
	return 0;
}

/* One of save's options (optab_fn): 2 when its value is bad (said). */
static int save_set(const char *cmd, const struct optab *o, void *ctx, const char *arg)
{
	struct save_args *a = ctx;
	(void)cmd;
	if (o->key == OPT_ALL)
		a->keep->all = 1;
	else if (o->key == 'k' ? save_add_key(a->keep, arg) < 0 :
		 save_option(a->p, o->key, arg, &a->nloads) < 0)
		return EXIT_USAGE;
	return 0;
}

static int cmd_save(int argc, char **argv)
{
	struct profile *p = calloc(1, sizeof(*p));
	struct save_keep *keep = calloc(1, sizeof(*keep));
	struct save_left *left = calloc(1, sizeof(*left));
	struct save_args a = { .p = p, .keep = keep };
	int status = EXIT_USAGE;
	if (!p || !keep || !left) {
		status = EXIT_FAILED;
		goto out;
	}
	profile_default_workload(p);
	const struct optab_cmd cmd = { "profile save", save_options, usage, &a, NULL };
	int rc = optab_parse(&cmd, argc, argv);
	if (rc) {
		status = rc == OPTAB_DONE ? 0 : rc;
		goto out;
	}
	const char *out = a.o.out;
	if (optind >= argc) {
		optab_usage_error("profile save", "expected NAME [DIR]");
		goto out;
	}
	if (argc - optind > 2) {
		optab_usage_error("profile save", "expected NAME [DIR] ('%s' is extra)",
				  argv[optind + 2]);
		goto out;
	}
	const char *name = argv[optind];
	const char *dir = optind + 1 < argc ? argv[optind + 1] : ".";
	if (check_save_name(name, sizeof(p->name)) < 0)
		goto out;
	snprintf(p->name, sizeof(p->name), "%s", name);
	if ((status = capture_dir(p, keep, dir)) != 0)
		goto out;
	save_leave_out(p, keep, left);
	char path[PATH_MAX];
	if (!out) {
		if ((status = user_path(name, path, sizeof(path))) != 0)
			goto out;
		out = path;
	}
	status = emit(p, out, a.o.force);
	if (status == 0 && strcmp(out, "-") != 0)
		printf("saved %s (%zu setting%s, %zu load%s, %zu action%s)\n", out, p->n_settings,
		       p->n_settings == 1 ? "" : "s", p->n_loads, p->n_loads == 1 ? "" : "s",
		       p->n_actions, p->n_actions == 1 ? "" : "s");
	fflush(stdout);   /* the saved line first, then what was left out */
	if (status == 0)
		save_report(p, keep, left, dir);
out:
	free(p);
	free(keep);
	free(left);
	return status;
}

/* ---------- import ---------- */

static int list_fio_keys(void)
{
	for (size_t i = 0; i < fiojob_key_count(); i++) {
		const char *name, *text;
		enum fiojob_group g;
		fiojob_key_at(i, &name, &g, &text);
		printf("%s\t%s\t%s\n", name, fiojob_group_name(g), text);
	}
	return 0;
}

/* --scale and --group of import (optab_fn): 2 when the value is bad (said). */
static int import_set(const char *cmd, const struct optab *o, void *ctx, const char *arg)
{
	struct import_args *a = ctx;
	int64_t grp;
	(void)cmd;
	if (o->key == 's' && fiojob_parse_scale(arg, &a->fo.scale) < 0) {
		fprintf(stderr, "brisk profile import: bad --scale '%s', expected a "
			"factor in (0, 1] such as 0.01, 1/100 or 1%%\n", arg);
		return EXIT_USAGE;
	}
	if (o->key == OPT_GROUP) {
		if (parse_int(arg, 1, 1000, &grp) < 0) {
			fprintf(stderr, "brisk profile import: bad --group '%s', expected a "
				"stonewall group number from 1\n", arg);
			return EXIT_USAGE;
		}
		a->fo.group = (unsigned)grp;
	}
	return 0;
}

static int cmd_import(int argc, char **argv)
{
	struct import_args a = { .fo = { .scale = 1 } };
	const struct optab_cmd cmd = { "profile import", import_options, usage, &a, NULL };
	int rc = optab_parse(&cmd, argc, argv);
	if (rc)
		return rc == OPTAB_DONE ? 0 : rc;
	const struct fiojob_opts fo = a.fo;
	const char *name = a.name;
	if (a.list) {
		if (argc != optind)
			return optab_usage_error("profile import", "--list-keys takes no JOBFILE");
		return list_fio_keys();
	}
	if (argc - optind != 1)
		return optab_usage_error("profile import", "expected one JOBFILE");
	struct profile *p = malloc(sizeof(*p));
	struct fiojob_report *rep = malloc(sizeof(*rep));
	if (!p || !rep) {
		free(p);
		free(rep);
		return EXIT_FAILED;
	}
	char err[PROFILE_ERR_LEN];
	rc = fiojob_import(argv[optind], &fo, p, rep, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "%s\n", err);
		free(p);
		free(rep);
		return rc == -EINVAL || rc == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	for (size_t i = 0; i < rep->n_notes; i++)
		fprintf(stderr, "%s\n", rep->notes[i]);
	if (rep->groups > 1)
		fprintf(stderr, "%s: note: %u stonewall groups (fio runs them one after another); "
			"imported group %u, brisk runs each group as its own run: --group N for "
			"the others\n", text_show(argv[optind]), rep->groups,
			fo.group ? fo.group : 1);
	free(rep);
	if (name) {
		char tmp[PATH_MAX];
		if (strchr(name, '/') || strlen(name) >= sizeof(p->name) ||
		    profile_resolve(name, tmp, sizeof(tmp), err, sizeof(err)) == -EINVAL) {
			fprintf(stderr, "brisk profile import: bad --name '%s'\n", name);
			free(p);
			return EXIT_USAGE;
		}
		snprintf(p->name, sizeof(p->name), "%s", name);
	}
	rc = emit(p, a.o.out, a.o.force);
	free(p);
	return rc;
}

int cmd_profile_main(int argc, char **argv)
{
	if (argc < 2)
		return optab_usage_error("profile", "expected a command: list, show, check, save "
					 "or import");
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return 0;
	}
	const char *verb = argv[1];
	int n = argc - 2;
	char **rest = argv + 2;
	for (int i = 0; i < n; i++)
		if (strcmp(rest[i], "--help") == 0 || strcmp(rest[i], "-h") == 0) {
			usage(stdout);
			return 0;
		}
	int simple = !strcmp(verb, "list") || !strcmp(verb, "show") || !strcmp(verb, "check");
	char cmd[32];
	snprintf(cmd, sizeof(cmd), "profile %s", simple ? verb : "");
	for (int i = 0; simple && i < n; i++)   /* these take no options */
		if (rest[i][0] == '-' && rest[i][1])
			return optab_usage_error(cmd, "unknown option '%s'", rest[i]);
	if (strcmp(verb, "list") == 0) {
		if (n)
			return optab_usage_error(cmd, "no arguments expected ('%s' is extra)", rest[0]);
		return cmd_list();
	}
	if (strcmp(verb, "show") == 0) {
		if (n != 1)
			return optab_usage_error(cmd, "expected one NAME or FILE");
		return cmd_show(rest[0]);
	}
	if (strcmp(verb, "check") == 0) {
		if (n < 1)
			return optab_usage_error(cmd, "expected FILE...");
		return cmd_check(n, rest);
	}
	if (strcmp(verb, "save") == 0)
		return cmd_save(argc - 1, argv + 1);
	if (strcmp(verb, "import") == 0)
		return cmd_import(argc - 1, argv + 1);
	return optab_usage_error("profile", "unknown %s '%s'; expected a command: list, show, "
				 "check, save or import", verb[0] == '-' ? "option" : "command", verb);
}
