#include "action_priv.h"
#include "child.h"
#include "msg.h"
#include "stack.h"
#include "text.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Split on blanks (no quoting: give a wrapper script for anything fancier). */
static char **split_words(const char *s)
{
	size_t n = 0, cap = 4;
	char **v = calloc(cap, sizeof(*v));
	while (v && *s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		size_t len = strcspn(s, " \t");
		if (n + 2 > cap) {
			char **nv = realloc(v, (cap *= 2) * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		if (!(v[n] = strndup(s, len)))
			break;
		v[++n] = NULL;
		s += len;
	}
	if (v && *s) {      /* an allocation failed part-way */
		action_free_strv(v);
		return NULL;
	}
	return v;
}

static int find_in_path(const char *name, char *out, size_t len)
{
	if (strchr(name, '/')) {
		if (!realpath(name, out))
			return -errno;
		return access(out, X_OK) == 0 ? 0 : -errno;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t dl = strcspn(path, ":");
		char cand[PATH_MAX];
		if (snprintf(cand, sizeof(cand), "%.*s/%s", (int)dl, path, name) < (int)sizeof(cand) &&
		    access(cand, X_OK) == 0 && realpath(cand, out) && strlen(out) < len)
			return 0;
		path += dl;
		if (*path == ':')
			path++;
	}
	return -ENOENT;
}

/* PT_INTERP of an ELF file: 1 with interp set, 0 when static or not ELF
 * ("#!" scripts: 2 with interp = the script's interpreter), -errno. */
static int elf_interp(const char *path, char *interp, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unsigned char h[sizeof(Elf64_Ehdr)];
	int rc = 0;
	ssize_t n = pread(fd, h, sizeof(h), 0);
	if (n >= 2 && h[0] == '#' && h[1] == '!') {
		char line[PATH_MAX];
		ssize_t m = pread(fd, line, sizeof(line) - 1, 2);
		line[m > 0 ? m : 0] = '\0';
		char *p = line + strspn(line, " \t");
		p[strcspn(p, " \t\n")] = '\0';
		rc = *p && strlen(p) < len ? (snprintf(interp, len, "%s", p), 2) : 0;
	} else if (n >= (ssize_t)sizeof(Elf32_Ehdr) && memcmp(h, ELFMAG, SELFMAG) == 0) {
		int is64 = h[EI_CLASS] == ELFCLASS64;
		uint64_t phoff, phnum, phentsize;
		if (is64) {
			Elf64_Ehdr e;
			memcpy(&e, h, sizeof(e));
			phoff = e.e_phoff, phnum = e.e_phnum, phentsize = e.e_phentsize;
		} else {
			Elf32_Ehdr e;
			memcpy(&e, h, sizeof(e));
			phoff = e.e_phoff, phnum = e.e_phnum, phentsize = e.e_phentsize;
		}
		for (uint64_t i = 0; i < phnum && i < 256; i++) {
			uint64_t type, off, size;
			off_t at = (off_t)(phoff + i * phentsize);
			if (is64) {
				Elf64_Phdr p;
				if (pread(fd, &p, sizeof(p), at) != (ssize_t)sizeof(p))
					break;
				type = p.p_type, off = p.p_offset, size = p.p_filesz;
			} else {
				Elf32_Phdr p;
				if (pread(fd, &p, sizeof(p), at) != (ssize_t)sizeof(p))
					break;
				type = p.p_type, off = p.p_offset, size = p.p_filesz;
			}
			if (type != PT_INTERP)
				continue;
			if (size == 0 || size >= len)
				break;
			if (pread(fd, interp, size, (off_t)off) == (ssize_t)size) {
				interp[size] = '\0';
				interp[strcspn(interp, "\n")] = '\0';
				rc = interp[0] == '/';
			}
			break;
		}
	}
	close(fd);
	return rc;
}

/* Run "INTERP BINARY" with LD_TRACE_LOADED_OBJECTS=1: ld.so lists what it
 * would map and exits without running the program (what ldd does). */
static int trace_libs(struct action *a, const char *interp, const char *bin,
		      char *err, size_t errlen)
{
	char *argv[] = { (char *)interp, (char *)bin, NULL };
	/* the samples' environment (LD_LIBRARY_PATH and all) plus the switch */
	size_t ne = 0;
	while (environ[ne])
		ne++;
	char **envp = calloc(ne + 2, sizeof(*envp));
	if (!envp)
		return -ENOMEM;
	size_t k = 0;
	envp[k++] = (char *)"LD_TRACE_LOADED_OBJECTS=1";
	for (size_t i = 0; i < ne; i++)
		if (strncmp(environ[i], "LD_TRACE_", 9) != 0)
			envp[k++] = environ[i];
	envp[k] = NULL;
	char out[16384];
	size_t n;
	int st;
	int rc = child_output(interp, argv, envp, &a->run_as, -1, out, sizeof(out), &n, &st);
	free(envp);
	if (rc)
		return msg_fail(rc, err, errlen, "exec: cannot run %s to list libraries: %s",
			    interp, strerror(-rc));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return msg_fail(-ENOEXEC, err, errlen, "exec: %s cannot load %s "
			    "(a library is missing?)", interp, bin);
	char *save = NULL;
	for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *arrow = strstr(line, "=> ");
		char *path = arrow ? arrow + 3 : line + strspn(line, " \t");
		if (strstr(line, "not found"))
			return msg_fail(-ENOENT, err, errlen, "exec: %s needs %s", bin, line);
		if (*path != '/')
			continue;          /* linux-vdso.so.1: not a file */
		char *end = strstr(path, " (0x");
		if (end)
			*end = '\0';
		char real[PATH_MAX];
		if (realpath(path, real) && (rc = action_add_file(a, real)) < 0)
			return rc;
	}
	return 0;
}

/* The device a file lives on, by name ("vda", "sda2"), and its leaf
 * disks (space-separated) into leaves. */
static void file_device(const char *path, char *name, size_t len, char *leaves, size_t llen)
{
	struct stack *st = NULL;
	/* the stack of its directory (stack_resolve_path takes directories;
	 * a file is on its directory's file system unless it is a mount
	 * point itself) */
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir && strncmp(path, "/proc/self/fd/", 14) != 0)
		*slash = '\0';
	else if (slash == dir)
		dir[1] = '\0';
	int rc = stack_resolve_path(dir, &st);
	leaves[0] = '\0';
	if (rc == 0 && st && st->root) {
		snprintf(name, len, "%s", st->root->dev.name);
		const struct blockdev *lv[16];
		size_t n = stack_leaves(st, lv, 16), o = 0;
		for (size_t i = 0; i < n && i < 16 && o < llen; i++)
			o += (size_t)snprintf(leaves + o, llen - o, "%s%s", o ? " " : "", lv[i]->name);
	} else if (st) {
		char tmp[96];
		snprintf(tmp, sizeof(tmp), "%u:%u (%s)", st->mount.major, st->mount.minor,
			 st->mount.fstype[0] ? st->mount.fstype : "no block device");
		snprintf(name, len, "%.*s", (int)(len ? len - 1 : 0), tmp);
	} else {
		snprintf(name, len, "?");
	}
	stack_free(st);
}

static int word_in(const char *word, const char *list)
{
	size_t n = strlen(word);
	for (const char *p = list; (p = strstr(p, word)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
	return 0;
}

/* --exec in place: the device of each file; a note when some are not on
 * the disks behind the work directory. */
static int exec_devices(struct action *a, int dirfd)
{
	a->devs = calloc(a->n_files ? a->n_files : 1, sizeof(*a->devs));
	a->off = calloc(a->n_files ? a->n_files : 1, 1);
	if (!a->devs || !a->off)
		return -ENOMEM;
	struct stat wst;
	char dpath[64], dname[32], dleaves[256];
	if (fstat(dirfd, &wst) < 0)
		return -errno;
	snprintf(dpath, sizeof(dpath), "/proc/self/fd/%d", dirfd);
	file_device(dpath, dname, sizeof(dname), dleaves, sizeof(dleaves));
	char offdev[64] = "", first[PATH_MAX] = "";
	size_t n_off = 0;
	for (size_t i = 0; i < a->n_files; i++) {
		struct stat st;
		char leaves[256];
		if (stat(a->files[i], &st) == 0 && st.st_dev == wst.st_dev) {
			snprintf(a->devs[i], sizeof(a->devs[i]), "%s", dname);
			continue;
		}
		file_device(a->files[i], a->devs[i], sizeof(a->devs[i]), leaves, sizeof(leaves));
		/* on the disks under test when every leaf of its device is one */
		int on = leaves[0] != '\0';
		for (char *save = NULL, *w = strtok_r(leaves, " ", &save); w && on;
		     w = strtok_r(NULL, " ", &save))
			on = word_in(w, dleaves);
		if (on)
			continue;
		a->off[i] = 1;
		if (!n_off++) {
			snprintf(offdev, sizeof(offdev), "%s", a->devs[i]);
			snprintf(first, sizeof(first), "%s", a->files[i]);
		}
	}
	if (n_off)
		snprintf(a->where, sizeof(a->where), "program start was timed on %s, not on the disk "
			 "under test (%s): %.120s%s live%s there, so the load on %s does not slow it "
			 "down; without --exec brisk times a copy on the file system under test",
			 text_show(offdev), dleaves[0] ? text_show(dleaves) : text_show(dname),
			 text_show(first), n_off > 1 ? " and other files it maps" : "",
			 n_off > 1 ? "" : "s", dleaves[0] ? text_show(dleaves) : text_show(dname));
	return 0;
}

/* One cold start of the copied program, before the samples, as the
 * samples start it (from prog/, as run_as): which of its files it reads
 * and how much (pages resident afterwards).  It must exit 0. */
static int exec_measure(struct action *a, int dirfd, char *err, size_t errlen)
{
	for (size_t i = 0; i < a->n_files; i++)
		action_evict_file(dirfd, a->files[i]);
	int pfd = openat(dirfd, PROGCOPY_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return msg_fail(-errno, err, errlen, "exec: cannot open the copy %s: %s",
			    PROGCOPY_DIR, strerror(errno));
	char out[4096];
	size_t n;
	int st;
	int rc = child_output(a->argv[0], a->argv, a->prog.envp, &a->run_as, pfd, out, sizeof(out),
			      &n, &st);
	close(pfd);
	if (rc)
		return msg_fail(rc, err, errlen, "exec: cannot start the copy of %s in the work "
			    "area as uid %u: %s%s", a->prog.name, (unsigned)a->run_as.uid,
			    strerror(-rc), rc == -EACCES ? " (is DIR's file system mounted "
			    "noexec? --exec runs a program in place)" : "");
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return msg_fail(-ENOEXEC, err, errlen, "exec: the copy of %s in the work area "
			    "failed (%s %d)", a->prog.name, WIFEXITED(st) ? "exit status" : "signal",
			    WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	long pg = sysconf(_SC_PAGESIZE);
	size_t modules = 0, modules_read = 0;
	for (size_t i = 0; i < a->n_files; i++) {
		long r = action_resident_pages_at(dirfd, a->files[i]);
		int module = strstr(a->files[i], "/lib/python") != NULL;
		modules += module;
		if (r > 0) {
			a->cold_bytes += (uint64_t)r * (uint64_t)pg;
			a->cold_files++;
			modules_read += module;
		}
	}
	/* python that cannot reach its copied library takes the system's,
	 * silently: that start would time another disk */
	if (modules && !modules_read)
		return msg_fail(-ENOENT, err, errlen, "exec: the copy of %s, started as uid %u, "
			    "read none of its %zu copied modules", a->prog.name,
			    (unsigned)a->run_as.uid, modules);
	return 0;
}

static int prepare_copy(struct action *a, int dirfd, char *err, size_t errlen)
{
	int rc = progcopy_make(&a->prog, dirfd, &a->run_as, err, errlen);
	if (rc < 0)
		return rc;
	size_t n = 0;
	while (a->prog.argv[n])
		n++;
	if (!(a->argv = calloc(n + 1, sizeof(*a->argv))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (!(a->argv[i] = strdup(a->prog.argv[i])))
			return -ENOMEM;
	for (size_t i = 0; i < a->prog.n_files; i++)
		if ((rc = action_add_file(a, a->prog.files[i])) < 0)
			return rc;
	snprintf(a->path, sizeof(a->path), "%s", a->prog.name);
	snprintf(a->what, sizeof(a->what), "%s, copied to the file system under test", a->prog.what);
	/* each copy must be on the work directory's file system */
	struct stat wst, st;
	if (fstat(dirfd, &wst) < 0)
		return -errno;
	a->devs = calloc(a->n_files ? a->n_files : 1, sizeof(*a->devs));
	a->off = calloc(a->n_files ? a->n_files : 1, 1);
	if (!a->devs || !a->off)
		return -ENOMEM;
	char dpath[64], dname[32], dleaves[256];
	snprintf(dpath, sizeof(dpath), "/proc/self/fd/%d", dirfd);
	file_device(dpath, dname, sizeof(dname), dleaves, sizeof(dleaves));
	for (size_t i = 0; i < a->n_files; i++) {
		if (fstatat(dirfd, a->files[i], &st, AT_SYMLINK_NOFOLLOW) < 0 || st.st_dev != wst.st_dev)
			return msg_fail(-EXDEV, err, errlen, "exec: the copy %s is not on the work "
				    "directory's file system", a->files[i]);
		snprintf(a->devs[i], sizeof(a->devs[i]), "%s", dname);
	}
	if (a->prog.why_fallback[0])
		snprintf(a->note, sizeof(a->note), "program start uses ls, not python (%.300s)",
			 a->prog.why_fallback);
	return exec_measure(a, dirfd, err, errlen);
}

/* Can the user the samples run as start bin?  Asked in a child that
 * drops first, so that access() answers for that user.  0 or -errno. */
static int run_as_access(const struct child_cred *as, const char *bin)
{
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int rc = child_drop(as);
		_exit(rc < 0 ? -rc : access(bin, X_OK) < 0 ? errno : 0);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? -WEXITSTATUS(st) : -ECHILD;
}

int action_prepare_exec(struct action *a, int dirfd, char *err, size_t errlen)
{
	if (!a->cfg.exec_cmd)
		return prepare_copy(a, dirfd, err, errlen);
	const char *cmd = a->cfg.exec_cmd;
	a->argv = split_words(cmd);
	if (!a->argv || !a->argv[0])
		return msg_fail(-EINVAL, err, errlen, "exec: empty command");
	char bin[PATH_MAX], interp[PATH_MAX];
	int rc = find_in_path(a->argv[0], bin, sizeof(bin));
	if (rc < 0)
		return msg_fail(rc, err, errlen, "exec: cannot find program '%s' in PATH", a->argv[0]);
	if ((rc = run_as_access(&a->run_as, bin)) < 0)
		return msg_fail(rc, err, errlen, "exec: %s: the actions run as uid %u (%s), who "
			    "cannot start it: %s (make it and its directories readable and "
			    "executable for that user)", bin, (unsigned)a->run_as.uid,
			    a->run_as.user[0] ? text_show(a->run_as.user) : "no name", strerror(-rc));
	free(a->argv[0]);
	if (!(a->argv[0] = strdup(bin)) || (rc = action_add_file(a, bin)) < 0)
		return -ENOMEM;
	snprintf(a->path, sizeof(a->path), "%s", bin);
	rc = elf_interp(bin, interp, sizeof(interp));
	if (rc == 2) {   /* script: its interpreter and that one's libraries */
		char ibin[PATH_MAX];
		if (find_in_path(interp, ibin, sizeof(ibin)) < 0 || action_add_file(a, ibin) < 0)
			return msg_fail(-ENOENT, err, errlen, "exec: %s: interpreter %s not found",
				    bin, interp);
		snprintf(bin, sizeof(bin), "%s", ibin);
		rc = elf_interp(bin, interp, sizeof(interp));
	}
	if (rc == 1 && (rc = trace_libs(a, interp, bin, err, errlen)) < 0)
		return rc;
	size_t o = 0;
	for (size_t k = 0; a->argv[k] && o < sizeof(a->what); k++)
		o += (size_t)snprintf(a->what + o, sizeof(a->what) - o, "%s%s", k ? " " : "",
				      a->argv[k]);
	if (o < sizeof(a->what))
		snprintf(a->what + o, sizeof(a->what) - o, ", in place (--exec)");
	return exec_devices(a, dirfd);
}
