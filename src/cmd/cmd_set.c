#include "cmd_set.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blockdev.h"
#include "journal.h"
#include "optab.h"
#include "settings.h"
#include "stack.h"
#include "text.h"
#include "tunable.h"
#include "tunable_bdi.h"
/* ------------------------------------------------------------- targets */

static int is_device_arg(const char *arg, char *name, size_t len)
{
	struct stat st;
	if (strchr(arg, '/')) {
		if (stat(arg, &st) == 0 && !S_ISBLK(st.st_mode))
			return 0;
	} else if (strcmp(arg, ".") == 0 || strcmp(arg, "..") == 0) {
		return 0;
	}
	return blockdev_resolve_name(arg, name, len) == 0;
}

static void join_leaves(const struct blockdev *const *l, size_t n, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int w = snprintf(buf + off, len - off, "%s%s", i ? " " : "", l[i]->name);
		if (w < 0 || (size_t)w >= len - off)
			break;
		off += (size_t)w;
	}
}

int cmd_set_only(const char *cmd, const struct optab *o, void *ctx, const char *arg)
{
	struct cmd_set_only *only = (void *)((char *)ctx + o->off);
	if (only->n == CMD_SET_MAX_ONLY) {
		fprintf(stderr, "brisk %s: at most %d -d options\n", cmd, CMD_SET_MAX_ONLY);
		return EXIT_USAGE;
	}
	only->dev[only->n++] = arg;
	return 0;
}

int cmd_set_targets(const char *cmd, const char *arg, const struct cmd_set_only *only,
		    struct cmd_targets *t)
{
	size_t n_only = only->n;
	char name[BLOCKDEV_NAME_LEN];
	struct stack *s = NULL;
	int rc;
	int as_dev = is_device_arg(arg, name, sizeof(name));
	if (as_dev)
		rc = stack_resolve_device(name, &s);
	else
		rc = stack_resolve_path(arg, &s);
	if (rc == -ENODEV && !as_dev) {
		fprintf(stderr, "brisk %s: %s is on %s, which has no block device to tune\n",
			cmd, text_show(arg), s && s->mount.fstype[0] ? text_show(s->mount.fstype) : "a file system");
		stack_free(s);
		return EXIT_USAGE;
	}
	if (rc < 0) {
		if (rc == -ENOENT || rc == -ENOTDIR || rc == -ENODEV)
			fprintf(stderr, "brisk %s: %s: no such directory or block device\n", cmd, arg);
		else
			fprintf(stderr, "brisk %s: %s: %s\n", cmd, arg, strerror(-rc));
		stack_free(s);
		return rc == -ENOENT || rc == -ENOTDIR || rc == -ENODEV ? EXIT_USAGE : EXIT_FAILED;
	}
	const struct blockdev *leaves[CMD_SET_MAX_TARGETS];
	size_t nl = stack_leaves(s, leaves, CMD_SET_MAX_TARGETS);
	if (nl > CMD_SET_MAX_TARGETS) {
		fprintf(stderr, "brisk %s: %s: more than %d disks; name them with -d\n",
			cmd, arg, CMD_SET_MAX_TARGETS);
		if (n_only == 0) {
			stack_free(s);
			return EXIT_USAGE;
		}
		nl = CMD_SET_MAX_TARGETS;
	}
	char all[CMD_SET_MAX_TARGETS * (BLOCKDEV_NAME_LEN + 1)];
	join_leaves(leaves, nl, all, sizeof(all));
	t->n = 0;
	if (n_only == 0) {
		for (size_t i = 0; i < nl; i++)
			snprintf(t->name[t->n++], sizeof(t->name[0]), "%s", leaves[i]->name);
	}
	for (size_t k = 0; k < n_only; k++) {
		char want[BLOCKDEV_NAME_LEN];
		if (blockdev_resolve_name(only->dev[k], want, sizeof(want)) < 0) {
			fprintf(stderr, "brisk %s: -d %s: no such block device\n", cmd, only->dev[k]);
			stack_free(s);
			return EXIT_USAGE;
		}
		size_t i;
		for (i = 0; i < nl; i++)
			if (strcmp(leaves[i]->name, want) == 0)
				break;
		if (i == nl) {
			if (stack_find(s, want))
				fprintf(stderr, "brisk %s: %s has no queue settings of its own; "
					"they live on its disks: %s\n", cmd, text_show(want), text_show(all));
			else
				fprintf(stderr, "brisk %s: %s is not in the stack behind %s "
					"(its disks: %s)\n", cmd, text_show(want), text_show(arg), text_show(all));
			stack_free(s);
			return EXIT_USAGE;
		}
		int dup = 0;
		for (size_t j = 0; j < t->n; j++)
			dup |= strcmp(t->name[j], want) == 0;
		if (!dup)
			snprintf(t->name[t->n++], sizeof(t->name[0]), "%s", want);
	}
	stack_free(s);
	if (t->n == 0) {
		fprintf(stderr, "brisk %s: %s: no disk found under it\n", cmd, arg);
		return EXIT_USAGE;
	}
	return 0;
}

/* ----------------------------------------------------------------- set */

struct assign {
	struct tunable_key key;
	char value[TUNABLE_VALUE_LEN * 2];
	char canon[CMD_SET_MAX_TARGETS][TUNABLE_VALUE_LEN];  /* per target; [0] for sysctls */
};

/* The command line. */
struct set_args {
	struct cmd_set_only only;
	int persist, keys;
};

static const struct optab set_options[] = {
	CMD_SET_DEVICE(offsetof(struct set_args, only)),
	{ "persist", OPTAB_LONG, NULL,
	  "keep the change for this boot: clear its journal\n"
	  "entries, so 'brisk restore' leaves it", optab_flag,
	  offsetof(struct set_args, persist), NULL },
	{ "list-keys", OPTAB_LONG, NULL, "every key: scope, range the kernel accepts, meaning",
	  optab_flag, offsetof(struct set_args, keys), NULL },
	OPTAB_HELP,
	OPTAB_END,
};

static const struct optab_text set_usage_text = {
	"usage: brisk set [--persist] [-d DEVICE]... (DIR|DEVICE) KEY=VALUE...\n"
	"       brisk set --list-keys\n"
	"\n"
	"Change I/O scheduler, queue and iosched tunables, SCSI queue_depth and\n"
	"vm.dirty_* on every disk behind DIR (all RAID/dm members at once) or on\n"
	"DEVICE (sda, /dev/sda, loop3; md0 means its members).  Needs root.\n"
	"Every original value is journaled first; 'brisk restore' puts it back.\n"
	"\n"
	"KEY: scheduler, nr_requests, read_ahead_kb, wbt_lat_usec, max_sectors_kb,\n"
	"     rq_affinity, nomerges, queue_depth, an iosched tunable of the\n"
	"     active scheduler (slice_idle or iosched/slice_idle), vm.dirty_ratio,\n"
	"     vm.dirty_background_ratio, vm.dirty_bytes, vm.dirty_background_bytes,\n"
	"     vm.dirty_expire_centisecs, vm.dirty_writeback_centisecs, the disk's\n"
	"     dirty limits bdi.max_bytes, bdi.max_ratio, bdi.max_ratio_fine,\n"
	"     bdi.min_bytes, bdi.min_ratio, bdi.min_ratio_fine, bdi.strict_limit\n"
	"\n",
	20,
	"\n"
	"Example: brisk set /home scheduler=bfq slice_idle=0\n"
};

/* --list-keys: the settings table, one "KEY SCOPE[:SCHEDULER] RANGE HELP"
 * line each (tests/cli/set_keys.sh holds the man pages to it). */
static void list_keys(void)
{
	for (size_t i = 0; i < tunable_n_defs; i++) {
		const struct tunable_def *d = &tunable_defs[i];
		char range[64] = "name", scope[48];
		if (d->kind == TUNABLE_BDI && d->type == TUNABLE_TYPE_BYTES)
			snprintf(range, sizeof(range), "0..the dirty limit, bytes");
		else if (d->type != TUNABLE_TYPE_SCHED)
			snprintf(range, sizeof(range), "%" PRId64 "..%" PRId64 "%s", d->min, d->max,
				 d->type == TUNABLE_TYPE_BYTES ? " bytes" : "");
		snprintf(scope, sizeof(scope), "%s%s%s", tunable_kind_name(d->kind),
			 d->sched ? ":" : "", d->sched ? d->sched : "");
		printf("%-28s %-19s %-32s %s\n", d->key, scope, range, d->help);
	}
}

static void print_change(const char *dev, const struct tunable_key *key,
			 const struct tunable_result *res)
{
	if (tunable_is_sysctl(key))
		printf("%s=%s (was %s)", key->name, text_show(res->written), text_show(res->before));
	else
		printf("%s %s=%s (was %s)", dev, key->name, text_show(res->written),
		       text_show(res->before));
	if (res->adjusted)
		printf("; the kernel stored %s", text_show(res->readback));
	/* a view of the share the kernel keeps: say the share it holds now */
	struct tunable_key ck;
	char share[TUNABLE_VALUE_LEN];
	const char *carrier = key->kind == TUNABLE_BDI ? tunable_bdi_carrier(key->name) : NULL;
	if (carrier && tunable_parse_key(carrier, &ck, NULL, 0) == 0 &&
	    tunable_read(dev, &ck, share, sizeof(share)) == 0)
		printf(" (%s now %s)", carrier, text_show(share));
	putchar('\n');
}

static int parse_assignments(int n, char **args, struct assign *as)
{
	int bad = 0;
	for (int i = 0; i < n; i++) {
		const char *eq = strchr(args[i], '=');
		char why[TUNABLE_WHY_LEN], keytext[TUNABLE_NAME_LEN * 2];
		if (!eq || eq == args[i]) {
			fprintf(stderr, "brisk set: '%s': expected KEY=VALUE\n", args[i]);
			bad = 1;
			continue;
		}
		size_t kl = (size_t)(eq - args[i]);
		if (kl >= sizeof(keytext) || strlen(eq + 1) >= sizeof(as[i].value)) {
			fprintf(stderr, "brisk set: '%.80s...': too long\n", args[i]);
			bad = 1;
			continue;
		}
		memcpy(keytext, args[i], kl);
		keytext[kl] = '\0';
		snprintf(as[i].value, sizeof(as[i].value), "%s", eq + 1);
		if (tunable_parse_key(keytext, &as[i].key, why, sizeof(why)) < 0) {
			fprintf(stderr, "brisk set: %s\n", why);
			bad = 1;
		}
	}
	return bad;
}

/* Check every assignment on every target, in order, as the scheduler will
 * be at that point.  0 or 1 (something is wrong; all of it printed). */
static int validate(const struct cmd_targets *t, struct assign *as, int n)
{
	char after[CMD_SET_MAX_TARGETS][TUNABLE_SCHED_LEN];
	memset(after, 0, sizeof(after));
	int bad = 0;
	for (int i = 0; i < n; i++) {
		char why[TUNABLE_WHY_LEN];
		if (tunable_is_sysctl(&as[i].key)) {
			if (tunable_check(NULL, &as[i].key, as[i].value, NULL, as[i].canon[0],
					  sizeof(as[i].canon[0]), why, sizeof(why)) < 0) {
				fprintf(stderr, "brisk set: %s\n", why);
				bad = 1;
			}
			continue;
		}
		for (size_t d = 0; d < t->n; d++) {
			if (tunable_check(t->name[d], &as[i].key, as[i].value,
					  after[d][0] ? after[d] : NULL, as[i].canon[d],
					  sizeof(as[i].canon[d]), why, sizeof(why)) < 0) {
				fprintf(stderr, "brisk set: %s: %s\n", t->name[d], why);
				bad = 1;
			} else if (as[i].key.kind == TUNABLE_SCHEDULER) {
				snprintf(after[d], sizeof(after[d]), "%s", as[i].canon[d]);
			}
		}
	}
	return bad;
}

/* What the transaction did, in brisk set's words. */
static void set_event(const struct settings_event *ev, void *arg)
{
	struct journal *j = arg;
	const struct settings_step *sp = ev->step;
	const char *dev = sp && sp->dev ? sp->dev : "";
	const char *sep = *dev ? ": " : "";
	switch (ev->kind) {
	case SETTINGS_EV_LOCKED_OUT:
		if (ev->err == -EBUSY)
			fprintf(stderr, "brisk set: %s is being changed by another brisk "
				"(pid %ld); nothing was changed\n",
				strcmp(ev->dev, "-") ? ev->dev : "vm.dirty_*", (long)ev->holder);
		else
			fprintf(stderr, "brisk set: cannot lock %s in %s: %s\n", ev->dev,
				journal_path(j), strerror(-ev->err));
		break;
	case SETTINGS_EV_APPLIED:
		print_change(sp->dev, &sp->key, ev->res);
		break;
	case SETTINGS_EV_FAILED:
		if (ev->err == -EIO)
			fprintf(stderr, "brisk set: %s: wrote scheduler=%s but %s "
				"is active\n", dev, sp->value, ev->res->readback);
		else if (!ev->res->before[0])
			fprintf(stderr, "brisk set: %s%s%s: cannot record the original "
				"value: %s\n", dev, sep, sp->key.name, strerror(-ev->err));
		else
			fprintf(stderr, "brisk set: %s%sthe kernel refused %s=%s: "
				"%s (errno %d)\n", dev, sep, sp->key.name, sp->value,
				strerror(-ev->err), -ev->err);
		break;
	case SETTINGS_EV_ROLLBACK:
		fprintf(stderr, "brisk set: putting back what this command changed:\n");
		break;
	case SETTINGS_EV_ROLLED_BACK:
		if (ev->left)
			fprintf(stderr, "brisk set: %d value(s) could not be put back; "
				"they stay in %s for 'brisk restore'\n", ev->left, journal_path(j));
		break;
	}
}

/* Every assignment on every target (a sysctl once), in order.  The
 * number of steps; plan holds n * t->n at most. */
static size_t set_plan(const struct cmd_targets *t, const struct assign *as, int n,
		       struct settings_step *plan)
{
	size_t k = 0;
	for (int i = 0; i < n; i++) {
		int sys = tunable_is_sysctl(&as[i].key);
		for (size_t d = 0; d < (sys ? 1 : t->n); d++, k++) {
			plan[k].dev = sys ? NULL : t->name[d];
			plan[k].key = as[i].key;
			snprintf(plan[k].value, sizeof(plan[k].value), "%s", as[i].canon[d]);
		}
	}
	return k;
}

int cmd_set_main(int argc, char **argv)
{
	struct set_args a = { 0 };
	const struct optab_cmd cmd = { "set", set_options, NULL, &a, &set_usage_text };
	/* options anywhere (KEY=VALUE never starts with '-'); "--" ends them */
	int rc = optab_parse(&cmd, argc, argv);
	if (rc)
		return rc == OPTAB_DONE ? 0 : rc;
	if (a.keys) {
		if (argc != optind || a.persist || a.only.n)
			return optab_usage_error("set", "--list-keys takes nothing else");
		list_keys();
		return 0;
	}
	if (argc - optind < 2)
		return optab_usage_error("set", "expected a DIR or DEVICE, then KEY=VALUE...");
	const char *target = argv[optind];
	int n = argc - optind - 1;
	char **args = argv + optind + 1;
	struct assign *as = calloc((size_t)n, sizeof(*as));
	if (!as)
		return EXIT_FAILED;
	struct cmd_targets t;
	struct journal *j = NULL;
	rc = parse_assignments(n, args, as) ? EXIT_USAGE : 0;
	if (rc == 0)
		rc = cmd_set_targets("set", target, &a.only, &t);
	if (rc == 0 && validate(&t, as, n))
		rc = EXIT_USAGE;
	if (rc == 0 && geteuid() != 0) {
		for (int i = 0; i < n; i++)
			for (size_t d = 0; d < (tunable_is_sysctl(&as[i].key) ? 1 : t.n); d++)
				fprintf(stderr, "brisk set: changing %s%s%s needs root\n",
					tunable_is_sysctl(&as[i].key) ? "" : t.name[d],
					tunable_is_sysctl(&as[i].key) ? "" : " ", as[i].key.name);
		fprintf(stderr, "brisk set: nothing was changed; run it with sudo\n");
		rc = EXIT_PRIVILEGE;
	}
	if (rc)
		goto out;
	/* (main() already restored dead sessions' journals, so their
	 * originals are not lost under this one.) */
	char what[256];
	journal_what(what, sizeof(what), argc, argv);
	int jrc = journal_open(JOURNAL_SET, what, &j);
	if (jrc < 0) {
		fprintf(stderr, "brisk set: cannot create the restore journal: %s; "
			"nothing was changed\n",
			journal_error());
		rc = EXIT_FAILED;
		goto out;
	}
	struct settings_step *plan = calloc((size_t)n * t.n, sizeof(*plan));
	if (!plan) {
		rc = EXIT_FAILED;
		goto out;
	}
	size_t np = set_plan(&t, as, n, plan);
	rc = settings_transaction(j, plan, np, set_event, j, stderr, NULL) < 0 ? EXIT_FAILED : 0;
	free(plan);
	if (rc)
		goto out;
	if (a.persist) {
		int e = journal_discard(j);
		if (e < 0) {
			fprintf(stderr, "brisk set: cannot clear %s: %s\n", journal_path(j),
				strerror(-e));
			rc = EXIT_FAILED;
			goto out;
		}
		for (int i = 0; i < n; i++) {
			int sys = tunable_is_sysctl(&as[i].key);
			for (size_t d = 0; d < (sys ? 1 : t.n); d++)
				journal_forget(sys ? "-" : t.name[d], as[i].key.name);
		}
		printf("kept for this boot: 'brisk restore' will not undo it\n");
	} else {
		printf("journaled in %s; 'brisk restore' puts the original values back\n",
		       journal_path(j));
	}
out:
	journal_close(j);
	free(as);
	return rc;
}

