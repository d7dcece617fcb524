/* profile_file — where profiles live: the user directory, NAME -> path
 * (user, system, shipped), loading by name, and saving (the writers of
 * profile files: temporary file, fsync, rename; profile_save_checked()
 * with a comment first and a read-back before the rename).  Contract in
 * profile.h. */
#include "profile.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "datadir.h"
#include "fileio.h"
#include "msg.h"
#include "outfile.h"
#include "str.h"

int profile_user_dir(char *out, size_t len)
{
	const char *x = getenv("XDG_CONFIG_HOME");
	if (x && x[0] == '/') {
		snprintf(out, len, "%s/brisk/profiles", x);
		return 0;
	}
	const char *h = getenv("HOME");
	if (!h || !*h)
		return -ENOENT;
	snprintf(out, len, "%s/.config/brisk/profiles", h);
	return 0;
}

static int is_file(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int profile_resolve(const char *name, char *path, size_t len, char *err, size_t errlen)
{
	size_t nl = strlen(name);
	if (strchr(name, '/') || (nl > 8 && strcmp(name + nl - 8, ".profile") == 0 &&
				  is_file(name))) {
		if (strlen(name) >= len)
			return msg_fail(-EINVAL, err, errlen, "%s: path too long", name);
		str_copy(path, len, name);
		if (!is_file(name)) {
			snprintf(err, errlen, "%s: no such profile file", name);
			return -ENOENT;
		}
		return 0;
	}
	if (!profile_name_ok(name, PROFILE_NAME_LEN))
		return msg_fail(-EINVAL, err, errlen, "bad profile name '%s', expected letters, digits, '-', '_' "
			    "or '.' (or a path with a '/')", name);
	char dirs[3][PATH_MAX];
	int nd = 0;
	if (profile_user_dir(dirs[nd], sizeof(dirs[nd])) == 0)
		nd++;
	str_copy(dirs[nd++], sizeof(dirs[0]), PROFILE_SYSTEM_DIR);
	datadir_profiles(dirs[nd++], sizeof(dirs[0]));
	for (int i = 0; i < nd; i++) {
		char p[PATH_MAX];
		if (strlen(dirs[i]) + strlen(name) + 10 > sizeof(p))
			continue;
		strcpy(p, dirs[i]);
		strcat(p, "/");
		strcat(p, name);
		strcat(p, ".profile");
		if (is_file(p)) {
			if (strlen(p) >= len)
				return msg_fail(-EINVAL, err, errlen, "%s: path too long", p);
			str_copy(path, len, p);
			return 0;
		}
	}
	snprintf(err, errlen, "no profile '%s' (looked in %s%s%s, %s)", name,
		 nd == 3 ? dirs[0] : "", nd == 3 ? ", " : "", dirs[nd - 2], dirs[nd - 1]);
	return -ENOENT;
}

int profile_load_named(const char *name, struct profile *out, char *path, size_t pathlen,
		       char *err, size_t errlen)
{
	int rc = profile_resolve(name, path, pathlen, err, errlen);
	if (rc < 0)
		return rc;
	return profile_parse_file(path, path, out, err, errlen);
}

int profile_save(const struct profile *p, const char *path, int force, char *err,
		 size_t errlen)
{
	if (!force && access(path, F_OK) == 0)
		return msg_fail(-EEXIST, err, errlen, "%s exists", path);
	char tmp[PATH_MAX];
	if (snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path) >= (int)sizeof(tmp))
		return msg_fail(-ENAMETOOLONG, err, errlen, "%s: path too long", path);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return msg_fail(-errno, err, errlen, "cannot write %s: %s", path, strerror(errno));
	FILE *f = fdopen(fd, "w");
	if (!f) {
		int e = errno;
		close(fd);
		unlink(tmp);
		return msg_fail(-e, err, errlen, "cannot write %s: %s", path, strerror(e));
	}
	int rc = profile_write(f, p, err, errlen);
	int e = fflush(f) != 0 || fsync(fd) != 0 ? errno : 0;
	fchmod(fd, 0644);
	if (fclose(f) != 0 && !e)
		e = errno;
	if (rc < 0) {
		unlink(tmp);
		return rc;
	}
	if (!e)
		e = -outfile_place(tmp, path, force);
	if (e) {
		unlink(tmp);
		if (e == EEXIST)
			return msg_fail(-EEXIST, err, errlen, "%s exists", path);
		return msg_fail(-e, err, errlen, "cannot write %s: %s", path, strerror(e));
	}
	return 0;
}

int profile_user_path(const char *name, int force, char *path, size_t pathlen, char *err,
		      size_t errlen)
{
	char udir[PATH_MAX];
	if (profile_user_dir(udir, sizeof(udir)) < 0)
		return msg_fail(-ENOENT, err, errlen, "no HOME or XDG_CONFIG_HOME: nowhere to save "
				"profile %s; set HOME", name);
	if (snprintf(path, pathlen, "%s/%s.profile", udir, name) >= (int)pathlen)
		return msg_fail(-ENAMETOOLONG, err, errlen, "%s: path too long", udir);
	if (!force && access(path, F_OK) == 0)
		return msg_fail(-EEXIST, err, errlen, "%s exists; pick another name or use --force",
				path);
	return 0;
}

/* The check before the file is moved into place: it reads back as the
 * profile meant. */
struct save_ctx {
	struct outfile o;
	const struct profile *p;
};

static int save_check(struct outfile *o, char *err, size_t errlen)
{
	struct save_ctx *c = (struct save_ctx *)o;
	struct profile *back = malloc(sizeof(*back));
	if (!back)
		return msg_fail(-ENOMEM, err, errlen, "out of memory");
	char e[PROFILE_ERR_LEN], why[200] = "";
	int rc = profile_parse_file(o->tmp, o->path, back, e, sizeof(e));
	if (rc == 0 && !profile_equal(c->p, back, why, sizeof(why)))
		rc = -EINVAL;
	free(back);
	if (rc < 0)
		return msg_fail(-EINVAL, err, errlen, "%s: the profile did not read back as "
				"written (%s); nothing saved", o->path, why[0] ? why : e);
	return 0;
}

int profile_save_checked(const struct profile *p, const char *path, int force,
			 void (*head)(FILE *f, const void *ctx), const void *ctx, char *err,
			 size_t errlen)
{
	const char *slash = strrchr(path, '/');
	if (slash && slash != path) {
		char dir[PATH_MAX];
		if (snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path) >= (int)sizeof(dir))
			return msg_fail(-ENAMETOOLONG, err, errlen, "%s: path too long", path);
		int rc = fileio_mkdir_p(dir, 0755);
		if (rc < 0)
			return msg_fail(rc, err, errlen, "cannot create %s: %s", dir, strerror(-rc));
	}
	struct save_ctx c = { .p = p };
	int rc = outfile_open(&c.o, path, err, errlen);
	if (rc < 0)
		return rc;
	if (head)
		head(c.o.f, ctx);
	char e[PROFILE_ERR_LEN];
	int wrc = profile_write(c.o.f, p, e, sizeof(e));
	if (wrc < 0)
		msg_set(err, errlen, "cannot save %s: %s", path, e);
	rc = outfile_close(&c.o, wrc == 0, force, save_check, err, errlen);
	if (rc == -EEXIST)
		msg_set(err, errlen, "%s exists; pick another name or use --force", path);
	return wrc < 0 ? -EINVAL : rc;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct profile_entry *)a)->name,
		      ((const struct profile_entry *)b)->name);
}

static int entry_path_cmp(const void *a, const void *b)
{
	return strcmp(((const struct profile_entry *)a)->path,
		      ((const struct profile_entry *)b)->path);
}

/* Is the file name D (NAME.profile, not hidden) one to list, and is NAME
 * a profile name?  0: not a profile file; 1: a good name into name;
 * -1: a profile file whose name fails profile_name_ok(). */
static int file_name(const char *d, char name[PROFILE_NAME_LEN])
{
	size_t l = strlen(d);
	if (l <= 8 || strcmp(d + l - 8, ".profile") != 0 || d[0] == '.')
		return 0;
	if (l - 8 >= PROFILE_NAME_LEN)
		return -1;
	memcpy(name, d, l - 8);
	name[l - 8] = '\0';
	return profile_name_ok(name, PROFILE_NAME_LEN) ? 1 : -1;
}

/* Add the profiles of one directory that no earlier one shadows (bad: the
 * files whose name is no profile name, instead). */
static int list_dir(const char *path, const char *where, int bad, struct profile_entry **ents,
		    size_t *n, size_t *cap)
{
	DIR *dir = opendir(path);
	if (!dir)
		return 0;
	struct dirent *e;
	while ((e = readdir(dir))) {
		char name[PROFILE_NAME_LEN] = "";
		int kind = file_name(e->d_name, name);
		if (kind == 0 || (kind < 0) != bad || strlen(path) + strlen(e->d_name) + 2 > PATH_MAX)
			continue;
		int dup = 0;
		for (size_t i = 0; i < *n && !bad; i++)
			dup |= strcmp((*ents)[i].name, name) == 0;
		if (dup)
			continue;
		if (*n == *cap) {
			size_t nc = *cap ? *cap * 2 : 16;
			struct profile_entry *ne = realloc(*ents, nc * sizeof(*ne));
			if (!ne) {
				closedir(dir);
				return -ENOMEM;
			}
			*ents = ne;
			*cap = nc;
		}
		struct profile_entry *pe = &(*ents)[(*n)++];
		snprintf(pe->name, sizeof(pe->name), "%s", name);
		snprintf(pe->where, sizeof(pe->where), "%s", where);
		snprintf(pe->path, sizeof(pe->path), "%s/%s", path, e->d_name);
	}
	closedir(dir);
	return 0;
}

static int collect(int bad, struct profile_entry **out, size_t *n, char dirs[3][PATH_MAX])
{
	char d[3][PATH_MAX];
	static const char *const where[3] = { "user", "system", "shipped" };
	if (profile_user_dir(d[0], sizeof(d[0])) < 0)
		d[0][0] = '\0';
	snprintf(d[1], sizeof(d[1]), "%s", PROFILE_SYSTEM_DIR);
	datadir_profiles(d[2], sizeof(d[2]));
	*out = NULL;
	*n = 0;
	size_t cap = 0;
	for (int i = 0; i < 3; i++) {
		if (dirs)
			memcpy(dirs[i], d[i], sizeof(d[i]));
		if (d[i][0] && list_dir(d[i], where[i], bad, out, n, &cap) < 0) {
			free(*out);
			*out = NULL;
			*n = 0;
			return -ENOMEM;
		}
	}
	if (*n)
		qsort(*out, *n, sizeof(**out), bad ? entry_path_cmp : entry_cmp);
	return 0;
}

int profile_list(struct profile_entry **out, size_t *n, char dirs[3][PATH_MAX])
{
	return collect(0, out, n, dirs);
}

int profile_list_refused(struct profile_entry **out, size_t *n)
{
	return collect(1, out, n, NULL);
}
