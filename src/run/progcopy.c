#include "progcopy.h"
#include "child.h"
#include "fileio.h"
#include "msg.h"
#include "text.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>


/* ---- ELF: every offset checked against the image ---- */

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_DATA ELFDATA2LSB
#else
#define HOST_DATA ELFDATA2MSB
#endif

/* [off, off + size) inside len, overflow-checked. */
static int in_image(uint64_t off, uint64_t size, size_t len)
{
	uint64_t end;
	return !__builtin_add_overflow(off, size, &end) && end <= len;
}

/* A NUL-terminated string at off within [base, base + limit) of the image. */
static const char *image_str(const unsigned char *buf, size_t len, uint64_t base,
			     uint64_t limit, uint64_t off)
{
	if (off >= limit || !in_image(base, limit, len))
		return NULL;
	const char *s = (const char *)buf + base + off;
	const char *nul = memchr(s, '\0', (size_t)(limit - off));
	return nul && nul > s ? s : NULL;
}

struct phdr {
	uint64_t type, offset, vaddr, filesz;
};

/* Copy size bytes at off of the image into out: 0, or -ENOEXEC when
 * they are not all inside it. */
static int image_copy(const unsigned char *buf, size_t len, uint64_t off, void *out,
		      size_t size)
{
	if (!in_image(off, size, len))
		return -ENOEXEC;
	memcpy(out, buf + off, size);
	return 0;
}

static int read_phdr(const unsigned char *buf, size_t len, int is64, uint64_t at,
		     struct phdr *p)
{
	if (is64) {
		Elf64_Phdr h;
		if (image_copy(buf, len, at, &h, sizeof(h)) < 0)
			return -ENOEXEC;
		*p = (struct phdr){ h.p_type, h.p_offset, h.p_vaddr, h.p_filesz };
	} else {
		Elf32_Phdr h;
		if (image_copy(buf, len, at, &h, sizeof(h)) < 0)
			return -ENOEXEC;
		*p = (struct phdr){ h.p_type, h.p_offset, h.p_vaddr, h.p_filesz };
	}
	return 0;
}

/* The file header's fields we read, of either class; phsize is the size
 * of that class's program header. */
struct ehdr {
	uint64_t phoff, phnum, phentsize, phsize;
	unsigned machine, type;
};

static int read_ehdr(const unsigned char *buf, size_t len, int is64, struct ehdr *e)
{
	if (is64) {
		Elf64_Ehdr h;
		if (image_copy(buf, len, 0, &h, sizeof(h)) < 0)
			return -ENOEXEC;
		*e = (struct ehdr){ h.e_phoff, h.e_phnum, h.e_phentsize, sizeof(Elf64_Phdr),
				    h.e_machine, h.e_type };
	} else {
		Elf32_Ehdr h;
		if (image_copy(buf, len, 0, &h, sizeof(h)) < 0)
			return -ENOEXEC;
		*e = (struct ehdr){ h.e_phoff, h.e_phnum, h.e_phentsize, sizeof(Elf32_Phdr),
				    h.e_machine, h.e_type };
	}
	return 0;
}

/* A virtual address of a PT_LOAD segment's file part -> file offset. */
static int vaddr_to_off(const struct phdr *ph, size_t n, uint64_t addr, uint64_t *off)
{
	for (size_t i = 0; i < n; i++) {
		if (ph[i].type != PT_LOAD || addr < ph[i].vaddr || addr - ph[i].vaddr >= ph[i].filesz)
			continue;
		if (__builtin_add_overflow(ph[i].offset, addr - ph[i].vaddr, off))
			return -ENOEXEC;
		return 0;
	}
	return -ENOEXEC;
}

#define MAX_PHDRS 512

int progcopy_elf_parse(const unsigned char *buf, size_t len, struct progcopy_elf *out)
{
	memset(out, 0, sizeof(*out));
	if (len < EI_NIDENT || memcmp(buf, ELFMAG, SELFMAG) != 0 || buf[EI_DATA] != HOST_DATA ||
	    (buf[EI_CLASS] != ELFCLASS64 && buf[EI_CLASS] != ELFCLASS32))
		return -ENOEXEC;
	int is64 = buf[EI_CLASS] == ELFCLASS64;
	struct ehdr eh;
	if (read_ehdr(buf, len, is64, &eh) < 0)
		return -ENOEXEC;
	uint64_t phoff = eh.phoff, phnum = eh.phnum, phentsize = eh.phentsize;
	out->machine = eh.machine, out->type = eh.type;
	if (phentsize != eh.phsize)
		return -ENOEXEC;
	out->is64 = is64;
	if (phnum == 0 || phnum > MAX_PHDRS || !in_image(phoff, phnum * phentsize, len))
		return -ENOEXEC;
	struct phdr ph[MAX_PHDRS];
	const struct phdr *dyn = NULL;
	for (uint64_t i = 0; i < phnum; i++) {
		if (read_phdr(buf, len, is64, phoff + i * phentsize, &ph[i]) < 0)
			return -ENOEXEC;
		if (ph[i].type == PT_INTERP) {
			if (out->interp || ph[i].filesz < 2 || ph[i].filesz > PATH_MAX ||
			    !in_image(ph[i].offset, ph[i].filesz, len))
				return -ENOEXEC;
			out->interp = image_str(buf, len, ph[i].offset, ph[i].filesz, 0);
			if (!out->interp || out->interp[0] != '/')
				return -ENOEXEC;
		} else if (ph[i].type == PT_DYNAMIC) {
			if (dyn || !in_image(ph[i].offset, ph[i].filesz, len))
				return -ENOEXEC;
			dyn = &ph[i];
		}
	}
	if (!dyn)
		return 0;   /* static */
	/* the dynamic section: first the string table, then the strings */
	size_t dsz = is64 ? sizeof(Elf64_Dyn) : sizeof(Elf32_Dyn);
	uint64_t strtab = 0, strsz = 0;
	int have_strtab = 0, have_strsz = 0;
	uint64_t nd = dyn->filesz / dsz, tags[3][PROGCOPY_MAX_NEEDED + 2];
	size_t nt[3] = { 0, 0, 0 };   /* NEEDED, RUNPATH, RPATH values */
	int ended = 0;
	for (uint64_t i = 0; i < nd; i++) {
		int64_t tag;
		uint64_t val;
		if (is64) {
			Elf64_Dyn d;
			memcpy(&d, buf + dyn->offset + i * dsz, sizeof(d));
			tag = d.d_tag, val = d.d_un.d_val;
		} else {
			Elf32_Dyn d;
			memcpy(&d, buf + dyn->offset + i * dsz, sizeof(d));
			tag = d.d_tag, val = d.d_un.d_val;
		}
		if (tag == DT_NULL) {
			ended = 1;
			break;
		}
		int k = tag == DT_NEEDED ? 0 : tag == DT_RUNPATH ? 1 : tag == DT_RPATH ? 2 : -1;
		if (tag == DT_STRTAB)
			strtab = val, have_strtab++;
		else if (tag == DT_STRSZ)
			strsz = val, have_strsz++;
		else if (k >= 0) {
			if (nt[k] >= (k ? 1 : PROGCOPY_MAX_NEEDED))
				return k ? -ENOEXEC : -E2BIG;
			tags[k][nt[k]++] = val;
		}
	}
	if (!ended)
		return -ENOEXEC;   /* no DT_NULL inside the segment */
	if (!nt[0] && !nt[1] && !nt[2])
		return 0;
	uint64_t stroff;
	if (have_strtab != 1 || have_strsz != 1 || strsz == 0 ||
	    vaddr_to_off(ph, (size_t)phnum, strtab, &stroff) < 0 || !in_image(stroff, strsz, len))
		return -ENOEXEC;
	for (size_t k = 0; k < 3; k++)
		for (size_t i = 0; i < nt[k]; i++) {
			const char *s = image_str(buf, len, stroff, strsz, tags[k][i]);
			if (!s || strlen(s) >= PATH_MAX)
				return -ENOEXEC;
			if (k == 0)
				out->needed[out->n_needed++] = s;
			else if (k == 1)
				out->runpath = s;
			else
				out->rpath = s;
		}
	return 0;
}

/* ---- the copy ---- */

struct copier {
	struct progcopy *pc;
	int workfd;
	unsigned machine;
	int is64;
	uint64_t total;
	/* libraries copied, by the name asked for (what lib/ holds) */
	char **libs;
	size_t n_libs;
	/* the loader's cache as `ldconfig -p` prints it, read at the first
	 * library the RPATH/RUNPATH do not resolve ("" when unreadable) */
	char *cache;
	unsigned char *io;   /* COPY_BUF bytes, the copies stream through it */
	char *err;
	size_t errlen;
};

#define COPY_BUF (64u << 10)

static int strv_add(char ***v, size_t *n, const char *s)
{
	char **nv = realloc(*v, (*n + 2) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	if (!(nv[*n] = strdup(s)))
		return -ENOMEM;
	nv[++*n] = NULL;
	return 0;
}

static void strv_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/* What a copier holds beyond the copy: the libraries' names, the cache,
 * the buffer. */
static void copier_done(struct copier *c)
{
	strv_free(c->libs);
	free(c->cache);
	free(c->io);
	c->libs = NULL;
	c->cache = NULL;
	c->io = NULL;
}

/* A source file, open (no link at its last component): a regular file of
 * at most PROGCOPY_MAX_FILE bytes.  An ELF file is mapped read-only for
 * the parse, which makes only the pages it reads resident (headers, the
 * dynamic section, its strings); the copy streams through the copier's
 * buffer (write_copy).  Only a file no one but root can write is mapped
 * (the system's own, replaced by rename, never rewritten in place): one
 * that someone else could truncate while it is parsed would fault brisk,
 * so it is read into memory instead. */
struct src {
	int fd;
	struct stat st;
	const unsigned char *map;   /* st.st_size bytes, or NULL */
	int owned;                  /* map is a malloc'ed copy, not a mapping */
};

static void src_close(struct src *s)
{
	if (s->owned)
		free((void *)s->map);
	else if (s->map)
		munmap((void *)s->map, (size_t)s->st.st_size);
	if (s->fd >= 0)
		close(s->fd);
	s->map = NULL;
	s->fd = -1;
}

/* Read the whole of s into memory: 0, or -errno (-EIO: it shrank). */
static int src_read(struct src *s)
{
	unsigned char *buf = malloc((size_t)s->st.st_size);
	if (!buf)
		return -ENOMEM;
	int rc = fileio_pread_all(s->fd, buf, (size_t)s->st.st_size, 0);
	if (rc < 0) {
		free(buf);
		return rc;
	}
	s->map = buf;
	s->owned = 1;
	return 0;
}

static int src_open(const char *path, int map, struct src *s)
{
	*s = (struct src){ .fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) };
	if (s->fd < 0)
		return -errno;
	int rc = 0;
	if (fstat(s->fd, &s->st) < 0)
		rc = -errno;
	else if (!S_ISREG(s->st.st_mode))
		rc = -EINVAL;
	else if ((uint64_t)s->st.st_size > PROGCOPY_MAX_FILE)
		rc = -EFBIG;
	else if (map && s->st.st_size > 0 &&
		 (s->st.st_uid != 0 || (s->st.st_mode & (S_IWGRP | S_IWOTH))))
		rc = src_read(s);
	else if (map && s->st.st_size > 0) {
		void *m = mmap(NULL, (size_t)s->st.st_size, PROT_READ, MAP_PRIVATE, s->fd, 0);
		if (m == MAP_FAILED)
			rc = -errno;
		else
			s->map = m;
	}
	if (rc < 0)
		src_close(s);
	return rc;
}

/* The image of a mapped source for progcopy_elf_parse ("" when empty). */
static const unsigned char *src_image(const struct src *s)
{
	return s->map ? s->map : (const unsigned char *)"";
}

/* Open (making what is missing) the directory rel below root: each part
 * mkdirat'ed (then 0755 whatever the umask: the program starts as the
 * user the actions run as, who looks its files up from prog/) or opened
 * O_DIRECTORY|O_NOFOLLOW.  fd, or -errno. */
static int dir_at(int root, const char *rel)
{
	char buf[PATH_MAX];
	if (snprintf(buf, sizeof(buf), "%s", rel) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	int fd = openat(root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *save = NULL;
	for (char *p = strtok_r(buf, "/", &save); fd >= 0 && p; p = strtok_r(NULL, "/", &save)) {
		int made = mkdirat(fd, p, 0700) == 0;
		if (!made && errno != EEXIST) {
			int e = errno;
			close(fd);
			return -e;
		}
		int sub = openat(fd, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int e = errno;
		close(fd);
		if (sub < 0)
			return -e;
		if (made && fchmod(sub, 0755) < 0) {
			e = errno;
			close(sub);
			return -e;
		}
		fd = sub;
	}
	return fd < 0 ? -errno : fd;
}

/* Copy the source s as the new file rel (below the work directory), with
 * its mtime (a .pyc records its .py's) and mode (umask or not), through
 * the copier's buffer.  *rd is set when reading s failed (it shrank). */
static int write_copy(struct copier *c, const char *rel, const struct src *s, mode_t mode,
		      int *rd)
{
	size_t len = (size_t)s->st.st_size;
	*rd = 0;
	if (c->pc->n_files >= PROGCOPY_MAX_FILES)
		return -E2BIG;
	if (__builtin_add_overflow(c->total, len, &c->total) || c->total > 4 * PROGCOPY_MAX_FILE)
		return -EFBIG;
	if (!c->io && !(c->io = malloc(COPY_BUF)))
		return -ENOMEM;
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", rel);
	char *slash = strrchr(dir, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	int dfd = dir_at(c->workfd, dir);
	if (dfd < 0)
		return dfd;
	int fd = openat(dfd, slash + 1, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	int rc = fd < 0 ? -errno : 0;
	close(dfd);
	for (size_t off = 0, n; rc == 0 && off < len; off += n) {
		n = len - off < COPY_BUF ? len - off : COPY_BUF;
		if ((rc = fileio_pread_all(s->fd, c->io, n, (off_t)off)) < 0)
			*rd = 1;   /* shrank while read, or a read error */
		else
			rc = fileio_write_all(fd, c->io, n);
	}
	if (rc == 0 && fchmod(fd, mode) < 0)
		rc = -errno;
	if (rc == 0) {
		struct timespec ts[2] = { s->st.st_atim, s->st.st_mtim };
		if (futimens(fd, ts) < 0)
			rc = -errno;
	}
	if (fd >= 0 && close(fd) < 0 && rc == 0)
		rc = -errno;
	if (rc == 0) {
		rc = strv_add(&c->pc->files, &c->pc->n_files, rel);
		c->pc->bytes += len;
	}
	return rc;
}

static const char *const sys_dirs[] = {
#if defined(__x86_64__)
	"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
#elif defined(__aarch64__)
	"/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
#elif defined(__i386__)
	"/lib/i386-linux-gnu", "/usr/lib/i386-linux-gnu",
#elif defined(__arm__)
	"/lib/arm-linux-gnueabihf", "/usr/lib/arm-linux-gnueabihf",
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	"/lib/powerpc64le-linux-gnu", "/usr/lib/powerpc64le-linux-gnu",
#elif defined(__s390x__)
	"/lib/s390x-linux-gnu", "/usr/lib/s390x-linux-gnu",
#elif defined(__riscv) && __riscv_xlen == 64
	"/lib/riscv64-linux-gnu", "/usr/lib/riscv64-linux-gnu",
#endif
	"/lib64", "/usr/lib64", "/lib", "/usr/lib", NULL
};

/* Is path an ELF shared object of the program's class and machine? */
static int fits(const struct copier *c, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	unsigned char h[sizeof(Elf64_Ehdr)];
	ssize_t n = pread(fd, h, sizeof(h), 0);
	close(fd);
	if (n < (ssize_t)sizeof(Elf32_Ehdr) || memcmp(h, ELFMAG, SELFMAG) != 0 ||
	    h[EI_DATA] != HOST_DATA || (h[EI_CLASS] == ELFCLASS64) != c->is64)
		return 0;
	uint16_t machine;
	memcpy(&machine, h + offsetof(Elf32_Ehdr, e_machine), sizeof(machine));
	return machine == c->machine;
}

/* One directory list (':'-separated, $ORIGIN = origin) searched for name. */
static int search_list(const struct copier *c, const char *list, const char *origin,
		       const char *name, char *out, size_t len)
{
	while (list && *list) {
		size_t n = strcspn(list, ":");
		char dir[PATH_MAX], cand[PATH_MAX];
		if (n < sizeof(dir)) {
			memcpy(dir, list, n);
			dir[n] = '\0';
			const char *rest = NULL;
			if (strncmp(dir, "$ORIGIN", 7) == 0)
				rest = dir + 7;
			else if (strncmp(dir, "${ORIGIN}", 9) == 0)
				rest = dir + 9;
			int ok = rest ? snprintf(cand, sizeof(cand), "%s%s/%s", origin, rest, name)
					: snprintf(cand, sizeof(cand), "%s/%s", dir, name);
			/* $LIB, $PLATFORM: not expanded, skipped */
			int plain = !strchr(rest ? rest : dir, '$');
			if (ok > 0 && ok < (int)sizeof(cand) && plain && fits(c, cand) &&
			    realpath(cand, out) && strlen(out) < len)
				return 0;
		}
		list += n;
		if (*list == ':')
			list++;
	}
	return -ENOENT;
}

/* ---- the loader's cache (ld.so.conf as ldconfig made it) ---- */

#define CACHE_MAX_OUT (4 << 20)

/* `ldconfig -p` of this machine, run once: the cache /etc/ld.so.conf's
 * directories went into, read with ldconfig's own knowledge of its
 * formats.  A fixed path (never PATH), C locale, no other environment. */
static const char *cache_text(struct copier *c)
{
	static const char *const tools[] = { "/sbin/ldconfig", "/usr/sbin/ldconfig",
					     "/usr/bin/ldconfig", "/bin/ldconfig", NULL };
	if (c->cache)
		return c->cache;
	/* not calloc: only the part ldconfig writes becomes resident */
	c->cache = malloc(CACHE_MAX_OUT);
	if (!c->cache)
		return "";
	c->cache[0] = '\0';
	for (size_t i = 0; tools[i]; i++) {
		char *const argv[] = { (char *)"ldconfig", (char *)"-p", NULL };
		char *const envp[] = { (char *)"LC_ALL=C", NULL };
		size_t n;
		int st;
		if (access(tools[i], X_OK) == 0 &&
		    child_output(tools[i], argv, envp, NULL, -1, c->cache, CACHE_MAX_OUT, &n,
				 &st) == 0 &&
		    WIFEXITED(st) && WEXITSTATUS(st) == 0)
			return c->cache;
		c->cache[0] = '\0';
	}
	return c->cache;
}

/* The first library of the cache named name that fits the program: lines
 * "\tNAME (FLAGS) => PATH", in the cache's order (the loader's). */
static int search_cache(struct copier *c, const char *name, char *out, size_t len)
{
	size_t nl = strlen(name);
	for (const char *l = cache_text(c); *l;) {
		const char *end = strchr(l, '\n');
		size_t ll = end ? (size_t)(end - l) : strlen(l);
		const char *arrow = memmem(l, ll, ") => /", 6);
		if (ll > nl + 1 && l[0] == '\t' && !memcmp(l + 1, name, nl) && l[1 + nl] == ' ' &&
		    arrow) {
			char cand[PATH_MAX];
			size_t pl = ll - (size_t)(arrow + 5 - l);
			if (pl < sizeof(cand)) {
				memcpy(cand, arrow + 5, pl);
				cand[pl] = '\0';
				if (fits(c, cand) && realpath(cand, out) && strlen(out) < len)
					return 0;
			}
		}
		l += ll + (end ? 1 : 0);
	}
	return -ENOENT;
}

/* Resolve a DT_NEEDED name for the object at real path obj. */
static int resolve_lib(struct copier *c, const struct progcopy_elf *e, const char *obj,
		       const char *name, char *out, size_t len)
{
	if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL;
	char origin[PATH_MAX];
	snprintf(origin, sizeof(origin), "%s", obj);
	char *slash = strrchr(origin, '/');
	if (slash)
		*slash = '\0';
	if (!e->runpath && e->rpath && search_list(c, e->rpath, origin, name, out, len) == 0)
		return 0;
	if (e->runpath && search_list(c, e->runpath, origin, name, out, len) == 0)
		return 0;
	if (search_cache(c, name, out, len) == 0)
		return 0;
	for (size_t i = 0; sys_dirs[i]; i++)
		if (search_list(c, sys_dirs[i], origin, name, out, len) == 0)
			return 0;
	return -ENOENT;
}

static int have_lib(const struct copier *c, const char *name)
{
	for (size_t i = 0; i < c->n_libs; i++)
		if (strcmp(c->libs[i], name) == 0)
			return 1;
	return 0;
}

/* Copy the object at path to rel, then each library it needs (not yet
 * copied) to prog/lib/NAME, recursively (depth-bounded). */
static int copy_object(struct copier *c, const char *path, const char *rel, mode_t mode,
		       int depth)
{
	struct src s;
	int rc = src_open(path, 1, &s), rd;
	if (rc < 0)
		return msg_fail(rc, c->err, c->errlen, "exec: cannot read %s to copy it: %s", path,
			    strerror(-rc));
	struct progcopy_elf e;
	rc = progcopy_elf_parse(src_image(&s), (size_t)s.st.st_size, &e);
	if (rc < 0) {
		src_close(&s);
		return msg_fail(rc, c->err, c->errlen, "exec: %s is not an ELF file brisk can read "
			    "(%s)", path, rc == -E2BIG ? "too many libraries" : "malformed");
	}
	rc = write_copy(c, rel, &s, mode, &rd);
	if (rc < 0) {
		src_close(&s);
		return msg_fail(rc, c->err, c->errlen, rd ? "exec: cannot read %s to copy it: %s"
			    : "exec: cannot copy %s to the work area: %s", path, strerror(-rc));
	}
	for (size_t i = 0; rc == 0 && i < e.n_needed; i++) {
		if (have_lib(c, e.needed[i]))
			continue;
		char real[PATH_MAX], lrel[PATH_MAX];
		if (depth > 16)
			rc = msg_fail(-ELOOP, c->err, c->errlen, "exec: %s: libraries nested too deep",
				      path);
		else if (resolve_lib(c, &e, path, e.needed[i], real, sizeof(real)) < 0)
			rc = msg_fail(-ENOENT, c->err, c->errlen, "exec: %s needs %s, which brisk "
				      "cannot find", path, text_show(e.needed[i]));
		else if ((rc = strv_add(&c->libs, &c->n_libs, e.needed[i])) == 0 &&
			 snprintf(lrel, sizeof(lrel), PROGCOPY_DIR "/lib/%s", e.needed[i]) <
			 (int)sizeof(lrel))
			rc = copy_object(c, real, lrel, 0644, depth + 1);
	}
	src_close(&s);
	return rc;
}

static int start_copy(struct copier *c, const char *path, struct src *s, struct progcopy_elf *e)
{
	int rc = src_open(path, 1, s);
	if (rc < 0)
		return msg_fail(rc, c->err, c->errlen, "exec: cannot read %s: %s", path,
			    strerror(-rc));
	rc = progcopy_elf_parse(src_image(s), (size_t)s->st.st_size, e);
	if (rc < 0 || !e->interp) {
		src_close(s);
		return msg_fail(-ENOEXEC, c->err, c->errlen, "exec: %s is not a dynamically linked "
			    "ELF program brisk can read", path);
	}
	c->machine = e->machine;
	c->is64 = e->is64;
	return 0;
}

/* The program and its interpreter; the libraries follow from the program. */
static int copy_program(struct copier *c, const char *path, const char *name)
{
	struct src s;
	struct progcopy_elf e;
	int rc = start_copy(c, path, &s, &e);
	if (rc < 0)
		return rc;
	char interp[PATH_MAX], rel[PATH_MAX];
	if (!realpath(e.interp, interp))
		rc = msg_fail(-errno, c->err, c->errlen, "exec: %s: interpreter %s: %s", path,
			      text_show(e.interp), strerror(errno));
	src_close(&s);
	if (rc < 0)
		return rc;
	/* the interpreter has no libraries of its own (it is static-pie) */
	if ((rc = copy_object(c, interp, PROGCOPY_DIR "/ld.so", 0755, 0)) < 0)
		return rc;
	snprintf(rel, sizeof(rel), PROGCOPY_DIR "/bin/%s", name);
	return copy_object(c, path, rel, 0755, 0);
}

static int copy_finish(struct copier *c, const char *name, const char *const *args,
		       const char *const *env)
{
	struct progcopy *pc = c->pc;
	char bin[PATH_MAX];
	/* from prog/, the cwd: the program by an absolute path that the user
	 * the actions run as can resolve (the work area's own path is closed
	 * to that user; python finds its standard library from this one, and
	 * from "bin/NAME" would make it absolute and fall back to the system's) */
	snprintf(bin, sizeof(bin), "/proc/self/cwd/bin/%s", name);
	const char *head[] = { "./ld.so", "--library-path", "lib", bin };
	size_t n = 0;
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < 4; i++)
		rc = strv_add(&pc->argv, &n, head[i]);
	for (size_t i = 0; rc == 0 && args && args[i]; i++)
		rc = strv_add(&pc->argv, &n, args[i]);
	n = 0;
	for (size_t i = 0; rc == 0 && env[i]; i++)
		rc = strv_add(&pc->envp, &n, env[i]);
	if (rc < 0)
		return rc;
	snprintf(pc->name, sizeof(pc->name), "%s", name);
	/* dirty pages cannot be evicted: write the copies back now */
	if (syncfs(c->workfd) < 0)
		return msg_fail(-errno, c->err, c->errlen, "exec: syncfs after the copy: %s",
			    strerror(errno));
	return 0;
}

static const char *const plain_env[] = {
	"LC_ALL=C", "TZ=UTC0", "OPENSSL_CONF=/dev/null", "PATH=/usr/bin:/bin", NULL
};

int progcopy_make_program(struct progcopy *pc, int workfd, const char *path,
			  const char *const *args, char *err, size_t errlen)
{
	memset(pc, 0, sizeof(*pc));
	struct copier c = { .pc = pc, .workfd = workfd, .err = err, .errlen = errlen };
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	int rc = copy_program(&c, path, base);
	if (rc == 0)
		rc = copy_finish(&c, base, args, plain_env);
	copier_done(&c);
	if (rc == 0) {
		size_t o = (size_t)snprintf(pc->what, sizeof(pc->what), "%s", base);
		for (size_t i = 0; args && args[i] && o < sizeof(pc->what); i++)
			o += (size_t)snprintf(pc->what + o, sizeof(pc->what) - o, " %s", args[i]);
	}
	return rc;
}

/* ---- python: which files the import list loads ---- */

#define PY_SYSTEM "/usr/bin/python3"
#define PY_MAX_OUT (1 << 20)

static const char py_script[] =
	"import sys, os\n"
	"import " PROGCOPY_PY_IMPORTS "\n"
	"print('L', os.path.dirname(os.path.dirname(json.__file__)))\n"
	"out = set()\n"
	"for m in list(sys.modules.values()):\n"
	"    for a in ('__file__', '__cached__'):\n"
	"        f = getattr(m, a, None)\n"
	"        if isinstance(f, str) and os.path.isfile(f):\n"
	"            out.add(os.path.realpath(f))\n"
	"for f in ('os.py', '__pycache__/os.cpython-%d%d.pyc' % sys.version_info[:2]):\n"
	"    f = os.path.join(os.path.dirname(os.path.dirname(json.__file__)), f)\n"
	"    if os.path.isfile(f):\n"
	"        out.add(os.path.realpath(f))\n"
	"for f in sorted(out):\n"
	"    print('F', f)\n";

/* Run the system python once (isolated, writing nothing) and read what it
 * prints into *out (NUL-terminated). */
static int py_list(const char *python, const struct child_cred *as, char **out, char *err,
		   size_t errlen)
{
	char *argv[] = { (char *)python, (char *)"-I", (char *)"-S", (char *)"-B",
			 (char *)"-X", (char *)"utf8", (char *)"-c", (char *)py_script, NULL };
	char *buf = malloc(PY_MAX_OUT);
	if (!buf)
		return -ENOMEM;
	size_t n;
	int st;
	int rc = child_output(python, argv, (char **)plain_env, as, -1, buf, PY_MAX_OUT, &n, &st);
	if (rc) {
		free(buf);
		return msg_fail(rc, err, errlen, "cannot run %s: %s", python, strerror(-rc));
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || n + 1 >= PY_MAX_OUT) {
		free(buf);
		return msg_fail(-ENOEXEC, err, errlen, "%s could not import the module list "
			    "(a module is missing?)", python);
	}
	*out = buf;
	return 0;
}

/* A path below dir ("dir/" + rest), with a rest that is plain: no empty,
 * "." or ".." part. */
static const char *below(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (strncmp(path, dir, n) != 0 || path[n] != '/')
		return NULL;
	const char *rest = path + n + 1;
	for (const char *p = rest; *p;) {
		size_t k = strcspn(p, "/");
		if (k == 0 || (k == 1 && p[0] == '.') || (k == 2 && p[0] == '.' && p[1] == '.'))
			return NULL;
		p += k;
		if (*p == '/')
			p++;
	}
	return *rest ? rest : NULL;
}

static int py_copy(struct copier *c, const char *python, const struct child_cred *as, char *err,
		   size_t errlen)
{
	char real[PATH_MAX];
	if (!realpath(python, real))
		return msg_fail(-errno, err, errlen, "%s: %s", python, strerror(errno));
	const char *name = strrchr(real, '/') + 1;
	if (strncmp(real, "/usr/bin/", 9) != 0 || strncmp(name, "python3", 7) != 0 ||
	    strlen(name) >= 32)
		return msg_fail(-ENOENT, err, errlen, "%s is %s, not the system's python3",
			    python, real);
	char *out = NULL;
	int rc = py_list(real, as, &out, err, errlen);
	if (rc < 0)
		return rc;
	/* "L stdlib-dir" first, then "F file" lines */
	char stdlib[PATH_MAX] = "", libname[64];
	size_t n_mod = 0;
	char *save = NULL;
	for (char *line = strtok_r(out, "\n", &save); rc == 0 && line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (text_check(line, NULL) < 0 || strlen(line) < 3 || line[1] != ' ') {
			rc = msg_fail(-EINVAL, err, errlen, "%s printed an unexpected line", real);
			break;
		}
		if (line[0] == 'L' && !stdlib[0]) {
			const char *base = strrchr(line + 2, '/');
			if (line[2] != '/' || !realpath(line + 2, stdlib) || !base ||
			    strcmp(stdlib, line + 2) != 0 || strncmp(base + 1, "python3", 7) != 0 ||
			    strlen(base + 1) >= sizeof(libname))
				rc = msg_fail(-EINVAL, err, errlen, "%s: unexpected standard library "
					      "directory %s", real, text_show(line + 2));
			else
				snprintf(libname, sizeof(libname), "%s", base + 1);
			if (rc == 0)
				rc = copy_program(c, real, name);
			continue;
		}
		const char *rel = stdlib[0] && line[0] == 'F' ? below(line + 2, stdlib) : NULL;
		if (!rel) {
			rc = msg_fail(-EINVAL, err, errlen, "%s: module file %s is not in its standard "
				      "library %s", real, text_show(line + 2), stdlib);
			break;
		}
		char dst[PATH_MAX];
		if (snprintf(dst, sizeof(dst), PROGCOPY_DIR "/lib/%s/%s", libname, rel) >=
		    (int)sizeof(dst)) {
			rc = msg_fail(-ENAMETOOLONG, err, errlen, "%s: path too long", line + 2);
			break;
		}
		size_t len = strlen(rel);
		if (len > 3 && strcmp(rel + len - 3, ".so") == 0) {
			rc = copy_object(c, line + 2, dst, 0644, 0);
		} else {
			struct src s;
			int rd;
			rc = src_open(line + 2, 0, &s);
			if (rc == 0) {
				rc = write_copy(c, dst, &s, 0644, &rd);
				src_close(&s);
			}
			if (rc < 0)
				msg_fail(rc, err, errlen, "exec: cannot copy %s: %s", line + 2,
					 strerror(-rc));
		}
		n_mod++;
	}
	free(out);
	if (rc == 0 && (!stdlib[0] || n_mod == 0))
		rc = msg_fail(-ENOENT, err, errlen, "%s listed no module files", real);
	if (rc == 0) {
		static const char *const args[] = { "-I", "-S", "-B", "-X", "utf8", "-c",
						    "import " PROGCOPY_PY_IMPORTS, NULL };
		rc = copy_finish(c, name, args, plain_env);
	}
	if (rc == 0)
		snprintf(c->pc->what, sizeof(c->pc->what), "%s -c 'import json, email, "
			 "http.client, sqlite3, xml...' (%zu module files)", name, n_mod);
	return rc;
}

int progcopy_make(struct progcopy *pc, int workfd, const struct child_cred *as, char *err,
		  size_t errlen)
{
	memset(pc, 0, sizeof(*pc));
	struct copier c = { .pc = pc, .workfd = workfd, .err = err, .errlen = errlen };
	char why[200] = "";
	int rc = py_copy(&c, PY_SYSTEM, as, why, sizeof(why));
	copier_done(&c);
	if (rc == 0)
		return 0;
	/* start again with the small program, in a fresh directory */
	char old[32];
	snprintf(old, sizeof(old), PROGCOPY_DIR "-python");
	progcopy_free(pc);
	renameat(workfd, PROGCOPY_DIR, workfd, old);
	static const char *const args[] = { "--version", NULL };
	rc = progcopy_make_program(pc, workfd, "/usr/bin/ls", args, err, errlen);
	if (rc == 0)
		snprintf(pc->why_fallback, sizeof(pc->why_fallback), "%s", why);
	return rc;
}

void progcopy_free(struct progcopy *pc)
{
	strv_free(pc->argv);
	strv_free(pc->envp);
	strv_free(pc->files);
	memset(pc, 0, sizeof(*pc));
}
