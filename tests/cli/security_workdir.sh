#!/bin/bash
# The work area is reached only by descriptor (issue 11): a user who owns DIR
# swaps brisk's .brisk-XXXXXX for a directory of links while the run
# prepares, and gains nothing; root refuses a DIR others can write unless
# --allow-shared-dir; removal and the orphan reaper never follow links.
# The swap happens at a known moment: BRISK_TEST_PAUSE (see session.h) makes
# brisk wait, after the work directory exists and before any other file is
# made, until a path exists.  The attacker runs as nobody via setpriv.
source tests/lib.sh

t_nobody security-workdir

base=$(t_tmpdir)
chmod 755 "$base"
vdir=$base/victims                      # root's files the attacker aims at
mkdir -m 700 "$vdir"
printf secret >"$vdir/victim"; printf secret2 >"$vdir/victim2"; printf keep >"$vdir/keep"
vbefore=$(cd "$vdir" && find . -printf '%p %s %m %T@\n' | sort)
home=$base/home                         # the attacker's own directory
mkdir -m 755 "$home"; chown "$NOBODY" "$home"
as_nobody test -w "$home" || { t_skip security-workdir "$home not writable for nobody"; exit 0; }

# ---- the race, made deterministic ----
go=$base/go errf=$base/err
SUDO_UID=$NOBODY BRISK_TEST_PAUSE=$go $BRISK run "$home" -q -a save,ls,ssh --ls-files 10 \
  -i 1 -n 1 --interval 10ms --warmup 200ms -d 1s --tick 100ms \
  --load seq-write:rate=20m --load rand-write:size=1m --json "$base/r.json" >/dev/null 2>"$errf" &
pid=$!
T_CLEANUP_EXTRA="kill $pid 2>/dev/null; touch $go"
name=
for _ in $(seq 100); do
  name=$(sed -n 's/^brisk: test pause: \(\.brisk-[A-Za-z0-9]*\) made.*/\1/p' "$errf")
  [ -n "$name" ] && break
  sleep 0.1
done
t_match race-paused "$name" '^\.brisk-[A-Za-z0-9]{6}$'
if [ -n "$name" ]; then
  as_nobody sh -c "cd '$home' && mv '$name' moved && mkdir evil &&
    ln -s '$vdir/victim' evil/save.dat && ln -s '$vdir/victim' evil/ssh-like.dat &&
    ln -s '$vdir/victim2' evil/load-seq-write-1 && ln -s '$vdir/victim2' evil/load-rand-write-1 &&
    ln -s '$vdir' evil/tree && ln -s '$vdir/victim' evil/owner && ln -s evil '$name'"
  t_eq race-swapped "$(readlink "$home/$name")" evil
else
  t_skip race-swapped "brisk never paused in its work directory (race-paused)"
fi
touch "$go"
wait "$pid"; rc=$?
T_CLEANUP_EXTRA=
t_eq race-victims-untouched "$(cd "$vdir" && find . -printf '%p %s %m %T@\n' | sort)" "$vbefore"
t_eq race-victim-content "$(cat "$vdir/victim")/$(cat "$vdir/victim2")" secret/secret2
t_eq race-run-completes "$rc" 0
t_eq race-samples-in-own-dir "$(jq '[.samples[]|select(.error!=0)]|length' "$base/r.json" 2>/dev/null)" 0
t_match race-reported "$(cat "$errf"; jq -r '.notes[]?' "$base/r.json" 2>/dev/null)" 'renamed or replaced'
t_eq race-own-dir-emptied "$(ls -A "$home/moved" 2>&1)" ""
t_eq race-links-not-followed-on-removal "$(readlink "$home/$name") $(readlink "$home/evil/tree")" "evil $vdir"
t_eq race-moved-dir-root-0700 "$(stat -c '%u %a' "$home/moved")" "0 700"
rm -rf "${home:?}"/* "$home"/.brisk-* "$base/r.json"

# ---- who may write DIR ----
args=(-q --no-load -a save -i 1 --interval 10ms)
shared=$base/shared
mkdir "$shared"; chmod 777 "$shared"
err=$(env -u SUDO_UID $BRISK run "$shared" "${args[@]}" 2>&1 >/dev/null); rc=$?
t_eq shared-0777-refused-exit-2 "$rc" 2
t_match shared-0777-message "$err" "$shared: other users can write.*world-writable \(mode 0777\) without the sticky bit.*--allow-shared-dir"
t_eq shared-0777-nothing-made "$(ls -A "$shared")" ""
env -u SUDO_UID $BRISK run "$shared" "${args[@]}" --allow-shared-dir >/dev/null 2>&1
t_eq shared-0777-allowed "$?" 0
t_eq shared-0777-allowed-cleanup "$(ls -A "$shared")" ""
chmod 775 "$shared"
env -u SUDO_UID $BRISK run "$shared" "${args[@]}" >/dev/null 2>&1
t_eq shared-0775-refused "$?" 2
chmod 1777 "$shared"                    # like /tmp: root's, sticky
env -u SUDO_UID $BRISK run "$shared" "${args[@]}" >/dev/null 2>&1
t_eq sticky-root-dir-accepted "$?" 0
t_eq sticky-cleanup "$(ls -A "$shared")" ""
err=$(env -u SUDO_UID $BRISK run "$home" "${args[@]}" 2>&1 >/dev/null); rc=$?
t_eq other-users-dir-refused-exit-2 "$rc" 2
t_match other-users-dir-message "$err" "$home: .*belongs to uid $NOBODY"
SUDO_UID=$NOBODY $BRISK run "$home" "${args[@]}" >/dev/null 2>&1
t_eq sudo-owners-dir-accepted "$?" 0
t_eq sudo-owners-dir-cleanup "$(ls -A "$home")" ""
$BRISK run --help | grep -q -- '--allow-shared-dir'; t_eq help-allow-shared-dir $? 0

# ---- the orphan reaper: by descriptor, links not followed ----
mkdir -m 700 "$home/.brisk-oldemp" "$home/.brisk-newemp"
touch -d '2 hours ago' "$home/.brisk-oldemp"
as_nobody ln -s "$vdir" "$home/.brisk-linkto"
out=$(SUDO_UID=$NOBODY $BRISK run "$home" "${args[@]}" 2>&1)
t_match reaper-removes-empty-orphan "$out" "removed $home/.brisk-oldemp"
t_eq reaper-keeps-fresh-and-links "$(cd "$home" && ls -A | sort | tr '\n' ' ')" ".brisk-linkto .brisk-newemp "
t_eq reaper-victims-untouched "$(cd "$vdir" && find . -printf '%p %s %m %T@\n' | sort)" "$vbefore"

# ---- too few descriptors: whatever fails, no empty work directory stays ----
rm -rf "$home"/.brisk-*
for n in 5 6 7 8; do
  (ulimit -n $n; SUDO_UID=$NOBODY exec $BRISK run "$home" "${args[@]}") >/dev/null 2>&1
done
t_eq ulimit-no-empty-workdir-left "$(ls -A "$home")" ""
