/* profile_run — run a profile or a fio job file through the engine, as
 * `brisk run --profile/--fio` will once wired: load it, apply it with
 * profile_to_session_config() onto the engine's defaults, shrink the idle
 * phase for tests, run the session, and print one line per action kind and
 * per load:
 *   action KIND idle N loaded N errors N
 *   load KIND bytes N end REASON
 *   note TEXT
 * usage: profile_run (--fio FILE [--scale F] | --profile FILE) DIR
 * Exit: 0, 1 (run failed), 2 (bad input, FILE:LINE message). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fiojob.h"
#include "profile.h"
#include "session.h"

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: profile_run (--fio FILE [--scale F] | --profile FILE) DIR\n");
		return 2;
	}
	static struct profile p;
	char err[PROFILE_ERR_LEN], note[256];
	double scale = 1;
	int fio = strcmp(argv[1], "--fio") == 0;
	const char *file = argv[2], *dir;
	if (fio && argc == 6 && strcmp(argv[3], "--scale") == 0) {
		if (fiojob_parse_scale(argv[4], &scale) < 0)
			return 2;
		dir = argv[5];
	} else {
		dir = argv[3];
	}
	int rc = fio ? fiojob_parse_file(file, scale, &p, err, sizeof(err)) :
		       profile_parse_file(file, NULL, &p, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	struct session_config c;
	session_config_default(&c);
	if (profile_to_session_config(&p, file, &c, note, sizeof(note), err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	snprintf(c.dir, sizeof(c.dir), "%s", dir);   /* the test's directory wins */
	c.idle_samples = 1;
	c.warmup_min_ns = 0;
	c.warmup_max_ns = 200000000ull;
	c.max_time_ns = 120000000000ull;              /* a safety net for the test */
	struct session *s;
	if (session_create(&c, &s, err, sizeof(err)) < 0) {
		fprintf(stderr, "session_create: %s\n", err);
		return 2;
	}
	rc = session_run(s, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "session_run: %s\n", err);
		session_free(s);
		return 1;
	}
	for (int k = 0; k < ACTION_KIND_COUNT; k++) {
		if (!(c.actions & (1u << k)))
			continue;
		size_t idle = 0, loaded = 0, errors = 0;
		for (size_t i = 0; i < s->n_samples; i++) {
			const struct session_sample *x = &s->samples[i];
			if (x->action != k)
				continue;
			idle += x->phase == SESSION_IDLE;
			loaded += x->phase == SESSION_LOADED;
			errors += x->err != 0 || x->timeout;
		}
		printf("action %s idle %zu loaded %zu errors %zu\n",
		       action_kind_name((enum action_kind)k), idle, loaded, errors);
	}
	for (size_t i = 0; i < s->n_loads; i++)
		printf("load %s bytes %llu end %s\n", load_kind_name(s->loads[i].spec.kind),
		       (unsigned long long)s->loads[i].bytes, load_end_name(s->loads[i].end));
	if (note[0])
		printf("note %s\n", note);
	session_free(s);
	return 0;
}
