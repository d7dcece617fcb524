#include "datadir.h"

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

int datadir_find(const char *name, char *out, size_t len)
{
	const char *env = getenv("BRISK_DATADIR");
	if (env && *env && try(out, len, env, "", name))
		return 0;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if (try(out, len, exe, "/profiles", name))
				return 0;
		}
	}
	if (try(out, len, BRISK_DATADIR, "", name))
		return 0;
	snprintf(out, len, "%s/%s", BRISK_DATADIR, name);
	return -ENOENT;
}
