/* labfs — the FUSE file server behind a lab disk.
 *
 * labfs_serve() mounts a FUSE file system at mountpoint that holds the
 * file LABFS_FILE, whose contents are the regular file image (and the
 * stats file below).  It is one thread
 * on libfuse's low-level API with its own event loop (ppoll on the session
 * fd), so it receives requests while earlier ones are still being served
 * and replies to each later, when the device model says it is done:
 *   - a read or write that arrives is done on the image at once (pread /
 *     pwrite, in arrival order, so the data is what the kernel asked for)
 *     and joins the device's queue;
 *   - the model has one head: one request is in service at a time; when
 *     the head is free the next one is chosen by labmodel_pick() (shortest
 *     positioning time among those queued, with its aging bound; arrival
 *     order when the model's queue_depth is 1), its service time computed
 *     from where the head is and when it starts, and its reply sent when
 *     that time has passed.  A service starts when the previous one ended
 *     (model time) or when its request arrived, whichever is later; when
 *     the server itself fell behind by more than 1 ms (the image's disk or
 *     the host was slower than the model) it starts now and the request is
 *     counted late.
 * The kernel sends several requests at once because the loop device, with
 * direct I/O, submits asynchronous I/O to the file, FUSE's async_dio is on
 * and max_background (the requests FUSE keeps in flight for such I/O) is
 * the model's queue_depth: the server holds at most that many, like a
 * drive's command queue (the loop device's tag depth, set by lab up, bounds
 * them too).  fsync is a no-op (the model has no write cache; the lab disk
 * is thrown away), fallocate (discard from the loop driver) is passed to
 * the image.  The file is opened with direct_io, so no page cache sits
 * between the loop device and the model.
 *
 * Beside it, LABSTATS_FILE (labstats.h): a read-only file of the server's
 * counters (requests answered, the service time the model applied to them,
 * their time resident in the server), its text made at open; answered at
 * once, outside the model.
 *
 * The server logs (stderr) every 10 s in which requests came: how many
 * requests were outstanding at the server when each arrived (mean, max),
 * how many the head chose among (mean), how many were served out of
 * arrival order, how many the aging bound decided; and the totals at exit.
 *
 * The server never touches the loop device built on it, and its own files
 * (binary, libraries, image) live on other disks.  It asks to be an I/O
 * flusher (PR_SET_IO_FLUSHER, needs CAP_SYS_RESOURCE), so its allocations
 * do not wait on reclaim that writes back the disk it serves; lab up bounds
 * that disk's dirty pages as well (--dirty-limit).
 *
 * SIGUSR1 switches the model off for good (requests are answered at once,
 * the queue too): lab down sends it before unmounting, so that flushing
 * the dirty pages of a slow model (an SD card's random writes) is quick;
 * SIGUSR2 switches it on again (lab down found the disk in use).
 *
 * ready_fd (>= 0): one byte is written to it once the mount is in place,
 * then it is closed.  Returns 0 after the file system was unmounted or the
 * server got SIGTERM/SIGINT/SIGHUP, -errno on failure; messages go to
 * stderr (the daemon's log).
 */
#ifndef BRISK_LABFS_H
#define BRISK_LABFS_H

#include "labmodel.h"

#define LABFS_FILE "disk.img"

int labfs_serve(const struct labmodel *m, const char *image,
		const char *mountpoint, const char *fsname, int ready_fd);

#endif
