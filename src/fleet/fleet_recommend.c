/* fleet_recommend — a group's arms ranked and its recommendation
 * decided (a reason and the figures it went by; fleet_out.c puts it in
 * words).  Contract in fleet.h and fleet_priv.h. */
#include "fleet.h"
#include "fleet_priv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An arm to rank: the arm and its index. */
struct rarm {
	const struct fleet_garm *a;
	size_t old;
};

/* Ranking order: arms that keep the load first, then by score (a finite
 * one first, lower first), then by label. */
static int cmp_rank(const void *x, const void *y)
{
	const struct fleet_garm *a = ((const struct rarm *)x)->a, *b = ((const struct rarm *)y)->a;
	if (a->load_ok != b->load_ok)
		return a->load_ok ? -1 : 1;
	int fa = isfinite(a->score), fb = isfinite(b->score);
	if (fa != fb)
		return fa ? -1 : 1;
	if (fa && a->score != b->score)
		return a->score < b->score ? -1 : 1;
	return fleet_arm_cmp(a, b);
}

int fleet_rank(struct fleet_group *g)
{
	for (size_t a = 0; a < g->n_arms; a++) {
		double s = 0;
		size_t k = 0;
		for (size_t i = 0; i < g->n_rows; i++) {
			const struct fleet_row *r = &g->rows[i];
			if (r->arm != a || r->phase != FLEET_LOADED)
				continue;
			if ((int)a == g->baseline) {
				k++;
				continue;
			}
			if (isfinite(r->ratio90.est) && r->ratio90.est > 0) {
				s += log(r->ratio90.est);
				k++;
			}
		}
		g->arms[a].score = !k ? NAN : (int)a == g->baseline ? 1.0 : exp(s / (double)k);
	}
	struct rarm *order = malloc((g->n_arms ? g->n_arms : 1) * sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < g->n_arms; i++)
		order[i] = (struct rarm){ &g->arms[i], i };
	qsort(order, g->n_arms, sizeof(*order), cmp_rank);
	for (size_t i = 0; i < g->n_arms; i++)
		g->ranking[i] = order[i].old;
	g->n_ranked = g->n_arms;
	free(order);
	return 0;
}

/* The baseline ranks first: keep it; name the arm of the lowest score
 * among the others when it scores below 1 but starves the load, else the
 * next in the ranking. */
static void keep_baseline(const struct fleet_group *g, struct fleet_rec *rec)
{
	rec->why = FLEET_REC_KEEP;
	int low = -1;
	for (size_t i = 0; i < g->n_arms; i++)
		if ((int)i != g->baseline && isfinite(g->arms[i].score) &&
		    (low < 0 || g->arms[i].score < g->arms[low].score))
			low = (int)i;
	if (low >= 0 && g->arms[low].score < 1 && !g->arms[low].load_ok) {
		rec->other = low;
		rec->other_starves = 1;
	} else if (g->n_ranked > 1) {
		rec->other = (int)g->ranking[1];
	}
}

/* Another arm ranks first: recommended when it keeps the load and is
 * faster on at least one loaded action and slower on none. */
static void first_ranked(struct fleet_group *g, struct fleet_rec *rec)
{
	size_t first = g->ranking[0];
	rec->arm = (int)first;
	for (size_t i = 0; i < g->n_rows; i++) {
		const struct fleet_row *r = &g->rows[i];
		if (r->arm != first || r->phase != FLEET_LOADED || !r->decided)
			continue;
		rec->faster += r->verdict == STATS_FASTER;
		rec->slower += r->verdict == STATS_SLOWER;
	}
	if (!g->arms[first].load_ok)
		rec->why = FLEET_REC_STARVES;
	else if (rec->slower)
		rec->why = FLEET_REC_SLOWER;
	else if (!rec->faster)
		rec->why = FLEET_REC_NOT_FASTER;
	else {
		rec->why = FLEET_REC_CHOSEN;
		g->best = (int)first;
	}
}

void fleet_recommend(struct fleet_group *g)
{
	struct fleet_rec *rec = &g->rec;
	memset(rec, 0, sizeof(*rec));
	rec->arm = rec->other = -1;
	g->best = -1;
	size_t loaded_rows = 0;
	for (size_t i = 0; i < g->n_rows; i++) {
		const struct fleet_row *r = &g->rows[i];
		if (r->phase != FLEET_LOADED)
			continue;
		loaded_rows++;
		if ((int)r->arm != g->baseline && r->paired > rec->max_paired)
			rec->max_paired = r->paired;
	}
	if (g->n_machines == 1)
		rec->why = FLEET_REC_ONE_MACHINE;
	else if (!loaded_rows)
		rec->why = FLEET_REC_NOT_LOADED;
	else if (g->baseline < 0)
		rec->why = FLEET_REC_NO_BASELINE;
	else if (g->n_arms == 1)
		rec->why = FLEET_REC_ONE_ARM;
	else if (rec->max_paired < FLEET_MIN_MACHINES)
		rec->why = FLEET_REC_FEW_MACHINES;
	else if ((int)g->ranking[0] == g->baseline)
		keep_baseline(g, rec);
	else
		first_ranked(g, rec);
}
