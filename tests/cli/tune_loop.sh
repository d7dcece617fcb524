#!/bin/bash
# brisk tune on a real loop device (root): a bad space file is refused
# before anything starts (FILE:LINE, exit 2, nothing run, changed,
# journaled or written); --list shows the arms; a tune killed by SIGKILL
# mid-way keeps its finished arm-runs in its JSON, and --resume puts back
# what it left changed, keeps those arm-runs as they were and runs the
# rest, so the tune ends with every arm-run, every setting back and no
# file left; nobody may not tune.  The space: the disk's other scheduler
# (loop_alt_sched), with and without read_ahead_kb=512: three arms.
# shellcheck disable=SC2154  # d, L, dev, q: set by loop_mount (tests/cli/loop_common.bash)
source tests/lib.sh
source tests/cli/loop_common.bash
if ! is_root; then t_skip tune-loop "needs root (loop device, sysfs writes)"; exit 0; fi
t_nobody tune-loop
loop_mount -s none tune-loop 256M
export BRISK_RUNTIME_DIR=$d/rt
loop_alt_sched "$dev" || { t_skip tune-loop "$dev offers no scheduler but none"; exit 0; }
orig_ra=$(cat $q/read_ahead_kb)
journals() { find "$BRISK_RUNTIME_DIR" -maxdepth 1 -name '*journal*' 2>/dev/null | wc -l; }
workfiles() { find "$d/mnt" -mindepth 1 -maxdepth 1 ! -name lost+found | wc -l; }
unchanged() { # NAME: the disk as it was, nothing journaled
  t_match "$1: scheduler as it was" "$(cat $q/scheduler)" '^\[none\]'
  t_eq "$1: read_ahead_kb as it was" "$(cat $q/read_ahead_kb)" "$orig_ra"
  t_eq "$1: nothing journaled" "$(journals)" 0
}
w=(-l "seq-write:size=48m,rate=16m" -a ssh-like --ls-files 50 --interval 50ms --warmup 1s
   --floor 10% --settle-max 10s -n 1)
printf '[space]\nscheduler = %s\nread_ahead_kb = keep, 512\n' "$alt_sched" >"$d/space.ini"
SRC=$PWD
mkdir -p "$d/cwd"
cd "$d/cwd" || exit 1

# 1. Bad space files: the file and line, exit 2, nothing run or changed,
#    no JSON written.
bad() { # NAME REGEX SPACE-TEXT
  printf '%b' "$3" >"$d/bad.ini"
  local err rc
  err=$("$BRISK" tune "$d/mnt" --space "$d/bad.ini" "${w[@]}" -r 3 2>&1 >/dev/null); rc=$?
  t_eq "$1: exit 2" "$rc" 2
  t_match "$1: FILE:LINE and why" "$err" "$2"
  t_match "$1: says nothing changed" "$err" 'nothing was run or changed'
  unchanged "$1"
  t_eq "$1: no JSON written" "$(find "$d/cwd" -name '*.json' | wc -l)" 0
}
bad "unknown key" "bad.ini:3: unknown key 'no_such_key'" '[space]\nscheduler = none\nno_such_key = 1, 2\n'
bad "another scheduler's key" "bad.ini:2: low_latency is bfq's" '[space]\nlow_latency = 0, 1\n'
bad "a scheduler the disk lacks" "bad.ini:2: the disks do not offer nosuch" \
  '[space]\nscheduler = nosuch\nread_ahead_kb = keep, 512\n'
bad "a value the disk refuses" "bad.ini:4: max_sectors_kb = 99999999 with scheduler" \
  "[space]\nscheduler = $alt_sched\n\nmax_sectors_kb = keep, 99999999\n"
bad "one level" "bad.ini:2: read_ahead_kb: two to 6 levels" '[space]\nread_ahead_kb = 512\n'
bad "not INI" "bad.ini:1: not INI" '[space\nread_ahead_kb = 1, 2\n'
esc="$d/sp$(printf '\033')[2J.ini"   # a file name that would clear the terminal
cp "$d/space.ini" "$esc"
out=$("$BRISK" tune "$d/mnt" --space "$esc" --list 2>&1); rc=$?
t_eq "a space file named with an ESC: --list exit 0" "$rc" 0
t_eq "a space file named with an ESC: its name escaped" "$(tr -cd '\033' <<<"$out" | wc -c)" 0
{ printf '[space]\nscheduler = %s\n' "$alt_sched"   # 2^6 + 1 arms: too many
  printf '%s = keep, %s\n' read_ahead_kb 512 nr_requests 64 wbt_lat_usec 0 max_sectors_kb 128 \
    rq_affinity 1 nomerges 1; } >"$esc"
err=$("$BRISK" tune "$d/mnt" --space "$esc" "${w[@]}" 2>&1); rc=$?
t_eq "too many arms: exit 2" "$rc" 2
t_match "too many arms: said, the name escaped" "$err" 'sp\\x1b\[2J\.ini: more than 64 arms'
ln -s "$d/space.ini" "$d/link.ini"
err=$("$BRISK" tune "$d/mnt" --space "$d/link.ini" "${w[@]}" 2>&1); rc=$?
t_eq "a space file that is a link: exit 2" "$rc" 2
t_match "a space file that is a link: said" "$err" 'a symbolic link'

# 2. --list: the arms, nothing run.
out=$("$BRISK" tune "$d/mnt" --space "$d/space.ini" --list 2>&1); rc=$?
t_eq "--list: exit 0" "$rc" 0
t_match "--list: three arms" "$out" "^3 arms from $d/space.ini"
t_match "--list: the arm with both" "$out" "scheduler=$alt_sched read_ahead_kb=512"
unchanged "--list"

# 3. Not root: exit 4, nothing changed.
chmod 755 "$d" "$d/mnt"
err=$(as_nobody "$BRISK" tune "$d/mnt" --space "$d/space.ini" "${w[@]}" -r 3 --json /tmp/brisk-tune-nobody.$$.json 2>&1); rc=$?
t_eq "nobody: exit 4" "$rc" 4
t_match "nobody: says root is needed" "$err" 'needs root'
t_eq "nobody: no JSON" "$(ls /tmp/brisk-tune-nobody.$$.json 2>/dev/null | wc -l)" 0
unchanged "nobody"

# 4. SIGKILL mid-tune: the finished arm-runs are in the JSON.
"$BRISK" tune "$d/mnt" --space "$d/space.ini" "${w[@]}" -r 3 --seed 5 -q --json t.json \
  >"$d/out1" 2>"$d/err1" &
pid=$!
k=0
for _ in $(seq 1200); do
  k=$(jq '.runs|length' t.json 2>/dev/null || echo 0)
  [ "${k:-0}" -ge 2 ] && break
  sleep 0.1
done
kill -KILL $pid; wait $pid 2>/dev/null
k=$(jq '.runs|length' t.json)
t_match "SIGKILL: at least two arm-runs kept" "$k" '^[2-8]$'
kept=$(jq -c "[.runs[:$k][]|[.arm,.round,.dur_s]]" t.json)
kept_bd=$(jq -c "[.samples[]|select(.run < $k)|[.ms,.breakdown]]" t.json)
t_eq "SIGKILL: the JSON is whole, with the command" "$(jq -r '.tune.command[0]' t.json)" tune
t_eq "--json exists: refused without --force" \
  "$("$BRISK" tune "$d/mnt" --space "$d/space.ini" "${w[@]}" --json t.json >/dev/null 2>&1; echo $?)" 2

# 5. --resume: what the kill left is put back first, the kept arm-runs
#    stay as they were, the rest run; every setting back at the end.
"$BRISK" tune --resume t.json --seed 1 >/dev/null 2>&1
t_eq "--resume takes no other option" "$?" 2
echo '{"kind":"compare"}' >"$d/other.json"
err=$("$BRISK" tune --resume "$d/other.json" 2>&1); rc=$?
t_eq "--resume of another JSON: exit 2" "$rc" 2
t_match "--resume of another JSON: said" "$err" "not a brisk tune's JSON"
err=$("$BRISK" tune --resume="$d/other.json" -q 2>&1); rc=$?
t_eq "--resume=FILE -q: read as --resume FILE" "$rc$(grep -c 'no other options' <<<"$err")" 20
cd / || exit 1   # it goes back to where the tune ran
out=$("$BRISK" tune --resume "$d/cwd/t.json" 2>"$d/err2"); rc=$?
cd "$d/cwd" || exit 1
t_eq "--resume: exit 0" "$rc" 0
t_match "--resume: says how many it kept" "$(cat "$d/err2")" "resuming: $k finished arm-run"
t_eq "--resume: every arm-run at the end" "$(jq '.runs|length' t.json)" 9
t_eq "--resume: the kept ones as they were" "$(jq -c "[.runs[:$k][]|[.arm,.round,.dur_s]]" t.json)" "$kept"
t_eq "--resume: replayed_runs" "$(jq '.tune.replayed_runs' t.json)" "$k"
t_eq "--resume: their samples and breakdowns kept" \
  "$(jq -c "[.samples[]|select(.run < $k)|[.ms,.breakdown]]" t.json)" "$kept_bd"
t_eq "--resume: every arm once per round" \
  "$(jq -c '[.runs[]|[.round,.arm]]|group_by(.[0])|map(map(.[1])|sort)' t.json)" '[[0,1,2],[0,1,2],[0,1,2]]'
t_match "--resume: the report is brisk tune's" "$out" '^brisk [^ ]+ tune on '
t_match "--resume: the report has the tune's part" "$out" '^tune: 3 arms from '
t_match "--resume: the best arm" "$out" '^best: '
t_match "--resume: the best against current or the defaults" "$out" '^  (current|'"$alt_sched""'s defaults) "
t_match "--resume: the JSON's evidence" "$(jq -c '.tune.evidence[0]|keys' t.json)" 'against.*ratio'
unchanged "--resume"
t_eq "--resume: no work files left" "$(workfiles)" 0
# its JSON is compare's document (the tune object is an addition)
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
  out=$(/usr/bin/python3 "$SRC/tests/helpers/schema_check.py" \
        "$SRC/schemas/brisk-compare.schema.json" "$d/cwd/t.json" 2>&1)
  t_eq "--resume: the JSON conforms to brisk-compare.schema.json" "$?" 0
  [ -z "$out" ] || echo "$out" | head -5
else
  t_skip tune-loop-schema "python3-jsonschema is not installed"
fi
