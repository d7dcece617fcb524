/* action — the interactive actions timed with cold caches (exec: a program
 * start; ls: a tree walk; ssh-like: random reads; save: write + fsync),
 * each sample a freshly forked process (I/O schedulers treat new processes
 * specially; a long-lived thread would lie).  The sample process evicts the
 * action's files, checks they are cold (mincore; ls: blocks read), opens
 * what it needs from the work directory descriptor, drops privileges
 * (child_drop) and times the action.  What each action does, how eviction
 * and the cold check work, who samples run as and what is timed are in
 * brisk-run(1), "Actions".  Preparing exec (the copied program or --exec
 * in place): action_exec.c; the rest: action.c.  Times: CLOCK_MONOTONIC ns.
 */
#ifndef BRISK_ACTION_H
#define BRISK_ACTION_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "child.h"
#include "iowhy_acct.h"
#include "progcopy.h"

enum action_kind {
	ACTION_EXEC,
	ACTION_LS,
	ACTION_SSH,
	ACTION_SAVE,
	ACTION_KIND_COUNT
};

enum action_evict {
	ACTION_EVICT_FADVISE,
	ACTION_EVICT_DROP_CACHES,
};

struct action_config {
	const char *exec_cmd;       /* NULL: the default program */
	unsigned ls_files;          /* 2000 */
	uint64_t ssh_file, ssh_region, ssh_bs_lo, ssh_bs_hi;
	uint64_t save_size;         /* 4096 */
};

struct action_result {
	uint64_t t_start_ns;        /* when the timed part began */
	uint64_t dur_ns;
	int32_t cold;               /* 1 cold, 0 warm */
	int32_t err;                /* 0, errno (also an exec that could not
				     * start), or 1000+exit status (exec) */
};

struct action {
	enum action_kind kind;
	struct action_config cfg;
	char path[PATH_MAX];        /* ls: tree root; ssh/save: the file (relative
				     * to dirfd); exec: the program (absolute) */
	int dirfd;                  /* the work directory (not owned) */
	char **argv;                /* exec */
	char **files;               /* evicted before each sample: names in dirfd,
				     * or absolute paths (exec) */
	unsigned char *pinned;      /* per file: resident despite eviction */
	size_t n_files;
	unsigned ls_expect;         /* entries the walk must see */
	char note[384];             /* what could not be made cold, and why */
	/* exec */
	struct progcopy prog;       /* the copied default program (prog.argv
				     * set): runs from the work directory */
	char what[200];             /* the program in words, for reports */
	char (*devs)[32];           /* per file: the device it lives on */
	unsigned char *off;         /* per file: not on the disks under test */
	char where[384];            /* "program start was timed on vda, not on
				     * the disk under test ..." or "" */
	uint64_t cold_bytes;        /* read by one cold start (measured at prepare) */
	size_t cold_files;          /* files it read */
	struct child_cred run_as;   /* who the samples run as */
};

/* brisk run's defaults: 2000 ls files, a 30 MiB ssh-like file, a 4 KiB save. */
void action_config_default(struct action_config *c);
/* "exec", "ls", "ssh-like", "save". */
const char *action_kind_name(enum action_kind k);
/* "exec,ls,ssh-like,save" (also "ssh", "all") -> bit mask of kinds. */
int action_parse_list(const char *text, unsigned *mask, char *err, size_t errlen);
/* Create the action's files in the directory dirfd (which must stay open
 * while samples run), resolve the program and its libraries.  0, or -errno
 * with a message in err. */
int action_prepare(struct action *a, enum action_kind k, const struct action_config *cfg,
		   int dirfd, enum action_evict evict, char *err, size_t errlen);
/* Make what action_prepare wrote into dirfd evictable: syncfs, then (as
 * root, on ext4) checkpoint the journal, which otherwise keeps new
 * metadata (the ls tree's directories and inodes) in memory for seconds
 * whatever drop_caches says.  Blocks on the disk; call it once after the
 * last action_prepare, before cold ls samples with drop_caches. */
void action_make_evictable(int dirfd);
/* Fork a sample.  win: where it writes its timed part's start and end as
 * they happen (the breakdown's window, iowhy.h), or NULL.
 * *fd is the pipe its records arrive on: first one with
 * dur_ns == UINT64_MAX when eviction is done and timing starts (cold as
 * the eviction left it), then the final one (its cold is the sample's: an
 * ls walk that read nothing turns it to 0, never the other way); EOF
 * without the final one: the sample died. */
int action_sample_start(const struct action *a, enum action_evict evict,
			volatile struct iowhy_window *win, pid_t *pid, int *fd);
/* Are warm samples of a left out of the statistics?  Not with keep_warm,
 * nor for ls without drop_caches, which can never be cold. */
int action_cold_only(const struct action *a, enum action_evict evict, int keep_warm);
/* Read the result; 1 when read, 0 on EOF without one, -errno. */
int action_sample_read(int fd, struct action_result *out);
/* Pages of a file resident in the page cache, or -errno. */
long action_resident_pages(const char *path);
/* The same for a name in dirfd (not followed if a link) or an absolute path. */
long action_resident_pages_at(int dirfd, const char *path);
/* Free what action_prepare() allocated (the work directory's files stay). */
void action_free(struct action *a);

#endif
