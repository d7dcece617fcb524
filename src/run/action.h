/* action — interactive actions timed with cold caches, each sample in a
 * freshly forked process (I/O schedulers treat new processes specially; a
 * long-lived thread would lie).
 *
 *  exec      start a real program and wait for it; every file it maps at
 *            start is evicted first.  Default: a program copied into the
 *            work area on the file system under test (progcopy.h: python3
 *            importing a fixed module list, else ls), started from there
 *            through the copied ELF interpreter.  --exec CMD: the user's
 *            program in place (its binary and libraries resolved as ld.so
 *            does, LD_TRACE_LOADED_OBJECTS); each file's device is named
 *            and a program not on the disks under test gets a note (where)
 *  ls        readdir + fstatat over a tree brisk creates (2000 files)
 *  ssh-like  random 4k-44k reads covering a 2 MiB region of a 30 MiB file
 *            once, in random order (fio rw=randread bsrange=4k-44k size=2m)
 *  save      write a 4 KiB file and fsync it
 *
 * Contract:
 *  - Files are created only in the work directory whose descriptor is
 *    passed in (kept, not owned), with mkdirat / openat(O_CREAT|O_EXCL|
 *    O_NOFOLLOW); the sample process gets that descriptor (CHILD_DIR_FD)
 *    and reaches its files relative to it, O_NOFOLLOW, never by path.
 *  - Privileges (issue 24): each action prepare resolves who its children
 *    run as (child_cred_resolve: as root, SUDO_UID/SUDO_GID or nobody).
 *    The sample process evicts and checks coldness as brisk (drop_caches
 *    needs root), then opens what the action needs from the work
 *    directory (ls: the tree; ssh-like: the file O_RDONLY; save: the file
 *    O_WRONLY, truncated inside the timed part; exec of the copy: it
 *    changes into prog/), closes the work directory and drops
 *    (child_drop: that user, no groups, no capabilities, no new privs)
 *    before its first record; a sample that cannot drop runs nothing
 *    and reports the error.  The program exec starts, the copy's trial
 *    start at prepare and the library listing of --exec run as that
 *    user too.  What the dropped user must reach by path is made readable
 *    (0755 directories, 0644 files; the ls tree's directories 0755) inside
 *    the 0700 work area, which only brisk can enter.
 *  - exec: the program runs in the sample's process group and has
 *    PR_SET_PDEATHSIG set before exec (vfork, prctl, execve): it dies with
 *    the sample process, which dies with brisk.  When it cannot be started
 *    the sample's err is the errno (not 1000+status).
 *  - Eviction: POSIX_FADV_DONTNEED on every touched file (default), or with
 *    ACTION_EVICT_DROP_CACHES /proc/sys/vm/drop_caches: "1" for file data,
 *    "3" (pages + dentries/inodes) for ls.  Never preceded by sync.
 *  - Each sample says whether it was cold, checked not assumed: for files,
 *    mincore() after eviction must show no resident page (files that stay
 *    resident because running processes map them, found at prepare time, are
 *    named in the note and excluded); ls is cold only when dentries and
 *    inodes were dropped and the walk then read from storage (its own
 *    read blocks, getrusage's ru_inblock, grew): metadata made a moment ago stays
 *    cached while the journal pins it, whatever drop_caches says.
 *  - Eviction that leaves pages resident is retried (up to EVICT_TRIES
 *    times, a few ms apart) before the sample is called warm: pages under
 *    read I/O (readahead still in flight from the previous start, slow
 *    under load) are locked and cannot be dropped until it completes.
 *  - action_cold_only(): whether warm samples of the action are left out of
 *    the statistics (by default they are, unless the action cannot be made
 *    cold at all with this eviction: ls without drop_caches).
 *  - The timed region excludes the eviction, the fork, opening the
 *    action's file or directory and the drop; exec includes vfork()+
 *    execve() (what posix_spawn does) to the program's exit.
 *  - Times are CLOCK_MONOTONIC nanoseconds.
 */
#ifndef BRISK_ACTION_H
#define BRISK_ACTION_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "child.h"
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
	int32_t err;                /* 0, errno, or 1000+exit status (exec) */
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

void action_config_default(struct action_config *c);
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
/* Fork a sample.  *fd is the pipe its records arrive on: first one with
 * dur_ns == UINT64_MAX when eviction is done and timing starts (cold as
 * the eviction left it), then the final one (its cold is the sample's: an
 * ls walk that read nothing turns it to 0, never the other way); EOF
 * without the final one: the sample died. */
int action_sample_start(const struct action *a, enum action_evict evict,
			pid_t *pid, int *fd);
/* Are warm samples of a left out of the statistics (keep_warm: never)? */
int action_cold_only(const struct action *a, enum action_evict evict, int keep_warm);
/* Read the result; 1 when read, 0 on EOF without one, -errno. */
int action_sample_read(int fd, struct action_result *out);
/* Pages of a file resident in the page cache, or -errno. */
long action_resident_pages(const char *path);
/* The same for a name in dirfd (not followed if a link) or an absolute path. */
long action_resident_pages_at(int dirfd, const char *path);
void action_free(struct action *a);

#endif
