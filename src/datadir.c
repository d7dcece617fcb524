#include "datadir.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef BRISK_DATADIR
#define BRISK_DATADIR "/usr/local/share/brisk"
#endif

static int try(char *out, size_t len, const char *dir, const char *sub, const char *name)
{
	int n = snprintf(out, len, "%s%s/%s", dir, sub, name);
	return n > 0 && (size_t)n < len && access(out, R_OK) == 0;
}

/* The directory of the running binary (a build tree keeps its data in
 * ./profiles beside it).  0, or -1. */
static int exe_dir(char *dir, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", dir, len - 1);
	if (n <= 0)
		return -1;
	dir[n] = '\0';
	char *slash = strrchr(dir, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	return 0;
}

int datadir_find(const char *name, char *out, size_t len)
{
	const char *env = getenv("BRISK_DATADIR");
	if (env && *env && try(out, len, env, "", name))
		return 0;
	char exe[PATH_MAX];
	if (exe_dir(exe, sizeof(exe)) == 0 && try(out, len, exe, "/profiles", name))
		return 0;
	if (try(out, len, BRISK_DATADIR, "", name))
		return 0;
	snprintf(out, len, "%s/%s", BRISK_DATADIR, name);
	return -ENOENT;
}

static int has_profiles(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int found = 0;
	struct dirent *e;
	while (!found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		found = n > 8 && strcmp(e->d_name + n - 8, ".profile") == 0;
	}
	closedir(d);
	return found;
}

int datadir_profiles(char *out, size_t len)
{
	const char *env = getenv("BRISK_DATADIR");
	if (env && *env) {
		snprintf(out, len, "%s/profiles", env);
		return access(out, R_OK | X_OK) == 0 ? 0 : -ENOENT;
	}
	char exe[PATH_MAX];
	if (exe_dir(exe, sizeof(exe)) == 0) {
		snprintf(out, len, "%s/profiles", exe);
		if (has_profiles(out))
			return 0;
	}
	snprintf(out, len, "%s/profiles", BRISK_DATADIR);
	return access(out, R_OK | X_OK) == 0 ? 0 : -ENOENT;
}
