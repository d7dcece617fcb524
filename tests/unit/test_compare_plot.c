/* compare_plot: SVG and PNG of a synthetic comparison (3 arms, 2 actions,
 * 4 rounds x 4 samples, one failed, one warm and one timed-out sample, a
 * hostile label); the extension rule; temp + rename (a symbolic link at
 * the path is replaced, not followed; nothing left behind on failure).
 *
 * BRISK_TEST_PLOT_KEEP=DIR also writes the pictures into DIR to look at. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "compare_plot.h"
#include "fileio.h"
#include "testdir.h"

static struct testdir td;

static int setup(void **state)
{
	(void)state;
	return testdir_make(&td, "plot");
}

static int teardown(void **state)
{
	(void)state;
	return testdir_remove(&td, TESTDIR_TREE);
}

static const char hostile[] = "<evil & \"]]> --> <![CDATA[x";

/* A deterministic spread around 1 (about 0.7 .. 1.5). */
static double spread(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	double u = (double)((*seed >> 8) % 10000) / 10000.0;
	return exp((u - 0.5) * 0.8);
}

/* n_arms arms over exec and ls; labels long when long_labels. */
static struct compare_result *synth(size_t n_arms, int long_labels)
{
	struct compare_result *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	static const double base_ms[2] = { 320, 42 };
	static const double factor[8] = { 1.0, 0.25, 1.05, 1.9, 0.6, 0.98, 1.3, 0.8 };
	r->n_arms = n_arms;
	r->actions = 1u << ACTION_EXEC | 1u << ACTION_LS;
	snprintf(r->dir, sizeof(r->dir), "/srv/data/%s/work", hostile);
	snprintf(r->stackline, sizeof(r->stackline), "ext4 on loop0 (FUSE hdd-7200) %s", hostile);
	for (size_t a = 0; a < n_arms; a++) {
		struct compare_arm *arm = &r->arms[a];
		if (a == 0)
			snprintf(arm->label, sizeof(arm->label), "current");
		else if (a == 1)
			snprintf(arm->label, sizeof(arm->label), "%s", hostile);
		else if (long_labels)
			snprintf(arm->label, sizeof(arm->label),
				 "scheduler=bfq,low_latency=1,slice_idle=%zu,x\x01y", a);
		else
			snprintf(arm->label, sizeof(arm->label), "mq-deadline");
		snprintf(arm->name, sizeof(arm->name), "%s", arm->label);
	}
	unsigned seed = 7;
	r->cap_samples = n_arms * 2 * 4 * 4;
	r->samples = calloc(r->cap_samples, sizeof(*r->samples));
	assert_non_null(r->samples);
	for (uint32_t round = 0; round < 4; round++)
		for (uint32_t a = 0; a < n_arms; a++)
			for (int k = 0; k < 2; k++)
				for (int i = 0; i < 4; i++) {
					struct compare_sample *s = &r->samples[r->n_samples++];
					s->arm = a;
					s->round = round;
					s->action = k == 0 ? ACTION_EXEC : ACTION_LS;
					s->cold = 1;
					s->ms = base_ms[k] * factor[a] * spread(&seed);
				}
	r->samples[5].ms = NAN;          /* failed */
	r->samples[5].err = EIO;
	r->samples[9].cold = 0;          /* warm */
	r->samples[14].timeout = 1;      /* timed out at its limit */
	r->samples[14].ms = 2000;
	for (size_t a = 0; a < n_arms; a++) {
		for (int k = 0; k < 2; k++) {
			enum action_kind ak = k == 0 ? ACTION_EXEC : ACTION_LS;
			struct compare_cell *c = &r->cells[a][ak];
			double m = base_ms[k] * factor[a];
			c->p50 = (struct stats_ci){ m, m * 0.85, m * 1.18 };
			c->n = 16;
			if (a == 0) {
				c->ratio50 = c->ratio_runs = (struct stats_ci){ NAN, NAN, NAN };
				continue;
			}
			double f = factor[a];
			c->ratio50 = c->ratio_runs = (struct stats_ci){ f, f * 0.8, f * 1.25 };
			c->verdict = f * 1.25 < 1 ? STATS_FASTER : f * 0.8 > 1 ? STATS_SLOWER
							: STATS_NO_DIFFERENCE;
		}
		double mib = a == 1 ? 61 : 95 + 3.0 * (double)a;
		r->armstat[a].load_mibps = (struct stats_ci){ mib, mib * 0.9, mib * 1.08 };
		r->armstat[a].load_ok = a != 1;
	}
	/* Ranked by the factor, the arm that starves the load last. */
	for (size_t a = 0; a < n_arms; a++)
		r->ranking[a] = a;
	for (size_t a = 0; a < n_arms; a++)
		for (size_t b = a + 1; b < n_arms; b++) {
			size_t x = r->ranking[a], y = r->ranking[b];
			double fx = factor[x] + (x == 1 ? 10 : 0), fy = factor[y] + (y == 1 ? 10 : 0);
			if (fy < fx) {
				r->ranking[a] = y;
				r->ranking[b] = x;
			}
		}
	r->n_ranked = n_arms;
	r->best = n_arms > 4 ? 4 : -1;
	if (r->best >= 0)
		snprintf(r->recommendation, sizeof(r->recommendation),
			 "%s: faster than the baseline on exec (0.60x) and ls (0.60x), slower on "
			 "none, and keeps the load's throughput.", r->arms[4].label);
	else
		snprintf(r->recommendation, sizeof(r->recommendation),
			 "no arm is better than the baseline on every action without starving the "
			 "load: %s is faster on exec and ls but keeps only 64 %% of the best load "
			 "throughput. Run longer (more rounds) or accept the trade.", hostile);
	snprintf(r->rule, sizeof(r->rule),
		 "geometric mean of each arm's p90 ratios over the actions (lower is better), among "
		 "arms keeping at least 80 %% of the best load throughput");
	r->rounds_done = 4;
	r->rounds_max = 4;
	r->looks = 3;
	r->alpha = 0.05;
	r->alpha_look = 0.05 / 3;
	return r;
}

static void synth_free(struct compare_result *r)
{
	free(r->samples);
	free(r);
}

static void path_in(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", td.path, name);
}

/* Entries in dir besides . and .. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void keep(const struct compare_result *r, const char *name)
{
	const char *dir = getenv("BRISK_TEST_PLOT_KEEP");
	if (!dir || !*dir)
		return;
	char p[PATH_MAX], err[512] = "";
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (compare_plot(r, p, err, sizeof(err)) != 0)
		fail_msg("%s", err);
}

static uint32_t be32(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* The PNG at path: signature, IHDR; *h its height. */
static void check_png(const char *path, uint32_t *h)
{
	char *buf = NULL;
	size_t n = 0;
	assert_int_equal(fileio_read_file(path, 64u << 20, &buf, &n), 0);
	assert_true(n > 33);
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	assert_memory_equal(buf, sig, 8);
	assert_memory_equal(buf + 12, "IHDR", 4);
	assert_int_equal(be32((unsigned char *)buf + 16), COMPARE_PLOT_WIDTH);
	*h = be32((unsigned char *)buf + 20);
	free(buf);
}

static void test_svg(void **state)
{
	(void)state;
	struct compare_result *r = synth(3, 0);
	char p[PATH_MAX], err[512] = "";
	path_in(p, sizeof(p), "plot.SVG");
	assert_int_equal(compare_plot(r, p, err, sizeof(err)), 0);
	keep(r, "sample.svg");
	char *buf = NULL;
	size_t n = 0;
	assert_int_equal(fileio_read_file(p, 64u << 20, &buf, &n), 0);
	assert_non_null(strstr(buf, "<svg"));
	assert_non_null(strstr(buf, "</svg>"));
	/* The hostile label is drawn as glyphs, never copied into the markup. */
	assert_null(strstr(buf, "<evil"));
	assert_null(strstr(buf, "]]> -->"));
	free(buf);
	if (system("command -v xmllint >/dev/null 2>&1") != 0) {
		print_message("xmllint not installed: skipping the XML parse check of %s\n", p);
	} else {
		char cmd[PATH_MAX + 64];
		snprintf(cmd, sizeof(cmd), "xmllint --noout --nonet '%s'", p);
		assert_int_equal(system(cmd), 0);
	}
	assert_int_equal(entries(td.path), 1);
	assert_int_equal(unlink(p), 0);
	synth_free(r);
}

static void test_png(void **state)
{
	(void)state;
	struct compare_result *r = synth(3, 0);
	char p[PATH_MAX], err[512] = "";
	path_in(p, sizeof(p), "plot.png");
	assert_int_equal(compare_plot(r, p, err, sizeof(err)), 0);
	keep(r, "sample.png");
	uint32_t h3 = 0, h8 = 0;
	check_png(p, &h3);
	assert_true(h3 >= 300 && h3 <= 2000);
	struct stat st;
	assert_int_equal(stat(p, &st), 0);
	assert_true(st.st_size > 10000);   /* a picture, not a blank page */

	/* 8 arms with long labels (cut with an ellipsis): taller, and every
	 * label, including control bytes in one, draws without a cairo error. */
	struct compare_result *r8 = synth(8, 1);
	assert_int_equal(compare_plot(r8, p, err, sizeof(err)), 0);
	keep(r8, "sample8.png");
	check_png(p, &h8);
	assert_true(h8 > h3 + 2 * 5 * 26 - 1);   /* 5 more rows in 3 panels */
	assert_int_equal(entries(td.path), 1);
	assert_int_equal(unlink(p), 0);
	synth_free(r8);
	synth_free(r);
}

static void test_bad_extension(void **state)
{
	(void)state;
	struct compare_result *r = synth(3, 0);
	static const char *names[] = { "plot.jpg", "plot", "plot.svg.txt", "plotsvg", ".png" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char p[PATH_MAX], err[512] = "";
		path_in(p, sizeof(p), names[i]);
		assert_int_equal(compare_plot(r, p, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, names[i]));
		assert_non_null(strstr(err, ".svg"));
		assert_non_null(strstr(err, ".png"));
		assert_int_equal(entries(td.path), 0);
	}
	/* No arm: refused, no file. */
	r->n_arms = 0;
	char p[PATH_MAX], err[512] = "";
	path_in(p, sizeof(p), "empty.png");
	assert_int_equal(compare_plot(r, p, err, sizeof(err)), -EINVAL);
	assert_int_equal(entries(td.path), 0);
	synth_free(r);
}

static void test_symlink_replaced(void **state)
{
	(void)state;
	struct compare_result *r = synth(3, 0);
	char target[PATH_MAX], link_[PATH_MAX], dangling[PATH_MAX], err[512] = "";
	path_in(target, sizeof(target), "target");
	path_in(link_, sizeof(link_), "plot.svg");
	path_in(dangling, sizeof(dangling), "dangling.png");
	int fd = open(target, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "keep", 4), 4);
	close(fd);
	assert_int_equal(symlink("target", link_), 0);
	assert_int_equal(symlink("nowhere", dangling), 0);

	assert_int_equal(compare_plot(r, link_, err, sizeof(err)), 0);
	assert_int_equal(compare_plot(r, dangling, err, sizeof(err)), 0);
	struct stat st;
	assert_int_equal(lstat(link_, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(lstat(dangling, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	char *buf = NULL;
	size_t n = 0;
	assert_int_equal(fileio_read_file(target, 100, &buf, &n), 0);
	assert_int_equal(n, 4);
	assert_memory_equal(buf, "keep", 4);
	free(buf);
	char nowhere[PATH_MAX];
	path_in(nowhere, sizeof(nowhere), "nowhere");
	assert_int_equal(access(nowhere, F_OK), -1);
	assert_int_equal(entries(td.path), 3);
	unlink(link_);
	unlink(dangling);
	unlink(target);
	synth_free(r);
}

/* In a child: drop to nobody when root (root writes anywhere), or limit
 * the file size; the parent checks the status and the directory. */
static int child_plot(const char *path, int drop, rlim_t fsize)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (drop && (setgroups(0, NULL) != 0 || setgid(65534) != 0 || setuid(65534) != 0))
			_exit(100);
		if (fsize) {
			signal(SIGXFSZ, SIG_IGN);
			struct rlimit rl = { fsize, fsize };
			if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
				_exit(101);
		}
		struct compare_result *r = synth(3, 0);
		char err[512] = "";
		int rc = compare_plot(r, path, err, sizeof(err));
		fprintf(stderr, "compare_plot %s: %d %s\n", path, rc, err);
		_exit(rc < 0 && rc > -100 && strstr(err, path) ? -rc : 0);
	}
	int status = 0;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void test_unwritable_dir(void **state)
{
	(void)state;
	char sub[PATH_MAX], p[PATH_MAX + 16];
	path_in(sub, sizeof(sub), "ro");
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(chmod(sub, 0555), 0);
	snprintf(p, sizeof(p), "%s/plot.svg", sub);
	int drop = geteuid() == 0;
	assert_int_equal(chmod(td.path, 0755), 0);
	/* nobody must reach the directory to be refused by it. */
	char up[PATH_MAX];
	if (drop && realpath(td.path, up)) {
		for (char *sl; *up; *sl = 0) {
			struct stat st;
			if (stat(up, &st) != 0 || !(st.st_mode & S_IXOTH)) {
				print_message("skipping: %s is not searchable by nobody\n", up);
				chmod(sub, 0755);
				rmdir(sub);
				chmod(td.path, 0700);
				skip();
			}
			sl = strrchr(up, '/');
		}
	}
	int rc = child_plot(p, drop, 0);
	if (rc == 100) {
		print_message("skipping: cannot drop to uid 65534 here\n");
	} else {
		assert_int_equal(rc, EACCES);
		assert_int_equal(entries(sub), 0);
	}
	chmod(sub, 0755);
	assert_int_equal(rmdir(sub), 0);
	assert_int_equal(chmod(td.path, 0700), 0);
}

static void test_write_error(void **state)
{
	(void)state;
	static const char *names[] = { "big.png", "big.svg" };
	for (size_t i = 0; i < 2; i++) {
		char p[PATH_MAX];
		path_in(p, sizeof(p), names[i]);
		/* 4 KiB: the write fails part-way (EFBIG); no file is left. */
		assert_int_equal(child_plot(p, 0, 4096), EFBIG);
		assert_int_equal(entries(td.path), 0);
	}
}

/* Degenerate and hostile numbers: nothing finite, out-of-range indexes,
 * invalid UTF-8 and control bytes in the texts, no action: still a picture
 * (a cairo error would make it fail). */
static void test_degenerate(void **state)
{
	(void)state;
	struct compare_result *r = synth(2, 0);
	static const double bad[] = { NAN, INFINITY, -INFINITY, -5, 0, 1e300, 1e-300 };
	for (size_t i = 0; i < r->n_samples; i++) {
		r->samples[i].ms = bad[i % (sizeof(bad) / sizeof(bad[0]))];
		r->samples[i].timeout = i % 3 == 0;
	}
	r->samples[0].arm = 7;       /* no such arm */
	r->samples[1].arm = 1000000;
	r->samples[2].action = 200;  /* no such action */
	for (size_t a = 0; a < 2; a++) {
		for (int k = 0; k < ACTION_KIND_COUNT; k++) {
			r->cells[a][k].p50 = (struct stats_ci){ NAN, INFINITY, -1 };
			r->cells[a][k].ratio50 = r->cells[a][k].ratio_runs = (struct stats_ci){ a ? 0.5 : NAN, NAN, NAN };
		}
		r->armstat[a].load_mibps = (struct stats_ci){ NAN, NAN, NAN };
	}
	snprintf(r->arms[1].label, sizeof(r->arms[1].label), "bad \xff\xfe utf8 \x1b[31m");
	snprintf(r->dir, sizeof(r->dir), "/\xc0\xaf\n");
	r->recommendation[0] = 0;
	r->rule[0] = 0;
	r->stackline[0] = 0;
	char p[PATH_MAX], err[512] = "";
	uint32_t h = 0;
	path_in(p, sizeof(p), "degenerate.png");
	if (compare_plot(r, p, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	check_png(p, &h);
	assert_true(h > 0);
	keep(r, "degenerate.png");
	/* A very long recommendation is wrapped and cut, not drawn off the page. */
	memset(r->recommendation, 'w', sizeof(r->recommendation) - 1);
	r->recommendation[sizeof(r->recommendation) - 1] = 0;
	memset(r->dir, 'd', sizeof(r->dir) - 1);
	r->dir[sizeof(r->dir) - 1] = 0;
	r->actions = 0;
	path_in(p, sizeof(p), "degenerate.svg");
	if (compare_plot(r, p, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(entries(td.path), 2);
	path_in(p, sizeof(p), "degenerate.png");
	unlink(p);
	path_in(p, sizeof(p), "degenerate.svg");
	unlink(p);
	synth_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_png),
		cmocka_unit_test(test_bad_extension),
		cmocka_unit_test(test_symlink_replaced),
		cmocka_unit_test(test_unwritable_dir),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_degenerate),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
