/* fiojob_priv — the fio key table (fiojob_keys.c) as the converter
 * (fiojob.c) reads it; not for other modules. */
#ifndef BRISK_FIOJOB_PRIV_H
#define BRISK_FIOJOB_PRIV_H

#include "fiojob.h"

/* The slot an honoured key's value goes to. */
enum fk {
	K_RW, K_BS, K_BSRANGE, K_BSSPLIT, K_SIZE, K_FILESIZE, K_IOSIZE, K_NUMJOBS, K_STARTDELAY,
	K_DIRECT, K_BUFFERED, K_RATE, K_FSYNC, K_PRIO, K_PRIOCLASS, K_LOOPS, K_RUNTIME,
	K_RAMP, K_DIRECTORY, K_IOENGINE, K_INVALIDATE, K_TIMEBASED, K_IODEPTH, K_NRFILES,
	K_STONEWALL, K_THREAD, K_RWMIXREAD, K_RWMIXWRITE, K_DIST, K_RATEIOPS, K_POISSON, K_FLOW,
	K_FLOWID, K_FLOWSLEEP, K_THINKTIME, K_THINKSPIN, K_THINKBLOCKS, K_THINKTYPE, K_COUNT,
	K_NONE = -1
};

/* One fio key: name, group, slot (K_NONE: none), whether it may stand bare
 * (meaning 1), and what it maps to / the note / why it is refused. */
struct fiojob_key {
	const char *name;
	enum fiojob_group group;
	int fk;
	int boolean;
	const char *text;
};

/* The key named name; NULL when brisk does not know it. */
const struct fiojob_key *fiojob_key_find(const char *name);

#endif
