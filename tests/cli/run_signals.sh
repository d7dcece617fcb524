#!/bin/bash
# An interrupted brisk run (SIGINT, SIGTERM, SIGHUP) still reports what it
# gathered, exits 128+signal, and leaves no file and no process behind.
source tests/lib.sh

d=$(t_tmpdir)
touch "$d/keep-me"

# wait_for PATTERN SECONDS: until a path matching the glob exists
wait_for() {
  local i
  for ((i = 0; i < $2 * 10; i++)); do
    compgen -G "$1" >/dev/null && return 0
    sleep 0.1
  done
  return 1
}

interrupt() { # NAME SIGNAL WHEN(glob that marks the phase)
  local name=$1 sig=$2 when=$3 pid kids rc out json i
  $BRISK run "$d" -q -i 3 -n 1000 -d 60s --interval 50ms --ls-files 50 \
    --load seq-write:rate=50m --load rand-read:size=8m --json "$d/../$name.json" >"$d/../$name.out" 2>&1 &
  pid=$!
  if ! wait_for "$d/$when" 20; then
    t_fail "$name-reached-phase" "no $when after 20s"; kill -KILL $pid; wait $pid; return
  fi
  # a load's file is made in the prepare phase: wait until it is written to
  # (the idle phase is over; its length depends on the exec action's start)
  case $when in *load-*)
    for ((i = 0; i < 300; i++)); do
      [ -n "$(find "$d" -path "$d/$when" -size +0 2>/dev/null)" ] && break
      sleep 0.1
    done;;
  esac
  sleep 1
  kids=$(pgrep -P $pid | tr '\n' ' ')
  kill -"$sig" $pid
  wait $pid; rc=$?
  out=$(cat "$d/../$name.out"); json=$(cat "$d/../$name.json" 2>/dev/null)
  rm -f "$d/../$name.out" "$d/../$name.json"
  t_eq "$name-exit-status" "$rc" $((128 + $(kill -l "$sig")))
  t_match "$name-report" "$out" "interrupted by SIG$sig"
  t_match "$name-report-table" "$out" '^exec +idle +0 +[0-9]+ '
  t_eq "$name-json-interrupted" "$(jq -r .interrupted_by <<<"$json")" "$sig"
  t_check "$name-json-has-samples" jq -e '(.samples|length) > 0' <<<"$json"
  case $when in *load-*)
    t_eq "$name-loads-stopped" "$(jq -r '[.loads[].end]|unique|join(",")' <<<"$json")" stopped;;
  esac
  t_eq "$name-files-removed" "$(ls -A "$d")" keep-me
  local alive=0 k
  for k in $kids; do kill -0 "$k" 2>/dev/null && alive=$((alive + 1)); done
  t_eq "$name-children-gone" "$alive" 0
}

# during the loaded phase (the loads' files exist) and during the idle phase
interrupt sigint INT '.brisk-*/load-seq-write-1'
interrupt sigterm TERM '.brisk-*/load-seq-write-1'
interrupt sighup HUP '.brisk-*/save.dat'
