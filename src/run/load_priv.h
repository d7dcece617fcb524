/* load_priv — what load.c (preparing, running and reading a load) and
 * load_spec.c (kinds and the KIND:KEY=VALUE spec) share and nothing else
 * includes.  The contract is load.h's. */
#ifndef BRISK_LOAD_PRIV_H
#define BRISK_LOAD_PRIV_H

#include "load.h"

#define MiB (1024ull * 1024)

/* Does a load of kind k work on a file made at prepare (the readers and
 * rand-write)?  1/0. */
int load_kind_needs_file(enum load_kind k);

#endif
