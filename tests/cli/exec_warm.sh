#!/bin/bash
# Cold-only statistics: samples that could not be made cold are left out
# of the figures (counted and shown apart), --keep-warm puts them back.
# Warm samples are made on purpose: once the run has prepared, another
# process maps the program's file and holds its pages (mapped pages survive
# eviction), so the later samples are warm.
source tests/lib.sh
py=/usr/bin/python3
[ -x $py ] || { t_skip exec_warm "needs $py to hold a file mapped"; exit 0; }
command -v jq >/dev/null || { t_skip exec_warm "jq is not installed"; exit 0; }
d=$(t_tmpdir)
chmod 755 "$d"   # actions run as the invoking user or nobody, who must reach mytrue
mkdir "$d/w"
cp /usr/bin/true "$d/mytrue"
sync "$d/mytrue"   # written back: dirty pages would stay cached (and count as pinned)
holder=
export T_CLEANUP_EXTRA='[ -n "$holder" ] && kill "$holder" 2>/dev/null'

run() { # ARGS...: a run whose samples after the first ~1s are warm
  "$BRISK" run "$d/w" --floor 0 -q -a exec --exec "$d/mytrue" --no-load -i 10 \
    --interval 250ms --jitter 0 --json - "$@" >"$d/out.json" 2>"$d/err.txt" &
  local pid=$!
  for _ in $(seq 1 100); do
    ls "$d"/w/.brisk-*/owner >/dev/null 2>&1 && break
    sleep 0.05
  done
  sleep 1
  $py -c 'import mmap, sys, time
f = open(sys.argv[1], "rb")
m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
while True:
    sum(m[i] for i in range(0, len(m), 4096))
    time.sleep(0.05)' "$d/mytrue" &
  holder=$!
  wait $pid
  local rc=$?
  kill $holder 2>/dev/null; wait $holder 2>/dev/null; holder=
  return $rc
}

run; rc=$?
t_eq cold-only-exit-0 "$rc" 0
json=$(cat "$d/out.json")
total=$(jq '[.samples[]|select(.action=="exec" and .error==0)]|length' <<<"$json")
cold=$(jq '[.samples[]|select(.action=="exec" and .error==0 and .cold)]|length' <<<"$json")
warm=$((total - cold))
t_eq samples "$total" 10
if [ "$warm" -lt 1 ] || [ "$cold" -lt 1 ]; then
  t_skip cold-only "timing: $cold cold, $warm warm (need some of each)"
else
  g='.actions[]|select(.action=="exec" and .phase=="idle")'
  t_eq cold-only-n "$(jq "$g|.n" <<<"$json")" "$cold"
  t_eq cold-only-warm-counted "$(jq "$g|.warm_left_out" <<<"$json")" "$warm"
  t_eq cold-only-warm-p50 "$(jq "$g|.warm_p50_ms > 0" <<<"$json")" true
  t_eq cold-only-config "$(jq .config.keep_warm <<<"$json")" false
  # the p50 is the cold samples' own
  want=$(jq '[.samples[]|select(.action=="exec" and .cold)|.ms]|sort|if length%2==1 then .[length/2|floor] else (.[length/2-1]+.[length/2])/2 end' <<<"$json")
  t_check cold-only-p50 awk -v a="$(jq "$g|.p50_ms" <<<"$json")" -v b="$want" 'BEGIN{exit !(a-b<1e-6 && b-a<1e-6)}'
fi

run --keep-warm; rc=$?
t_eq keep-warm-exit-0 "$rc" 0
json=$(cat "$d/out.json")
g='.actions[]|select(.action=="exec" and .phase=="idle")'
t_eq keep-warm-n "$(jq "$g|.n" <<<"$json")" 10
t_eq keep-warm-none-left-out "$(jq "$g|.warm_left_out" <<<"$json")" 0
t_eq keep-warm-config "$(jq .config.keep_warm <<<"$json")" true

# the text report shows the warm ones apart
"$BRISK" run "$d/w" --floor 0 -a exec --exec /usr/bin/true --no-load -i 1 --keep-warm >"$d/t.txt" 2>&1
t_match keep-warm-text "$(cat "$d/t.txt")" "warm samples counted \(--keep-warm\)"
t_match help-run "$("$BRISK" run --help)" "--keep-warm"
t_match help-tui "$("$BRISK" tui --help)" "--keep-warm"
t_match help-compare "$("$BRISK" compare --help)" "--keep-warm"
