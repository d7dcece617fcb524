/* loadscope — the "load:" scope of settings: the leaf disks of the
 * directories loads work in with a dir= of their own, as a settings set
 * attached to the actions' (settings_attach_load), so that --at, compare
 * arms and the dashboard's editor can change either stack's disks
 * (brisk-run(1) LOAD DIRECTORIES). */
#ifndef BRISK_LOADSCOPE_H
#define BRISK_LOADSCOPE_H

#include <stddef.h>

struct session_config;
struct settings;

/* Init load on the leaf disks behind every distinct load dir= of c and
 * attach it to st.  1 when attached, 0 when no load has a dir= (nothing
 * attached), -errno with why in err when a load directory's disks cannot
 * be found. */
int loadscope_init(const struct session_config *c, struct settings *st, struct settings *load,
		   char *err, size_t errlen);
/* Does a key text carry the load: prefix?  1/0. */
int loadscope_key(const char *key);

#endif
