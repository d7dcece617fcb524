/* journal_file — the restore journal's file format: text, one line each,
 *
 *   brisk-journal 1
 *   kind run|tui|set|lab
 *   pid 4242
 *   boot <kernel boot_id>
 *   created <CLOCK_BOOTTIME ns>
 *   what <free text: the command line>
 *   orig TARGET DISKSEQ KEY SCHED VIA VALUE
 *
 * TARGET is the device's kernel name ("-" for vm.* sysctls), DISKSEQ its
 * /sys/block/DEV/diskseq when recorded ("-" if none: a different device
 * that reuses the name is then not detected), KEY the canonical key, SCHED
 * the scheduler active when an iosched tunable was recorded ("-" else), VIA
 * "-" or the key whose change made this entry necessary ("scheduler" for
 * the old scheduler's iosched set, nr_requests and wbt_lat_usec, which a
 * switch resets; the partner of a vm.dirty_*ratio/bytes pair), VALUE the
 * original.  Fields hold no white space.  Lines starting with '#' and
 * empty lines are comments.  A last "orig" line without its newline is a
 * write torn by a crash and is ignored (entries are fsync'ed before the
 * change they guard, so that change was never made).
 *
 * Contract: the format, validation and parsing are pure (no I/O, nothing
 * prints), except journal_file_read, which reads an open file.  Every
 * entry parsed or formatted is journal_entry_valid: fields are tokens of
 * printable non-blank bytes that fit, KEY is a canonical tunable key (the
 * tunable whitelist), a device key has a plain kernel device name and a
 * sysctl "-" -- or KEY is one of the few attributes `brisk lab` sets on
 * its own loop device (journal_attr_key): then TARGET is loopN, SCHED and
 * VIA "-", VALUE a decimal integer.  Sessions, locks and restore are in journal.h.
 */
#ifndef BRISK_JOURNAL_FILE_H
#define BRISK_JOURNAL_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tunable.h"

/* Largest journal file read (bytes). */
#define JOURNAL_FILE_MAX (1 << 20)

enum journal_kind { JOURNAL_RUN, JOURNAL_TUI, JOURNAL_SET, JOURNAL_LAB };

struct journal_entry {
	char target[32];
	char diskseq[24];
	char key[TUNABLE_NAME_LEN];
	char sched[TUNABLE_SCHED_LEN];
	char via[TUNABLE_NAME_LEN];
	char value[TUNABLE_VALUE_LEN];
};

/* A journal file's contents. */
struct journal_file {
	enum journal_kind kind;
	pid_t pid;
	char boot[40];
	uint64_t created;
	char what[256];
	size_t n, cap;
	struct journal_entry *e;   /* malloc'ed */
};

const char *journal_kind_name(enum journal_kind kind);

/* Parse journal text.  0, or -EINVAL with *line set to the bad line (0:
 * a header line is missing); *out is empty on failure. */
int journal_parse(const char *text, struct journal_file *out, int *line);
/* Format a whole journal; malloc'ed string in *out. */
int journal_format(const struct journal_file *f, char **out);
int journal_file_add(struct journal_file *f, const struct journal_entry *e);
void journal_file_free(struct journal_file *f);
/* Keep only the entries i with keep[i] set, in order; returns how many
 * are left. */
size_t journal_file_compact(struct journal_file *f, const unsigned char *keep);
/* Is KEY an attribute outside the tunable whitelist that only `brisk lab`
 * changes, on its own loop device: "queue/rotational", "bdi/strict_limit",
 * "bdi/max_ratio_fine" (the path under /sys/block/loopN/; bdi/max_bytes is
 * kept by the kernel as max_ratio_fine, so that one is what is recorded)? */
int journal_attr_key(const char *key);
/* Is this entry valid as a journal line (fields, key whitelist)? */
int journal_entry_valid(const struct journal_entry *e);
/* Read the whole open file FD (from offset 0, at most JOURNAL_FILE_MAX:
 * -EFBIG) into a malloc'ed NUL-terminated string for journal_parse. */
int journal_file_read(int fd, char **out);

#endif
