#!/bin/bash
# Profiles and fio jobs through the engine (tests/helpers/profile_run drives
# profile_to_session_config + session_run as `brisk run --profile/--fio`
# will): the LKML job runs as posted, scaled down; a small profile runs with
# its loads, actions and loops.  Small sizes; seconds.
source tests/lib.sh
H=build/tests/helpers/profile_run
[ -x $H ] || { t_fail profile-run-helper "build/tests/helpers/profile_run missing (make tests)"; exit 0; }

d=$(t_tmpdir)
out=$($H --fio tests/fixtures/fio/lkml-2009-ssh.fio --scale 1/1000 "$d"); rc=$?
t_eq lkml-scaled-exit "$rc" 0
t_match lkml-41-ssh-samples "$out" '^action ssh-like idle 1 loaded 41 errors 0$'
# the readers run concurrently at their own (shrunk) delays, so no
# approximation; the writer writes until the session stops it, after the
# last reader
t_match lkml-writer-to-the-end "$out" '^load seq-write bytes [1-9][0-9]* end stopped$'
t_eq lkml-no-approximation "$(grep -c approximated <<<"$out")" 0
t_eq lkml-cleans-up "$(ls -A "$d")" ""

cat > "$d/small.profile" <<'P'
[profile]
name = small
[load w]
rw = write
bs = 64k
io_size = 4m
rate = 20m
[action l]
type = ls
nrfiles = 40
loops = 3
[action s]
type = save
size = 4k
loops = 3
P
out=$($H --profile "$d/small.profile" "$d"); rc=$?
t_eq small-exit "$rc" 0
t_match small-ls "$out" '^action ls idle 1 loaded 3 errors 0$'
t_match small-save "$out" '^action save idle 1 loaded 3 errors 0$'
t_match small-writer "$out" '^load seq-write bytes 4194304 end done$'
t_eq small-only-its-actions "$(grep -c '^action ' <<<"$out")" 2

printf '[action a]\ntype = ls\nnrfiles = 10\n[action b]\ntype = ls\nnrfiles = 20\n' > "$d/two.profile"
err=$($H --profile "$d/two.profile" "$d" 2>&1); rc=$?
t_eq two-configs-exit "$rc" 2
t_match two-configs-message "$err" "two.profile:4: \[action b\] is configured unlike \[action a\]"
rm -f "$d"/*.profile
t_eq small-cleans-up "$(ls -A "$d")" ""

# --profile is found as the option loop reads it: -p NAME, -pNAME, an
# abbreviation, in compare too; never an option's value (--exec -p)
d2=$(t_tmpdir)
for form in "-p no-such-prof" "-pno-such-prof" "--prof=no-such-prof" "--prof no-such-prof"; do
  # shellcheck disable=SC2086  # the form splits at its blank
  out=$("$BRISK" run "$d2" $form --no-load -i 1 -q 2>&1); rc=$?
  t_eq "profile-form '$form' exit 2" "$rc" 2
  t_match "profile-form '$form' looked up" "$out" "no profile 'no-such-prof'"
done
out=$("$BRISK" compare "$d2" -p no-such-prof 2>&1)
t_match "compare -p looked up" "$out" "no profile 'no-such-prof'"
out=$("$BRISK" run "$d2" --exec -p --no-load -i 1 -q 2>&1)
t_match "an option's value is not --profile" "$out" "cannot find program '-p'"
