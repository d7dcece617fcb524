#!/bin/bash
# The race and the equivalence verdict of brisk compare, simulated through
# the engine itself (tests/helpers/race_sim.c: compare_run with a stand-in
# for each arm-run's session; not a timed test, prints figures): 16 arms,
# arm 0 the baseline, with known ratios (aa: all equal; mixed: equal,
# within the margin, at its edges, clearly better and worse; edge: no clear
# winner), racing and --no-racing side by side.  Targets: family-wise
# false faster/slower <= 5 %, false equivalent at the margin's edge <= 5 %,
# 95 % interval coverage 93-97 %.  REPS (default 1000), ROUNDS ("6 10"),
# SD ("30": the log sd between arm-runs, in %), SEED (1).  About 35
# minutes on the 2-core VM (REPS=200 for a quick look).
cd "$(dirname "$0")/../.." || exit 1
SIM=build/tests/helpers/race_sim
[ -x "$SIM" ] || { echo "SKIP: $SIM not built (make tests)"; exit 0; }
reps=${REPS:-1000} seed=${SEED:-1}
for sd in ${SD:-30}; do
  for rounds in ${ROUNDS:-6 10}; do
    echo "--- run spread sd $sd %, at most $rounds rounds, $reps comparisons of 16 arms"
    for s in aa mixed edge; do
      "$SIM" "$s" "$reps" "$rounds" "$sd" "$seed" || exit 1
    done
  done
done
