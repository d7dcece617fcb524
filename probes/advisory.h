/* advisory — known firmware defects, matched by model and firmware globs
 * the way the kernel's libata quirk table matches them.
 *
 * Data file (INI, read with libinih), one section per advisory:
 *   [seagate-7200.11-bsy]
 *   models   = ST3500320AS ST31000340AS      (space-separated fnmatch globs)
 *   firmware = SD15 SD16 AD14                (space-separated fnmatch globs)
 *   problem  = what goes wrong, in one line
 *   fixed_in = SD1A                          (optional)
 *   source   = where it is documented
 *
 * Contract: advisory_load() returns 0, -errno when the file cannot be read,
 * or -EINVAL for bad syntax, an unknown key or a section missing
 * models/firmware/problem; then err (when not NULL) holds "LINE: what is
 * wrong" (line 0 when the problem is a whole section).
 * advisory_match() returns the first matching entry or NULL.  The list is
 * owned by the caller; free with advisory_free().  Nothing prints.
 */
#ifndef BRISK_ADVISORY_H
#define BRISK_ADVISORY_H

#include <stddef.h>

struct advisory {
	char id[64];
	char models[512];
	char firmware[256];
	char problem[512];
	char fixed_in[32];
	char source[256];
};

struct advisory_db {
	struct advisory *v;
	size_t n;
};

int advisory_load(const char *path, struct advisory_db *db, char *err, size_t errlen);
const struct advisory *advisory_match(const struct advisory_db *db,
				      const char *model, const char *firmware);
void advisory_free(struct advisory_db *db);
/* Does `word` match any glob in the space-separated list? */
int advisory_glob_any(const char *globs, const char *word);

#endif
