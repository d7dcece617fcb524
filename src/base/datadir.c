#include "datadir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef BRISK_DATADIR
#define BRISK_DATADIR "/usr/local/share/brisk"
#endif

static int try(char *out, size_t len, const char *dir, const char *sub, const char *name)
{
	int n = snprintf(out, len, "%s%s/%s", dir, sub, name);
	return n > 0 && (size_t)n < len && access(out, R_OK) == 0;
}

/* The directory of the running binary when it is in a build tree (see
 * datadir.h: the marker beside it, a regular file with the binary's owner).
 * 0, or -1 for an installed binary. */
static int build_tree_dir(char *dir, size_t len)
{
	struct stat exe, mark;
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	if (n <= 0 || stat("/proc/self/exe", &exe) != 0)
		return -1;
	dir[n] = '\0';
	char *slash = strrchr(dir, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	char marker[PATH_MAX + sizeof(DATADIR_MARKER) + 1];
	snprintf(marker, sizeof(marker), "%s/" DATADIR_MARKER, dir);
	if (lstat(marker, &mark) != 0 || !S_ISREG(mark.st_mode) || mark.st_uid != exe.st_uid)
		return -1;
	return 0;
}

int datadir_find(const char *name, char *out, size_t len)
{
	const char *env = getenv("BRISK_DATADIR");
	if (env && *env && try(out, len, env, "", name))
		return 0;
	char exe[PATH_MAX];
	if (build_tree_dir(exe, sizeof(exe)) == 0 && try(out, len, exe, "/profiles", name))
		return 0;
	if (try(out, len, BRISK_DATADIR, "", name))
		return 0;
	snprintf(out, len, "%s/%s", BRISK_DATADIR, name);
	return -ENOENT;
}

int datadir_profiles(char *out, size_t len)
{
	const char *env = getenv("BRISK_DATADIR");
	if (env && *env) {
		snprintf(out, len, "%s/profiles", env);
		return access(out, R_OK | X_OK) == 0 ? 0 : -ENOENT;
	}
	char exe[PATH_MAX];
	if (build_tree_dir(exe, sizeof(exe)) == 0) {
		snprintf(out, len, "%s/profiles", exe);
		return access(out, R_OK | X_OK) == 0 ? 0 : -ENOENT;
	}
	snprintf(out, len, "%s/profiles", BRISK_DATADIR);
	return access(out, R_OK | X_OK) == 0 ? 0 : -ENOENT;
}
