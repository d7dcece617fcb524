/* journal_file — the restore journal's file format; see journal_file.h. */
#include "journal_file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"

/* A field: non-empty, printable, no white space, shorter than max. */
static int token_ok(const char *s, size_t max)
{
	size_t n = 0;
	for (; s[n]; n++)
		if ((unsigned char)s[n] <= ' ' || (unsigned char)s[n] == 0x7f)
			return 0;
	return n > 0 && n < max;
}

static int dash_or(const char *s, int (*ok)(const char *))
{
	return strcmp(s, "-") == 0 || ok(s);
}

static int digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

static int sched_name(const char *s)
{
	return *s && strlen(s) < TUNABLE_SCHED_LEN &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_-") == strlen(s);
}

static int canonical_key(const char *s)
{
	struct tunable_key k;
	return tunable_parse_key(s, &k, NULL, 0) == 0 && strcmp(k.name, s) == 0;
}

const char *journal_kind_name(enum journal_kind kind)
{
	switch (kind) {
	case JOURNAL_RUN: return "run";
	case JOURNAL_TUI: return "tui";
	case JOURNAL_SET: return "set";
	case JOURNAL_LAB: return "lab";
	}
	return "?";
}

static const char *const attr_keys[] = {
	"queue/rotational", "bdi/strict_limit", "bdi/max_ratio_fine", NULL,
};

int journal_attr_key(const char *key)
{
	for (size_t i = 0; attr_keys[i]; i++)
		if (strcmp(key, attr_keys[i]) == 0)
			return 1;
	return 0;
}

/* loopN */
static int loop_name(const char *s)
{
	return strncmp(s, "loop", 4) == 0 && digits(s + 4) && strlen(s) < 16;
}

static int attr_entry_valid(const struct journal_entry *e)
{
	const char *v = e->value[0] == '-' ? e->value + 1 : e->value;
	return loop_name(e->target) && dash_or(e->diskseq, digits) &&
	       strcmp(e->sched, "-") == 0 && strcmp(e->via, "-") == 0 && digits(v) &&
	       strlen(e->value) < 24;
}

int journal_entry_valid(const struct journal_entry *e)
{
	struct tunable_key k;
	if (journal_attr_key(e->key))
		return attr_entry_valid(e);
	if (!dash_or(e->target, tunable_valid_devname) || !dash_or(e->diskseq, digits) ||
	    !canonical_key(e->key) || !dash_or(e->sched, sched_name) ||
	    !dash_or(e->via, canonical_key) || !token_ok(e->value, sizeof(e->value)))
		return 0;
	if (tunable_parse_key(e->key, &k, NULL, 0) < 0)
		return 0;
	/* sysctls have no device; everything else needs one */
	if (tunable_is_sysctl(&k) != (strcmp(e->target, "-") == 0))
		return 0;
	return 1;
}

int journal_file_add(struct journal_file *f, const struct journal_entry *e)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 16;
		struct journal_entry *ne = realloc(f->e, cap * sizeof(*ne));
		if (!ne)
			return -ENOMEM;
		f->e = ne;
		f->cap = cap;
	}
	f->e[f->n++] = *e;
	return 0;
}

void journal_file_free(struct journal_file *f)
{
	free(f->e);
	f->e = NULL;
	f->n = f->cap = 0;
}

static int copy_field(char *dst, size_t len, const char *src, size_t n)
{
	if (n == 0 || n >= len)
		return -EINVAL;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return 0;
}

static int parse_entry(const char *s, struct journal_entry *e)
{
	char *fields[6] = { e->target, e->diskseq, e->key, e->sched, e->via, e->value };
	size_t sizes[6] = { sizeof(e->target), sizeof(e->diskseq), sizeof(e->key),
			    sizeof(e->sched), sizeof(e->via), sizeof(e->value) };
	for (int i = 0; i < 6; i++) {
		size_t n = strcspn(s, " ");
		if (copy_field(fields[i], sizes[i], s, n) < 0)
			return -EINVAL;
		s += n;
		if (i < 5) {
			if (*s != ' ')
				return -EINVAL;
			s++;
		}
	}
	if (*s)
		return -EINVAL;
	return journal_entry_valid(e) ? 0 : -EINVAL;
}

int journal_parse(const char *text, struct journal_file *out, int *line)
{
	memset(out, 0, sizeof(*out));
	int ln = 0, magic = 0, have_kind = 0, have_pid = 0;
	const char *p = text;
	char buf[512];
	while (*p) {
		size_t n = strcspn(p, "\n");
		ln++;
		/* A last line without its newline is a write torn by a crash:
		 * its change was never made (entries are fsync'ed first). */
		if (p[n] != '\n' && magic && strncmp(p, "orig ", 5) == 0)
			break;
		if (n >= sizeof(buf))
			goto bad;
		memcpy(buf, p, n);
		buf[n] = '\0';
		p += n;
		if (*p == '\n')
			p++;
		if (buf[0] == '\0' || buf[0] == '#')
			continue;
		if (!magic) {
			if (strcmp(buf, "brisk-journal 1") != 0)
				goto bad;
			magic = 1;
			continue;
		}
		char *sp = strchr(buf, ' ');
		if (!sp)
			goto bad;
		*sp = '\0';
		const char *v = sp + 1;
		int64_t num;
		if (strcmp(buf, "kind") == 0) {
			if (strcmp(v, "run") == 0)
				out->kind = JOURNAL_RUN;
			else if (strcmp(v, "tui") == 0)
				out->kind = JOURNAL_TUI;
			else if (strcmp(v, "set") == 0)
				out->kind = JOURNAL_SET;
			else if (strcmp(v, "lab") == 0)
				out->kind = JOURNAL_LAB;
			else
				goto bad;
			have_kind = 1;
		} else if (strcmp(buf, "pid") == 0) {
			if (!digits(v) || parse_int(v, 1, INT32_MAX, &num) < 0)
				goto bad;
			out->pid = (pid_t)num;
			have_pid = 1;
		} else if (strcmp(buf, "boot") == 0) {
			if (!token_ok(v, sizeof(out->boot)))
				goto bad;
			snprintf(out->boot, sizeof(out->boot), "%s", v);
		} else if (strcmp(buf, "created") == 0) {
			if (!digits(v) || parse_int(v, 0, INT64_MAX, &num) < 0)
				goto bad;
			out->created = (uint64_t)num;
		} else if (strcmp(buf, "what") == 0) {
			snprintf(out->what, sizeof(out->what), "%s", v);
		} else if (strcmp(buf, "orig") == 0) {
			struct journal_entry e;
			if (parse_entry(v, &e) < 0 || journal_file_add(out, &e) < 0)
				goto bad;
		} else {
			goto bad;
		}
	}
	if (!magic || !have_kind || !have_pid) {
		ln = 0;
		goto bad;
	}
	return 0;
bad:
	if (line)
		*line = ln;
	journal_file_free(out);
	return -EINVAL;
}

static int format_entry(FILE *m, const struct journal_entry *e)
{
	return fprintf(m, "orig %s %s %s %s %s %s\n", e->target, e->diskseq,
		       e->key, e->sched, e->via, e->value) < 0 ? -EIO : 0;
}

int journal_format(const struct journal_file *f, char **out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return -errno;
	char what[sizeof(f->what)];
	snprintf(what, sizeof(what), "%s", f->what);
	for (char *c = what; *c; c++)
		if ((unsigned char)*c < ' ')
			*c = ' ';
	fprintf(m, "# brisk restore journal: the original values of what brisk changed.\n"
		   "# 'brisk restore' puts them back; do not edit.\n"
		   "brisk-journal 1\nkind %s\npid %ld\nboot %s\ncreated %" PRIu64 "\nwhat %s\n",
		journal_kind_name(f->kind), (long)f->pid, f->boot[0] ? f->boot : "-",
		f->created, what);
	int rc = 0;
	for (size_t i = 0; i < f->n && rc == 0; i++)
		rc = format_entry(m, &f->e[i]);
	if (fclose(m) != 0 && rc == 0)
		rc = -EIO;
	if (rc < 0) {
		free(buf);
		return rc;
	}
	*out = buf;
	return 0;
}

/* Keep only the entries marked in keep[]; 0 when none is left. */
size_t journal_file_compact(struct journal_file *f, const unsigned char *keep)
{
	size_t m = 0;
	for (size_t i = 0; i < f->n; i++)
		if (keep[i])
			f->e[m++] = f->e[i];
	f->n = m;
	return m;
}

int journal_file_read(int fd, char **out)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_size > JOURNAL_FILE_MAX)
		return -EFBIG;
	char *buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	size_t off = 0;
	while (off < (size_t)st.st_size) {
		ssize_t r = pread(fd, buf + off, (size_t)st.st_size - off, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		off += (size_t)r;
	}
	buf[off] = '\0';
	*out = buf;
	return 0;
}
