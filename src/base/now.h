/* now — the one clock brisk measures with: CLOCK_MONOTONIC in nanoseconds
 * (never steps with the wall clock; every duration and timestamp the engine
 * stores comes from here). */
#ifndef BRISK_NOW_H
#define BRISK_NOW_H

#include <stdint.h>

uint64_t now_ns(void);

#endif
