#!/bin/bash
# Concurrent samples on a real directory: a profile's concurrency and start
# times (the cap honoured, start times kept, every sample cold on its own
# files); a load that ends before the loaded phase makes the report say the
# figures after it are invalid and the run exit 1 (unless finite_load); the
# shipped lkml-ssh profile loads, and its job file scaled keeps the writer
# writing through the whole schedule.
source tests/lib.sh
source tests/cli/loop_common.bash

d=$(t_tmpdir)
w=$d/work
mkdir "$w"
ssh() {   # NAME [STARTDELAY]
  printf '\n[action %s]\ntype = ssh-like\nbsrange = 4k-44k\nsize = 1m\nfilesize = 4m\n' "$1"
  [ -n "${2:-}" ] && printf 'startdelay = %s\n' "$2"
  return 0
}
{
  printf '[profile]\nname = conc\nconcurrency = 3\n\n[load w]\nrw = write\nbs = 1m\nsize = 64m\n'
  ssh a1; ssh a2; ssh a3; ssh a4; ssh a5 500ms; ssh a6 1s
} > "$d/conc.profile"
args=(-q -i 1 --warmup 300ms --floor 64m)

# 1. four at once with a cap of three, then two at their own times
out=$($BRISK run "$w" --profile "$d/conc.profile" "${args[@]}" --json "$d/c.json"); rc=$?
t_eq conc-exit-0 "$rc" 0
j=$(cat "$d/c.json")
t_eq conc-loaded-6 "$(jq '[.samples[]|select(.phase=="loaded")]|length' <<<"$j")" 6
t_eq conc-reached-cap "$(jq '.concurrency.reached' <<<"$j")" 3
t_eq conc-cap "$(jq '.concurrency.cap' <<<"$j")" 3
t_check conc-never-over-cap jq -e '[.samples[].inflight]|max <= 3' <<<"$j"
t_check conc-one-held-back jq -e '.concurrency.late_starts >= 1' <<<"$j"
t_check conc-all-cold jq -e '[.samples[]|select(.cold|not)]|length == 0' <<<"$j"
# start times relative to the loaded phase: three at 0, the 500 ms and 1 s ones on time
rel=$(jq -c '.loaded_start_s as $l|[.samples[]|select(.phase=="loaded")|.start_s - $l]|sort' <<<"$j")
t_check conc-three-at-once jq -e '.[2] < 0.2' <<<"$rel"
t_check conc-500ms-on-time jq -e '[.[]|select(. > 0.45 and . < 0.7)]|length >= 1' <<<"$rel"
t_check conc-1s-on-time jq -e '[.[]|select(. > 0.95 and . < 1.2)]|length == 1' <<<"$rel"
t_match conc-text-line "$out" '^concurrent samples: up to 3 in flight \(cap 3\); 6 scheduled start times'
t_eq conc-no-invalid "$(jq -c '.load_ended_early' <<<"$j")" null
t_eq conc-cleans-up "$(ls -A "$w")" ""

# 2. a writer that ends (io_size) before the loaded phase does: invalid, exit 1
sed 's/^size = 64m$/size = 64m\nio_size = 4m/' "$d/conc.profile" > "$d/early.profile"
out=$($BRISK run "$w" --profile "$d/early.profile" "${args[@]}" --json "$d/e.json" 2>"$d/err"); rc=$?
t_eq early-exit-1 "$rc" 1
t_match early-text "$out" '^INVALID after that point: seq-write #1 \(done\) ended at \+[0-9.]+s, before the loaded phase did'
t_check early-json jq -e '.load_ended_early.invalid and .load_ended_early.loaded_samples_after >= 1' "$d/e.json"
t_check early-samples-marked jq -e '[.samples[]|select(.after_load_ended)]|length >= 1' "$d/e.json"
# ... unless the profile says the load is finite on purpose
sed 's/^concurrency = 3$/concurrency = 3\nfinite_load = 1/' "$d/early.profile" > "$d/finite.profile"
out=$($BRISK run "$w" --profile "$d/finite.profile" "${args[@]}" --json "$d/f.json"); rc=$?
t_eq finite-exit-0 "$rc" 0
t_match finite-text "$out" '^Load ended early \(finite on purpose\): seq-write #1'
t_check finite-json jq -e '.load_ended_early.finite_on_purpose and (.load_ended_early.invalid|not)' "$d/f.json"
t_eq finite-cleans-up "$(ls -A "$w")" ""

# 3. the shipped lkml-ssh profile, and its job file scaled down
t_check lkml-profile-checks $BRISK profile check profiles/lkml-ssh.profile
show=$($BRISK profile show profiles/lkml-ssh.profile)
t_match lkml-profile-concurrency "$show" '^concurrency = 41$'
t_eq lkml-profile-readers "$(grep -c '^type = ssh-like$' <<<"$show")" 41
out=$($BRISK run "$w" --fio profiles/lkml-ssh.fio --scale 1/1000 "${args[@]}" --tick 100ms --json "$d/l.json"); rc=$?
t_eq lkml-fio-exit-0 "$rc" 0
j=$(cat "$d/l.json")
t_eq lkml-fio-scheduled "$(jq '.concurrency.scheduled' <<<"$j")" 41
t_eq lkml-fio-loaded "$(jq '[.samples[]|select(.phase=="loaded")]|length' <<<"$j")" 41
t_check lkml-fio-overlap jq -e '.concurrency.reached >= 2' <<<"$j"
t_eq lkml-fio-load-through "$(jq -c '.load_ended_early' <<<"$j")" null
t_eq lkml-fio-writer-stopped "$(jq -r '.loads[0].end' <<<"$j")" stopped
# the writer was still writing when the last reader started (its final
# byte count is past its last timeline tick before that start: the tick
# after it may never come, since the session stops once the reader ends),
# and it ran until the session stopped it, after the last reader ended
# (end "stopped", not "done")
t_check lkml-fio-writer-alive jq -e '([.samples[]|select(.phase=="loaded")|.start_s]|max) as $last |
  [.loads[0].timeline[]|select(.t_s < $last)|.bytes] as $a |
  ($a|length) >= 1 and .loads[0].bytes > ($a|max)' <<<"$j"
t_eq lkml-cleans-up "$(ls -A "$w")" ""

# 4. a writer that loops over a region bigger than the disk wraps at the
# free-space floor and goes on (a small loop-mounted ext4; root)
loop_mount -d "$d" -m "-m 0" floor-wrap 64M
avail0=$(df -B1 --output=avail "$mnt" | tail -1)
out=$($BRISK run "$mnt" -q -a save -i 1 -n 3 --interval 300ms --warmup 300ms --tick 200ms \
      --floor 16m --load seq-write:bs=256k,size=1g --json -); rc=$?
t_eq floor-wrap-exit-0 "$rc" 0
t_eq floor-wrap-load-through "$(jq -c '.load_ended_early' <<<"$out")" null
t_eq floor-wrap-stopped "$(jq -r '.loads[0].end' <<<"$out")" stopped
# it wrote more than the disk holds above the floor: it wrapped and went on
t_check floor-wrap-looped jq -e --argjson a "$avail0" '.loads[0].bytes > $a - 16*1048576' <<<"$out"
t_eq floor-wrap-nothing-left "$(find "$mnt" -mindepth 1 -maxdepth 1 ! -name lost+found | wc -l)" 0
