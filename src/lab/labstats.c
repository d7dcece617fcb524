/* labstats — a lab server's counters, as text; see labstats.h. */
#include "labstats.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The counters in file order: key and where it goes. */
struct field {
	const char *key;
	size_t off;
};

#define F(k, m) { k, offsetof(struct labstats, m) }
static const struct field fields[] = {
	F("reads", rd.n), F("read_bytes", rd.bytes), F("read_service_ns", rd.service_ns),
	F("read_resident_ns", rd.resident_ns),
	F("writes", wr.n), F("write_bytes", wr.bytes), F("write_service_ns", wr.service_ns),
	F("write_resident_ns", wr.resident_ns),
	F("late", late), F("late_ns", late_ns),
};
#undef F
#define NFIELDS (sizeof fields / sizeof fields[0])

static uint64_t get(const struct labstats *s, size_t i)
{
	uint64_t v;
	memcpy(&v, (const char *)s + fields[i].off, sizeof v);
	return v;
}

static void put(struct labstats *s, size_t i, uint64_t v)
{
	memcpy((char *)s + fields[i].off, &v, sizeof v);
}

int labstats_format(const struct labstats *s, const char *model, char *buf, size_t len)
{
	size_t used = 0;
	int n = snprintf(buf, len, "# brisk lab server: requests answered since it started; "
			 "service = the model's delay, resident = arrival to reply\n"
			 "model %s\n", model);
	if (n < 0 || (size_t)n >= len)
		return -ENOSPC;
	used = (size_t)n;
	for (size_t i = 0; i < NFIELDS; i++) {
		n = snprintf(buf + used, len - used, "%s %" PRIu64 "\n", fields[i].key,
			     get(s, i));
		if (n < 0 || (size_t)n >= len - used)
			return -ENOSPC;
		used += (size_t)n;
	}
	n = snprintf(buf + used, len - used, "unmodelled %d\n", s->unmodelled ? 1 : 0);
	if (n < 0 || (size_t)n >= len - used)
		return -ENOSPC;
	return (int)(used + (size_t)n);
}

static int parse_u64(const char *v, uint64_t *out)
{
	char *end;
	if (*v < '0' || *v > '9')
		return -EINVAL;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = (uint64_t)x;
	return 0;
}

int labstats_parse(const char *text, struct labstats *out)
{
	unsigned seen = 0;
	memset(out, 0, sizeof *out);
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		char line[128];
		if (l < sizeof line && *p != '#') {
			memcpy(line, p, l);
			line[l] = '\0';
			char *v = strchr(line, ' ');
			if (v) {
				*v++ = '\0';
				uint64_t x;
				for (size_t i = 0; i < NFIELDS; i++)
					if (strcmp(line, fields[i].key) == 0) {
						if (parse_u64(v, &x))
							return -EINVAL;
						put(out, i, x);
						seen |= 1u << i;
					}
				if (strcmp(line, "unmodelled") == 0) {
					if (parse_u64(v, &x))
						return -EINVAL;
					out->unmodelled = x != 0;
				}
			}
		}
		p += l + (nl != NULL);
	}
	return seen == (1u << NFIELDS) - 1 ? 0 : -EINVAL;
}

int labstats_read(const char *fusedir, struct labstats *out)
{
	char path[1100], buf[LABSTATS_TEXT_MAX + 1];
	size_t got = 0;
	if (snprintf(path, sizeof path, "%s/%s", fusedir, LABSTATS_FILE) >= (int)sizeof path)
		return -ENAMETOOLONG;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	while (got < LABSTATS_TEXT_MAX) {
		ssize_t r = read(fd, buf + got, LABSTATS_TEXT_MAX - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = -errno;
			close(fd);
			return e;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	buf[got] = '\0';
	return labstats_parse(buf, out);
}
