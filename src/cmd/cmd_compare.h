/* cmd_compare — `brisk compare`: settings side by side (compare.h), the
 * text report, --json, --csv, --plot and --save.  See brisk-compare(1).
 * Its own options' handler and checks serve `brisk tune` too. */
#ifndef BRISK_CMD_COMPARE_H
#define BRISK_CMD_COMPARE_H

#include "cliopt.h"
#include "compare.h"

enum {   /* compare's own keys; the shared ones are cliopt.h's */
	OPT_LOOKS = CLIOPT_NEXT, OPT_MARGIN, OPT_NO_RACING, OPT_SETTLE, OPT_WARMUP, OPT_STEADY,
	OPT_LOAD_WINDOW, OPT_CMP_NEXT,
};

/* The command line of a comparison (or a tune), beyond the shared options. */
struct cmp_args {
	struct cliopt_args com;   /* first: the shared entries' (cliopt.h) */
	struct compare_config *cfg;
	const char *save;
	int schedulers, warmup_set;
	const char *arms[COMPARE_MAX_ARMS];
	size_t n_arms;
	const char *space, *resume;   /* brisk tune's */
	int list;
};

/* The handler of compare's own options (--rounds, --budget, --samples,
 * --looks, --margin, --no-racing, --settle-max, --warmup, --steady-state,
 * --load-window) on a struct cmp_args (optab_fn). */
int cmd_compare_set(const char *cmd, const struct optab *o, void *ctx, const char *arg);
/* The entries compare and tune word alike. */
#define CMD_COMPARE_OPT_SAMPLES \
	{ "samples", 'n', "N", \
	  "samples per action in each arm-run (default " OPTAB_NUM(COMPARE_DEFAULT_SAMPLES) ")", \
	  cmd_compare_set, 0, NULL }
#define CMD_COMPARE_OPT_MARGIN \
	{ "margin", OPT_MARGIN, "PCT", \
	  "equivalent: the ratio shown within PCT % either way\n(1-100, default 20)", \
	  cmd_compare_set, 0, NULL }
#define CMD_COMPARE_OPT_SETTLE \
	{ "settle-max", OPT_SETTLE, "T", "wait at most T for dirty data to drain (default 60s)", \
	  cmd_compare_set, 0, NULL }
/* The checks after parsing (a load, --plot's name, the output files,
 * --save's name), --steady-state's warm-up: 0 or the exit status, said. */
int cmd_compare_check(const char *cmd, struct cmp_args *a);

int cmd_compare_main(int argc, char **argv);

#endif
