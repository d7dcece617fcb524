/* comparefront — what `brisk compare` and `brisk tune` share around the
 * compare engine: the disks behind DIR and the journal their settings go
 * through, the live progress line and the line per finished arm-run, the
 * outputs and the exit status (brisk-compare(1) EXIT STATUS).  Messages
 * begin "brisk CMD: ".
 */
#ifndef BRISK_COMPAREFRONT_H
#define BRISK_COMPAREFRONT_H

#include <stdio.h>

#include "cliopt.h"
#include "compare.h"
#include "progress.h"
#include "settings.h"

struct stack;

struct comparefront {
	const char *cmd;               /* "compare", "tune" */
	int fixed_rounds;              /* --rounds: "2/6", else "2/~6" */
	size_t runs_shown;
	struct settings st;            /* the disks behind DIR */
	struct settings load_st;       /* load:KEY arms (loadscope.h) */
	struct stack *stack;
	char stackline[512], disks[512], workload[512];
	struct progress line;          /* on a terminal, unless -q (progress.h) */
	struct compare *c;
	/* after each arm-run and at the end (tune's checkpoint), NULL: none */
	void (*armrun)(void *ctx, struct compare *c);
	void *ctx;
};

struct profile;
struct fiojob_report;
/* --profile, --fio, --scale (cliopt_profile) into run, its notes said:
 * 0, or the exit status with the reason said. */
int comparefront_profile(const char *cmd, const struct optab *tab, int argc, char **argv,
			 struct profile *p, struct session_config *run, struct fiojob_report *rep);
/* The disks behind dir, their settings journaled as `what`: 0, or 2 with
 * the reason said (no disks, none with a scheduler). */
int comparefront_stack(struct comparefront *x, const char *dir, const char *what);
/* The loads' disks (load:KEY arms) for the session config run: 0 or 2. */
int comparefront_loads(struct comparefront *x, struct session_config *run);
/* The hooks that draw the progress line (begin it first) and call armrun. */
struct compare_hooks comparefront_hooks(struct comparefront *x);
/* Run c with the line on stderr unless quiet: compare_run()'s result. */
int comparefront_run(struct comparefront *x, struct compare *c, int quiet);
/* The text report (text_more adds to it: NULL none) unless an output is
 * stdout, then --json (json writes it: NULL compare's), --csv,
 * --openmetrics, --plot and --save NAME.  CLIOPT_END_* bits. */
unsigned comparefront_outputs(struct comparefront *x, const struct cliopt_args *o,
			      const char *save,
			      void (*text_more)(FILE *f, const struct compare_result *r, void *ctx),
			      int (*json)(void *ctx, const struct compare_result *r,
					  const char *path, char *err, size_t errlen),
			      void *ctx);
/* The exit status after compare_run() returned rc and the outputs end. */
int comparefront_exit(const struct comparefront *x, const struct compare_result *r, int rc,
		      unsigned end);
/* Put back what the journal holds, free the stack. */
void comparefront_free(struct comparefront *x);

#endif
