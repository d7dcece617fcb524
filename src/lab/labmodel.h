/* labmodel — the timing model of an emulated slow disk (brisk lab).
 *
 * A model is a small table of numbers (profiles/lab-models.ini, one
 * [section] per model).  labmodel_service_ns() turns one request into the
 * time a device of that kind would need to serve it, given where the head
 * is and when the request starts.  Pure functions: no I/O, no clocks, no
 * globals; only labmodel_load() reads its file.
 *
 * Spinning disks (rpm > 0), per request:
 *   - a request that starts exactly where the previous one ended streams:
 *     transfer time only, less the time the host took between the end of
 *     the previous request and this one (the drive's read-ahead / write
 *     cache keeps the stream going meanwhile; never below zero);
 *   - otherwise: overhead + seek + rotational wait + transfer, where
 *       seek(d) = seek_track + k * sqrt(d / disk_bytes),
 *       k = (seek_avg - seek_track) * 15 / 8,
 *     so that the mean over uniformly random positions (E[sqrt d] = 8/15)
 *     is seek_avg; the rotational wait is the time until the target sector
 *     (angle = offset within a track of read_mb_s * one rotation bytes)
 *     comes under the head, the platter turning with the clock: half a
 *     rotation on average for random requests.
 * The cost before the transfer (overhead, seek, rotational wait, flash
 * write penalty) is the request's positioning time, labmodel_position_ns().
 *
 * Queueing (labmodel_pick): the device has one head and serves one request
 * at a time; with queue_depth > 1 it holds up to that many commands (NCQ)
 * and, when the head is free, takes the one with the shortest positioning
 * time from where the head is at that moment (SPTF, as drive firmware
 * does; ties: the oldest).  Aging bound: a request queued for
 * queue_age_ms or longer is served next, the oldest of those first, so it
 * waits at most queue_age_ms plus the service of the at most
 * queue_depth - 1 requests that aged before it plus the one in service.
 * With queue_depth 1 (no command queue: USB mass storage, SD cards) the
 * device serves in arrival order.
 * Flash (rpm == 0): no seek, no rotation:
 *   - read:  overhead + len / read rate (contiguous reads stream as above);
 *   - write: overhead + len / write rate, plus random_write_ms when the
 *     write does not continue the previous write (an erase-block
 *     read-modify-write: what makes small random writes on SD cards crawl).
 * MB/s are 10^6 bytes per second.
 */
#ifndef BRISK_LABMODEL_H
#define BRISK_LABMODEL_H

#include <stddef.h>
#include <stdint.h>

#define LABMODEL_NAME_MAX 32
#define LABMODEL_MAX 16
#define LABMODEL_CLASS_MAX 16

struct labmodel {
	char name[LABMODEL_NAME_MAX];
	char description[96];
	int rotational;		/* the value set in queue/rotational */
	double rpm;		/* 0 = flash: no seek, no rotation */
	double seek_track_ms;	/* track-to-track seek */
	double seek_avg_ms;	/* mean seek between random positions */
	double read_mb_s;	/* media rate, reads */
	double write_mb_s;	/* media rate, writes */
	double overhead_ms;	/* per-request command overhead */
	double random_write_ms;	/* flash: penalty of a non-sequential write */
	double ssh_lo_s, ssh_hi_s; /* band of an idle cold 2 MiB ssh-like read */
	char scheduler[32];	/* scheduler set on the lab disk at lab up */
	/* The disk class whose results the lab disk's stand for in brisk
	 * report ("rotational", "ssd", "nvme", "mmc" or "usb"): the `class`
	 * key, by default rotational or ssd from `rotational`. */
	char disk_class[LABMODEL_CLASS_MAX];
	int queue_depth;	/* commands the device queues (NCQ depth), 1..LABMODEL_DEPTH_MAX */
	double queue_age_ms;	/* aging bound of the SPTF order */
};

#define LABMODEL_DEPTH_MAX 128
#define LABMODEL_AGE_MS_DEFAULT 500.0

/* One request waiting in the device's queue. */
struct labmodel_req {
	uint64_t off, len;
	int write;
	uint64_t arrival_ns;	/* when the device got it */
};

/* Where the device's head is; zero-initialise before the first request. */
struct labmodel_head {
	uint64_t pos;		/* byte after the end of the last request */
	uint64_t wpos;		/* byte after the end of the last write */
	int started;		/* 0 until the first request */
	int wstarted;		/* 0 until the first write */
	uint64_t done_ns;	/* when the last request completed */
};

/* The parts of one request's service time, in nanoseconds. */
struct labmodel_cost {
	uint64_t overhead, seek, rotation, transfer, penalty;
};

/* Service time in ns of one request of len bytes at byte offset off on a
 * device of disk_bytes bytes starting at time now_ns (any monotonic
 * origin); advances *h.  cost, if not NULL, gets the parts. */
uint64_t labmodel_service_ns(const struct labmodel *m, struct labmodel_head *h,
			     uint64_t disk_bytes, int write, uint64_t off,
			     uint64_t len, uint64_t now_ns,
			     struct labmodel_cost *cost);

/* Positioning time in ns of a request at byte offset off if the head,
 * as *h says, started it at now_ns: command overhead + seek + rotational
 * wait (+ a flash write's penalty); what labmodel_service_ns() charges
 * before the transfer.  Changes nothing. */
uint64_t labmodel_position_ns(const struct labmodel *m, const struct labmodel_head *h,
			      uint64_t disk_bytes, int write, uint64_t off, uint64_t now_ns);

/* The request the device serves next among q[0..n-1] when its head, as *h
 * says, is free at now_ns (the header comment's order: aged requests
 * oldest first, else shortest positioning time, ties to the oldest; in
 * arrival order when m->queue_depth <= 1).  Its index, or -1 when n == 0.
 * *aged, if not NULL, gets 1 when the aging bound decided. */
int labmodel_pick(const struct labmodel *m, const struct labmodel_head *h,
		  uint64_t disk_bytes, const struct labmodel_req *q, int n, uint64_t now_ns,
		  int *aged);

/* Seek time in ns over a distance of d bytes on a disk of disk_bytes
 * (0 for flash or d == 0). */
uint64_t labmodel_seek_ns(const struct labmodel *m, uint64_t d, uint64_t disk_bytes);
/* One rotation in ns (0 for flash). */
uint64_t labmodel_rotation_ns(const struct labmodel *m);
/* Targets for calibration: mean latency of a len-byte read at a uniformly
 * random position, and the streaming read rate in bytes per second. */
uint64_t labmodel_expect_random_read_ns(const struct labmodel *m, uint64_t len);
double labmodel_expect_seq_read_bps(const struct labmodel *m);

/* 1 when name is a disk class a model may stand for (rotational, ssd,
 * nvme, mmc, usb), else 0. */
int labmodel_class_ok(const char *name);
/* Check a model's numbers; 0 or -EINVAL with a message in err.  An empty
 * disk_class passes (labmodel_load fills it in from rotational). */
int labmodel_validate(const struct labmodel *m, char *err, size_t errlen);

/* Read every model of an INI file into out[0..max-1], *n gets the count.
 * 0 on success; -errno when the file cannot be read; -EINVAL for bad
 * content with "FILE:LINE: what" in err. */
int labmodel_load(const char *path, struct labmodel *out, int max, int *n,
		  char *err, size_t errlen);
/* The model called name in models[0..n-1], or NULL. */
const struct labmodel *labmodel_find(const struct labmodel *models, int n,
				     const char *name);

#endif
