/* labstats — what a lab disk's FUSE server (labfs) has served, as it
 * counted it: requests answered, the service time the model applied to
 * them (labmodel_service_ns(), the delay the server held each one in
 * service), and the time they were resident in the server (from arrival to
 * the reply, queued behind others included).  Reads and writes apart.
 *
 * The server publishes them as a read-only file LABSTATS_FILE beside the
 * disk image in its FUSE mount (DIR/NAME/fuse/stats, mode 0444; the FUSE
 * mount has no allow_other, so only root reaches it): text made when the
 * file is opened, "key value" lines in the C locale, counters since the
 * server started.  Reading it costs the emulated disk nothing: the server
 * answers it at once, outside the device model.
 *
 * labstats_format() writes that text, labstats_parse() reads it back
 * (unknown keys are skipped, so a newer server can add some), and
 * labstats_read() opens the file of a lab and parses it.  0 or -errno;
 * nothing prints.
 */
#ifndef BRISK_LABSTATS_H
#define BRISK_LABSTATS_H

#include <stddef.h>
#include <stdint.h>

#define LABSTATS_FILE "stats"
#define LABSTATS_TEXT_MAX 1024

/* One direction's counters: requests answered and their total times. */
struct labstats_dir {
	uint64_t n, bytes;
	uint64_t service_ns;	/* the model's service time, summed */
	uint64_t resident_ns;	/* arrival to reply, summed */
};

struct labstats {
	struct labstats_dir rd, wr;
	uint64_t late, late_ns;	/* services started late (labfs.h) */
	int unmodelled;		/* 1 once SIGUSR1 switched the model off */
};

/* The file's text in buf (at most len bytes, NUL-terminated); its length,
 * or -ENOSPC when len is too small. */
int labstats_format(const struct labstats *s, const char *model, char *buf, size_t len);
/* Parse text made by labstats_format; -EINVAL when a counter is missing
 * or not a number. */
int labstats_parse(const char *text, struct labstats *out);
/* Read DIR/NAME/fuse/stats: fusedir is lab_state.fusedir.  -errno from
 * open/read (-ENOENT: a server from before the counters, or not mounted),
 * -EINVAL bad content. */
int labstats_read(const char *fusedir, struct labstats *out);

#endif
