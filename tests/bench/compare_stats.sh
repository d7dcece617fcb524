#!/bin/bash
# Simulation of the statistics under a comparison of settings (issue 13
# groundwork; not a timed test, prints figures):
#  1. coverage of the 95 % bootstrap interval of the ratio of medians and of
#     p90 (stats_bootstrap_ratio) on lognormal latencies with a known true
#     ratio 1.0, 1.5, 3.0, sigma 0.5 and 1.0, n = 8, 16, 32 per arm
#     (target 93-97 %)
#  2. A/A false-positive rate of the verdict (ratio interval excludes 1 and
#     Holm-adjusted Mann-Whitney p < 0.05) over 4 arms x 4 actions at
#     n = 8, 16, 32 (target <= 5 % of repetitions with any false verdict)
# REPS (default 1000), ITERS (bootstrap replicates, default 2000), SEED.
cd "$(dirname "$0")/../.." || exit 1
SIM=build/tests/helpers/compare_stats
[ -x "$SIM" ] || { echo "SKIP: $SIM not built (make tests)"; exit 0; }
reps=${REPS:-1000} iters=${ITERS:-2000} seed=${SEED:-13}
echo "--- 1. ratio interval coverage"
"$SIM" coverage "$reps" "$iters" "$seed" || exit 1
echo "--- 2. A/A false positives"
for n in 8 16 32; do
  "$SIM" aa "$reps" "$iters" "$seed" 4 4 "$n" || exit 1
done
