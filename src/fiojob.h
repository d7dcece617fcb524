/* fiojob — the subset of fio's job-file syntax that maps onto brisk's loads
 * and actions, converted into a struct profile.
 *
 * Accepted: [global] sections (they apply to the jobs that follow them, as
 * in fio) and job sections with rw/readwrite = write, read, randread,
 * randwrite; bs/blocksize, bsrange/blocksize_range, size, filesize,
 * io_size/io_limit, numjobs, startdelay, direct, buffered, rate, fsync,
 * prio, prioclass, loops, runtime, ramp_time, directory; ioengine=sync or
 * psync; invalidate=1; and keys that change only fio's reporting
 * (name, description, group_reporting, time_based, thread, stonewall...).
 *
 * Mapping:
 *  - a small random reader (rw=randread with size <= FIOJOB_SMALL_READ,
 *    i.e. the I/O an interactive program does) becomes an ssh-like action
 *    sampled once (or `loops` times) at its startdelay: size is the region,
 *    filesize the file, bs/bsrange the read sizes;
 *  - every other job becomes a load: write -> seq-write (fsync-heavy with
 *    fsync), read -> seq-read, randread -> rand-read, randwrite ->
 *    rand-write; size is both the file and the I/O amount (the load ends
 *    after it, as fio's job does), filesize the file when given.
 *  - runtime / ramp_time / directory from [global] set the profile's.
 * Anything else -- or a value brisk cannot honour (ioengine=libaio,
 * rw=randrw, startdelay on a load, filename=...) -- is an error naming the
 * key: "FILE:LINE: fio key 'K=V' cannot be honoured: why, what to use".
 *
 * A job file is untrusted text like a profile: a control character (C0 but
 * TAB, DEL, C1) or invalid UTF-8 anywhere is "FILE:LINE: control character
 * \xHH at byte N, ..." (text.h; a CRLF line end is allowed).
 *
 * Scale: 0 < scale <= 1 multiplies sizes (size, filesize, io_size) and
 * start delays; sizes are rounded up to 4 KiB and never below the largest
 * block; block sizes are kept.
 */
#ifndef BRISK_FIOJOB_H
#define BRISK_FIOJOB_H

#include <stddef.h>

#include "profile.h"

#define FIOJOB_SMALL_READ (32ull * 1024 * 1024)

/* Parse and convert.  0, or -EINVAL / -errno with "FILE:LINE: ..." in err. */
int fiojob_parse_file(const char *path, double scale, struct profile *out,
		      char *err, size_t errlen);
int fiojob_parse_buffer(const char *data, size_t len, const char *display, double scale,
			struct profile *out, char *err, size_t errlen);
/* "0.01", "1/100", "1%" -> 0.01.  0 or -EINVAL (must be in (0, 1]). */
int fiojob_parse_scale(const char *text, double *out);

#endif
