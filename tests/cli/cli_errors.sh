#!/bin/bash
# One error style everywhere: a usage error of any subcommand prints
#   brisk SUB: MESSAGE
#   Try 'brisk help SUB'.
# on stderr (those two lines, not the usage text), nothing on stdout, and
# exits 2.  Every subcommand of ui/main.c's list with --bogus, the verbs of
# lab and profile, then each kind of getopt error.  No root needed.
source tests/lib.sh

T=$(t_tmpdir) || exit 1
mkdir -m 700 "$T/run" "$T/cwd"
export BRISK_RUNTIME_DIR=$T/run

# usage_err NAME SUB LINE1-REGEX ARGS...: brisk ARGS fails in that style.
# Run in an empty directory with no file writes allowed (ulimit -f 0): a
# run that wrongly started would fail at once instead of filling a disk.
usage_err() {
  local n=$1 sub=$2 re=$3; shift 3
  local out err rc
  out=$(cd "$T/cwd" && ulimit -f 0 && exec timeout 20 "$BRISK" "$@" 2>/dev/null)
  err=$(cd "$T/cwd" && ulimit -f 0 && exec timeout 20 "$BRISK" "$@" 2>&1 >/dev/null); rc=$?
  t_eq "$n: exit 2" "$rc" 2
  t_eq "$n: nothing on stdout" "$out" ""
  t_eq "$n: two lines on stderr" "$(wc -l <<<"$err")" 2
  t_match "$n: says what" "$(head -1 <<<"$err")" "^brisk $sub: $re\$"
  t_eq "$n: points to help" "$(tail -1 <<<"$err")" "Try 'brisk help ${sub%% *}'."
}

subs=$(grep -oE '^[[:space:]]*\{ *"[a-z]+", *cmd_[a-z]+_main' ui/main.c | sed -E 's/.*"([a-z]+)".*/\1/')
t_match subcommands-listed "$(tr '\n' ' ' <<<"$subs")" '^run .*lab'
for sub in $subs; do
  usage_err "$sub --bogus" "$sub" "unknown option '--bogus'(; expected a command: .*)?" "$sub" --bogus
  "$BRISK" help "$sub" >/dev/null 2>&1; t_eq "$sub: the pointer works" $? 0
done
for verb in "lab up" "lab down" "lab status" "lab models" \
            "profile list" "profile show" "profile check" "profile save" "profile import"; do
  # shellcheck disable=SC2086  # "lab up" is two words
  usage_err "$verb --bogus" "$verb" "unknown option '--bogus'" $verb --bogus
done

# each kind of error getopt_long finds, said by brisk, not by getopt
usage_err "short option" get "unknown option '-x'" get -x /
usage_err "short option in a cluster" get "unknown option '-x'" get --json -xj /
usage_err "missing argument" get "option '-d' needs an argument" get / -d
usage_err "missing long argument" get "option '--device' needs an argument" get / --device
usage_err "abbreviated, missing argument" run "option '--interval' needs an argument" run --interv
usage_err "ambiguous" run "option '--l' is ambiguous \(--load, --ls-files, --load-dir\)" run --l x
usage_err "argument to a flag" restore "option '--dry-run' takes no argument" restore --dry-run=yes
usage_err "tui's own" tui "unknown option '--bogus'" tui --bogus /nonexistent
usage_err "compare's own" compare "unknown option '-z'" compare -z current current

# the other usage errors: missing or extra arguments
usage_err "get without a target" get "expected a DIR or DEVICE.*" get
usage_err "set without KEY=VALUE" set "expected a DIR or DEVICE, then KEY=VALUE.*" set /
usage_err "restore with an argument" restore "no arguments expected \('x' is extra\)" restore x
usage_err "devices with two" devices "too many arguments \('/tmp' is extra\)" devices / /tmp
usage_err "run with two directories" run "one directory only \('/tmp' is extra\)" run /tmp /tmp
usage_err "compare with one arm" compare "give at least two arms.*" compare current
usage_err "tune with two directories" tune "one DIR at most \(the settings come from --space\)" \
  tune /tmp /tmp
usage_err "tune --resume with options" tune "--resume FILE takes no other options but -q: .*" \
  tune --resume x.json --seed 3
# a bad value: one line naming it, exit 2, nothing run
for m in 0 10.5 101% x; do
  err=$(cd "$T/cwd" && ulimit -f 0 && exec timeout 20 "$BRISK" compare current current \
        --margin "$m" 2>&1 >/dev/null); rc=$?
  t_eq "compare --margin $m: exit 2" "$rc" 2
  t_eq "compare --margin $m: one line" "$err" \
    "brisk compare: --margin '$m': a whole percent from 1 to 100, as 10 or 10%"
done
usage_err "no-racing takes no argument" compare "option '--no-racing' takes no argument" \
  compare current current --no-racing=1
usage_err "export without a profile" export "expected one profile NAME or FILE" export
usage_err "bare lab" lab "expected a command: up, down, status or models" lab
usage_err "bare profile" profile "expected a command: .*" profile
usage_err "unknown lab verb" lab "unknown command 'frob'; .*" lab frob

# --help is no error: usage on stdout, exit 0
out=$("$BRISK" run --help 2>/dev/null); t_eq "run --help exit 0" $? 0
t_match "run --help on stdout" "$out" '^usage: brisk run '
