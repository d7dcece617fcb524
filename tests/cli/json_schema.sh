#!/bin/bash
# Every JSON document brisk writes conforms to its schema in schemas/ (one
# per kind, draft 2020-12, checked with python3-jsonschema through
# tests/helpers/schema_check.py), each produced here for real: run (a DIR
# given relative: its "dir" must come out absolute, as the .prom has it),
# report (the emulated fleet and a file it skips), devices and get (-J as
# lsblk takes it), restore --dry-run --json and restore --json (a planted
# journal in a runtime directory of the test's own: only the dry run sees a
# value to restore; the real one finds every value in place and writes
# nothing), compare on a loop device (root).  The validator must refuse a
# planted document of each kind that breaks the convention (a relative
# dir, a number as a string, no format_version, a newer format_version, the
# wrong kind), so a check that passes has shown it can fail.  brisk report
# still reads the old result files (tests/fixtures/fleet) beside a new one.
source tests/lib.sh
PY=/usr/bin/python3
CHECK=tests/helpers/schema_check.py
if ! "$PY" -c 'import jsonschema' 2>/dev/null; then
  t_skip json_schema "python3-jsonschema is not installed (Debian: apt-get install python3-jsonschema)"; exit 0
fi
command -v jq >/dev/null 2>&1 || { t_skip json_schema "jq is not installed"; exit 0; }
d=$(t_tmpdir) || { t_fail json_schema "no temporary directory"; exit 0; }
# the start-up recovery of every command looks here, not at the machine's
export BRISK_RUNTIME_DIR=$d/rt0
mkdir -m 700 "$BRISK_RUNTIME_DIR"

# --- the schemas: one per kind, each valid, its kind and version fixed ---
kinds="compare devices get report restore run"
t_eq "one schema per kind" "$(cd schemas && ls -- *.schema.json | sed 's/^brisk-//; s/\.schema\.json$//' | sort | tr '\n' ' ')" \
  "$(tr ' ' '\n' <<<"$kinds" | sort | tr '\n' ' ')"
for k in $kinds; do
  out=$("$PY" "$CHECK" "schemas/brisk-$k.schema.json"); rc=$?
  t_eq "$k: a valid draft 2020-12 schema" "$rc" 0
  [ "$rc" = 0 ] || echo "  $out"
  t_eq "$k: kind and format_version fixed" \
    "$(jq -c '[.properties.kind.const, .properties.format_version.const, (.required | index("kind") != null)]' "schemas/brisk-$k.schema.json")" \
    "[\"$k\",1,true]"
done

# valid NAME KIND FILE...: each FILE conforms to brisk-KIND.schema.json
valid() {
  local name=$1 kind=$2 out rc; shift 2
  out=$("$PY" "$CHECK" "schemas/brisk-$kind.schema.json" "$@" 2>&1); rc=$?
  if [ "$rc" = 0 ]; then t_pass "$name"; else t_fail "$name" "$(head -n 5 <<<"$out" | tr '\n' ' ')"; fi
}
# refused NAME KIND JQ FILE: FILE changed by the jq filter JQ is refused
refused() {
  local name=$1 kind=$2 filter=$3 file=$4 bad rc
  bad=$d/bad-$kind-$RANDOM.json
  if ! jq "$filter" "$file" >"$bad" 2>/dev/null; then t_fail "$name" "jq '$filter' failed on $file"; return; fi
  "$PY" "$CHECK" "schemas/brisk-$kind.schema.json" "$bad" >/dev/null 2>&1; rc=$?
  t_eq "$name" "$rc" 1
}

# --- run: DIR given relative -----------------------------------------------
w=$d/work
mkdir "$w"
(cd "$d" && "$BRISK" run work --no-load -i 2 -a ls,save --ls-files 50 --idle-max 10s -q \
   -j "$d/run.json" --openmetrics "$d/run.prom" >/dev/null 2>"$d/run.err"); rc=$?
t_eq "run: exit 0" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/  /' "$d/run.err"
valid "run: conforms" run "$d/run.json"
t_eq "run: dir is absolute, as realpath gives it" "$(jq -r .dir "$d/run.json")" "$(realpath "$w")"
t_eq "run: the .prom's dir label is the same" \
  "$(sed -n 's/^brisk_info{.*dir="\([^"]*\)".*/\1/p' "$d/run.prom" | head -n 1)" "$(jq -r .dir "$d/run.json")"
refused "run: a relative dir refused" run '.dir = "work"' "$d/run.json"
refused "run: format_version 2 refused" run '.format_version = 2' "$d/run.json"

# --- report: the emulated fleet and one file it skips (exit 3) --------------
"$BRISK" report tests/fixtures/fleet/emulated tests/fixtures/fleet/bad/truncated.json \
  --json "$d/report.json" >/dev/null 2>"$d/report.err"; rc=$?
t_eq "report: exit 3 (a file skipped)" "$rc" 3
valid "report: conforms" report "$d/report.json"
t_eq "report: the skipped file named by its absolute path" "$(jq -r '.skipped[0].file' "$d/report.json")" \
  "$PWD/tests/fixtures/fleet/bad/truncated.json"
refused "report: no format_version refused" report 'del(.format_version)' "$d/report.json"
# old result files (format_version 1 as written before, dir as typed) and
# the new run's, in one report
mkdir -p "$d/fleet/newhost"
cp "$d/run.json" "$d/fleet/newhost/new-run.json"
cp -r tests/fixtures/fleet/real/vm-vda "$d/fleet/"
"$BRISK" report "$d/fleet" --json "$d/mixed.json" >/dev/null 2>"$d/mixed.err"; rc=$?
t_eq "report: reads old and new run files (exit 0)" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/  /' "$d/mixed.err"
t_eq "report: both machines' results" \
  "$(jq -r '.results' "$d/mixed.json" 2>/dev/null)" \
  "$(( $(find "$d/fleet" -name '*.json' | wc -l) ))"

# --- devices and get: -J, as lsblk takes it -------------------------------
"$BRISK" devices -J "$w" >"$d/devices.json" 2>"$d/devices.err"; rc=$?
t_eq "devices -J DIR: exit 0" "$rc" 0
leaf=$(jq -r '.leaves[0] // empty' "$d/devices.json" 2>/dev/null)
"$BRISK" devices --all --json >"$d/devices-all.json" 2>/dev/null
t_eq "devices --all --json: exit 0" "$?" 0
docs=("$d/devices.json" "$d/devices-all.json")
if [ -n "$leaf" ]; then
  "$BRISK" devices -j "$leaf" >"$d/devices-leaf.json" 2>/dev/null
  t_eq "devices -j DEVICE: exit 0" "$?" 0
  docs+=("$d/devices-leaf.json")
else
  t_skip "devices -j DEVICE" "no disk behind $w"
fi
valid "devices: conforms (DIR, --all, DEVICE)" devices "${docs[@]}"
t_eq "devices: path absolute" "$(jq -r .path "$d/devices.json")" "$(realpath "$w")"
refused "devices: an iosched value as a string refused" devices \
  '.stack.queue.iosched.read_expire = "500"' "$d/devices.json"
refused "devices: the wrong kind refused" devices '.kind = "get"' "$d/devices.json"

"$BRISK" get -J "$w" >"$d/get.json" 2>/dev/null
t_eq "get -J DIR: exit 0" "$?" 0
docs=("$d/get.json")
if [ -n "$leaf" ]; then
  "$BRISK" get --json "$leaf" scheduler nr_requests vm.dirty_ratio >"$d/get-keys.json" 2>/dev/null
  t_eq "get --json DEVICE KEYS: exit 0" "$?" 0
  docs+=("$d/get-keys.json")
else
  t_skip "get --json DEVICE KEYS" "no disk behind $w"
fi
valid "get: conforms" get "${docs[@]}"
refused "get: a number as a string refused" get '.devices[0].settings.nr_requests = "256"' "$d/get.json"

# --- restore: a planted journal --------------------------------------------
# plant KIND ENTRIES...: a journal of a dead 'brisk set' in $rt
rt=$d/rt
mkdir -m 700 "$rt"
boot=$(cat /proc/sys/kernel/random/boot_id)
plant() {
  printf 'brisk-journal 1\nkind set\npid 999999\nboot %s\ncreated 1\nwhat brisk set (planted)\n' "$boot"
  printf 'orig %s\n' "$@"
}
if [ -n "$leaf" ] && sched=$("$BRISK" get "$leaf" scheduler 2>/dev/null | sed 's/.*=//') && [ -n "$sched" ]; then
  ra=$(cat "/sys/block/$leaf/queue/read_ahead_kb")
  ratio=$(cat /proc/sys/vm/dirty_ratio)
  # read_ahead_kb differs (a dry run would restore it), the rest is in place
  plant "$leaf - read_ahead_kb - - $((ra == 128 ? 256 : 128))" "$leaf - scheduler - - $sched" \
    "- - vm.dirty_ratio - - $ratio" >"$rt/session-999999.journal"
  chmod 600 "$rt/session-999999.journal"
  printf '12345\n' >"$rt/dev-$leaf.lock"
  BRISK_RUNTIME_DIR=$rt "$BRISK" restore --dry-run --json >"$d/restore-dry.json" 2>"$d/restore.err"; rc=$?
  t_eq "restore --dry-run --json: exit 5 (a value would be restored)" "$rc" 5
  valid "restore --dry-run: conforms" restore "$d/restore-dry.json"
  # (lock files are looked at as root only: without root the dry run only reads)
  t_eq "restore --dry-run: the value, typed, and the stale lock" \
    "$(jq -c '[.dry_run, .restored, (.values[] | select(.key == "read_ahead_kb") | [.value_now, .outcome]),
               (.stale_locks | length)]' "$d/restore-dry.json")" "[true,1,[$ra,\"restored\"],$(is_root && echo 1 || echo 0)]"
  t_eq "restore --dry-run: nothing changed" "$(cat "/sys/block/$leaf/queue/read_ahead_kb")" "$ra"
  refused "restore: a number as a string refused" restore \
    '(.values[] | select(.key == "read_ahead_kb") | .value_to_restore) |= tostring' "$d/restore-dry.json"
  refused "restore: no format_version refused" restore 'del(.format_version)' "$d/restore-dry.json"
  # only values in place: a real restore writes nothing
  plant "$leaf - scheduler - - $sched" "- - vm.dirty_ratio - - $ratio" >"$rt/session-999999.journal"
  if is_root; then
    BRISK_RUNTIME_DIR=$rt "$BRISK" restore -J >"$d/restore.json" 2>"$d/restore.err"; rc=$?
    t_eq "restore -J: exit 0" "$rc" 0
    valid "restore: conforms" restore "$d/restore.json"
    t_eq "restore: a real one, nothing to write" "$(jq -c '[.dry_run, .restored, .unchanged]' "$d/restore.json")" '[false,0,2]'
  else
    t_skip "restore -J (real)" "needs root"
  fi
else
  t_skip restore "no disk with a scheduler behind $w"
fi

# --- compare: root, a loop device -------------------------------------------
if ! is_root || ! command -v losetup >/dev/null || ! command -v mkfs.ext4 >/dev/null; then
  t_skip compare "needs root, losetup and mkfs.ext4 (a loop device)"
  exit 0
fi
source tests/cli/loop_common.bash
loop_mount json_schema 256M
other=$(tr -d '[]' <"$q/scheduler" | tr ' ' '\n' | grep -v -x -e "$orig_sched" -e '' | head -n 1)
(cd "$d" && "$BRISK" compare mnt current "scheduler=${other:-none}" -r 1 -n 1 -a ssh-like \
   -l seq-write:size=16m --warmup 1s --settle-max 5s --floor 10% -q --json "$d/compare.json" \
   >/dev/null 2>"$d/compare.err"); rc=$?
t_eq "compare: exit 0" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/  /' "$d/compare.err"
valid "compare: conforms" compare "$d/compare.json"
t_eq "compare: dir absolute" "$(jq -r .dir "$d/compare.json")" "$(realpath "$d/mnt")"
refused "compare: the wrong kind refused" compare '.kind = "run"' "$d/compare.json"
