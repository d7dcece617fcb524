#!/bin/bash
# brisk profile list/show/check/import: every shipped profile passes check,
# every malformed one is rejected with FILE:LINE and exit 2, resolution order.
source tests/lib.sh
# t_contains NAME TEXT SUBSTRING (multi-line substrings, unlike grep)
t_contains() { if [[ "$2" == *"$3"* ]]; then t_pass "$1"; else t_fail "$1" "'$3' not in output"; fi; }

$BRISK profile --help | grep -q 'profile save NAME'; t_eq profile-help $? 0
$BRISK help export | grep -q -- '--match'; t_eq export-help $? 0

for f in profiles/*.profile; do
  out=$($BRISK profile check "$f" 2>&1); rc=$?
  t_eq "shipped-check $(basename "$f")" "$rc" 0
done
for n in quick lkml-ssh copy-and-launch copy-to-stick startup-under-readers fsync-save tiobench-like; do
  [ -f "profiles/$n.profile" ]; t_eq "shipped-exists $n" $? 0
done

# the malformed corpus: exit 2, exactly one line FILE:LINE: message as stated
for f in tests/fixtures/profiles/bad/*.profile; do
  want=$(head -1 "$f" | sed -n 's/^; expect: //p')
  err=$($BRISK profile check "$f" 2>&1 >/dev/null); rc=$?
  line=${want%%:*}; msg=${want#*: }
  if [ "$rc" = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && \
     [[ "$err" == "$f:$line: "* ]] && [[ "$err" == *"$msg"* ]]; then
    t_pass "bad $(basename "$f" .profile)"
  else
    t_fail "bad $(basename "$f" .profile)" "rc=$rc err='$err' want '$f:$want'"
  fi
done
# several files: all checked, exit 2 when any is bad
out=$($BRISK profile check profiles/quick.profile tests/fixtures/profiles/bad/empty.profile \
      profiles/fsync-save.profile 2>/dev/null); rc=$?
t_eq check-many-exit "$rc" 2
t_eq check-many-ok-lines "$(grep -c ': ok:' <<<"$out")" 2
$BRISK profile check /nonexistent.profile 2>/dev/null; t_eq check-missing-exit $? 2

# list: shipped ones, then a user profile shadows a shipped one
d=$(t_tmpdir)
export XDG_CONFIG_HOME=$d/xdg
out=$($BRISK profile list); t_eq list-exit $? 0
for n in quick lkml-ssh copy-and-launch copy-to-stick startup-under-readers fsync-save tiobench-like; do
  t_match "list-$n" "$out" "^$n +shipped "
done
mkdir -p "$XDG_CONFIG_HOME/brisk/profiles"
printf '[profile]\ndescription = mine\n[load w]\nrw = write\n' > "$XDG_CONFIG_HOME/brisk/profiles/quick.profile"
out=$($BRISK profile list); t_match list-user-shadows "$out" '^quick +user +mine$'
out=$($BRISK profile show quick); t_match show-resolves-user "$out" "^; $XDG_CONFIG_HOME/brisk/profiles/quick.profile"
printf '[profile]\nbogus = 1\n' > "$XDG_CONFIG_HOME/brisk/profiles/broken.profile"
out=$($BRISK profile list); rc=$?
t_eq list-invalid-exit "$rc" 2
t_match list-invalid-named "$out" '^broken +user +\(invalid'
rm -f "$XDG_CONFIG_HOME/brisk/profiles/"*.profile
out=$($BRISK profile show quick); t_match show-shipped "$out" '^name = quick$'
err=$($BRISK profile show nosuch 2>&1); rc=$?
t_eq show-missing-exit "$rc" 2
t_match show-missing-says-where "$err" "no profile 'nosuch' \(looked in .*xdg/brisk/profiles, /etc/brisk/profiles, "
$BRISK profile frobnicate 2>/dev/null; t_eq unknown-verb-exit $? 2

# show prints what check accepts, and showing that again is identical
$BRISK profile show profiles/tiobench-like.profile | tail -n +2 > "$d/t.profile"
t_check show-output-checks $BRISK profile check "$d/t.profile"
t_eq show-idempotent "$($BRISK profile show "$d/t.profile" | tail -n +2)" "$(cat "$d/t.profile")"

# import: the LKML fio job as posted, whole and scaled
out=$($BRISK profile import tests/fixtures/fio/lkml-2009-ssh.fio); t_eq import-exit $? 0
t_eq import-41-actions "$(grep -c '^type = ssh-like$' <<<"$out")" 41
t_contains import-writer "$out" $'[load job1]\nrw = write\nbs = 1m\nsize = 10g\nio_size = 10g\n'
out=$($BRISK profile import --scale 1/100 tests/fixtures/fio/lkml-2009-ssh.fio -o "$d/lk.profile"); t_eq import-o-exit $? 0
t_check import-o-checks $BRISK profile check "$d/lk.profile"
# scaled, the delays shrink; the writer keeps its 10 GB region and loops
# until the last reader ends (no io_size); the readers run concurrently
t_contains import-scaled-writer "$(cat "$d/lk.profile")" $'[load job1]\nrw = write\nbs = 1m\nsize = 10g\n\n'
t_contains import-scaled-concurrency "$(cat "$d/lk.profile")" $'concurrency = 41\n'
t_contains import-scaled-delay "$(cat "$d/lk.profile")" $'[action file41]\ntype = ssh-like\nstartdelay = 2600ms\n'
$BRISK profile import tests/fixtures/fio/lkml-2009-ssh.fio -o "$d/lk.profile" 2>/dev/null
t_eq import-no-clobber $? 2
printf '[j]\nrw=write\nsize=1m\nioengine=net\n' > "$d/bad.fio"
err=$($BRISK profile import "$d/bad.fio" 2>&1); rc=$?
t_eq import-bad-exit "$rc" 2
t_eq import-bad-message "$err" "$d/bad.fio:4: fio key 'ioengine=net' cannot be honoured: it is not file I/O brisk can do (brisk: sync, psync, vsync, pvsync, pvsync2, libaio, io_uring, posixaio)"
$BRISK profile import --scale 2 tests/fixtures/fio/lkml-2009-ssh.fio >/dev/null 2>&1; t_eq import-bad-scale $? 2
