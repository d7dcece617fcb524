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
# and on clustered data, as brisk compare gets it (arm-runs with a
# lognormal random effect, sigma_b 0.3 and 0.6, times within-run noise
# sigma 0.5):
#  3. timing of one analysis' grouped intervals (4 arms x 4 actions x 40)
#  4. coverage of the 95 % ratio interval, plain and grouped side by side,
#     3, 5, 8, 12 rounds x 4 and 8 samples (target 93-97 % for grouped)
#  5. A/A false-positive rate of whole verdict rules with 3 sequential looks
#     (alpha / 3 each), 4 arms x 4 actions, 4, 6, 9, 12 rounds x 4 samples:
#     the contract's rule and the alternatives side by side (target <= 5 %
#     family-wise)
#  6. their power for a true ratio of 0.5 and 0.8 on one arm x action
#  7. the same with outlier runs (10 % of arm-runs 4x slower): heavy tails
#     in the run effects, which Welch's normal model does not have
#  8. coverage of the interval brisk compare's verdict rests on (the
#     run-median ratio, Welch on log run medians), true ratio 1, 1.5, 3,
#     3 to 12 rounds x 2 to 4 samples (target 93-97 %)
#  9. A/A with a bimodal action (20, 50, 70 % of samples in a fast mode
#     ~30x faster: save with fsync on a fast disk), 3 rounds x 2 samples as
#     tests/bench/compare_aa.sh runs brisk compare (target <= 5 %)
# REPS (default 1000), ITERS (bootstrap replicates, default 2000), SEED for
# 1, 2 and 4; GREPS (default 1000), PREPS (default 500) and GITERS (default
# 1000) for 5 and 6.  The whole run takes about 30 minutes on the 2-core VM.
cd "$(dirname "$0")/../.." || exit 1
SIM=build/tests/helpers/compare_stats
[ -x "$SIM" ] || { echo "SKIP: $SIM not built (make tests)"; exit 0; }
reps=${REPS:-1000} iters=${ITERS:-2000} seed=${SEED:-13}
greps=${GREPS:-1000} preps=${PREPS:-500} giters=${GITERS:-1000}
echo "--- 1. ratio interval coverage"
"$SIM" coverage "$reps" "$iters" "$seed" || exit 1
echo "--- 2. A/A false positives"
for n in 8 16 32; do
  "$SIM" aa "$reps" "$iters" "$seed" 4 4 "$n" || exit 1
done
echo "--- 3. timing of the grouped intervals"
"$SIM" timing 2000 || exit 1
echo "--- 4. ratio interval coverage on clustered data"
"$SIM" gcoverage "$reps" "$iters" "$seed" || exit 1
echo "--- 5. A/A false positives of whole verdict rules, clustered, 3 looks"
for sb in 30 60; do
  for r in 4 6 9 12; do
    "$SIM" gaa "$greps" "$giters" "$seed" "$r" 4 "$sb" 100 || exit 1
  done
done
echo "--- 6. power of the same rules (one arm x action scaled)"
for ratio in 50 80; do
  for sb in 30 60; do
    for r in 4 6 9 12; do
      "$SIM" gaa "$preps" "$giters" "$seed" "$r" 4 "$sb" "$ratio" || exit 1
    done
  done
done
echo "--- 7. A/A and power with outlier runs (10 % of arm-runs x 4)"
for r in 6 12; do
  "$SIM" gaa "$greps" "$giters" "$seed" "$r" 4 30 100 10 || exit 1
done
for r in 6 12; do
  "$SIM" gaa "$preps" "$giters" "$seed" "$r" 4 30 50 10 || exit 1
done
echo "--- 8. run-median ratio interval coverage (the verdict's interval)"
"$SIM" wcoverage "$reps" "$seed" || exit 1
echo "--- 9. A/A with a bimodal action (a share of samples ~30x faster, as save"
echo "    with fsync on a fast disk under a buffered writer), 3 rounds x 2 samples"
echo "    as compare_aa runs them"
for fast in 20 50 70; do
  "$SIM" gaa "$greps" "$giters" "$seed" 3 2 30 100 0 "$fast" || exit 1
done
