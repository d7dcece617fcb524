/* cmd_lab — `brisk lab`; see cmd_lab.h and brisk-lab(1). */
#include "cmd_lab.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"
#include "labloop.h"
#include "labmodel.h"
#include "labstats.h"
#include "optab.h"
#include "parse.h"
#include "progress.h"

/* The command lines of up and down. */
struct up_args {
	struct lab_options o;
	int calibrate, dirty_set, quiet;
};

struct down_args {
	int all;
};

static optab_fn up_set;

static const struct optab lab_help[] = {
	OPTAB_HELP_AS("this text (alone, or after up, down or status)"),
	OPTAB_END,
};

#define UP_(name, key, arg, help, fn, field) \
	{ name, key, arg, help, fn, offsetof(struct up_args, field), NULL }

static const struct optab up_options[] = {
	UP_("model", 'm', "NAME", "device model (default hdd-7200; see 'brisk lab models')",
	    optab_text, o.model),
	UP_("size", 's', "SIZE", "disk size, sparse (default 1G; 128M..64G)", up_set, o.size),
	UP_("name", 'n', "NAME", "lab name (default: first free labN)", optab_text, o.name),
	UP_("dir", 'd', "DIR", "image and mount point (default " LAB_DEFAULT_DIR ")", optab_text,
	    o.dir),
	UP_("dirty-limit", 'D', "SIZE",
	    "dirty page cache the disk may hold (strict\n"
	    "per-device limit; default a quarter of the disk, at\n"
	    "most 256M; 0 = the kernel's global limits)", up_set, o.dirty_limit),
	UP_("calibrate", 'c', NULL,
	    "time random and sequential reads on the made disk\n"
	    "and print them beside the model's targets", optab_flag, calibrate),
	UP_("quiet", 'q', NULL, "no progress line on stderr while it calibrates", optab_flag,
	    quiet),
	OPTAB_MORE(lab_help),
	OPTAB_END,
};

static const struct optab down_options[] = {
	{ "all", 'a', NULL, "every lab disk", optab_flag, offsetof(struct down_args, all), NULL },
	OPTAB_MORE(lab_help),
	OPTAB_END,
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: brisk lab up [--model NAME] [--size SIZE] [--name NAME] [--dir DIR]\n"
		"                    [--dirty-limit SIZE] [--calibrate] [--quiet]\n"
		"       brisk lab down NAME... | --all\n"
		"       brisk lab status\n"
		"       brisk lab models\n"
		"\n"
		"An emulated slow disk: a FUSE file that serves each request through a\n"
		"device model (seek, rotation, media rate; a command queue of the model's\n"
		"depth served shortest positioning time first), a loop device with direct\n"
		"I/O on it, its hardware queue as deep as the model's, so the kernel's I/O\n"
		"schedulers sit in front of it as in front of a real disk, and an ext4 file\n"
		"system mounted at a directory it prints.\n"
		"\n"
		"  up          make a lab disk (root); cleans stale ones first\n");
	optab_help(f, up_options, 4, 22);
	fprintf(f, "  down        take lab disks apart: unmount, detach, stop, remove (root)\n");
	optab_help(f, down_options, 4, 22);
	fprintf(f,
		"  status      list lab disks and what of them exists\n"
		"  models      list the device models and their numbers\n");
	optab_help(f, lab_help, 2, 14);
	fprintf(f,
		"\n"
		"State: $BRISK_RUNTIME_DIR/lab (default /run/brisk/lab).\n"
		"Models: $BRISK_LAB_MODELS or profiles/lab-models.ini.  See brisk-lab(1).\n");
}

/* --size and --dirty-limit of up (optab_fn): 2 when the value is bad (said). */
static int up_set(const char *cmd, const struct optab *o, void *ctx, const char *arg)
{
	struct up_args *a = ctx;
	(void)cmd;
	if (o->key == 's' && (parse_size(arg, &a->o.size) || a->o.size < LAB_MIN_SIZE ||
			      a->o.size > LAB_MAX_SIZE)) {
		fprintf(stderr, "brisk lab up: bad --size '%s' (128M..64G)\n", arg);
		return EXIT_USAGE;
	}
	if (o->key == 'D') {
		a->dirty_set = 1;
		if (parse_size(arg, &a->o.dirty_limit) ||
		    (a->o.dirty_limit && a->o.dirty_limit < (4u << 20))) {
			fprintf(stderr, "brisk lab up: bad --dirty-limit '%s' (0, or 4M and more)\n",
				arg);
			return EXIT_USAGE;
		}
	}
	return 0;
}

/* 0 as root; else says so: 1. */
static int need_root(const char *what)
{
	if (geteuid() == 0)
		return 0;
	fprintf(stderr, "brisk lab %s: needs root (it makes loop devices and mounts file "
		"systems); run it as root, e.g. with sudo\n", what);
	return 1;
}

static void print_calibration(const struct lab_calibration *c, const struct labmodel *m)
{
	printf("calibration of %s (%d random 4 KiB O_DIRECT reads, 64 MiB sequential):\n",
	       m->name, c->n);
	printf("  %-26s %10s %10s\n", "", "model", "measured");
	printf("  %-26s %7.2f ms %7.2f ms (p50 %.2f, p90 %.2f)\n", "random 4 KiB read, mean",
	       c->want_rand_ms, c->rand_mean_ms, c->rand_p50_ms, c->rand_p90_ms);
	printf("  %-26s %5.1f MB/s %5.1f MB/s\n", "sequential read", c->want_seq_mb_s,
	       c->seq_mb_s);
	if (m->ssh_hi_s > 0)
		printf("  %-26s %.2f-%.2f s\n", "ssh-like 2 MiB, idle", m->ssh_lo_s, m->ssh_hi_s);
}

/* lab_calibrate's progress: the phase, how far, the time left. */
static void show_calibration(void *ctx, const struct lab_calibrate_progress *p)
{
	if (p->phase == LAB_CALIBRATE_RANDOM)
		progress_show(ctx, p->eta_ns, "random reads %" PRIu64 "/~%" PRIu64, p->done, p->total);
	else
		progress_show(ctx, p->eta_ns, "sequential %" PRIu64 "/%" PRIu64 " MiB", p->done >> 20,
			      p->total >> 20);
}

static int load_models(struct labmodel *ms, int *n, char *path, size_t plen)
{
	char err[1024];
	int rc = lab_models_path(path, plen, err, sizeof err);
	if (!rc)
		rc = labmodel_load(path, ms, LABMODEL_MAX, n, err, sizeof err);
	if (rc)
		fprintf(stderr, "brisk lab: %s\n", err);
	return rc;
}

static int cmd_up(int argc, char **argv)
{
	struct up_args a = { 0 };
	char err[2048];
	const struct optab_cmd cmd = { "lab up", up_options, usage, &a, NULL };
	int rc = optab_parse(&cmd, argc, argv);
	if (rc)
		return rc == OPTAB_DONE ? 0 : rc;
	struct lab_options o = a.o;
	if (optind < argc)
		return optab_usage_error("lab up", "unexpected argument '%s'", argv[optind]);
	if (o.name && !lab_name_valid(o.name)) {
		fprintf(stderr, "brisk lab up: bad --name '%s' (letters, digits, _ and -)\n", o.name);
		return EXIT_USAGE;
	}
	if (!a.dirty_set) {
		uint64_t size = o.size ? o.size : LAB_DEFAULT_SIZE;
		o.dirty_limit = size / 4 < LAB_DEFAULT_DIRTY ? size / 4 : LAB_DEFAULT_DIRTY;
	}
	struct labmodel ms[LABMODEL_MAX];
	char mpath[1024];
	int n;
	if (load_models(ms, &n, mpath, sizeof mpath))
		return EXIT_USAGE;
	const struct labmodel *m = labmodel_find(ms, n, o.model ? o.model : "hdd-7200");
	if (!m) {
		fprintf(stderr, "brisk lab up: no model '%s' in %s (see 'brisk lab models')\n",
			o.model, mpath);
		return EXIT_USAGE;
	}
	o.models_file = mpath;
	if (need_root("up"))
		return EXIT_PRIVILEGE;
	if (access("/dev/fuse", R_OK | W_OK) != 0) {
		fprintf(stderr, "brisk lab up: /dev/fuse: %s (load the fuse module)\n",
			strerror(errno));
		return EXIT_FAILED;
	}
	int cleaned;
	if (lab_recover_stale(&cleaned, err, sizeof err))
		fprintf(stderr, "brisk lab up: cleaning a stale lab disk: %s\n", err);
	else if (cleaned)
		fprintf(stderr, "brisk lab up: took apart %d stale lab disk(s)\n", cleaned);

	struct lab_state s;
	rc = lab_up(&o, &s, err, sizeof err);
	if (rc) {
		fprintf(stderr, "brisk lab up: %s\n", err);
		return rc == -EINVAL || rc == -EEXIST ? EXIT_USAGE : EXIT_FAILED;
	}
	char size[32];
	parse_format_iec(size, sizeof(size), s.size);
	printf("lab %s: model %s, %s, %s, scheduler %s, rotational %d, direct I/O %s\n",
	       s.name, s.model, size, s.loop, s.scheduler,
	       s.rotational, s.dio == 1 ? "on" : s.dio == 0 ? "OFF" : "unknown");
	if (s.dio != 1)
		fprintf(stderr, "brisk lab up: warning: %s does not do direct I/O on its FUSE "
			"file (loop/dio=%d): requests pass the page cache of the FUSE file and "
			"timings are less faithful\n", s.loop, s.dio);
	if (s.queue_depth > 0) {
		printf("queue depth %d (model %d): hardware tags ", s.queue_depth, m->queue_depth);
		if (s.tag_depth > 0)
			printf("%d under %s", s.tag_depth, s.scheduler);
		else
			printf("not read back (debugfs is not mounted at %s)", LABLOOP_DEBUGFS);
		if (s.orig_tag_depth > 0)
			printf(", %d before", s.orig_tag_depth);
		printf("\n");
		if (s.tag_depth > 0 && s.tag_depth != s.queue_depth)
			fprintf(stderr, "brisk lab up: warning: %s has %d hardware tags, not %d: the "
				"kernel did not keep the depth set under none\n", s.loop,
				s.tag_depth, s.queue_depth);
	} else if (s.orig_tag_depth > 0) {
		printf("queue depth: left as found (%d tags; model %d)\n", s.orig_tag_depth,
		       m->queue_depth);
	} else {
		fprintf(stderr, "brisk lab up: warning: the tag depth of %s cannot be read "
			"(neither debugfs nor mq/0/nr_tags), so it could not be put back: left "
			"as it is, not the model's %d\n", s.loop, m->queue_depth);
	}
	if (s.dirty_limit)
		printf("dirty limit %" PRIu64 " MiB (strict, this disk only)\n",
		       (s.dirty_limit + (1u << 19)) >> 20);
	else if (o.dirty_limit)
		fprintf(stderr, "brisk lab up: note: the global dirty limit (vm.dirty_*) is "
			"below %" PRIu64 " MiB already; the disk is left to it\n",
			o.dirty_limit >> 20);
	printf("mounted at %s\n", s.mnt);
	fflush(stdout);
	if (a.calibrate) {
		struct lab_calibration cal;
		struct progress line;
		progress_begin(&line, "lab calibrate", a.quiet);
		rc = lab_calibrate(&s, m, 2.0, &cal, line.on ? show_calibration : NULL, &line, err,
				   sizeof err);
		progress_end(&line);
		if (rc) {
			fprintf(stderr, "brisk lab up: calibration: %s\n", err);
			return EXIT_FAILED;
		}
		print_calibration(&cal, m);
	}
	return 0;
}

static int cmd_down(int argc, char **argv)
{
	struct down_args a = { 0 };
	int status = 0;
	char err[2048];
	const struct optab_cmd cmd = { "lab down", down_options, usage, &a, NULL };
	int rc = optab_parse(&cmd, argc, argv);
	if (rc)
		return rc == OPTAB_DONE ? 0 : rc;
	if (a.all == (optind < argc))
		return optab_usage_error("lab down", "give lab names or --all (see 'brisk lab "
					 "status')");
	for (int i = optind; i < argc; i++)
		if (!lab_name_valid(argv[i])) {
			fprintf(stderr, "brisk lab down: bad lab name '%s'\n", argv[i]);
			return EXIT_USAGE;
		}
	if (need_root("down"))
		return EXIT_PRIVILEGE;
	if (a.all) {
		struct lab_state *ls = calloc(64, sizeof *ls);
		int n;
		if (!ls || lab_list_err(ls, 64, &n, err, sizeof err)) {
			fprintf(stderr, "brisk lab down: cannot list lab disks: %s\n",
				ls ? err : "out of memory");
			free(ls);
			return EXIT_FAILED;
		}
		for (int i = 0; i < n; i++) {
			if (lab_down(ls[i].name, err, sizeof err)) {
				fprintf(stderr, "brisk lab down: %s: %s\n", ls[i].name, err);
				status = EXIT_FAILED;
			} else {
				printf("lab %s: taken apart\n", ls[i].name);
			}
		}
		free(ls);
		return status;
	}
	for (int i = optind; i < argc; i++) {
		rc = lab_down(argv[i], err, sizeof err);
		if (rc) {
			fprintf(stderr, "brisk lab down: %s\n", err);
			status = rc == -ENOENT && status == 0 ? EXIT_USAGE : EXIT_FAILED;
		} else {
			printf("lab %s: taken apart\n", argv[i]);
		}
	}
	return status;
}

static const char *yn(int v)
{
	return v ? "yes" : "no";
}

/* The server's counters (labstats.h), one line, when it can be asked:
 * alive and mounted (a stopped server would hang the read); the mount is
 * root's, so without root nothing is shown. */
static void status_counters(const struct lab_state *s, const struct lab_health *h)
{
	struct labstats st;
	if (!h->server_alive || !h->fuse_mounted)
		return;
	int rc = labstats_read(s->fusedir, &st);
	if (rc == -EACCES || rc == -EPERM)
		return;
	if (rc) {
		printf("  %s: the server's counters: %s\n", s->name,
		       rc == -ENOENT ? "none (a server from before they were kept)" : strerror(-rc));
		return;
	}
	printf("  %s served: %" PRIu64 " reads (%.1f MiB) in %.3f s of service, %.3f s resident; "
	       "%" PRIu64 " writes (%.1f MiB) in %.3f s, %.3f s resident; %" PRIu64
	       " started late%s\n", s->name, st.rd.n, (double)st.rd.bytes / (1 << 20),
	       (double)st.rd.service_ns / 1e9, (double)st.rd.resident_ns / 1e9, st.wr.n,
	       (double)st.wr.bytes / (1 << 20), (double)st.wr.service_ns / 1e9,
	       (double)st.wr.resident_ns / 1e9, st.late,
	       st.unmodelled ? "; model off (lab down)" : "");
}

static int cmd_status(int argc, char **argv)
{
	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
			usage(stdout);
			return 0;
		}
		return optab_usage_error("lab status", "%s '%s'", argv[1][0] == '-' ?
					 "unknown option" : "unexpected argument", argv[1]);
	}
	struct lab_state *ls = calloc(64, sizeof *ls);
	int n;
	char lerr[512] = "";
	if (!ls || lab_list_err(ls, 64, &n, lerr, sizeof lerr)) {
		fprintf(stderr, "brisk lab status: cannot read the lab state directory: %s\n",
			ls ? lerr : "out of memory");
		free(ls);
		return EXIT_FAILED;
	}
	if (n == 0)
		printf("no lab disks\n");
	else
		printf("%-8s %-10s %8s %-11s %-12s %-5s %-4s %-12s %-10s %s\n", "NAME", "MODEL",
		       "SIZE", "LOOP", "SCHEDULER", "DEPTH", "DIO", "SERVER", "STATE", "MOUNT");
	for (int i = 0; i < n; i++) {
		struct lab_health h;
		const struct lab_state *s = &ls[i];
		lab_check(s, &h);
		const char *state = lab_is_stale(s) ? (s->ready ? "stale" : "incomplete")
			: !s->ready ? "making"
			: (h.server_alive && h.fuse_mounted && h.loop_bound && h.fs_mounted) ? "ok"
			: "degraded";
		char server[24];
		snprintf(server, sizeof server, "%d%s", (int)s->server, h.server_alive ? "" : "(dead)");
		/* The tags' depth now (debugfs), else the one lab up set ("~"). */
		char depth[16] = "-";
		if (h.tag_depth > 0)
			snprintf(depth, sizeof depth, "%d", h.tag_depth);
		else if (h.loop_bound && s->queue_depth > 0)
			snprintf(depth, sizeof depth, "~%d", s->queue_depth);
		char size[24];   /* 8 columns: "512 MiB" as "  512MiB", 1 GiB as "  1.0GiB" */
		if (s->size < (1ULL << 30))
			snprintf(size, sizeof size, "%5.0fMiB", (double)s->size / (1 << 20));
		else
			snprintf(size, sizeof size, "%5.1fGiB", (double)s->size / (1 << 30));
		printf("%-8s %-10s %8s %-11s %-12s %-5s %-4s %-12s %-10s %s\n", s->name,
		       s->model, size, h.loop_bound ? s->loop : "-",
		       h.scheduler[0] ? h.scheduler : "-", depth,
		       h.dio < 0 ? "-" : h.dio ? "on" : "off", s->server ? server : "-", state,
		       h.fs_mounted ? s->mnt : "-");
		if (strcmp(state, "ok") != 0)
			printf("  %s: fs mounted %s, loop attached %s, FUSE mounted %s, server "
			       "running %s, image present %s; 'brisk lab down %s' takes it apart\n",
			       s->name, yn(h.fs_mounted), yn(h.loop_bound), yn(h.fuse_mounted),
			       yn(h.server_alive), yn(h.image_exists), s->name);
		status_counters(s, &h);
	}
	free(ls);
	return 0;
}

static int cmd_models(int argc, char **argv)
{
	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
			usage(stdout);
			return 0;
		}
		return optab_usage_error("lab models", "%s '%s'", argv[1][0] == '-' ?
					 "unknown option" : "unexpected argument", argv[1]);
	}
	struct labmodel ms[LABMODEL_MAX];
	char path[1024];
	int n;
	if (load_models(ms, &n, path, sizeof path))
		return EXIT_FAILED;
	printf("%-11s %5s %9s %9s %6s %6s %7s %8s %5s %11s %s\n", "MODEL", "RPM", "SEEK-TRK",
	       "SEEK-AVG", "READ", "WRITE", "OVERHD", "RND-WR", "DEPTH", "SSH-LIKE",
	       "DESCRIPTION");
	for (int i = 0; i < n; i++) {
		const struct labmodel *m = &ms[i];
		char ssh[24] = "-";
		if (m->ssh_hi_s > 0)
			snprintf(ssh, sizeof ssh, "%.2f-%.2fs", m->ssh_lo_s, m->ssh_hi_s);
		printf("%-11s %5.0f %7.1fms %7.1fms %4.0fMB %4.0fMB %5.2fms %6.0fms %5d %11s %s\n",
		       m->name, m->rpm, m->seek_track_ms, m->seek_avg_ms, m->read_mb_s,
		       m->write_mb_s, m->overhead_ms, m->random_write_ms, m->queue_depth, ssh,
		       m->description);
	}
	printf("(%s; MB = 10^6 bytes per second)\n", path);
	return 0;
}

/* Hidden: the FUSE server, started by `lab up`; its options are internal
 * (no --help, no man page). */
struct serve_args {
	const char *models, *model, *image, *mp, *fsname;
	int64_t rfd;
};

static int serve_set_fd(const char *cmd, const struct optab *o, void *ctx, const char *arg)
{
	struct serve_args *a = ctx;
	(void)cmd;
	(void)o;
	return parse_int(arg, 0, 1 << 20, &a->rfd) ? EXIT_USAGE : 0;
}

#define SERVE_(name, arg, fn, field) \
	{ name, OPTAB_LONG, arg, NULL, fn, offsetof(struct serve_args, field), NULL }

static const struct optab serve_options[] = {
	SERVE_("models", "FILE", optab_text, models),
	SERVE_("model", "NAME", optab_text, model),
	SERVE_("image", "FILE", optab_text, image),
	SERVE_("mountpoint", "DIR", optab_text, mp),
	SERVE_("fsname", "NAME", optab_text, fsname),
	SERVE_("ready-fd", "FD", serve_set_fd, rfd),
	OPTAB_END,
};

static int cmd_serve(int argc, char **argv)
{
	struct serve_args a = { .rfd = -1 };
	const struct optab_cmd cmd = { "lab serve", serve_options, NULL, &a, NULL };
	int rc = optab_parse(&cmd, argc, argv);
	if (rc)
		return rc;
	if (!a.models || !a.model || !a.image || !a.mp || !a.fsname || optind < argc) {
		fprintf(stderr, "brisk lab serve: internal command, started by 'brisk lab up'\n");
		return EXIT_USAGE;
	}
	if (need_root("serve"))
		return EXIT_PRIVILEGE;
	return lab_serve(a.models, a.model, a.image, a.mp, a.fsname, (int)a.rfd) ? EXIT_FAILED : 0;
}

int cmd_lab_main(int argc, char **argv)
{
	if (argc < 2)
		return optab_usage_error("lab", "expected a command: up, down, status or models");
	const char *sub = argv[1];
	if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0 || strcmp(sub, "help") == 0) {
		usage(stdout);
		return 0;
	}
	optind = 1;
	if (strcmp(sub, "up") == 0)
		return cmd_up(argc - 1, argv + 1);
	if (strcmp(sub, "down") == 0)
		return cmd_down(argc - 1, argv + 1);
	if (strcmp(sub, "status") == 0)
		return cmd_status(argc - 1, argv + 1);
	if (strcmp(sub, "models") == 0)
		return cmd_models(argc - 1, argv + 1);
	if (strcmp(sub, "serve") == 0)
		return cmd_serve(argc - 1, argv + 1);
	return optab_usage_error("lab", "unknown %s '%s'; expected a command: up, down, status or models",
				 sub[0] == '-' ? "option" : "command", sub);
}
