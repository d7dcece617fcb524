#include "cmd_devices.h"

#include <errno.h>
#include <inttypes.h>
#include <langinfo.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>

#include "jout.h"

#include "advisory.h"
#include "blockdev.h"
#include "cliopt.h"
#include "datadir.h"
#include "lab.h"
#include "machine.h"
#include "stack.h"
#include "text.h"
#include "parse.h"

/* Every string from the machine (udev, sysfs, mount table, paths) is shown
 * escaped (text.h): a USB stick chooses its own model name. */
#define T(s) text_show(s)

/* The command line. */
struct dev_args {
	int all, json;
};

static const struct optab dev_options[] = {
	{ "all", 'a', NULL, "list every block device instead", optab_flag,
	  offsetof(struct dev_args, all), NULL },
	CLIOPT_JSON_FLAG("print JSON (see brisk-devices(1))", offsetof(struct dev_args, json)),
	OPTAB_HELP,
	OPTAB_END,
};

static const struct optab_text usage_text = {
	"usage: brisk devices [DIR|DEVICE] [--json]\n"
	"       brisk devices --all [--json]\n"
	"\n"
	"Show the storage stack behind DIR (default: the current directory) or\n"
	"DEVICE (sda, /dev/sda, dm-0): file system, dm/md layers, partitions and\n"
	"the disks under them with model, firmware, transport, PCI controller,\n"
	"queue settings and any firmware advisory.\n"
	"\n",
	18,
	""
};

struct view {
	struct advisory_db adv;
	int utf8;
};

/* ---- JSON ---- */

#define DEVICES_FORMAT_VERSION 1   /* brisk-devices.schema.json */

static struct json_object *jnum(int64_t v)
{
	return v < 0 ? NULL : jout_int64(v);
}

static struct json_object *jbool(int v)
{
	return v < 0 ? NULL : jout_bool(v);
}

static void jstr(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, jout_string(v ? v : ""));
}

/* jstr() for each KEY, VALUE pair of kv, in order (n pairs). */
static void jstrs(struct json_object *o, const char *const (*kv)[2], size_t n)
{
	for (size_t i = 0; i < n; i++)
		jstr(o, kv[i][0], kv[i][1]);
}

static struct json_object *json_words(const char *list)
{
	struct json_object *a = jout_array();
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", list);
	char *save = NULL;
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		json_object_array_add(a, jout_string(t));
	return a;
}

static struct json_object *json_queue(const struct blockdev_queue *q)
{
	struct json_object *o = jout_object();
	jstr(o, "scheduler", q->scheduler);
	json_object_object_add(o, "schedulers", json_words(q->schedulers));
	json_object_object_add(o, "nr_requests", jnum(q->nr_requests));
	json_object_object_add(o, "read_ahead_kb", jnum(q->read_ahead_kb));
	json_object_object_add(o, "wbt_lat_usec", jnum(q->wbt_lat_usec));
	json_object_object_add(o, "max_sectors_kb", jnum(q->max_sectors_kb));
	json_object_object_add(o, "rq_affinity", jnum(q->rq_affinity));
	json_object_object_add(o, "nomerges", jnum(q->nomerges));
	json_object_object_add(o, "queue_depth", jnum(q->queue_depth));
	struct json_object *io = jout_object();
	for (size_t i = 0; i < q->n_iosched; i++) {
		char key[sizeof(q->iosched[i].name) + 8];
		snprintf(key, sizeof(key), "iosched/%s", q->iosched[i].name);
		json_object_object_add(io, q->iosched[i].name,
				       jout_setting(key, q->scheduler, q->iosched[i].value));
	}
	json_object_object_add(o, "iosched", io);
	return o;
}

static struct json_object *json_advisory(const struct advisory *a)
{
	if (!a)
		return NULL;
	const char *const kv[][2] = {
		{ "id", a->id }, { "models", a->models }, { "firmware", a->firmware },
		{ "problem", a->problem }, { "fixed_in", a->fixed_in }, { "source", a->source },
	};
	struct json_object *o = jout_object();
	jstrs(o, kv, sizeof(kv) / sizeof(kv[0]));
	return o;
}

static struct json_object *json_dev(const struct view *v, const struct blockdev *d)
{
	struct json_object *o = jout_object();
	char num[32];
	jstr(o, "name", d->name);
	jstr(o, "devnode", d->devnode);
	snprintf(num, sizeof(num), "%u:%u", d->major, d->minor);
	jstr(o, "devnum", num);
	const char *const kv[][2] = {
		{ "kind", blockdev_kind_name(d->kind) }, { "transport", d->transport },
		{ "vendor", d->vendor }, { "model", d->model }, { "serial", d->serial },
		{ "firmware", d->firmware }, { "wwn", d->wwn },
	};
	jstrs(o, kv, sizeof(kv) / sizeof(kv[0]));
	json_object_object_add(o, "size_bytes", jout_uint64(d->size_bytes));
	json_object_object_add(o, "rotational", jbool(d->rotational));
	json_object_object_add(o, "removable", jbool(d->removable));
	json_object_object_add(o, "readonly", jbool(d->readonly));
	jstr(o, "controller", blockdev_controller(d));
	jstr(o, "pci_slot", d->pci_slot);
	if (d->kind == BLOCKDEV_PARTITION) {
		json_object_object_add(o, "partition", jout_int64(d->partition));
		jstr(o, "parent", d->parent);
	} else {
		json_object_object_add(o, "queue", json_queue(&d->queue));
	}
	if (d->kind == BLOCKDEV_MD) {
		struct json_object *md = jout_object();
		jstr(md, "level", d->md_level);
		json_object_object_add(md, "raid_disks", jnum(d->md_raid_disks));
		json_object_object_add(md, "degraded", jnum(d->md_degraded));
		jstr(md, "array_state", d->md_state);
		struct json_object *mem = jout_array();
		for (size_t i = 0; i < d->n_slaves; i++) {
			struct json_object *m = jout_object();
			jstr(m, "name", d->slaves[i]);
			jstr(m, "state", d->md_member_state[i]);
			json_object_array_add(mem, m);
		}
		json_object_object_add(md, "members", mem);
		json_object_object_add(o, "md", md);
	}
	if (d->kind == BLOCKDEV_DM) {
		struct json_object *dm = jout_object();
		jstr(dm, "name", d->dm_name);
		jstr(dm, "uuid", d->dm_uuid);
		jstr(dm, "target", d->dm_target);
		json_object_object_add(o, "dm", dm);
	}
	if (d->kind == BLOCKDEV_LOOP) {
		struct json_object *lo = jout_object();
		jstr(lo, "backing_file", d->backing_file);
		json_object_object_add(lo, "dio", jbool(d->loop_dio));
		char model[64];
		if (d->backing_file[0] && lab_describe_loop(d->backing_file, model, sizeof(model), NULL, 0) == 0)
			jstr(lo, "lab_model", model);
		json_object_object_add(o, "loop", lo);
	}
	json_object_object_add(o, "advisory",
			       json_advisory(advisory_match(&v->adv, d->model, d->firmware)));
	return o;
}

static struct json_object *json_stack(const struct view *v, const struct stack *s);

static struct json_object *json_node(const struct view *v, const struct stack_node *n)
{
	struct json_object *o = json_dev(v, &n->dev);
	if (n->dev.kind == BLOCKDEV_LOOP) {
		struct json_object *lo = NULL;
		json_object_object_get_ex(o, "loop", &lo);
		if (lo) {
			json_object_object_add(lo, "backing", n->backing ? json_stack(v, n->backing) : NULL);
			if (n->backing_err)
				jstr(lo, "backing_error", strerror(-n->backing_err));
		}
	}
	struct json_object *c = jout_array();
	for (size_t i = 0; i < n->n_children; i++)
		json_object_array_add(c, json_node(v, n->children[i]));
	json_object_object_add(o, "children", c);
	return o;
}

static void json_stack_into(struct json_object *o, const struct view *v, const struct stack *s)
{
	json_object_object_add(o, "path", s->path[0] ? jout_string(s->path) : NULL);
	if (s->path[0]) {
		struct json_object *m = jout_object();
		char num[32];
		jstr(m, "target", s->mount.target);
		jstr(m, "source", s->mount.source);
		jstr(m, "fstype", s->mount.fstype);
		jstr(m, "options", s->mount.options);
		snprintf(num, sizeof(num), "%u:%u", s->mount.major, s->mount.minor);
		jstr(m, "devnum", num);
		json_object_object_add(o, "mount", m);
	} else {
		json_object_object_add(o, "mount", NULL);
	}
	json_object_object_add(o, "stack", s->root ? json_node(v, s->root) : NULL);
	struct json_object *l = jout_array();
	const struct blockdev *leaves[64];
	size_t nl = stack_leaves(s, leaves, 64);
	for (size_t i = 0; i < nl && i < 64; i++)
		json_object_array_add(l, jout_string(leaves[i]->name));
	json_object_object_add(o, "leaves", l);
}

static struct json_object *json_stack(const struct view *v, const struct stack *s)
{
	struct json_object *o = jout_object();
	json_stack_into(o, v, s);
	return o;
}

/* The head of both documents (brisk(1) JSON): format_version, kind, the
 * version; all: the --all list rather than one stack. */
static struct json_object *json_head(int all)
{
	struct json_object *o = jout_object();
	json_object_object_add(o, "format_version", jout_int64(DEVICES_FORMAT_VERSION));
	jstr(o, "kind", "devices");
	json_object_object_add(o, "all", jout_bool(all));
	jstr(o, "brisk_version", BRISK_VERSION);
	jstr(o, "brisk", BRISK_VERSION);   /* its name before format_version 1 */
	return o;
}

/* This machine as brisk's results name it (machine_json without
 * the disks): what the fleet playbook records in results/HOST/machine-id. */
static void json_machine(struct json_object *o)
{
	struct json_object *m = machine_json(NULL, NULL, 0);
	json_object_object_del(m, "disks");
	json_object_object_add(o, "machine", m);
}

static void json_print(struct json_object *o)
{
	int rc = jout_write(stdout, o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
				       JSON_C_TO_STRING_NOSLASHESCAPE);
	if (rc < 0) {
		fprintf(stderr, "brisk devices: cannot print the JSON output: %s\n", strerror(-rc));
		exit(1);
	}
}

/* ---- text ---- */

static void print_num(const char *k, int64_t v, int *first)
{
	if (v < 0)
		return;
	printf("%s%s=%" PRId64, *first ? "" : " ", k, v);
	*first = 0;
}

static void print_dev_lines(const struct view *v, const struct blockdev *d, const char *pre)
{
	char size[32];
	parse_format_iec(size, sizeof(size), d->size_bytes);
	/* the node's own line was printed by the caller; details follow */
	if (d->kind == BLOCKDEV_PARTITION)
		return;
	if (d->pci_vendor || d->pci_slot[0])
		printf("%scontroller  %s%s%s%s\n", pre, T(blockdev_controller(d)),
		       d->pci_slot[0] ? " [" : "", T(d->pci_slot), d->pci_slot[0] ? "]" : "");
	if (d->serial[0] || d->wwn[0])
		printf("%sserial      %s%s%s\n", pre, d->serial[0] ? T(d->serial) : "-",
		       d->wwn[0] ? "  wwn " : "", T(d->wwn));
	if (d->kind == BLOCKDEV_LOOP && d->backing_file[0]) {
		char model[64];
		printf("%sbacking     %s%s\n", pre, T(d->backing_file),
		       d->loop_dio == 1 ? "  (direct I/O)" : "");
		if (lab_describe_loop(d->backing_file, model, sizeof(model), NULL, 0) == 0)
			printf("%slab disk    emulated %s (brisk lab)\n", pre, T(model));
	}
	const struct blockdev_queue *q = &d->queue;
	if (q->schedulers[0]) {
		printf("%sscheduler   ", pre);
		char buf[sizeof(q->schedulers)];
		snprintf(buf, sizeof(buf), "%s", q->schedulers);
		char *save = NULL;
		int first = 1;
		for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
			int act = !strcmp(t, q->scheduler);
			printf("%s%s%s%s", first ? "" : " ", act ? "[" : "", T(t), act ? "]" : "");
			first = 0;
		}
		if (d->kind == BLOCKDEV_MD || d->kind == BLOCKDEV_DM)
			printf("  (set it on the members below)");
		putchar('\n');
	}
	if (d->kind == BLOCKDEV_MD || d->kind == BLOCKDEV_DM)
		return;
	int first = 1;
	printf("%squeue       ", pre);
	print_num("nr_requests", q->nr_requests, &first);
	print_num("read_ahead_kb", q->read_ahead_kb, &first);
	print_num("wbt_lat_usec", q->wbt_lat_usec, &first);
	print_num("max_sectors_kb", q->max_sectors_kb, &first);
	print_num("rq_affinity", q->rq_affinity, &first);
	print_num("nomerges", q->nomerges, &first);
	print_num("queue_depth", q->queue_depth, &first);
	putchar('\n');
	if (q->n_iosched) {
		printf("%siosched     ", pre);
		for (size_t i = 0; i < q->n_iosched; i++)
			printf("%s%s=%s", i ? " " : "", T(q->iosched[i].name), T(q->iosched[i].value));
		putchar('\n');
	}
	const struct advisory *a = advisory_match(&v->adv, d->model, d->firmware);
	if (a) {
		printf("%sADVISORY    firmware %s of %s: %s", pre, T(d->firmware), T(d->model),
		       T(a->problem));
		if (a->fixed_in[0])
			printf(" (fixed in %s)", T(a->fixed_in));
		putchar('\n');
		if (a->source[0])
			printf("%s            source: %s\n", pre, T(a->source));
	}
	(void)size;
}

static void print_title(const struct blockdev *d)
{
	char size[32];
	parse_format_iec(size, sizeof(size), d->size_bytes);
	printf("%s", T(d->name));
	switch (d->kind) {
	case BLOCKDEV_PARTITION:
		printf("  partition %d of %s", d->partition, T(d->parent));
		break;
	case BLOCKDEV_MD:
		printf("  md %s  %s  %d disks%s", T(d->md_level), T(d->md_state), d->md_raid_disks,
		       d->md_degraded > 0 ? "  DEGRADED" : "");
		for (size_t i = 0; i < d->n_slaves; i++)
			printf("%s%s %s", i ? ", " : "  members: ", T(d->slaves[i]),
			       d->md_member_state[i][0] ? T(d->md_member_state[i]) : "?");
		break;
	case BLOCKDEV_DM:
		printf("  dm-%s \"%s\"", T(d->dm_target), T(d->dm_name));
		break;
	case BLOCKDEV_LOOP:
		printf("  loop");
		break;
	case BLOCKDEV_ZRAM:
		printf("  zram");
		break;
	case BLOCKDEV_DISK:
		printf("  %s disk", d->transport[0] ? T(d->transport) : "unknown-transport");
		if (d->vendor[0] || d->model[0])
			printf("  %s%s%s", T(d->vendor), d->vendor[0] && d->model[0] ? " " : "",
			       T(d->model));
		if (d->firmware[0])
			printf("  fw %s", T(d->firmware));
		break;
	}
	printf("  %s", size);
	if (d->kind != BLOCKDEV_PARTITION && d->rotational >= 0)
		printf("  %s", d->rotational ? "rotational" : "non-rotational");
	if (d->removable == 1)
		printf("  removable");
	if (d->readonly == 1)
		printf("  read-only");
	putchar('\n');
}

static void print_stack(const struct view *v, const struct stack *s, const char *pre);

static void print_node(const struct view *v, const struct stack_node *n, const char *pre,
		       const char *branch, const char *cont)
{
	printf("%s%s", pre, branch);
	print_title(&n->dev);
	char sub[1024];
	snprintf(sub, sizeof(sub), "%s%s%s", pre, cont, n->n_children ? (v->utf8 ? "│    " : "|    ") : "     ");
	print_dev_lines(v, &n->dev, sub);
	if (n->dev.kind == BLOCKDEV_LOOP && n->dev.backing_file[0]) {
		if (n->backing) {
			printf("%sbacking file's stack:\n", sub);
			char deeper[1100];
			snprintf(deeper, sizeof(deeper), "%s  ", sub);
			print_stack(v, n->backing, deeper);
		} else {
			printf("%sbacking file's stack: %s\n", sub, strerror(-n->backing_err));
		}
	}
	for (size_t i = 0; i < n->n_children; i++) {
		int last = i + 1 == n->n_children;
		char npre[1024];
		snprintf(npre, sizeof(npre), "%s%s", pre, cont);
		print_node(v, n->children[i], npre,
			   v->utf8 ? (last ? "└─ " : "├─ ") : (last ? "`- " : "|- "),
			   last ? "   " : (v->utf8 ? "│  " : "|  "));
	}
}

static void print_stack(const struct view *v, const struct stack *s, const char *pre)
{
	if (s->path[0])
		printf("%s%s  on %s (%s, %s) mounted at %s\n", pre, T(s->path), T(s->mount.source),
		       T(s->mount.fstype), T(s->mount.options), T(s->mount.target));
	if (s->root)
		print_node(v, s->root, pre, "", "");
	else
		printf("%s(no block device behind this %s file system)\n", pre, T(s->mount.fstype));
	const struct blockdev *leaves[64];
	size_t nl = stack_leaves(s, leaves, 64);
	if (nl) {
		printf("%ssettings apply to:", pre);
		for (size_t i = 0; i < nl && i < 64; i++)
			printf(" %s", T(leaves[i]->name));
		putchar('\n');
	}
}

static int list_all(const struct view *v, int json)
{
	struct blockdev *devs;
	size_t n;
	int rc = blockdev_list(&devs, &n);
	if (rc < 0) {
		fprintf(stderr, "brisk: cannot list block devices through udev/sysfs: %s\n",
			strerror(-rc));
		return EXIT_FAILED;
	}
	if (json) {
		struct json_object *o = json_head(1);
		struct json_object *a = jout_array();
		for (size_t i = 0; i < n; i++) {
			struct json_object *d = json_dev(v, &devs[i]);
			struct json_object *sl = jout_array();
			for (size_t j = 0; j < devs[i].n_slaves; j++)
				json_object_array_add(sl, jout_string(devs[i].slaves[j]));
			json_object_object_add(d, "slaves", sl);
			json_object_array_add(a, d);
		}
		json_object_object_add(o, "devices", a);
		json_machine(o);
		json_print(o);
	} else {
		for (size_t i = 0; i < n; i++) {
			print_title(&devs[i]);
			if (devs[i].n_slaves) {
				printf("     built on:");
				for (size_t j = 0; j < devs[i].n_slaves; j++)
					printf(" %s", T(devs[i].slaves[j]));
				putchar('\n');
			}
			print_dev_lines(v, &devs[i], "     ");
		}
	}
	free(devs);
	return 0;
}

/* DIR or DEVICE?  An existing directory wins; then a device name or node. */
static int resolve_arg(const char *arg, struct stack **s)
{
	struct stat st;
	int rc;
	if (stat(arg, &st) == 0 && !S_ISBLK(st.st_mode)) {
		rc = stack_resolve_path(arg, s);
		switch (rc) {
		case 0:
			return 0;
		case -ENOTDIR:
			fprintf(stderr, "brisk: %s is not a directory: give a directory (its file "
				"system is examined) or a device such as sda or /dev/sda\n", T(arg));
			return EXIT_USAGE;
		case -EACCES:
			fprintf(stderr, "brisk: %s: permission denied: pick a directory you can "
				"read, or run as its owner\n", T(arg));
			return EXIT_USAGE;
		case -ENODEV:
			fprintf(stderr, "brisk: %s is on a %s file system (source '%s'), which has "
				"no block device behind it: pick a directory on a disk\n", T(arg),
				(*s)->mount.fstype[0] ? T((*s)->mount.fstype) : "virtual",
				T((*s)->mount.source));
			stack_free(*s);
			*s = NULL;
			return EXIT_USAGE;
		default:
			fprintf(stderr, "brisk: cannot find the storage behind %s: %s\n", T(arg),
				strerror(-rc));
			return EXIT_FAILED;
		}
	}
	char name[BLOCKDEV_NAME_LEN];
	if (blockdev_resolve_name(arg, name, sizeof(name)) == 0) {
		rc = stack_resolve_device(name, s);
		if (rc == 0)
			return 0;
		fprintf(stderr, "brisk: cannot probe device %s: %s\n", T(name), strerror(-rc));
		return EXIT_FAILED;
	}
	fprintf(stderr, "brisk: %s: no such directory or block device (give a directory, or a "
		"device such as sda or /dev/sda)\n", T(arg));
	return EXIT_USAGE;
}

int cmd_devices_main(int argc, char **argv)
{
	struct dev_args d = { 0 };
	const struct optab_cmd cmd = { "devices", dev_options, NULL, &d, &usage_text };
	int rc = optab_parse(&cmd, argc, argv);
	if (rc)
		return rc == OPTAB_DONE ? 0 : rc;
	if (argc - optind > 1 || (d.all && argc - optind > 0))
		return optab_usage_error("devices", "too many arguments ('%s' is extra)",
					 argv[argc - 1]);
	const char *arg = optind < argc ? argv[optind] : ".";

	struct view v = { .utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8") };
	char path[4096], err[256] = "";
	if (datadir_find("advisories.conf", path, sizeof(path)) < 0)
		fprintf(stderr, "brisk: warning: no firmware advisory data at %s: advisories "
			"are not checked (reinstall brisk, or set BRISK_DATADIR)\n", path);
	else if ((rc = advisory_load(path, &v.adv, err, sizeof(err))) < 0)
		fprintf(stderr, "brisk: warning: %s:%s: advisories are not checked\n", path,
			rc == -EINVAL ? err : strerror(-rc));

	if (d.all) {
		rc = list_all(&v, d.json);
		advisory_free(&v.adv);
		return rc;
	}
	struct stack *s = NULL;
	rc = resolve_arg(arg, &s);
	if (rc == 0) {
		if (d.json) {
			struct json_object *o = json_head(0);
			json_object_object_add(o, "query", jout_string(arg));
			json_stack_into(o, &v, s);
			json_machine(o);
			json_print(o);
		} else {
			print_stack(&v, s, "");
		}
	}
	stack_free(s);
	advisory_free(&v.adv);
	return rc;
}
