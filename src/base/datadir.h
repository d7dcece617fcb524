/* datadir — where brisk's shipped data lives (advisories, profiles, models).
 *
 * A binary is in a build tree when a regular file named DATADIR_MARKER
 * (".brisk-build-tree", written by the Makefile when it links brisk, never
 * installed) lies beside it, owned by the binary's owner.  Only such a
 * binary reads the data beside it, in <its directory>/profiles; an
 * installed one never looks next to itself (/usr/bin/profiles).
 *
 * Lookup order for a relative name such as "advisories.conf":
 *   1. $BRISK_DATADIR/NAME            (an explicit override: tests,
 *                                      relocated installs)
 *   2. <dir of the binary>/profiles/NAME   (a build tree only)
 *   3. BRISK_DATADIR (compiled in, $PREFIX/share/brisk)/NAME
 * Contract: 0 and the path of the first that exists, or -ENOENT (out then
 * holds the installed location, for the error message).
 */
#ifndef BRISK_DATADIR_H
#define BRISK_DATADIR_H

#include <stddef.h>

#define DATADIR_MARKER ".brisk-build-tree"

int datadir_find(const char *name, char *out, size_t len);
/* The directory of shipped profiles (*.profile): $BRISK_DATADIR/profiles
 * when that variable is set, else <dir of the binary>/profiles in a build
 * tree, else BRISK_DATADIR/profiles.  Always fills out; 0 when it exists,
 * -ENOENT when not. */
int datadir_profiles(char *out, size_t len);

#endif
