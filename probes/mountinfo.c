#include "mountinfo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs.h"

/* Fields are octal-escaped (\040 for a space), in place. */
static void unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

/* id parent maj:min root target options [optional...] - fstype source superopts */
static int parse_line(char *line, struct mountinfo_entry *e)
{
	char *f[6];
	char *save = NULL, *tok = strtok_r(line, " ", &save);
	int i = 0;
	for (; tok && i < 6; i++, tok = strtok_r(NULL, " ", &save))
		f[i] = tok;
	if (i < 6)
		return -1;
	while (tok && strcmp(tok, "-"))
		tok = strtok_r(NULL, " ", &save);
	char *fstype = tok ? strtok_r(NULL, " ", &save) : NULL;
	char *source = fstype ? strtok_r(NULL, " ", &save) : NULL;
	if (!source || sscanf(f[2], "%u:%u", &e->major, &e->minor) != 2)
		return -1;
	unescape(f[4]);
	unescape(source);
	e->target = f[4];
	e->options = f[5];
	e->fstype = fstype;
	e->source = source;
	return 0;
}

int mountinfo_read(struct mountinfo *mi)
{
	mi->buf = NULL;
	mi->v = NULL;
	mi->n = 0;
	size_t len;
	int rc = sysfs_read_alloc("/proc/self/mountinfo", &mi->buf, &len);
	if (rc < 0)
		return rc;
	size_t lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += mi->buf[i] == '\n';
	mi->v = calloc(lines + 1, sizeof(*mi->v));
	if (!mi->v) {
		mountinfo_free(mi);
		return -ENOMEM;
	}
	char *save = NULL;
	for (char *line = strtok_r(mi->buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (parse_line(line, &mi->v[mi->n]) == 0)
			mi->n++;
	return 0;
}

void mountinfo_free(struct mountinfo *mi)
{
	free(mi->buf);
	free(mi->v);
	mi->buf = NULL;
	mi->v = NULL;
	mi->n = 0;
}
