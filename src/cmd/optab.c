#include "optab.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

int optab_flag(const char *cmd, const struct optab *o, void *ctx, const char *arg)
{
	int one = 1;
	(void)cmd;
	(void)arg;
	memcpy((char *)ctx + o->off, &one, sizeof(one));
	return 0;
}

int optab_text(const char *cmd, const struct optab *o, void *ctx, const char *arg)
{
	(void)cmd;
	memcpy((char *)ctx + o->off, &arg, sizeof(arg));
	return 0;
}

#define OPTAB_MAX 64   /* options of one command, its tables together */

/* A command's options, its tables taken in, as getopt_long() takes them:
 * entry i is long option i; a letter's returns the letter, the others
 * OPTAB_LONG + i. */
struct built {
	const struct optab *e[OPTAB_MAX];
	int also[OPTAB_MAX];           /* OPTAB_ALSO's letter, or 0 */
	size_t n;
	struct option longopts[OPTAB_MAX + 1];
	char shortopts[2 + 4 * OPTAB_MAX];
};

static int is_letter(int key)
{
	return key > 0 && key < OPTAB_LONG;
}

/* The entries of t and of the tables it takes in, after the n there are;
 * counts on past OPTAB_MAX (then the table is too big). */
static size_t flatten(const struct optab *t, struct built *b, size_t n)
{
	for (; t->name || t->key; t++) {
		if (!t->name && t->key == OPTAB_KEY_MORE) {
			n = flatten(t->more, b, n);
		} else if (!t->name) {
			if (n && n <= OPTAB_MAX)
				b->also[n - 1] = t->key;
		} else {
			if (n < OPTAB_MAX) {
				b->e[n] = t;
				b->also[n] = 0;
			}
			n++;
		}
	}
	return n;
}

/* 0, or -1 when the tables hold more than OPTAB_MAX options. */
static int build(const struct optab *t, struct built *b)
{
	b->n = flatten(t, b, 0);
	if (b->n > OPTAB_MAX)
		return -1;
	size_t s = 0;
	b->shortopts[s++] = ':';   /* a missing argument is ':', not '?' */
	for (size_t i = 0; i < b->n; i++) {
		const struct optab *e = b->e[i];
		int letters[2] = { is_letter(e->key) ? e->key : 0, b->also[i] };
		b->longopts[i] = (struct option){ e->name, e->arg ? required_argument : no_argument,
						  NULL, letters[0] ? e->key : OPTAB_LONG + (int)i };
		for (int k = 0; k < 2; k++) {
			if (!letters[k])
				continue;
			b->shortopts[s++] = (char)letters[k];
			if (e->arg)
				b->shortopts[s++] = ':';
		}
	}
	b->longopts[b->n] = (struct option){ NULL, 0, NULL, 0 };
	b->shortopts[s] = '\0';
	return 0;
}

/* The entry getopt_long() returned C for; NULL when none (a bug). */
static const struct optab *entry_of(const struct built *b, int c)
{
	if (c >= OPTAB_LONG)
		return (size_t)(c - OPTAB_LONG) < b->n ? b->e[c - OPTAB_LONG] : NULL;
	for (size_t i = 0; i < b->n; i++)
		if (b->e[i]->key == c || b->also[i] == c)
			return b->e[i];
	return NULL;
}

/* --parse-only: the options given, as getopt_long() returned them. */
struct given {
	const struct optab *e;
	const char *arg;
};

/* Each option of g as --NAME[=VALUE], one a line; OPTAB_DONE or 1. */
static int print_given(const struct given *g, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (g[i].e->key != OPTAB_KEY_PARSE_ONLY)
			printf("--%s%s%s\n", g[i].e->name, g[i].arg ? "=" : "",
			       g[i].arg ? text_show(g[i].arg) : "");
	return fflush(stdout) == 0 ? OPTAB_DONE : EXIT_FAILED;
}

/* The loop over argv, with the arrays built: see optab_parse(). */
static int parse_with(const struct optab_cmd *cmd, const struct built *b, int argc, char **argv,
		      struct given *given, size_t cap)
{
	int c, rc = 0, parse_only = 0;
	size_t n_given = 0;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, b->shortopts, b->longopts, NULL)) != -1) {
		if (c == '?' || c == ':')
			return optab_getopt_error(cmd->name, c, argv, b->longopts);
		const struct optab *e = entry_of(b, c);
		if (!e) {
			fprintf(stderr, "brisk %s: option code %d has no entry (a bug in brisk)\n",
				cmd->name, c);
			return EXIT_FAILED;
		}
		if (!e->set && e->key == 'h') {
			if (cmd->usage)
				cmd->usage(stdout);
			else if (cmd->text)
				optab_usage(stdout, cmd->text->head, cmd->tab, cmd->text->col,
					    cmd->text->foot);
			return OPTAB_DONE;
		}
		if (n_given < cap)
			given[n_given++] = (struct given){ e, optarg };
		if (!e->set)
			parse_only = 1;
		else if ((rc = e->set(cmd->name, e, cmd->ctx, optarg)))
			return rc;
	}
	return parse_only ? print_given(given, n_given) : 0;
}

int optab_parse(const struct optab_cmd *cmd, int argc, char **argv)
{
	/* at most one option per byte of the arguments (-qqq is three) */
	size_t cap = 1;
	for (int i = 1; i < argc; i++)
		cap += strlen(argv[i]);
	struct built *b = malloc(sizeof(*b));
	struct given *given = malloc(cap * sizeof(*given));
	int rc;
	if (!b || !given) {
		fprintf(stderr, "brisk %s: out of memory\n", cmd->name);
		rc = EXIT_FAILED;
	} else if (build(cmd->tab, b) < 0) {
		fprintf(stderr, "brisk %s: more than %d options (a bug in brisk)\n", cmd->name,
			OPTAB_MAX);
		rc = EXIT_FAILED;
	} else {
		rc = parse_with(cmd, b, argc, argv, given, cap);
	}
	free(b);
	free(given);
	return rc;
}

int optab_scan(const struct optab *t, int argc, char **argv, optab_scan_fn *fn, void *ctx)
{
	struct built *b = malloc(sizeof(*b));
	if (!b || build(t, b) < 0) {
		free(b);
		return -1;
	}
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, b->shortopts, b->longopts, NULL)) != -1) {
		const struct optab *e = c == '?' || c == ':' ? NULL : entry_of(b, c);
		if (e && e->name)
			fn(e->name, optarg, ctx);
	}
	optind = 1;
	free(b);
	return 0;
}

void optab_help(FILE *f, const struct optab *t, int indent, int col)
{
	for (; t->name || t->key; t++) {
		if (!t->name || !t->help)
			continue;
		int also = !t[1].name && is_letter(t[1].key) ? t[1].key : 0;
		char head[160];
		int len;
		if (is_letter(t->key) && also)
			len = snprintf(head, sizeof(head), "%*s-%c, -%c, --%s", indent, "", t->key, also,
				       t->name);
		else if (is_letter(t->key))
			len = snprintf(head, sizeof(head), "%*s-%c, --%s", indent, "", t->key, t->name);
		else
			len = snprintf(head, sizeof(head), "%*s    --%s", indent, "", t->name);
		if (t->arg && len >= 0 && (size_t)len < sizeof(head))
			len += snprintf(head + len, sizeof(head) - (size_t)len, " %s", t->arg);
		fprintf(f, "%s%*s", head, len < col ? col - len : 2, "");
		for (const char *l = t->help;;) {
			size_t n = strcspn(l, "\n");
			fprintf(f, "%.*s\n", (int)n, l);
			if (!l[n])
				break;
			l += n + 1;
			fprintf(f, "%*s", col, "");
		}
	}
}

void optab_usage(FILE *f, const char *head, const struct optab *t, int col, const char *foot)
{
	fputs(head, f);
	optab_help(f, t, 2, col);
	fputs(foot, f);
}

int optab_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "brisk %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'brisk help %.*s'.\n", (int)strcspn(cmd, " "), cmd);
	return EXIT_USAGE;
}

/* The entry of "--NAME" or "--NAME=VALUE" as getopt_long() finds it: the
 * exact name, else the one option it abbreviates; NULL when none or
 * several (*n_hits says how many begin so). */
static const struct option *long_find(const char *arg, const struct option *longopts,
				      size_t *n_hits)
{
	const char *name = arg + 2;
	size_t len = strcspn(name, "=");
	const struct option *hit = NULL;
	*n_hits = 0;
	for (const struct option *o = longopts; o && o->name; o++) {
		if (strncmp(o->name, name, len) != 0)
			continue;
		if (strlen(o->name) == len) {
			*n_hits = 1;
			return o;
		}
		if (!hit || hit->has_arg != o->has_arg || hit->flag != o->flag || hit->val != o->val)
			++*n_hits;   /* getopt_long: one option under two names is no ambiguity */
		hit = o;
	}
	return *n_hits == 1 ? hit : NULL;
}

int optab_getopt_error(const char *cmd, int c, char **argv, const struct option *longopts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;
	/* A long option's error, unless it is a short one inside a cluster
	 * after it: at "--all -xq" optind still points at "-xq". */
	if (arg && arg[0] == '-' && arg[1] == '-' && arg[2]) {
		size_t n, len = strcspn(arg + 2, "=");
		const struct option *o = long_find(arg, longopts, &n);
		if (o && c == ':')
			return optab_usage_error(cmd, "option '--%s' needs an argument", o->name);
		if (o && o->has_arg == no_argument && arg[2 + len] == '=' && o->val == optopt)
			return optab_usage_error(cmd, "option '--%s' takes no argument", o->name);
		if (!o && n > 1 && optopt == 0) {
			char alts[256] = "";
			size_t used = 0;
			for (const struct option *p = longopts; p->name && used < sizeof(alts); p++)
				if (strncmp(p->name, arg + 2, len) == 0)
					used += (size_t)snprintf(alts + used, sizeof(alts) - used,
								 "%s--%s", used ? ", " : "", p->name);
			return optab_usage_error(cmd, "option '--%.*s' is ambiguous (%s)", (int)len,
						 arg + 2, alts);
		}
		if (!o && optopt == 0)
			return optab_usage_error(cmd, "unknown option '--%.*s'", (int)len, arg + 2);
	}
	if (c == ':')
		return optab_usage_error(cmd, "option '-%c' needs an argument", optopt);
	if (optopt > ' ' && optopt < 127)
		return optab_usage_error(cmd, "unknown option '-%c'", optopt);
	return optab_usage_error(cmd, "unknown option '%s'", arg ? arg : "");
}
