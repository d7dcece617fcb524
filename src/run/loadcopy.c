/* loadcopy — the copy load's loop (load_priv.h): what cp does to two
 * disks, a read of the source then a write of the copy, one call at a
 * time, over and over. */
#include "load_priv.h"
#include "loadthink.h"
#include "now.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

/* Stop while what may still be written between two checks fits above
 * the floor: 1 when at it. */
static int at_floor(int fd, uint64_t floor, uint64_t bs)
{
	uint64_t avail;
	return floor && load_avail(fd, &avail) == 0 && avail < floor + LOAD_FLOOR_CHECK + bs;
}

/* One timed call: a whole read or write of len bytes at off (a short
 * write goes on).  Bytes done (0: the source's end), or -errno. */
static ssize_t timed_call(int fd, void *buf, uint64_t len, uint64_t off, int write,
			  struct load_msg *m)
{
	uint64_t a = now_ns();
	ssize_t r;
	size_t done = 0;
	do {
		r = write ? pwrite(fd, (char *)buf + done, len - done, (off_t)(off + done))
			  : pread(fd, buf, len, (off_t)off);
		if (r < 0 && errno == EINTR && !load_child_stop)
			continue;
		if (r <= 0)
			break;
		done += (size_t)r;
	} while (write && done < len);
	int e = errno;
	load_note_call(m, a, now_ns());
	return r < 0 && !done ? -e : (ssize_t)done;
}

uint64_t load_copy_loop(const struct load_spec *s, int src, int dst, void *buf, int wfd,
			uint64_t floor, uint64_t *rng, struct load_msg *m)
{
	uint64_t t0 = now_ns(), last_report = t0, bytes = 0, copied = 0, off = 0;
	uint64_t since_sync = 0, since_floor = UINT64_MAX, calls = 0, last_think = 0;
	m->t_ns = t0;
	load_send_msg(wfd, m);   /* a first point at time zero */
	while (!load_child_stop) {
		if (s->total && copied >= s->total) {
			m->end = LOAD_END_DONE;
			break;
		}
		uint64_t len = load_pick_len(s, rng);
		if (s->total && s->total - copied < len && !s->direct)
			len = s->total - copied;
		if (since_floor >= LOAD_FLOOR_CHECK) {
			since_floor = 0;
			if (at_floor(dst, floor, s->bs_hi)) {
				m->end = LOAD_END_FLOOR;
				break;
			}
		}
		ssize_t r = timed_call(src, buf, len, off, 0, m);
		ssize_t w = r > 0 ? timed_call(dst, buf, (uint64_t)r, off, 1, m) : 0;
		if (r < 0 || w < 0) {
			if (load_child_stop)
				break;
			int e = (int)-(r < 0 ? r : w);
			m->end = load_errno_end(e);
			m->err = e;
			break;
		}
		bytes += (uint64_t)r + (uint64_t)w;
		m->bytes_read += (uint64_t)r;
		copied += (uint64_t)w;
		since_sync += (uint64_t)w;
		since_floor += (uint64_t)w;
		off += (uint64_t)r;
		if (r == 0 || off >= s->size) {
			/* the next pass copies it again: the source from the disk,
			 * the copy overwritten in place */
			off = 0;
			if (!s->direct)
				posix_fadvise(src, 0, 0, POSIX_FADV_DONTNEED);
		}
		if (s->fsync_every && since_sync >= s->fsync_every) {
			since_sync = 0;
			uint64_t a = now_ns();
			if (fsync(dst) < 0 && errno != EINTR) {
				m->end = load_errno_end(errno);
				m->err = errno;
				break;
			}
			load_note_call(m, a, now_ns());
		}
		if (loadthink_due(s, ++calls, &last_think))
			loadthink_pause(s, &load_child_stop);
		load_rate_wait(s, t0, copied);
		if (now_ns() - last_report >= LOAD_REPORT_NS) {
			m->t_ns = last_report = now_ns();
			m->bytes = bytes;
			load_send_msg(wfd, m);
			m->worst_ns = 0;
		}
	}
	return bytes;
}
