/* loadflow — fio's flow weights across load processes.  See loadflow.h. */
#include "loadflow.h"

#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>

#include "now.h"

struct flow_group {
	uint64_t count;     /* calls of the group's members */
	uint64_t weight;    /* the members' total weight */
};

static struct flow_group *groups;     /* shared with the load children */
static uint64_t own;                  /* this child's calls */
static uint64_t held_since;           /* 0 = not held */

int loadflow_setup(void)
{
	if (groups)
		return 0;
	void *p = mmap(NULL, sizeof(struct flow_group) * LOADFLOW_GROUPS, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	groups = p;
	return 0;
}

static struct flow_group *group_of(const struct load_spec *s)
{
	return groups && s->flow_weight ? &groups[s->flow_id % LOADFLOW_GROUPS] : NULL;
}

void loadflow_join(const struct load_spec *s)
{
	struct flow_group *g = group_of(s);
	if (!g)
		return;
	if (__atomic_fetch_add(&g->weight, s->flow_weight, __ATOMIC_SEQ_CST) == 0)
		__atomic_store_n(&g->count, 0, __ATOMIC_SEQ_CST);
	own = 0;
	held_since = 0;
}

void loadflow_leave(const struct load_spec *s)
{
	struct flow_group *g = group_of(s);
	if (g)
		__atomic_fetch_sub(&g->weight, s->flow_weight, __ATOMIC_SEQ_CST);
}

int loadflow_go(const struct load_spec *s)
{
	struct flow_group *g = group_of(s);
	if (!g)
		return 1;
	uint64_t count = __atomic_load_n(&g->count, __ATOMIC_RELAXED);
	uint64_t weight = __atomic_load_n(&g->weight, __ATOMIC_RELAXED);
	/* own / count > w / weight (ahead of its share), without dividing;
	 * every member goes at first, none is held while behind */
	if (weight && (double)own * (double)weight > (double)s->flow_weight * (double)count) {
		uint64_t now = now_ns();
		if (!held_since)
			held_since = now;
		if (now - held_since < 1000000000ull) {
			uint64_t us = s->flow_sleep_us > 100 ? s->flow_sleep_us : 100;
			struct timespec ts = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000 };
			nanosleep(&ts, NULL);
			return 0;
		}
	}
	held_since = 0;
	__atomic_fetch_add(&g->count, 1, __ATOMIC_RELAXED);
	own++;
	return 1;
}
