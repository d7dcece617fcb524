#!/bin/bash
# --openmetrics FILE as root in a directory another user can write (a
# textfile collector directory handed to a service user, say): a symbolic
# link that user planted at FILE, before the run or while it runs, is
# neither followed nor removed (refused before the run, exit 2, named; or,
# planted while it runs, exit 1 at the end); a hard link to root's file
# there is replaced, never written through; a FIFO is left alone; without
# an attack the file is root's, 0644, whole, and no temporary file stays.
# The attacker runs as nobody via setpriv; the run pauses at a known moment
# (BRISK_TEST_PAUSE, see session.h) for the late link.
source tests/lib.sh
t_nobody openmetrics-security

base=$(t_tmpdir)
chmod 755 "$base"
export BRISK_RUNTIME_DIR=$base/rt
vdir=$base/victims                       # root's files the attacker aims at
mkdir -m 700 "$vdir"
printf secret >"$vdir/victim"; printf secret2 >"$vdir/victim2"
vbefore=$(cd "$vdir" && find . -printf '%p %s %m %i %T@\n' | sort)
home=$base/collector                     # the attacker can write here
mkdir -m 755 "$home"; chown "$NOBODY" "$home"
as_nobody test -w "$home" || { t_skip openmetrics-security "$home not writable for nobody"; exit 0; }
work=$base/work                          # root's: where the run measures
mkdir -m 755 "$work"
args=(-q --no-load -a save -i 1 --interval 10ms)
victims_same() { [ "$(cd "$vdir" && find . -printf '%p %s %m %i %T@\n' | sort)" = "$vbefore" ]; }

# 1. a link planted before the run
as_nobody ln -s "$vdir/victim" "$home/early.prom"
"$BRISK" run "$work" "${args[@]}" --openmetrics "$home/early.prom" >/dev/null 2>"$base/err"
t_eq "early link: refused before the run, exit 2" "$?" 2
t_match "early link: named" "$(cat "$base/err")" "early.prom is not a regular file"
t_check "early link: the victims untouched" victims_same
t_eq "early link: the link left as it was" "$(readlink "$home/early.prom")" "$vdir/victim"
t_eq "early link: no temporary file left" "$(find "$home" -name '*.tmp*' | wc -l)" 0

# 2. a link planted while the run runs: the name was free when it began
go=$base/go errf=$base/err2
BRISK_TEST_PAUSE=$go "$BRISK" run "$work" "${args[@]}" --openmetrics "$home/late.prom" \
  >/dev/null 2>"$errf" &
pid=$!
# shellcheck disable=SC2034  # read by tests/lib.sh's t_cleanup
T_CLEANUP_EXTRA="kill $pid 2>/dev/null; touch $go"
paused=
for _ in $(seq 100); do
  grep -q 'test pause' "$errf" && { paused=1; break; }
  sleep 0.1
done
t_eq "late link: the run paused" "$paused" 1
as_nobody ln -s "$vdir/victim2" "$home/late.prom"
touch "$go"
wait "$pid"; rc=$?
# shellcheck disable=SC2034  # read by tests/lib.sh's t_cleanup
T_CLEANUP_EXTRA=
t_eq "late link: exit 1" "$rc" 1
t_check "late link: the victims untouched" victims_same
t_eq "late link: the link left as it was" "$(readlink "$home/late.prom")" "$vdir/victim2"

# 3. a hard link to root's file at the name (protected_hardlinks keeps
#    nobody from making one; root plants it to stand for one that was
#    there): the name is replaced, the file behind it is not written
ln "$vdir/victim" "$home/hard.prom"
"$BRISK" run "$work" "${args[@]}" --openmetrics "$home/hard.prom" >/dev/null 2>&1
t_eq "hard link: exit 0" "$?" 0
t_eq "hard link: the victim's content kept" "$(cat "$vdir/victim")" secret
t_eq "hard link: a new file at the name" "$(tail -n 1 "$home/hard.prom") $(stat -c %h "$home/hard.prom")" "# EOF 1"
rm -f "$home/hard.prom"
t_check "hard link: the victims as they were" victims_same

# 4. a FIFO the attacker made: left alone (and never opened: no hang)
as_nobody mkfifo "$home/fifo.prom"
timeout 60 "$BRISK" run "$work" "${args[@]}" --openmetrics "$home/fifo.prom" >/dev/null 2>&1
t_eq "FIFO: refused before the run, exit 2" "$?" 2
t_eq "FIFO: still nobody's FIFO" "$(stat -c '%F %u' "$home/fifo.prom")" "fifo $NOBODY"

# 5. the JSON output keeps the same rule, checked before anything runs
"$BRISK" run "$work" "${args[@]}" --openmetrics "$home/brisk.prom" --json "$home/early.prom" \
  >/dev/null 2>"$base/err"
t_eq "json at the link: exit 2" "$?" 2
t_match "json at the link: named" "$(cat "$base/err")" "^brisk run: --json .*early.prom is not a regular file"
t_eq "json at the link: nothing ran, nothing written" "$(find "$home" -name brisk.prom | wc -l)" 0
# no attack: root's file, 0644, whole
"$BRISK" run "$work" "${args[@]}" --openmetrics "$home/brisk.prom" >/dev/null 2>"$base/err"
t_eq "no attack: exit 0" "$?" 0
t_eq "no attack: the metrics written" "$(stat -c '%F %u %a' "$home/brisk.prom") $(tail -n 1 "$home/brisk.prom")" \
  "regular file 0 644 # EOF"
t_check "no attack: the victims untouched" victims_same
t_eq "no attack: no temporary file left" "$(find "$home" -name '*.tmp*' | wc -l)" 0
