/* labfs — the FUSE file server behind a lab disk.
 *
 * labfs_serve() mounts a FUSE file system at mountpoint that holds one file,
 * LABFS_FILE, whose contents are the regular file image.  Every read and
 * write request is served one at a time (single-threaded loop, so requests
 * queue like commands at a disk): the device model computes the service
 * time from the head position and the clock, the real pread/pwrite on the
 * image is done, and the reply is held back until the modelled time has
 * passed since the request arrived.  fsync is a no-op (the model has no
 * write cache; the lab disk is thrown away), fallocate (discard from the
 * loop driver) is passed to the image.  The file is opened with direct_io,
 * so no page cache sits between the loop device and the model.
 *
 * The server never touches the loop device built on it, and its own files
 * (binary, libraries, image) live on other disks.  It asks to be an I/O
 * flusher (PR_SET_IO_FLUSHER, needs CAP_SYS_RESOURCE), so its allocations
 * do not wait on reclaim that writes back the disk it serves; lab up bounds
 * that disk's dirty pages as well (--dirty-limit).
 *
 * SIGUSR1 switches the model off for good (requests are served at the
 * host's speed): lab down sends it before unmounting, so that flushing the
 * dirty pages of a slow model (an SD card's random writes) is quick;
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
