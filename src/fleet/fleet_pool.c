/* fleet_pool — results of many machines grouped and pooled, the machine
 * as the unit: per group its machines, arms, rows and their figures
 * (fleet_recommend.c then ranks and recommends).  Contract in fleet.h. */
#include "fleet.h"
#include "fleet_priv.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "tunable.h"

/* ---- the samples of a group, sorted ---- */

struct ent {
	double ms;
	uint32_t machine;
	uint16_t arm;
	uint8_t action, phase;
};

static int cmp_ent(const void *x, const void *y)
{
	const struct ent *a = x, *b = y;
	if (a->phase != b->phase)
		return a->phase < b->phase ? -1 : 1;
	if (a->action != b->action)
		return a->action < b->action ? -1 : 1;
	if (a->arm != b->arm)
		return a->arm < b->arm ? -1 : 1;
	if (a->machine != b->machine)
		return a->machine < b->machine ? -1 : 1;
	return (a->ms > b->ms) - (a->ms < b->ms);
}

struct mkey {
	char key[FLEET_MKEY_LEN];
	char name[FLEET_STR];
	size_t at;                  /* the result it is of: ties in its order */
};

static int cmp_mkey(const void *x, const void *y)
{
	const struct mkey *a = x, *b = y;
	int c = strcmp(a->key, b->key);
	return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* A machine's display name and its index in key order. */
struct mname {
	const char *name;
	size_t m;
};

static int cmp_mname(const void *x, const void *y)
{
	const struct mname *a = x, *b = y;
	int c = strcmp(a->name, b->name);
	return c ? c : (a->m > b->m) - (a->m < b->m);
}

static int cmp_size(const void *x, const void *y)
{
	size_t a = *(const size_t *)x, b = *(const size_t *)y;
	return (a > b) - (a < b);
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* A block of entries: one phase, action and arm; cut by machine. */
struct block {
	size_t from, to;
};

static uint64_t mix(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t s = seed ^ (a * 0x9e3779b97f4a7c15ull) ^ (b * 0xbf58476d1ce4e5b9ull) ^
		     (c * 0x94d049bb133111ebull);
	return stats_rand_next(&s);
}

static void ci_nan(struct stats_ci *c)
{
	c->est = c->lo = c->hi = NAN;
}

/* ---- one group ---- */

/* One group being pooled: what its stages share. */
struct gwork {
	const struct fleet_result *r;
	const size_t *idx;          /* results of the group */
	size_t n;
	struct mkey *mk;            /* machines, by key, each once */
	size_t nm;
	size_t *of;                 /* per result: its machine (index into mk) */
	size_t *name_of;            /* per machine (key order): its index in
				     * the group's machines (name order) */
	size_t *armmap;             /* per result and arm (x * FLEET_MAX_ARMS + a):
				     * the group's arm */
	size_t nent;                /* samples of the group's results */
	struct ent *e;              /* the samples that pool, sorted (cmp_ent) */
	size_t ne;
	struct block *blk;          /* per row: its entries */
	long *base_row;             /* per row: the baseline's row of its phase
				     * and action, -1 none */
	unsigned riters;            /* bootstrap iterations of a ratio */
};

static void gwork_free(struct gwork *w)
{
	free(w->mk);
	free(w->of);
	free(w->name_of);
	free(w->armmap);
	free(w->e);
	free(w->blk);
	free(w->base_row);
}

static size_t find_machine(const struct gwork *w, const char *key)
{
	size_t lo = 0, hi = w->nm;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(w->mk[mid].key, key);
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* The settings of a that a distribution default should not carry. */
static void outside_range(struct fleet_garm *a)
{
	char buf[FLEET_KEY_LEN], *save = NULL;
	snprintf(buf, sizeof(buf), "%s", a->key);
	a->outside[0] = '\0';
	for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');
		int64_t lo, hi;
		if (!eq)
			continue;
		*eq = '\0';
		if (!tunable_fleet_range(w, eq + 1, &lo, &hi))
			fleet_appendf(a->outside, sizeof(a->outside), "%s%s=%s (%lld..%lld)",
				      a->outside[0] ? ", " : "", w, eq + 1, (long long)lo,
				      (long long)hi);
	}
}

static int arm_index(struct fleet_group *g, const struct fleet_arm *a, size_t *out)
{
	for (size_t i = 0; i < g->n_arms; i++)
		if (strcmp(g->arms[i].key, a->key) == 0) {
			*out = i;
			return 0;
		}
	struct fleet_garm *na = realloc(g->arms, (g->n_arms + 1) * sizeof(*na));
	if (!na)
		return -ENOMEM;
	g->arms = na;
	memset(&na[g->n_arms], 0, sizeof(na[0]));
	snprintf(na[g->n_arms].key, sizeof(na[0].key), "%s", a->key);
	snprintf(na[g->n_arms].label, sizeof(na[0].label), "%s", a->label);
	ci_nan(&na[g->n_arms].load);
	na[g->n_arms].score = NAN;
	outside_range(&na[g->n_arms]);
	*out = g->n_arms++;
	return 0;
}

int fleet_arm_cmp(const struct fleet_garm *a, const struct fleet_garm *b)
{
	int c = strcmp(a->label, b->label);
	return c ? c : strcmp(a->key, b->key);
}

/* An arm and whether it is the baseline, for ordering. */
struct oarm {
	const struct fleet_garm *a;
	size_t old;
	int base;
};

static int cmp_oarm(const void *x, const void *y)
{
	const struct oarm *a = x, *b = y;
	if (a->base != b->base)
		return a->base ? -1 : 1;
	return fleet_arm_cmp(a->a, b->a);
}

/* Put the baseline first and the rest in label order; map[old] = new.
 * 0 or -ENOMEM. */
static int order_arms(struct fleet_group *g, size_t *map)
{
	size_t n = g->n_arms;
	struct oarm *order = malloc((n ? n : 1) * sizeof(*order));
	struct fleet_garm *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	if (!order || !tmp) {
		free(order);
		free(tmp);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		order[i] = (struct oarm){ &g->arms[i], i, (int)i == g->baseline };
	qsort(order, n, sizeof(*order), cmp_oarm);
	for (size_t i = 0; i < n; i++) {
		tmp[i] = g->arms[order[i].old];
		map[order[i].old] = i;
	}
	memcpy(g->arms, tmp, n * sizeof(tmp[0]));
	if (g->baseline >= 0)
		g->baseline = (int)map[g->baseline];
	free(order);
	free(tmp);
	return 0;
}

static void choose_baseline(struct fleet_group *g, const char *want)
{
	g->baseline = -1;
	if (want) {
		for (size_t i = 0; i < g->n_arms; i++)
			if (strcmp(g->arms[i].label, want) == 0 || strcmp(g->arms[i].key, want) == 0)
				g->baseline = (int)i;
		return;
	}
	for (size_t i = 0; i < g->n_arms; i++) {
		if (g->baseline < 0) {
			g->baseline = (int)i;
			continue;
		}
		const struct fleet_garm *a = &g->arms[i], *b = &g->arms[g->baseline];
		if (a->first_on > b->first_on || (a->first_on == b->first_on && fleet_arm_cmp(a, b) < 0))
			g->baseline = (int)i;
	}
}

/* Entries [from, to) of machine boundaries: per machine its offsets. */
static size_t machines_in(const struct ent *e, size_t from, size_t to)
{
	size_t n = 0;
	for (size_t i = from; i < to; i++)
		n += i == from || e[i].machine != e[i - 1].machine;
	return n;
}

static int row_stats(const struct ent *e, struct block b, struct fleet_row *row, uint64_t seed,
		     unsigned iters)
{
	size_t n = b.to - b.from;
	double *v = malloc(n * sizeof(*v));
	uint32_t *g = malloc(n * sizeof(*g));
	if (!v || !g) {
		free(v);
		free(g);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		v[i] = e[b.from + i].ms;
		g[i] = e[b.from + i].machine;
	}
	row->samples = n;
	row->machines = machines_in(e, b.from, b.to);
	int rc = stats_bootstrap_ci_grouped(v, g, n, 0.5,
					    &(struct stats_boot){ iters, FLEET_LEVEL, mix(seed, 1, 0, 0) },
					    &row->p50);
	if (rc == 0)
		rc = stats_bootstrap_ci_grouped(v, g, n, 0.9,
						&(struct stats_boot){ iters, FLEET_LEVEL,
								      mix(seed, 2, 0, 0) },
						&row->p90);
	free(v);
	free(g);
	return rc == -ENOMEM ? rc : 0;
}

/* The paired machines of arm block b against baseline block a. */
static size_t paired_count(const struct ent *e, struct block a, struct block b)
{
	size_t n = 0, i = a.from, j = b.from;
	while (i < a.to && j < b.to) {
		if (e[i].machine < e[j].machine)
			i++;
		else if (e[j].machine < e[i].machine)
			j++;
		else {
			uint32_t m = e[i].machine;
			n++;
			while (i < a.to && e[i].machine == m)
				i++;
			while (j < b.to && e[j].machine == m)
				j++;
		}
	}
	return n;
}

static int row_ratio(const struct gwork *w, struct block a, struct block b, struct fleet_row *row,
		     double level, unsigned iters, uint64_t seed)
{
	const struct ent *e = w->e;
	size_t np = paired_count(e, a, b);
	row->paired = np;
	if (!np)
		return 0;
	double *va = malloc((a.to - a.from) * sizeof(*va)), *vb = malloc((b.to - b.from) * sizeof(*vb));
	size_t *oa = malloc((np + 1) * sizeof(*oa)), *ob = malloc((np + 1) * sizeof(*ob));
	double *per = malloc(np * sizeof(*per));
	uint32_t *who = malloc(np * sizeof(*who));
	row->disagree = malloc(np * sizeof(*row->disagree));
	int rc = va && vb && oa && ob && per && who && row->disagree ? 0 : -ENOMEM;
	size_t i = a.from, j = b.from, k = 0, na = 0, nb = 0;
	while (rc == 0 && i < a.to && j < b.to) {
		if (e[i].machine < e[j].machine) {
			i++;
		} else if (e[j].machine < e[i].machine) {
			j++;
		} else {
			uint32_t m = e[i].machine;
			oa[k] = na;
			ob[k] = nb;
			who[k] = m;
			k++;
			for (; i < a.to && e[i].machine == m; i++)
				va[na++] = e[i].ms;
			for (; j < b.to && e[j].machine == m; j++)
				vb[nb++] = e[j].ms;
		}
	}
	if (rc == 0) {
		oa[k] = na;
		ob[k] = nb;
		rc = stats_bootstrap_median_ratio_paired(va, oa, vb, ob, np, 0.5,
							 &(struct stats_boot){ iters, level,
									       mix(seed, 3, 0, 0) },
							 FLEET_MAX_RATIO, &row->ratio50, per);
		double est = row->ratio50.est;
		for (size_t x = 0; rc == 0 && x < np; x++) {
			row->n_faster += per[x] < 1;
			row->n_slower += per[x] > 1;
			int agrees = est < 1 ? per[x] < 1 : est > 1 ? per[x] > 1 : 0;
			row->agree += agrees;
			if (!agrees)
				row->disagree[row->n_disagree++] = w->name_of[who[x]];
		}
		/* in name order */
		qsort(row->disagree, row->n_disagree, sizeof(*row->disagree), cmp_size);
		if (rc == 0)
			rc = stats_bootstrap_median_ratio_paired(va, oa, vb, ob, np, 0.9,
								 &(struct stats_boot){ iters, level,
										       mix(seed, 4, 0, 0) },
								 FLEET_MAX_RATIO, &row->ratio90, NULL);
	}
	free(va);
	free(vb);
	free(oa);
	free(ob);
	free(per);
	free(who);
	return rc == -ENOMEM ? rc : 0;
}

/* The load ratio of every arm against the baseline, per machine. */
static int loads(struct fleet_group *g, const struct gwork *w)
{
	size_t na = g->n_arms, nm = w->nm;
	double *sum = calloc(na * nm, sizeof(*sum));
	unsigned *cnt = calloc(na * nm, sizeof(*cnt));
	double *lr = malloc((nm ? nm : 1) * sizeof(*lr));
	if (!sum || !cnt || !lr) {
		free(sum);
		free(cnt);
		free(lr);
		return -ENOMEM;
	}
	for (size_t x = 0; x < w->n; x++) {
		const struct fleet_result *r = &w->r[w->idx[x]];
		size_t m = w->of[x];
		for (size_t a = 0; a < r->n_arms; a++) {
			double v = r->arms[a].load_mibps;
			if (!isfinite(v) || !(v > 0))
				continue;
			size_t ga = w->armmap[x * FLEET_MAX_ARMS + a];
			sum[ga * nm + m] += v;
			cnt[ga * nm + m]++;
		}
	}
	double best = NAN;
	for (size_t a = 0; g->baseline >= 0 && a < na; a++) {
		size_t b = (size_t)g->baseline, k = 0;
		for (size_t m = 0; m < nm; m++)
			if (cnt[a * nm + m] && cnt[b * nm + m])
			{
				/* bounded as the times: one file's 1e-9 MiB/s is
				 * one machine's vote, not a veto */
				double x = (sum[a * nm + m] / cnt[a * nm + m]) /
					   (sum[b * nm + m] / cnt[b * nm + m]);
				lr[k++] = x > FLEET_MAX_RATIO ? FLEET_MAX_RATIO
					  : x < 1 / FLEET_MAX_RATIO ? 1 / FLEET_MAX_RATIO : x;
			}
		struct fleet_garm *ga = &g->arms[a];
		ga->load_paired = k;
		int rc = k ? stats_median_ci_order(lr, k, FLEET_LEVEL, &ga->load.est, &ga->load.lo,
						   &ga->load.hi) : -EINVAL;
		if (rc == -ENOMEM) {
			free(sum);
			free(cnt);
			free(lr);
			return rc;
		}
		if (rc == 0) {
			if (isnan(best) || ga->load.est > best)
				best = ga->load.est;
		} else {
			ci_nan(&ga->load);
		}
	}
	for (size_t a = 0; a < na; a++)
		g->arms[a].load_ok = !isfinite(g->arms[a].load.est) || !isfinite(best) ||
				     g->arms[a].load.est >= FLEET_LOAD_TOLERANCE * best;
	free(sum);
	free(cnt);
	free(lr);
	return 0;
}

void fleet_appendf(char *b, size_t n, const char *fmt, ...)
{
	size_t l = strlen(b);
	if (l + 1 >= n)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b + l, n - l, fmt, ap);
	va_end(ap);
}

/* ---- the stages of a group ---- */

/* The machine of each result, computed once (w->of), and the machines,
 * each once in key order (w->mk: the name of a machine's first result).
 * 0 or -ENOMEM. */
static int group_machines(struct gwork *w, struct fleet_group *g)
{
	struct mkey *all = calloc(w->n, sizeof(*all));
	w->mk = calloc(w->n, sizeof(*w->mk));
	w->of = calloc(w->n, sizeof(*w->of));
	if (!all || !w->mk || !w->of) {
		free(all);
		return -ENOMEM;
	}
	for (size_t x = 0; x < w->n; x++) {
		fleet_machine_key(&w->r[w->idx[x]], all[x].key, sizeof(all[x].key), all[x].name,
			   sizeof(all[x].name));
		all[x].at = x;
	}
	memcpy(w->mk, all, w->n * sizeof(*all));
	qsort(w->mk, w->n, sizeof(*w->mk), cmp_mkey);
	for (size_t x = 0; x < w->n; x++)
		if (x == 0 || strcmp(w->mk[x].key, w->mk[w->nm - 1].key) != 0)
			w->mk[w->nm++] = w->mk[x];
	for (size_t x = 0; x < w->n; x++)
		w->of[x] = find_machine(w, all[x].key);
	free(all);
	g->n_machines = w->nm;
	g->n_results = w->n;
	return 0;
}

/* The machines' display names in name order (g->machines; two machines
 * of one name told apart by their id) and w->name_of.  0 or -ENOMEM. */
static int group_names(struct gwork *w, struct fleet_group *g)
{
	size_t nm = w->nm;
	struct mname *bn = malloc(nm * sizeof(*bn));
	g->machines = calloc(nm, sizeof(*g->machines));
	w->name_of = malloc(nm * sizeof(*w->name_of));
	if (!bn || !g->machines || !w->name_of) {
		free(bn);
		return -ENOMEM;
	}
	for (size_t m = 0; m < nm; m++)
		bn[m] = (struct mname){ w->mk[m].name, m };
	qsort(bn, nm, sizeof(*bn), cmp_mname);
	for (size_t k = 0; k < nm; k++) {
		const struct mkey *mk = &w->mk[bn[k].m];
		int twin = (k > 0 && strcmp(bn[k - 1].name, mk->name) == 0) ||
			   (k + 1 < nm && strcmp(bn[k + 1].name, mk->name) == 0);
		w->name_of[bn[k].m] = k;
		if (twin && strncmp(mk->key, "id:", 3) == 0)
			snprintf(g->machines[k], sizeof(g->machines[0]), "%.100s (id %.8s)", mk->name,
				 mk->key + 3);
		else
			snprintf(g->machines[k], sizeof(g->machines[0]), "%s", mk->name);
	}
	free(bn);
	return 0;
}

/* What the results count (runs, comparisons, samples left out, whose
 * load figures), the group's arms, each once by settings, in the order
 * met, and w->armmap.  0 or -ENOMEM. */
static int group_arms(struct gwork *w, struct fleet_group *g)
{
	w->armmap = calloc(w->n * FLEET_MAX_ARMS, sizeof(*w->armmap));
	if (!w->armmap)
		return -ENOMEM;
	for (size_t x = 0; x < w->n; x++) {
		const struct fleet_result *res = &w->r[w->idx[x]];
		g->n_run += res->kind == FLEET_RUN;
		g->n_compare += res->kind == FLEET_COMPARE;
		g->warm += res->warm;
		g->failed += res->failed;
		g->other_epochs += res->other_epochs;
		g->load_disk_files += res->load_by_disk != 0;
		g->load_calls_files += !res->load_by_disk;
		w->nent += res->n_samples;
		for (size_t a = 0; a < res->n_arms; a++) {
			int rc = arm_index(g, &res->arms[a], &w->armmap[x * FLEET_MAX_ARMS + a]);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

/* The results' workloads, each once, in byte order (not in the files'
 * order).  0 or -ENOMEM. */
static int group_workloads(const struct gwork *w, struct fleet_group *g)
{
	const char **wl = calloc(w->n, sizeof(*wl));
	if (!wl)
		return -ENOMEM;
	size_t nwl = 0;
	for (size_t x = 0; x < w->n; x++)
		if (w->r[w->idx[x]].workload[0])
			wl[nwl++] = w->r[w->idx[x]].workload;
	qsort(wl, nwl, sizeof(*wl), cmp_str);
	for (size_t k = 0, shown = 0; k < nwl; k++)
		if (k == 0 || strcmp(wl[k], wl[k - 1]) != 0)
			fleet_appendf(g->workloads, sizeof(g->workloads), "%s%s", shown++ ? " | " : "",
				      wl[k]);
	free(wl);
	return 0;
}

/* The disks a result measured: "sda+sdb". */
static void disk_set(const struct fleet_result *res, char *b, size_t n)
{
	b[0] = '\0';
	for (size_t d = 0; d < res->m.n_disks; d++)
		fleet_appendf(b, n, "%s%s", d ? "+" : "", res->m.disks[d].name);
}

/* The machines whose results here measured different disk sets
 * (g->multi_disk), in key order.  0 or -ENOMEM. */
static int group_multi_disk(const struct gwork *w, struct fleet_group *g)
{
	size_t *first = malloc(w->nm * sizeof(*first));
	unsigned char *differ = calloc(w->nm, 1);
	if (!first || !differ) {
		free(first);
		free(differ);
		return -ENOMEM;
	}
	for (size_t m = 0; m < w->nm; m++)
		first[m] = SIZE_MAX;
	for (size_t x = 0; x < w->n; x++) {
		size_t m = w->of[x];
		char a[FLEET_MAX_DISKS * 33], b[FLEET_MAX_DISKS * 33];
		if (first[m] == SIZE_MAX) {
			first[m] = x;
			continue;
		}
		disk_set(&w->r[w->idx[first[m]]], a, sizeof(a));
		disk_set(&w->r[w->idx[x]], b, sizeof(b));
		differ[m] |= strcmp(a, b) != 0;
	}
	for (size_t m = 0; m < w->nm; m++)
		if (differ[m])
			fleet_appendf(g->multi_disk, sizeof(g->multi_disk), "%s%s",
				      g->multi_disk[0] ? ", " : "", w->mk[m].name);
	free(first);
	free(differ);
	return 0;
}

/* Per arm, the machines that measured it, and those whose own setting it
 * is: the one most of their results measured first (a comparison's first
 * arm, a run's one unless a profile put its settings in place: a run
 * under a profile measured a change, and is outnumbered by the machine's
 * plain runs and comparisons); ties: each.  0 or -ENOMEM. */
static int group_first_on(const struct gwork *w, struct fleet_group *g)
{
	size_t na = g->n_arms, nm = w->nm;
	/* [arm][machine]: results measuring the arm; of them, first */
	size_t *seen = calloc(na * nm * 2, sizeof(*seen));
	if (!seen)
		return -ENOMEM;
	for (size_t x = 0; x < w->n; x++) {
		const struct fleet_result *res = &w->r[w->idx[x]];
		for (size_t a = 0; a < res->n_arms; a++) {
			size_t at = (w->armmap[x * FLEET_MAX_ARMS + a] * nm + w->of[x]) * 2;
			seen[at]++;
			seen[at + 1] += a == 0 && !res->set_by_profile;
		}
	}
	for (size_t m = 0; m < nm; m++) {
		size_t most = 0;
		for (size_t a = 0; a < na; a++)
			if (seen[(a * nm + m) * 2 + 1] > most)
				most = seen[(a * nm + m) * 2 + 1];
		for (size_t a = 0; a < na; a++) {
			g->arms[a].machines += seen[(a * nm + m) * 2] > 0;
			g->arms[a].first_on += most && seen[(a * nm + m) * 2 + 1] == most;
		}
	}
	free(seen);
	return 0;
}

/* The baseline, and the arms put in order (the baseline first, the rest
 * by label), w->armmap following them.  0 or -ENOMEM. */
static int group_baseline(struct gwork *w, struct fleet_group *g, const char *want)
{
	choose_baseline(g, want);
	size_t *map = malloc((g->n_arms ? g->n_arms : 1) * sizeof(*map));
	g->ranking = malloc((g->n_arms ? g->n_arms : 1) * sizeof(*g->ranking));
	if (!map || !g->ranking || order_arms(g, map) < 0) {
		free(map);
		return -ENOMEM;
	}
	for (size_t x = 0; x < w->n * FLEET_MAX_ARMS; x++)
		w->armmap[x] = map[w->armmap[x]];
	free(map);
	return 0;
}

/* The samples that pool (w->e), each of its machine and group arm, a time
 * taken as at least FLEET_MIN_MS, sorted by phase, action, arm, machine
 * and time.  0 or -ENOMEM. */
static int group_entries(struct gwork *w)
{
	w->e = malloc((w->nent ? w->nent : 1) * sizeof(*w->e));
	if (!w->e)
		return -ENOMEM;
	for (size_t x = 0; x < w->n; x++) {
		const struct fleet_result *res = &w->r[w->idx[x]];
		uint32_t m = (uint32_t)w->of[x];
		for (size_t s = 0; s < res->n_samples; s++) {
			const struct fleet_sample *sm = &res->samples[s];
			if (sm->arm >= res->n_arms)
				continue;
			/* a time pools as at least the clock's resolution: no
			 * file's 5e-324 ms makes a ratio of 1e300 */
			double ms = sm->ms < FLEET_MIN_MS ? FLEET_MIN_MS : sm->ms;
			w->e[w->ne++] = (struct ent){ ms, m,
				(uint16_t)w->armmap[x * FLEET_MAX_ARMS + sm->arm], sm->action,
				sm->phase };
		}
	}
	qsort(w->e, w->ne, sizeof(*w->e), cmp_ent);
	return 0;
}

static int same_cell(const struct ent *a, const struct ent *b)
{
	return a->arm == b->arm && a->action == b->action && a->phase == b->phase;
}

/* A row per phase, action and arm that has samples (g->rows, empty
 * figures) and its entries (w->blk).  0 or -ENOMEM. */
static int group_rows(struct gwork *w, struct fleet_group *g)
{
	size_t nb = 0;
	for (size_t i = 0; i < w->ne; i++)
		nb += i == 0 || !same_cell(&w->e[i], &w->e[i - 1]);
	g->rows = calloc(nb ? nb : 1, sizeof(*g->rows));
	w->blk = calloc(nb ? nb : 1, sizeof(*w->blk));
	if (!g->rows || !w->blk)
		return -ENOMEM;
	for (size_t i = 0; i < w->ne; i++) {
		if (i == 0 || !same_cell(&w->e[i], &w->e[i - 1])) {
			struct fleet_row *row = &g->rows[g->n_rows];
			w->blk[g->n_rows].from = i;
			row->phase = (enum fleet_phase)w->e[i].phase;
			row->action = w->e[i].action;
			row->arm = w->e[i].arm;
			ci_nan(&row->p50);
			ci_nan(&row->p90);
			ci_nan(&row->ratio50);
			ci_nan(&row->ratio90);
			g->n_rows++;
		}
		w->blk[g->n_rows - 1].to = i + 1;
	}
	return 0;
}

/* Each row's baseline row (w->base_row), the comparisons that can decide
 * (g->comparisons), their simultaneous level (g->ratio_level) and the
 * bootstrap iterations it takes (w->riters).  0 or -ENOMEM. */
static int group_comparisons(struct gwork *w, struct fleet_group *g)
{
	w->base_row = malloc((g->n_rows ? g->n_rows : 1) * sizeof(*w->base_row));
	if (!w->base_row)
		return -ENOMEM;
	g->comparisons = 0;
	for (size_t i = 0; i < g->n_rows; i++) {
		long bb = -1;
		for (size_t j = 0; g->baseline >= 0 && j < g->n_rows; j++)
			if (g->rows[j].arm == (size_t)g->baseline && g->rows[j].phase == g->rows[i].phase &&
			    g->rows[j].action == g->rows[i].action)
				bb = (long)j;
		w->base_row[i] = bb;
		if (bb >= 0 && (long)i != bb &&
		    paired_count(w->e, w->blk[bb], w->blk[i]) >= FLEET_MIN_MACHINES)
			g->comparisons++;
	}
	g->ratio_level = 1 - (1 - FLEET_LEVEL) / (g->comparisons ? g->comparisons : 1);
	double tail = (1 - g->ratio_level) / 2;
	double want = ceil(20 / tail);
	w->riters = want > 200000 ? 200000 : want < FLEET_BOOT_ITERS ? FLEET_BOOT_ITERS
								     : (unsigned)want;
	return 0;
}

/* Every row's figures and verdict: the interval clear of 1 and a strict
 * majority of the paired machines on that side on their own.  0 or
 * -ENOMEM. */
static int group_figures(const struct gwork *w, struct fleet_group *g, uint64_t seed0, size_t gi)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < g->n_rows; i++) {
		struct fleet_row *row = &g->rows[i];
		long bb = w->base_row[i];
		uint64_t seed = mix(seed0, gi, row->phase * 64 + row->action, row->arm + 1);
		rc = row_stats(w->e, w->blk[i], row, seed, FLEET_BOOT_ITERS);
		if (rc == 0 && bb >= 0 && (long)i != bb)
			rc = row_ratio(w, w->blk[bb], w->blk[i], row, g->ratio_level, w->riters, seed);
		size_t most = row->paired / 2 + 1;
		row->decided = row->paired >= FLEET_MIN_MACHINES;
		row->verdict = !row->decided ? STATS_NO_DIFFERENCE
			       : row->ratio50.hi < 1 && row->n_faster >= most ? STATS_FASTER
			       : row->ratio50.lo > 1 && row->n_slower >= most ? STATS_SLOWER
			       : STATS_NO_DIFFERENCE;
	}
	return rc;
}

/* Pool the n results idx[] of r into g, group number gi: its stages in
 * order.  0 or -ENOMEM. */
static int pool_group(const struct fleet_result *r, const size_t *idx, size_t n,
		      const struct fleet_options *opt, size_t gi, struct fleet_group *g)
{
	struct gwork w = { .r = r, .idx = idx, .n = n };
	int rc = group_machines(&w, g);
	if (rc == 0)
		rc = group_names(&w, g);
	if (rc == 0)
		rc = group_arms(&w, g);
	if (rc == 0)
		rc = group_workloads(&w, g);
	if (rc == 0)
		rc = group_multi_disk(&w, g);
	if (rc == 0)
		rc = group_first_on(&w, g);
	if (rc == 0)
		rc = group_baseline(&w, g, opt->baseline);
	if (rc == 0)
		rc = group_entries(&w);
	if (rc == 0)
		rc = group_rows(&w, g);
	if (rc == 0)
		rc = group_comparisons(&w, g);
	if (rc == 0)
		rc = group_figures(&w, g, opt->seed, gi);
	if (rc == 0)
		rc = loads(g, &w);
	if (rc == 0)
		rc = fleet_rank(g);
	if (rc == 0)
		fleet_recommend(g);
	gwork_free(&w);
	return rc;
}

/* ---- the report ---- */

struct gk {
	char key[FLEET_KEY_LEN];
	size_t r;
};

static int cmp_gk(const void *x, const void *y)
{
	const struct gk *a = x, *b = y;
	int c = strcmp(a->key, b->key);
	return c ? c : (a->r > b->r) - (a->r < b->r);
}

void fleet_report_free(struct fleet_report *rep)
{
	if (!rep)
		return;
	for (size_t i = 0; i < rep->n_groups; i++) {
		struct fleet_group *g = &rep->groups[i];
		free(g->machines);
		free(g->arms);
		for (size_t r = 0; r < g->n_rows; r++)
			free(g->rows[r].disagree);
		free(g->rows);
		free(g->ranking);
	}
	free(rep->groups);
	rep->groups = NULL;
	rep->n_groups = 0;
}

int fleet_pool(const struct fleet_result *r, size_t n, const struct fleet_options *opt,
	       const struct fleet_skip *skipped, size_t n_skipped, struct fleet_report *rep,
	       char *err, size_t errlen)
{
	memset(rep, 0, sizeof(*rep));
	rep->opt = *opt;
	rep->skipped = skipped;
	rep->n_skipped = n_skipped;
	rep->n_results = n;
	if (!n)
		return msg_fail(-EINVAL, err, errlen, "no result to report on");
	struct gk *k = calloc(n, sizeof(*k));
	struct mkey *all = calloc(n, sizeof(*all));
	size_t *idx = calloc(n, sizeof(*idx));
	if (!k || !all || !idx) {
		free(k);
		free(all);
		free(idx);
		return msg_fail(-ENOMEM, err, errlen, "out of memory");
	}
	for (size_t i = 0; i < n; i++) {
		fleet_group_key(&r[i], opt->by, k[i].key, sizeof(k[i].key));
		k[i].r = i;
		fleet_machine_key(&r[i], all[i].key, sizeof(all[i].key), all[i].name, sizeof(all[i].name));
		all[i].at = i;
	}
	qsort(all, n, sizeof(*all), cmp_mkey);
	for (size_t i = 0; i < n; i++)
		rep->n_machines += i == 0 || strcmp(all[i].key, all[i - 1].key) != 0;
	qsort(k, n, sizeof(*k), cmp_gk);
	size_t ng = 0;
	for (size_t i = 0; i < n; i++)
		ng += i == 0 || strcmp(k[i].key, k[i - 1].key) != 0;
	rep->groups = calloc(ng, sizeof(*rep->groups));
	int rc = rep->groups ? 0 : -ENOMEM;
	for (size_t i = 0, gi = 0; rc == 0 && i < n; gi++) {
		size_t j = i, m = 0;
		while (j < n && strcmp(k[j].key, k[i].key) == 0)
			idx[m++] = k[j++].r;
		struct fleet_group *g = &rep->groups[rep->n_groups++];
		snprintf(g->key, sizeof(g->key), "%s", k[i].key);
		rc = pool_group(r, idx, m, opt, gi, g);
		i = j;
	}
	free(k);
	free(all);
	free(idx);
	if (rc < 0)
		return msg_fail(rc, err, errlen, "out of memory");
	return 0;
}
