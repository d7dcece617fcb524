/* datadir — where brisk's shipped data lives (advisories, profiles, models).
 *
 * Lookup order for a relative name such as "advisories.conf":
 *   1. $BRISK_DATADIR/NAME            (tests, relocated installs)
 *   2. <dir of the running binary>/profiles/NAME   (a build tree)
 *   3. BRISK_DATADIR (compiled in, $PREFIX/share/brisk)/NAME
 * Contract: 0 and the path of the first that exists, or -ENOENT (out then
 * holds the installed location, for the error message).
 */
#ifndef BRISK_DATADIR_H
#define BRISK_DATADIR_H

#include <stddef.h>

int datadir_find(const char *name, char *out, size_t len);
/* The directory of shipped profiles (*.profile): $BRISK_DATADIR/profiles,
 * else <dir of the binary>/profiles when that holds *.profile files (a
 * build tree), else BRISK_DATADIR/profiles.  Always fills out; 0 when it
 * exists, -ENOENT when not. */
int datadir_profiles(char *out, size_t len);

#endif
