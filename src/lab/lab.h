/* lab — emulated slow disks: make, list and take apart.
 *
 * A lab disk NAME is this stack, made bottom-up by lab_up() and taken
 * apart top-down by lab_down():
 *   DIR/NAME/disk.img      sparse image on a real disk (ext4 made on it)
 *   DIR/NAME/fuse/         FUSE mount served by `brisk lab serve` (labfs),
 *                          holding disk.img through the device model
 *   /dev/loopN             loop device on fuse/disk.img, direct I/O,
 *                          rotational and scheduler per model, its bdi's
 *                          dirty limit (strict) when asked; the loop
 *                          device's previous settings are put back on down
 *   DIR/NAME/mnt/          the ext4 file system, mode 1777
 * DIR defaults to /var/lib/brisk/lab.  Everything made is recorded, before
 * it is made, in the state file RUNTIME/NAME.state (RUNTIME =
 * $BRISK_RUNTIME_DIR/lab, default /run/brisk/lab; mode 0644, key=value
 * lines), so lab_down() can take apart whatever exists also after the
 * process that made it, or the server, was killed.  lab_down() acts only on
 * what it can prove is the lab's: a mount whose source is the recorded loop
 * device, a loop device whose backing file is the recorded FUSE file, a
 * FUSE mount of type fuse.brisk-lab, a server process whose start time
 * matches.  Order: umount fs, put back the loop device's settings (from the
 * restore journal, labloop.h), detach
 * loop, unmount FUSE, stop server, remove image and directories, remove
 * the state file.
 *
 * RUNTIME and RUNTIME/lab are opened as checked directories (rundir.h:
 * owned by the effective uid, not group/other-writable, no symlink on the
 * way; reading without root accepts root's) and every file in them --
 * NAME.state, NAME.state.tmp, NAME.log, lock -- is reached from that
 * descriptor with O_NOFOLLOW; a state file must be root's (when root) and
 * not writable by others.  A refused directory is left alone: nothing in
 * it is read, removed or acted on, and err names the path and the reason.
 *
 * Functions return 0 or -errno and put a message for the user in err; they
 * never print.  Changing functions take a lock (RUNTIME/lock).
 *
 * The pieces: lab (making and taking apart, calibration, the server's
 * entry point), labstate (state files, directories, lock), labloop (the
 * loop device and its journaled settings), labproc (process identity),
 * labfs (the FUSE server), labmodel (the timing model).
 */
#ifndef BRISK_LAB_H
#define BRISK_LAB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "labmodel.h"

#define LAB_NAME_MAX 32
#define LAB_PATH_MAX 1024
#define LAB_DEFAULT_DIR "/var/lib/brisk/lab"
#define LAB_DEFAULT_SIZE (1024ull * 1024 * 1024)
#define LAB_MIN_SIZE (128ull * 1024 * 1024)
#define LAB_MAX_SIZE (64ull * 1024 * 1024 * 1024)
/* Dirty pages the lab disk may hold (its bdi's max_bytes, strict_limit):
 * a buffered writer is throttled and written back as on a machine of the
 * models' era instead of filling gigabytes of page cache first.
 * `lab up` takes a quarter of the disk, at most this. */
#define LAB_DEFAULT_DIRTY (256ull * 1024 * 1024)

struct lab_state {
	char name[LAB_NAME_MAX];
	char model[LABMODEL_NAME_MAX];
	char disk_class[LABMODEL_CLASS_MAX]; /* the model's class ("" = unknown:
					 * a state written before it was kept) */
	uint64_t size;
	char dir[LAB_PATH_MAX];		/* DIR/NAME */
	char image[LAB_PATH_MAX];
	char fusedir[LAB_PATH_MAX];
	char fusefile[LAB_PATH_MAX];
	char mnt[LAB_PATH_MAX];
	char loop[32];			/* /dev/loopN, "" until chosen */
	pid_t creator, server;		/* 0 when none */
	unsigned long long creator_start, server_start; /* /proc/PID/stat #22 */
	int dio;			/* loop/dio read back: 1, 0, -1 unknown */
	int ready;			/* 1 once everything is in place */
	char scheduler[32];		/* as read back after lab up */
	int rotational;
	uint64_t dirty_limit;		/* bdi max_bytes set (strict), 0 = none
					 * (also when the global limit is lower) */
	/* The restore journal (journal.h, kind lab) holding the loop device's
	 * own settings before lab up, which lab down puts back from it (a
	 * loop device outlives its binding): its file name, "" = none. */
	char journal[64];
	/* Those settings as found, for information: "" / -1 = not read. */
	char orig_scheduler[32];
	int orig_rotational, orig_strict_limit;
	long long orig_max_ratio_fine;
	/* The queue depth (labloop.h): the tag depth lab up set (what
	 * nr_requests took under none; 0 = left alone), as read back from
	 * debugfs after the switch to the model's scheduler (-1 = debugfs not
	 * mounted), and the one found, which lab down puts back (-1 unknown);
	 * diskseq: the loop device's when configured ("" unknown). */
	int queue_depth, tag_depth, orig_tag_depth;
	char diskseq[24];
};

/* What exists of a recorded lab right now. */
struct lab_health {
	int server_alive, fuse_mounted, loop_bound, fs_mounted, image_exists;
	int dio;			/* current loop/dio, -1 if not bound */
	char scheduler[32];		/* current active scheduler, "" if none */
	int tag_depth;			/* current hardware tag depth (debugfs),
					 * -errno unknown */
};

struct lab_options {
	const char *model;		/* default hdd-7200 */
	const char *name;		/* NULL: first free labN */
	const char *dir;		/* NULL: LAB_DEFAULT_DIR */
	uint64_t size;			/* 0: LAB_DEFAULT_SIZE */
	const char *models_file;	/* NULL: lab_models_path() */
	uint64_t dirty_limit;		/* 0: the kernel's global dirty limits */
};

struct lab_calibration {
	int n;				/* random reads timed */
	double rand_mean_ms, rand_p50_ms, rand_p90_ms;
	double seq_mb_s;		/* 10^6 bytes per second */
	double want_rand_ms, want_seq_mb_s;
};

/* RUNTIME directory (no trailing slash). */
void lab_runtime_dir(char *buf, size_t len);
/* The model table: $BRISK_LAB_MODELS, else lab-models.ini where
 * datadir_find() finds it ($BRISK_DATADIR, profiles/ next to the binary,
 * the installed data directory).  0, or -ENOENT with a message in err. */
int lab_models_path(char *buf, size_t len, char *err, size_t errlen);
/* Is NAME a valid lab name ([A-Za-z0-9_-], 1..31 chars)? */
int lab_name_valid(const char *name);

/* Make a lab disk; *out gets its state.  On failure everything made is
 * taken apart again.  -EINVAL bad model/size/name, -EEXIST name in use,
 * -ENOSPC not enough free space (size + floor of max(5 %, 2 GiB)). */
int lab_up(const struct lab_options *o, struct lab_state *out, char *err, size_t errlen);
/* Take apart the lab NAME.  -ENOENT no such lab; -EBUSY something in use
 * (the state file is kept, so it can be retried). */
int lab_down(const char *name, char *err, size_t errlen);
/* The recorded labs, sorted by name.  A refused or unreadable state
 * directory: -errno and the message in err (may be NULL). */
int lab_list_err(struct lab_state *out, int max, int *n, char *err, size_t errlen);
int lab_list(struct lab_state *out, int max, int *n);   /* no message */
int lab_load(const char *name, struct lab_state *out);
void lab_check(const struct lab_state *s, struct lab_health *h);
/* A lab is stale when its server is dead, or when it never became ready
 * and the process making it is gone. */
int lab_is_stale(const struct lab_state *s);
/* Take apart every stale lab; *cleaned gets how many (may be NULL).
 * Returns the first error, the others are still tried. */
int lab_recover_stale(int *cleaned, char *err, size_t errlen);
/* 0, the model's name and its disk class (labmodel.h; "" when the lab's
 * state does not say) when backing_file (as in
 * /sys/block/loopN/loop/backing_file) is the FUSE file of a recorded lab;
 * -ENOENT otherwise.  cls may be NULL. */
int lab_describe_loop(const char *backing_file, char *model, size_t len, char *cls,
		      size_t clslen);
/* The model to show for disk b: "brisk lab NAME" when it is a lab disk (and
 * its class in cls, "" when the lab's state does not say; cls may be
 * NULL), else b's own model ("" when it has none).  1 for a lab disk, 0
 * otherwise. */
struct blockdev;
int lab_disk_model(const struct blockdev *b, char *model, size_t len, char *cls, size_t clslen);
/* How far lab_calibrate() is, for a front end's progress line. */
enum lab_calibrate_phase {
	LAB_CALIBRATE_RANDOM,		/* done/total: reads timed / expected in the time */
	LAB_CALIBRATE_SEQ,		/* done/total: bytes read / to read */
};
struct lab_calibrate_progress {
	enum lab_calibrate_phase phase;
	uint64_t done, total;
	uint64_t eta_ns;		/* both phases: the random reads at the pace
					 * seen, the sequential ones at the model's
					 * rate, then at the rate seen */
};
typedef void (*lab_calibrate_fn)(void *ctx, const struct lab_calibrate_progress *p);
#define LAB_CALIBRATE_REPORT_NS 100000000ull

/* Time O_DIRECT reads on the lab's loop device: 4 KiB reads at random
 * positions for about `seconds`, then 64 MiB of 1 MiB sequential reads.
 * progress (may be NULL) is called with ctx when each phase starts, then
 * at most every LAB_CALIBRATE_REPORT_NS, between reads (never inside a
 * timed one); it must not print to anything a read waits on. */
int lab_calibrate(const struct lab_state *s, const struct labmodel *m, double seconds,
		  struct lab_calibration *c, lab_calibrate_fn progress, void *ctx,
		  char *err, size_t errlen);

/* The hidden `brisk lab serve` process: load the model and run labfs. */
int lab_serve(const char *models_file, const char *model, const char *image,
	      const char *mountpoint, const char *fsname, int ready_fd);

#endif
