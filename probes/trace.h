/* trace — the debug trace switch (as util-linux's *_DEBUG): with
 * BRISK_DEBUG=probe,session,journal,lab (or "all") in the environment,
 * trace lines go to stderr so a bug report can carry what brisk saw:
 *
 *   brisk[4242] probe: write /sys/block/sda/queue/scheduler "bfq": ok
 *
 * Contract:
 *  - The one exception to "probes never print": only when asked for, only
 *    on stderr, one write(2) per line (lines of several processes do not
 *    mix), errno preserved.  Control bytes in the message (device strings
 *    are untrusted) are shown as \xHH.
 *  - Cheap when off: trace() tests one int before evaluating its arguments.
 *  - BRISK_DEBUG is read once, at the first trace() call.  Names are
 *    separated by commas (or spaces); an unknown name is ignored with one
 *    warning line on stderr naming the known ones.  Empty or unset: off.
 *  - In probes/, the bottom layer, so every layer can call it.
 */
#ifndef BRISK_TRACE_H
#define BRISK_TRACE_H

enum trace_cat {
	TRACE_PROBE   = 1 << 0,   /* sysfs writes and failed reads, stack resolution */
	TRACE_SESSION = 1 << 1,   /* phases, children started and ended */
	TRACE_JOURNAL = 1 << 2,   /* journal open, records, restore outcomes */
	TRACE_LAB     = 1 << 3,   /* lab disks: made, settings, taken apart */
};
#define TRACE_ALL (TRACE_PROBE | TRACE_SESSION | TRACE_JOURNAL | TRACE_LAB)

/* Categories on: -1 until BRISK_DEBUG was read. */
extern int trace_mask_;
/* Read BRISK_DEBUG (again: tests set it after start); returns the mask. */
int trace_init(void);
void trace_print(enum trace_cat cat, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline int trace_on(enum trace_cat cat)
{
	return ((trace_mask_ >= 0 ? trace_mask_ : trace_init()) & (int)cat) != 0;
}

#define trace(cat, ...)                                   \
	do {                                              \
		if (trace_on(cat))                        \
			trace_print((cat), __VA_ARGS__);  \
	} while (0)

#endif
