/* loadflow — fio's flow: loads of one flow group advance in the ratio of
 * their weights, counted in calls (fio 3.23's weight-based flow control):
 * a load of weight w goes on while its own calls, over the group's, stay
 * within w over the group's total weight (fio compares its own calls + 1,
 * which can hold every member at once); otherwise it sleeps
 * flow_sleep (at least 100 us) and asks again.  The counters live in one
 * shared anonymous page the parent maps before it forks its first load
 * (loadflow_setup()), so every load child of the process sees them.  A
 * load joins its group when it starts and leaves it when it ends; the
 * first to join an empty group starts its count afresh.  A load held
 * back for a whole second in a row goes on anyway (a member that died
 * without leaving must not stall the others for good).
 */
#ifndef BRISK_LOADFLOW_H
#define BRISK_LOADFLOW_H

#include "load.h"

#define LOADFLOW_GROUPS 16

/* In the parent, before forking loads: map the shared page once.  0 or
 * -errno. */
int loadflow_setup(void);
/* In a load child: join s's group (nothing without a flow weight). */
void loadflow_join(const struct load_spec *s);
void loadflow_leave(const struct load_spec *s);
/* Before a call: 1 = go (counted), 0 = held back (it slept). */
int loadflow_go(const struct load_spec *s);

#endif
