/* loadthink — when a load pauses: fio's thinktime and startdelay.
 *
 * A load with think_ns pauses after every think_blocks calls (0 or 1:
 * after each one), as an application that works on what it read before
 * it asks again: of the pause, think_spin_ns is spent busy on the CPU and
 * the rest asleep (fio's thinktime, thinktime_spin, thinktime_blocks).
 * The calls are counted as they complete (fio's default), or, with
 * think_issue, as they are issued; an io_uring load drains what it has in
 * flight before it pauses, as fio does.  Paused time is the load's own:
 * its rate (bytes over its running time) falls by it, honestly, and no
 * call's time includes it.  With rate= as well, the load catches up
 * after a pause (fio's default, rate_ignore_thinktime=0).
 *
 * A load with a start delay (startdelay=A or A-B) waits before its first
 * call: each instance a time of its own, uniform in [A, B] from the
 * session's seeded generator (--seed), as fio picks one per job.  Its
 * first report, and so its timeline and rate, start after the wait.
 *
 * Times in the spec text: fio's, a number with a unit (us, usec, ms,
 * msec, s, m, h, d) or bare in the key's own unit (microseconds for the
 * think times, seconds for the start delay, as in fio); kept in ns,
 * whole microseconds.
 */
#ifndef BRISK_LOADTHINK_H
#define BRISK_LOADTHINK_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "load.h"

#define LOADTHINK_MAX_NS (3600ull * 1000000000ull)   /* an hour: more is a typo */

/* "10ms", "1500" (bare: times unit_ns), "2s" -> ns, at most
 * LOADTHINK_MAX_NS, rounded to whole microseconds.  0 or -EINVAL. */
int loadthink_parse_time(const char *text, uint64_t unit_ns, uint64_t *out_ns);
/* "A" or "A-B" (A <= B) as loadthink_parse_time() reads each.  0 or
 * -EINVAL. */
int loadthink_parse_range(const char *text, uint64_t unit_ns, uint64_t *lo, uint64_t *hi);
/* The inverse: the largest unit that keeps it whole ("10ms", "1500us",
 * "2s", "0"). */
void loadthink_format_time(char *buf, size_t len, uint64_t ns);
/* "A" or "A-B". */
void loadthink_format_range(char *buf, size_t len, uint64_t lo, uint64_t hi);

/* An instance's start delay: uniform in [delay_lo_ns, delay_hi_ns] (whole
 * microseconds) from *rng; delay_lo_ns when they are equal. */
uint64_t loadthink_pick_delay(const struct load_spec *s, uint64_t *rng);
/* After the load's calls-th call (counted as s says): is a pause due?
 * *last holds the count at the previous pause (start it at 0); set to
 * calls when one is.  1/0; always 0 without think_ns. */
int loadthink_due(const struct load_spec *s, uint64_t calls, uint64_t *last);
/* The pause: spin think_spin_ns, sleep the rest of think_ns; back early
 * once *stop is set.  Returns the ns it took. */
uint64_t loadthink_pause(const struct load_spec *s, volatile sig_atomic_t *stop);
/* Wait ns (the start delay), back early once *stop is set. */
void loadthink_wait(uint64_t ns, volatile sig_atomic_t *stop);
/* The most calls per second a thinking load can make (its calls taking
 * no time): think_blocks per think_ns; infinity without thinking. */
double loadthink_max_calls(const struct load_spec *s);

#endif
