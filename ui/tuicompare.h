/* tuicompare — the dashboard's compare screen at work (key c,
 * ui/comparescr.h): its picker's Enter stops the dashboard's session (its
 * changed settings are put back by the exit hook, as on q); then
 * cmd_tui_main() calls tuicompare_run(), which runs compare_run() (the
 * engine `brisk compare` uses) with the dashboard's workload and settings
 * and wires each arm-run's session to the screen (ticks redraw, keys,
 * resizes, the save job).  q/Esc stops it (compare_stop: the arm-run under
 * way ends, its settings are put back); the result stays until a key:
 * Enter/Esc back to the dashboard (a fresh session), q quits (so q twice
 * leaves from a running comparison).  A signal or the terminal going away
 * during it stops it and quits.  The winner is saved (s) by a child, as
 * the dashboard's profiles. */
#ifndef BRISK_UI_TUICOMPARE_H
#define BRISK_UI_TUICOMPARE_H

struct tui;

/* The comparison the picker asked for, on the open screen, then its
 * result until a key; t->cmp holds it after (its report at exit).
 * SIGINT, SIGTERM and SIGHUP stay blocked meanwhile (the arm-runs' loops
 * and the result screen read them: one that comes sets t->cmp_signal).
 * 1 back to the dashboard, 0 quit. */
int tuicompare_run(struct tui *t);

#endif
