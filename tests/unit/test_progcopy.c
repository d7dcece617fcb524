/* progcopy: the ELF reader on crafted images (valid, truncated, bogus
 * offsets, random damage: refused, never a crash) and a real copy of ls
 * started from a directory under build/. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "fileio.h"
#include "progcopy.h"
#include "testdir.h"

static struct testdir td;

/* A small 64-bit image: ehdr, 3 phdrs (INTERP, LOAD, DYNAMIC), interp
 * string, dynamic section, string table; LOAD maps the whole file at
 * vaddr 0x400000. */
#define VBASE 0x400000u
struct img {
	unsigned char b[1024];
	size_t len;
	size_t ph, interp, dyn, str;   /* offsets */
};

static const char strtab[] = "\0libfoo.so.1\0libbar.so.2\0$ORIGIN/../lib\0";

static void make_img(struct img *m)
{
	memset(m, 0, sizeof(*m));
	m->ph = sizeof(Elf64_Ehdr);
	m->interp = m->ph + 3 * sizeof(Elf64_Phdr);
	const char interp[] = "/lib64/ld-test.so.2";
	m->dyn = m->interp + sizeof(interp);
	m->dyn = (m->dyn + 7) & ~(size_t)7;
	Elf64_Dyn dyn[] = {
		{ DT_NEEDED, { 1 } }, { DT_NEEDED, { 13 } }, { DT_RUNPATH, { 25 } },
		{ DT_STRTAB, { 0 } }, { DT_STRSZ, { sizeof(strtab) } }, { DT_NULL, { 0 } },
	};
	m->str = m->dyn + sizeof(dyn);
	dyn[3].d_un.d_ptr = VBASE + m->str;
	m->len = m->str + sizeof(strtab);
	Elf64_Ehdr e = { 0 };
	memcpy(e.e_ident, ELFMAG, SELFMAG);
	e.e_ident[EI_CLASS] = ELFCLASS64;
	e.e_ident[EI_DATA] = ELFDATA2LSB;
	e.e_ident[EI_VERSION] = EV_CURRENT;
	e.e_type = ET_DYN;
	e.e_machine = EM_X86_64;
	e.e_phoff = m->ph;
	e.e_phentsize = sizeof(Elf64_Phdr);
	e.e_phnum = 3;
	e.e_ehsize = sizeof(e);
	memcpy(m->b, &e, sizeof(e));
	Elf64_Phdr p[3] = {
		{ .p_type = PT_INTERP, .p_offset = m->interp, .p_filesz = sizeof(interp) },
		{ .p_type = PT_LOAD, .p_offset = 0, .p_vaddr = VBASE, .p_filesz = m->len },
		{ .p_type = PT_DYNAMIC, .p_offset = m->dyn, .p_vaddr = VBASE + m->dyn,
		  .p_filesz = sizeof(dyn) },
	};
	memcpy(m->b + m->ph, p, sizeof(p));
	memcpy(m->b + m->interp, interp, sizeof(interp));
	memcpy(m->b + m->dyn, dyn, sizeof(dyn));
	memcpy(m->b + m->str, strtab, sizeof(strtab));
}

static Elf64_Phdr *phdr(struct img *m, int i)
{
	return (Elf64_Phdr *)(void *)(m->b + m->ph + (size_t)i * sizeof(Elf64_Phdr));
}

static Elf64_Dyn *dyn_at(struct img *m, int i)
{
	return (Elf64_Dyn *)(void *)(m->b + m->dyn + (size_t)i * sizeof(Elf64_Dyn));
}

static void test_valid(void **state)
{
	(void)state;
	struct img m;
	make_img(&m);
	struct progcopy_elf e;
	assert_int_equal(progcopy_elf_parse(m.b, m.len, &e), 0);
	assert_true(e.is64);
	assert_int_equal(e.machine, EM_X86_64);
	assert_string_equal(e.interp, "/lib64/ld-test.so.2");
	assert_int_equal(e.n_needed, 2);
	assert_string_equal(e.needed[0], "libfoo.so.1");
	assert_string_equal(e.needed[1], "libbar.so.2");
	assert_string_equal(e.runpath, "$ORIGIN/../lib");
	assert_null(e.rpath);
}

/* Every prefix of the image is refused: each part is needed. */
static void test_truncated(void **state)
{
	(void)state;
	struct img m;
	make_img(&m);
	struct progcopy_elf e;
	for (size_t n = 0; n < m.len; n++)
		assert_true(progcopy_elf_parse(m.b, n, &e) < 0);
}

static void expect_refused(struct img *m, const char *what)
{
	struct progcopy_elf e;
	int rc = progcopy_elf_parse(m->b, m->len, &e);
	if (rc != -ENOEXEC)
		fail_msg("%s: got %d, want -ENOEXEC", what, rc);
}

static void test_bogus(void **state)
{
	(void)state;
	struct img m;
	Elf64_Ehdr *eh;
#define CASE(what, stmt) do { make_img(&m); eh = (Elf64_Ehdr *)(void *)m.b; (void)eh; stmt; \
			       expect_refused(&m, what); } while (0)
	CASE("not ELF", m.b[1] = 'X');
	CASE("bad class", m.b[EI_CLASS] = 7);
	CASE("other byte order", m.b[EI_DATA] = ELFDATA2MSB);
	CASE("phoff past the end", eh->e_phoff = 1u << 20);
	CASE("phoff wraps", eh->e_phoff = UINT64_MAX - 8);
	CASE("phnum huge", eh->e_phnum = 0xffff);
	CASE("phnum 0", eh->e_phnum = 0);
	CASE("phentsize wrong", eh->e_phentsize = 8);
	CASE("interp off the end", phdr(&m, 0)->p_offset = m.len - 4);
	CASE("interp offset wraps", phdr(&m, 0)->p_offset = UINT64_MAX - 2);
	CASE("interp size huge", phdr(&m, 0)->p_filesz = UINT64_MAX);
	CASE("interp unterminated", m.b[m.interp + 19] = 'x');
	CASE("interp relative", m.b[m.interp] = 'l');
	CASE("two interps", phdr(&m, 1)->p_type = PT_INTERP);
	CASE("dynamic off the end", phdr(&m, 2)->p_offset = m.len);
	CASE("dynamic size wraps", phdr(&m, 2)->p_filesz = UINT64_MAX - 4);
	CASE("no DT_NULL", phdr(&m, 2)->p_filesz = 5 * sizeof(Elf64_Dyn));
	CASE("strtab not mapped", dyn_at(&m, 3)->d_un.d_ptr = 0x10);
	CASE("strtab past load", dyn_at(&m, 3)->d_un.d_ptr = VBASE + m.len + 100);
	CASE("strsz past the end", dyn_at(&m, 4)->d_un.d_val = 4096);
	CASE("strsz zero", dyn_at(&m, 4)->d_un.d_val = 0);
	CASE("needed offset past strsz", dyn_at(&m, 0)->d_un.d_val = sizeof(strtab));
	CASE("needed offset huge", dyn_at(&m, 1)->d_un.d_val = UINT64_MAX);
	CASE("needed empty", dyn_at(&m, 0)->d_un.d_val = 0);
	CASE("strtab unterminated", m.b[m.len - 1] = 'x'; dyn_at(&m, 2)->d_un.d_val = 40);
	CASE("no strtab", dyn_at(&m, 3)->d_tag = DT_DEBUG);
	CASE("two runpaths", dyn_at(&m, 1)->d_tag = DT_RUNPATH; dyn_at(&m, 2)->d_un.d_val = 13);
	CASE("load offset wraps", phdr(&m, 1)->p_offset = UINT64_MAX - 16);
#undef CASE
}

/* Random damage: any result but a crash or a string outside the image. */
static void test_fuzz(void **state)
{
	(void)state;
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (int round = 0; round < 20000; round++) {
		struct img m;
		make_img(&m);
		int flips = 1 + round % 8;
		for (int k = 0; k < flips; k++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			m.b[(x >> 8) % m.len] = (unsigned char)x;
		}
		struct progcopy_elf e;
		if (progcopy_elf_parse(m.b, m.len, &e) != 0)
			continue;
		const char *lo = (const char *)m.b, *hi = lo + m.len;
		if (e.interp)
			assert_true(e.interp >= lo && e.interp + strlen(e.interp) < hi);
		for (size_t i = 0; i < e.n_needed; i++)
			assert_true(e.needed[i] >= lo && e.needed[i] + strlen(e.needed[i]) < hi);
	}
}

static void test_real_ls(void **state)
{
	(void)state;
	int fd = open("/usr/bin/ls", O_RDONLY);
	if (fd < 0)
		skip();
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	unsigned char *b = malloc((size_t)st.st_size);
	assert_non_null(b);
	assert_int_equal(read(fd, b, (size_t)st.st_size), st.st_size);
	close(fd);
	struct progcopy_elf e;
	assert_int_equal(progcopy_elf_parse(b, (size_t)st.st_size, &e), 0);
	assert_non_null(e.interp);
	int libc = 0;
	for (size_t i = 0; i < e.n_needed; i++)
		libc |= strcmp(e.needed[i], "libc.so.6") == 0;
	assert_true(libc);
	free(b);
}

/* Copy ls into a fresh directory, check each copy is there (on that file
 * system) and start it from there as the exec action does. */
static void test_copy_ls(void **state)
{
	(void)state;
	if (access("/usr/bin/ls", X_OK) < 0)
		skip();
	char dir[PATH_MAX], err[256] = "";
	snprintf(dir, sizeof(dir), "%s/copy", td.path);
	assert_int_equal(mkdir(dir, 0700), 0);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	struct progcopy pc;
	static const char *const args[] = { "--version", NULL };
	int rc = progcopy_make_program(&pc, dfd, "/usr/bin/ls", args, err, sizeof(err));
	if (rc)
		fail_msg("copy: %s", err);
	assert_true(pc.n_files >= 3);   /* ld.so, ls, libc at least */
	struct stat dst, st;
	assert_int_equal(fstat(dfd, &dst), 0);
	for (size_t i = 0; i < pc.n_files; i++) {
		assert_int_equal(fstatat(dfd, pc.files[i], &st, AT_SYMLINK_NOFOLLOW), 0);
		assert_true(S_ISREG(st.st_mode));
		assert_int_equal(st.st_dev, dst.st_dev);
	}
	assert_string_equal(pc.argv[0], "./ld.so");   /* started from prog/ */
	/* a second copy into the same place is refused (O_EXCL), not merged */
	struct progcopy again;
	assert_true(progcopy_make_program(&again, dfd, "/usr/bin/ls", args, err, sizeof(err)) < 0);
	progcopy_free(&again);
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		int pfd = openat(dfd, PROGCOPY_DIR, O_RDONLY | O_DIRECTORY);
		if (pfd < 0 || fchdir(pfd) < 0 || null < 0 || dup2(null, 1) < 0)
			_exit(126);
		execve(pc.argv[0], pc.argv, pc.envp);
		_exit(127);
	}
	int ws;
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFEXITED(ws));
	assert_int_equal(WEXITSTATUS(ws), 0);
	progcopy_free(&pc);
	close(dfd);
}

static void test_copy_refuses_nonelf(void **state)
{
	(void)state;
	char dir[PATH_MAX], err[256] = "", script[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/copy2", td.path);
	snprintf(script, sizeof(script), "%s/script.sh", td.path);
	assert_int_equal(mkdir(dir, 0700), 0);
	FILE *f = fopen(script, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\necho hi\n", f);
	fclose(f);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	struct progcopy pc;
	assert_int_equal(progcopy_make_program(&pc, dfd, script, NULL, err, sizeof(err)), -ENOEXEC);
	assert_non_null(strstr(err, "not a dynamically linked ELF"));
	progcopy_free(&pc);
	close(dfd);
}

/* A program someone other than root may write (here: mode 0777) is read
 * into memory, not mapped, for the parse: it copies all the same, byte for
 * byte, with its libraries. */
static void test_copy_writable_source(void **state)
{
	(void)state;
	char *img = NULL;
	size_t n = 0;
	if (fileio_read_file("/usr/bin/ls", PROGCOPY_MAX_FILE, &img, &n) < 0)
		skip();
	char dir[PATH_MAX], prog[PATH_MAX], err[256] = "";
	snprintf(dir, sizeof(dir), "%s/copy3", td.path);
	snprintf(prog, sizeof(prog), "%s/ls-writable", td.path);
	assert_int_equal(mkdir(dir, 0700), 0);
	int fd = open(prog, O_WRONLY | O_CREAT | O_EXCL, 0777);
	assert_true(fd >= 0);
	assert_int_equal(fileio_write_all(fd, img, n), 0);
	assert_int_equal(fchmod(fd, 0777), 0);
	close(fd);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	struct progcopy pc;
	int rc = progcopy_make_program(&pc, dfd, prog, NULL, err, sizeof(err));
	if (rc)
		fail_msg("copy: %s", err);
	assert_true(pc.n_files >= 3);   /* ld.so, the program, libc at least */
	int found = 0;
	for (size_t i = 0; i < pc.n_files; i++) {
		char *got = NULL;
		size_t gn = 0;
		char path[2 * PATH_MAX + 2];
		snprintf(path, sizeof(path), "%s/%s", dir, pc.files[i]);
		if (fileio_read_file(path, PROGCOPY_MAX_FILE, &got, &gn) == 0 && gn == n &&
		    memcmp(got, img, n) == 0)
			found = 1;
		free(got);
	}
	assert_true(found);
	progcopy_free(&pc);
	close(dfd);
	free(img);
}

int main(void)
{
	if (testdir_make(&td, "progcopy") < 0)
		return 1;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bogus),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_real_ls),
		cmocka_unit_test(test_copy_ls),
		cmocka_unit_test(test_copy_refuses_nonelf),
		cmocka_unit_test(test_copy_writable_source),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	testdir_remove(&td, TESTDIR_TREE);
	return rc;
}
