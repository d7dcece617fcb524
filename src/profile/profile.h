/* profile — an experiment in a file: target, settings, loads and actions.
 *
 * Format (INI, read with libinih; documented in brisk-profile(5)):
 *
 *   [profile]            name, description, runtime, ramp_time, concurrency,
 *                        finite_load
 *   [target]             directory = PATH  |  devices = sda nvme0n1
 *   [settings]           tunables under the names `brisk set` takes
 *                        (scheduler, nr_requests, low_latency, vm.dirty_ratio,
 *                        ...); a key may carry a class prefix:
 *                        rotational.scheduler = bfq
 *   [settings CLASS]     the same keys for one device class only:
 *                        rotational, ssd, nvme, mmc
 *   [load NAME]          a background load, fio key names (rw, bs, bsrange,
 *                        size, io_size, numjobs, rate, fsync, direct, prio,
 *                        prioclass, ioengine, invalidate)
 *   [action NAME]        a timed interactive action: type (exec, ls,
 *                        ssh-like, save), startdelay, interval, loops and the
 *                        fio keys that shape it (bsrange, size, filesize,
 *                        nrfiles)
 *
 * Files (one module, one header, every function profile_*):
 *   profile.c        the model: settings by class, loads, actions, equality
 *   profile_load.c   the INI loader (profile_parse_*)
 *   profile_write.c  the writer (profile_write)
 *   profile_file.c   where profiles live: names, paths, saving
 *   profile_run.c    the glue to session_config and to the settings plan
 * [load] and [action] keys are read by loadkeys.h, shared with fiojob.
 *
 * Contract:
 *  - profile_parse*() fill a caller-owned struct profile (plain data, no
 *    pointers, no free needed).  On any error they return -EINVAL (or
 *    -errno for a file that cannot be read) and write exactly one message
 *    "FILE:LINE: what is wrong, what is expected" into err; *out is then
 *    unspecified.  Nothing prints, nothing is run or changed.
 *  - Every error is detected, never skipped: unknown section or key,
 *    duplicate key or section, bad value, a line longer than
 *    PROFILE_MAX_LINE characters, NUL bytes, continuation lines.
 *  - A profile is untrusted text: anywhere in the file (values, keys,
 *    section names, comments) a control character (C0 but TAB, DEL, C1) or
 *    invalid UTF-8 is an error "FILE:LINE: control character \xHH at byte
 *    N, ..." (text.h; the byte is named, never echoed).  A trailing CR of a
 *    CRLF line end is not part of the line.
 *  - profile_parse_file() names an unnamed profile after its file
 *    (NAME.profile); a file name that gives no valid name is an error.
 *  - profile_write() writes a profile that profile_parse() reads back into
 *    an equal profile (profile_equal()); it refuses (-EINVAL) values that
 *    would not survive the trip, and any value that is not clean text
 *    (text.h), so it never writes a line break or control byte from data.
 *  - Setting values are checked for form and range here; whether a device
 *    offers a scheduler is checked when the setting is applied.
 */
#ifndef BRISK_PROFILE_H
#define BRISK_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "action.h"
#include "load.h"

#define PROFILE_MAX_LINE      198   /* inih's INI_MAX_LINE (200) less '\n' and NUL */
#define PROFILE_MAX_FILE      (1024 * 1024)
#define PROFILE_NAME_LEN      64
#define PROFILE_DESC_LEN      160
#define PROFILE_PATH_LEN      176
#define PROFILE_SECTION_LEN   32
#define PROFILE_CMD_LEN       160
#define PROFILE_KEY_LEN       40
#define PROFILE_VALUE_LEN     48
#define PROFILE_MAX_DEVICES   16
#define PROFILE_MAX_SETTINGS  128
#define PROFILE_MAX_LOADS     32
#define PROFILE_MAX_ACTIONS   64
#define PROFILE_ERR_LEN       512
#define PROFILE_MAX_CONCURRENCY 64  /* SESSION_MAX_INFLIGHT */

enum profile_class {
	PROFILE_CLASS_ALL,          /* [settings]: every disk */
	PROFILE_CLASS_ROTATIONAL,   /* rotational SATA/SAS, virtio and Xen disks
				     * (sd*, vd*, xvd*; queue/rotational 1) */
	PROFILE_CLASS_SSD,          /* the same, non-rotational (rotational 0) */
	PROFILE_CLASS_NVME,         /* nvme*n* */
	PROFILE_CLASS_MMC,          /* mmcblk* */
	PROFILE_CLASS_COUNT
};

/* Where a setting lives. */
enum profile_scope {
	PROFILE_SCOPE_QUEUE,        /* /sys/block/DEV/queue/KEY */
	PROFILE_SCOPE_IOSCHED,      /* /sys/block/DEV/queue/iosched/KEY */
	PROFILE_SCOPE_DEVICE,       /* /sys/block/DEV/device/KEY (queue_depth) */
	PROFILE_SCOPE_VM,           /* /proc/sys/vm/... (key "vm.NAME") */
	PROFILE_SCOPE_BDI,          /* /sys/block/DEV/bdi/NAME (key "bdi.NAME") */
};

struct profile_setting {
	enum profile_class cls;
	char key[PROFILE_KEY_LEN];       /* as `brisk set` takes it */
	char value[PROFILE_VALUE_LEN];   /* normalised: decimal or a name */
	int line;                        /* 0 when not from a file */
};

struct profile_load {
	char name[PROFILE_SECTION_LEN];
	struct load_spec spec;           /* what the engine runs */
	int line;                        /* the [load NAME] line */
};

struct profile_action {
	char name[PROFILE_SECTION_LEN];
	enum action_kind kind;
	/* The engine's config with exec_cmd left NULL; see profile_action_config(). */
	struct action_config cfg;
	char cmd[PROFILE_CMD_LEN];       /* exec: the program and its arguments; "" = default */
	uint64_t startdelay_ns;          /* first sample this long after the phase starts */
	uint64_t interval_ns;            /* between sample starts; 0 = back to back */
	unsigned loops;                  /* samples per phase; 0 = until the phase ends */
	int line;                        /* the [action NAME] line */
};

struct profile {
	char name[PROFILE_NAME_LEN];
	char description[PROFILE_DESC_LEN];
	uint64_t runtime_ns;             /* loaded phase; 0 = the engine's default */
	uint64_t ramp_time_ns;           /* warm-up before timing; 0 = default */
	unsigned concurrency;            /* samples in flight at most; 0/1 = one at a time */
	int finite_load;                 /* the loads end on purpose before the
					  * loaded phase may (not an error) */
	char directory[PROFILE_PATH_LEN];/* [target] directory; "" = the current one */
	size_t n_devices;                /* [target] devices */
	char devices[PROFILE_MAX_DEVICES][32];
	size_t n_settings;
	struct profile_setting settings[PROFILE_MAX_SETTINGS];
	size_t n_loads;
	struct profile_load loads[PROFILE_MAX_LOADS];
	size_t n_actions;
	struct profile_action actions[PROFILE_MAX_ACTIONS];
};

/* An empty profile with the given name (may be NULL). */
void profile_init(struct profile *p, const char *name);
/* The default quick workload: one buffered 1 MiB sequential writer and the
 * four actions (exec, ls, ssh-like, save); profiles/quick.profile holds the
 * same. Replaces p's loads and actions. */
void profile_default_workload(struct profile *p);

/* Parse a file; `display` names it in messages (NULL: the path). */
int profile_parse_file(const char *path, const char *display, struct profile *out,
		       char *err, size_t errlen);
/* Parse a buffer (need not be NUL-terminated); `display` names it in
 * messages.  The fuzz target's entry point. */
int profile_parse_buffer(const char *data, size_t len, const char *display,
			 struct profile *out, char *err, size_t errlen);

/* NAME -> path.  A name containing '/' (or an existing file ending in
 * ".profile") is a file; otherwise the first of
 *   $XDG_CONFIG_HOME/brisk/profiles/NAME.profile (default ~/.config),
 *   /etc/brisk/profiles/NAME.profile,
 *   datadir_profiles()/NAME.profile.
 * 0, -EINVAL for a malformed name, -ENOENT when none exists (err says
 * where it looked). */
int profile_resolve(const char *name, char *path, size_t len, char *err, size_t errlen);
/* The user directory ($XDG_CONFIG_HOME/brisk/profiles); -ENOENT without HOME. */
int profile_user_dir(char *out, size_t len);
/* Every profile NAME.profile in the search path (user, system, shipped
 * directories; a name in an earlier one shadows the later ones), sorted by
 * name, into a malloc'ed array (free it).  dirs (may be NULL) gets the
 * three directories looked in ("" for a user dir that cannot be known).
 * Only NAMEs that pass profile_name_ok() (anyone may name a file; shells
 * complete these names); hidden .NAME.profile files are not looked at.
 * Names only: nothing is parsed.  0 or -ENOMEM.
 * profile_list_refused(): the files NAME.profile left out because NAME is
 * no profile name, sorted by path (name is "" when NAME is too long). */
struct profile_entry {
	char name[PROFILE_NAME_LEN];
	char where[16];          /* "user", "system", "shipped" */
	char path[PATH_MAX];
};
int profile_list(struct profile_entry **out, size_t *n, char dirs[3][PATH_MAX]);
int profile_list_refused(struct profile_entry **out, size_t *n);
#define PROFILE_SYSTEM_DIR "/etc/brisk/profiles"
/* Resolve and parse; display is the path. */
int profile_load_named(const char *name, struct profile *out, char *path, size_t pathlen,
		       char *err, size_t errlen);

/* Save p as the file path, safely: written to a temporary file next to
 * it, fsync'ed, mode 0644, then moved into place, so a crash leaves the
 * old file or the new one, never half of one.  Without force an existing
 * path is refused, atomically.  0; -EEXIST ("PATH exists" in err);
 * -EINVAL (p cannot be written, profile_write()'s message);
 * -ENAMETOOLONG; or -errno ("cannot write PATH: reason").  The directory
 * must exist. */
int profile_save(const struct profile *p, const char *path, int force, char *err,
		 size_t errlen);
/* The file of the user profile NAME, for a save (brisk compare --save,
 * brisk report --save-profile): profile_user_dir()/NAME.profile into path
 * (NAME is not checked here: profile_name_ok()).  0; -ENOENT no HOME or
 * XDG_CONFIG_HOME ("nowhere to save profile NAME; set HOME"),
 * -ENAMETOOLONG, or -EEXIST when it exists and force is 0 ("PATH exists;
 * pick another name or use --force"; path is filled). */
int profile_user_path(const char *name, int force, char *path, size_t pathlen, char *err,
		      size_t errlen);
/* Save p as path with a comment first: head (may be NULL) writes its
 * lines, each starting with "; ", to f.  The directory is made when
 * missing (mode 0755); the file is written to a temporary one beside
 * path (outfile), read back with profile_parse_file() and compared with
 * profile_equal() before it is moved into place; without force only when
 * path does not exist, atomically.  0; -EEXIST ("PATH exists; pick
 * another name or use --force"); -EINVAL p cannot be written
 * (profile_write()'s message) or did not read back as written; -ENOMEM;
 * -errno ("cannot create DIR: ...", "cannot write PATH: ..."). */
int profile_save_checked(const struct profile *p, const char *path, int force,
			 void (*head)(FILE *f, const void *ctx), const void *ctx, char *err,
			 size_t errlen);
/* Record a setting read from a device of class cls (`brisk profile save`,
 * the dashboard's save): the first device's value is kept.  0 recorded;
 * 1 already there with the same value; -ENOENT not a setting profiles
 * hold; -EEXIST another value is already there (err: that value);
 * -EINVAL the value is refused (err says why). */
int profile_capture(struct profile *p, enum profile_class cls, const char *key,
		    const char *value, char *err, size_t errlen);

/* Remove the setting KEY of class cls exactly (no [settings] fallback),
 * keeping the others in order (`brisk profile save` drops what it leaves
 * out).  0, or -ENOENT when there is none. */
int profile_unset(struct profile *p, enum profile_class cls, const char *key);

/* Write p as INI.  0, or -EINVAL with a message when a value cannot be
 * written so that it reads back the same. */
int profile_write(FILE *f, const struct profile *p, char *err, size_t errlen);
/* Same settings, target, loads and actions (lines ignored)?  1 or 0; when
 * not equal and why != NULL, a short reason goes there. */
int profile_equal(const struct profile *a, const struct profile *b, char *why, size_t whylen);

/* Settings. */
const char *profile_class_name(enum profile_class c);
int profile_class_parse(const char *s, enum profile_class *out);
/* Is KEY a setting brisk knows?  Fills scope and, for iosched keys, the
 * scheduler that owns it ("bfq", "mq-deadline", "kyber"). 0 or -ENOENT. */
int profile_setting_info(const char *key, enum profile_scope *scope, const char **sched);
/* Check and normalise a value for KEY ("64m" -> "67108864" for *_bytes).
 * 0 or -EINVAL with the expected form in err. */
int profile_setting_check(const char *key, const char *value, char *norm, size_t normlen,
			  char *err, size_t errlen);
/* Add or replace a setting (no line).  0, -EINVAL (bad key/value, message
 * in err), -ENOSPC. */
int profile_set(struct profile *p, enum profile_class cls, const char *key, const char *value,
		char *err, size_t errlen);
/* The settings that apply to a device of class cls: [settings] overridden by
 * [settings CLASS], in application order (scheduler first, then its iosched
 * tunables, queue, device, then vm.*).  With cls == PROFILE_CLASS_ALL only
 * the unqualified ones.  Returns how many (may exceed max). */
size_t profile_effective(const struct profile *p, enum profile_class cls,
			 const struct profile_setting **out, size_t max);
/* Does class cls have settings of its own (beyond [settings])? */
int profile_class_has_own(const struct profile *p, enum profile_class cls);
/* The setting KEY of class cls exactly (no [settings] fallback), or NULL. */
const struct profile_setting *profile_setting_get(const struct profile *p,
						  enum profile_class cls, const char *key);
/* The settings of class cls exactly, in application order (as written).
 * Returns how many were stored (at most max). */
size_t profile_class_settings(const struct profile *p, enum profile_class cls,
			      const struct profile_setting **out, size_t max);
/* A profile, load, action or device name: 1..max-1 letters, digits, '-',
 * '_' or '.', not starting with '.' or '-'.  1 or 0. */
int profile_name_ok(const char *s, size_t max);

/* What `brisk run --profile NAME` / `--fio JOBFILE` hand to the engine.
 * Applies the profile's workload and schedule onto c (which holds the
 * engine's defaults, session_config_default(), or options already given):
 *  - loads -> c->loads (at most SESSION_MAX_LOAD_SPECS); a profile with
 *    actions but no loads runs idle only; a profile with neither keeps c's
 *    workload (a settings-only profile);
 *  - actions -> c->actions (mask) and c->action: the engine runs one
 *    configuration per action type, so actions of one type must agree on
 *    cmd/nrfiles/sizes (else -EINVAL, "DISPLAY:LINE: ...");
 *  - concurrency > 1 -> c->concurrency and a schedule (c->starts): each
 *    action's first sample at its startdelay after the loaded phase
 *    begins, its further loops one after another (interval after the
 *    previous one ended), samples of different actions overlapping up to
 *    the cap; finite_load -> c->load_finite;
 *  - one at a time (no concurrency): loops -> c->loaded_samples (the sum
 *    over the actions of the type that has most); interval ->
 *    c->interval_ns (the smallest one given); startdelays -> an even
 *    spacing of the samples over the delays given (c->interval_ns, jitter
 *    0): an approximation, and note says so;
 *  - runtime -> c->loaded_max_ns, ramp_time -> c->warmup_max_ns, and
 *    c->max_time_ns = 0 when either or a schedule is given;
 *  - [target] directory -> c->dir.
 * c->action.exec_cmd points into p: keep p alive until session_free().
 * Settings are not applied here (see profile_effective() and the tunables
 * journal).  note (may be NULL) gets a line about approximations, or "". */
struct session_config;
int profile_to_session_config(const struct profile *p, const char *display,
			      struct session_config *c, char *note, size_t notelen,
			      char *err, size_t errlen);

/* A profile's [settings] (per disk class) as a checked plan on the disks
 * of st, as `brisk run --profile` and a profile arm apply it: 0 with *n
 * steps (a key a disk lacks is skipped, said in note); -EINVAL and the
 * others of tunable_check() with the line in err; -E2BIG over max. */
struct settings;
struct settings_step;
int profile_plan_settings(const struct profile *p, const struct settings *st,
			 struct settings_step *out, size_t max, size_t *n,
			 char *note, size_t notelen, char *err, size_t errlen);

/* The engine's action_config for an action: exec_cmd points into a->cmd
 * (NULL when empty), so it lives as long as *a. */
void profile_action_config(const struct profile_action *a, struct action_config *out);

#endif
