#!/bin/bash
# Issue 11 part 4: root trusts nothing in a runtime directory someone else
# can write.  An unprivileged user (uid 65534, via setpriv) plants restore
# journals for a loop device (scheduler, read_ahead_kb) in a runtime dir
# that is the user's, root's but mode 0777 / 1777, or root's 0700 with a
# user-owned (or group-writable, or hard-linked) journal; root's
# `brisk restore` and root's next start (`brisk get`, which recovers stale
# journals first) must refuse, naming the path and what is wrong, and leave
# the device and the files alone.  A symlinked RT/lab must not make root
# delete `lock` / `*.state.tmp` in the target.  Empty and temporary
# journals left by a SIGKILLed `brisk set` are removed by the next start
# or restore; a live session's files are not.  Lock files nobody holds (a
# session SIGKILLed after it locked a device or vm.* and before it
# journaled anything leaves one that no journal names) are removed by the
# next start and by restore, and said so; a lock a live process holds, one
# not the euid's and a symbolic link are left alone.
source tests/lib.sh
N=security_runtime
if ! is_root; then t_skip $N "needs root (loop devices, chown, setpriv)"; exit 0; fi
command -v setpriv >/dev/null || { t_skip $N "no setpriv"; exit 0; }
source tests/helpers/set_lib.sh
DEV=$(set_loop_attach) || { t_skip $N "cannot attach a loop device"; exit 0; }
USER_RUN="setpriv --reuid=65534 --regid=65534 --clear-groups"

active=$(active_sched $DEV)
EVIL_SCHED=
for s in kyber bfq mq-deadline none; do
  case " $(tr -d '[]' </sys/block/$DEV/queue/scheduler) " in
    *" $s "*) [ "$s" != "$active" ] && { EVIL_SCHED=$s; break; } ;;
  esac
done
[ -n "$EVIL_SCHED" ] || { t_skip $N "only one scheduler offered"; exit 0; }
EVIL_RA=4
[ "$(sysfs_q $DEV read_ahead_kb)" = $EVIL_RA ] && EVIL_RA=8
orig=$(snapshot $DEV)
BOOT=$(cat /proc/sys/kernel/random/boot_id)

# evil_journal KIND PID: the text of a journal that would set the device
evil_journal() {
  printf 'brisk-journal 1\nkind %s\npid %s\nboot %s\ncreated 1\nwhat evil\n' "$1" "$2" "$BOOT"
  printf 'orig %s - read_ahead_kb - - %s\n' "$DEV" "$EVIL_RA"
  printf 'orig %s - scheduler - - %s\n' "$DEV" "$EVIL_SCHED"
}
# a world-traversable base for the attacker's directories
BASE=$(t_tmpdir); chmod 755 "$BASE"

# check_refused NAME RT WHAT-REGEX [FILE]: root's restore and root's start
# refuse RT (message names it), the device is unchanged, FILE still there
check_refused() {
  local name=$1 rt=$2 re=$3 file=${4:-}
  local out rc
  out=$(BRISK_RUNTIME_DIR=$rt "$BRISK" restore 2>&1); rc=$?
  t_match "$name: restore refuses, naming the path" "$out" "$re"
  t_eq "$name: restore exits 1" "$rc" 1
  t_eq "$name: restore left the device alone" "$(snapshot $DEV)" "$orig"
  out=$(BRISK_RUNTIME_DIR=$rt "$BRISK" get $DEV scheduler 2>&1 >/dev/null)
  t_match "$name: start refuses, naming the path" "$out" "$re"
  t_eq "$name: start left the device alone" "$(snapshot $DEV)" "$orig"
  if [ -n "$file" ]; then
    t_check "$name: the planted journal is still there" test -f "$file"
  fi
}

# 1. a user-owned runtime directory
RT=$BASE/user-rt; mkdir "$RT"; chown 65534:65534 "$RT"
evil_journal run 999999 | $USER_RUN tee "$RT/session-999999.journal" >/dev/null
check_refused "user-owned dir" "$RT" "$RT: owned by uid 65534.*refused" "$RT/session-999999.journal"
evil_journal set 999998 | $USER_RUN tee "$RT/session-999998.journal" >/dev/null
out=$(BRISK_RUNTIME_DIR=$RT "$BRISK" restore 2>&1)
t_eq "user-owned dir: set journal not applied either" "$(snapshot $DEV)" "$orig"

# 2. root's, but writable by everyone (no sticky, and sticky like /tmp)
for mode in 0777 1777; do
  RT=$BASE/rt-$mode; mkdir "$RT"; chmod $mode "$RT"
  evil_journal run 999999 | $USER_RUN tee "$RT/session-999999.journal" >/dev/null
  check_refused "root's dir mode $mode" "$RT" "$RT: writable by .*others \\(mode $mode\\).*refused" \
    "$RT/session-999999.journal"
done

# 3. root's 0700 dir holding untrusted journals: user-owned, group-
# writable, hard-linked; a symlink runtime dir
RT=$BASE/rt-ok; mkdir -m 0700 "$RT"
evil_journal run 999999 >"$RT/session-999999.journal"; chown 65534 "$RT/session-999999.journal"
check_refused "user-owned journal" "$RT" "$RT/session-999999.journal: owned by uid 65534.*refused" \
  "$RT/session-999999.journal"
rm -f "$RT/session-999999.journal"
evil_journal run 999997 >"$RT/session-999997.journal"; chmod 0666 "$RT/session-999997.journal"
check_refused "group/other-writable journal" "$RT" \
  "$RT/session-999997.journal: writable by its group and others \\(mode 0666\\).*refused" \
  "$RT/session-999997.journal"
rm -f "$RT/session-999997.journal"
evil_journal run 999996 >"$BASE/elsewhere.journal"; ln "$BASE/elsewhere.journal" "$RT/session-999996.journal"
check_refused "hard-linked journal" "$RT" "$RT/session-999996.journal: has 2 hard links.*refused" \
  "$RT/session-999996.journal"
rm -f "$RT/session-999996.journal" "$BASE/elsewhere.journal"
UDIR=$BASE/udir; mkdir "$UDIR"; chown 65534:65534 "$UDIR"; chmod 700 "$UDIR"
ln -s "$UDIR" "$BASE/rt-link"
chmod 755 "$UDIR"   # root's restore would otherwise just not get in
check_refused "symlinked runtime dir" "$BASE/rt-link" "$BASE/rt-link: a symbolic link.*refused"
t_match "the link's target is the user's: refused as such too" \
  "$(BRISK_RUNTIME_DIR=$UDIR "$BRISK" restore 2>&1)" "$UDIR: owned by uid 65534"

# 4. RT/lab a symlink to a user directory with lock and x.state.tmp
RT=$BASE/rt-lab; mkdir -m 0700 "$RT"
LAB=$BASE/userlab; mkdir "$LAB"; chown 65534:65534 "$LAB"
$USER_RUN touch "$LAB/lock" "$LAB/x.state.tmp" "$LAB/keep"
ln -s "$LAB" "$RT/lab"
out=$(BRISK_RUNTIME_DIR=$RT "$BRISK" restore 2>&1)
t_match "symlinked RT/lab: refused, naming it" "$out" "$RT/lab: a symbolic link"
t_eq "symlinked RT/lab: nothing in the target deleted" "$(ls "$LAB" | tr '\n' ' ')" "keep lock x.state.tmp "
out=$(BRISK_RUNTIME_DIR=$RT "$BRISK" lab status 2>&1)
t_match "symlinked RT/lab: lab status refuses" "$out" "$RT/lab: a symbolic link"
t_eq "symlinked RT/lab: still nothing deleted" "$(ls "$LAB" | tr '\n' ' ')" "keep lock x.state.tmp "
t_check "symlinked RT/lab: the link is left alone" test -L "$RT/lab"

# 5. leftovers of killed sessions go; a live session's files stay
RT=$BASE/rt-left; mkdir -m 0700 "$RT"
export BRISK_RUNTIME_DIR=$RT
sleep 300 & LIVE=$!; track_pid $LIVE
DEAD=$(sh -c 'echo $$')   # a pid that has exited
plant() {
  : >"$RT/session-$DEAD.journal"; : >"$RT/session-$DEAD-1.journal"
  evil_journal run $DEAD | sed "s/ $EVIL_RA\$/ 1/" >"$RT/.tmp-$DEAD.journal"
  : >"$RT/session-$LIVE.journal"; : >"$RT/.tmp-$LIVE.journal"
}
"$HOLD" $DEV read_ahead_kb=512 >"$BASE/hold.out" 2>&1 & HP=$!; track_pid $HP
if ! wait_ready "$BASE/hold.out"; then
  t_fail "leftovers: a live session" "$(cat "$BASE/hold.out")"
else
  plant
  out=$("$BRISK" restore 2>&1)
  t_match "leftovers: restore reports the empty journal" "$out" \
    "$RT/session-$DEAD.journal: an empty journal left by a killed brisk \\(pid $DEAD\\); removed"
  t_match "leftovers: restore reports the temporary journal" "$out" \
    "$RT/.tmp-$DEAD.journal: a temporary journal left by a killed brisk \\(pid $DEAD\\); removed"
  t_eq "leftovers: restore removed the dead pid's files" \
    "$(find "$RT" -mindepth 1 -maxdepth 1 -name "*-${DEAD}[.-]*" | wc -l)" 0
  t_eq "leftovers: a live pid's files stay" "$(find "$RT" -mindepth 1 -maxdepth 1 -name "*-$LIVE.journal*" | wc -l)" 2
  t_check "leftovers: the live session's journal stays" test -s "$RT/session-$HP.journal"
  t_eq "leftovers: the live session's change stays" "$(sysfs_q $DEV read_ahead_kb)" 512
  plant
  out=$("$BRISK" get $DEV scheduler 2>&1 >/dev/null)
  t_match "leftovers: the next start reports them" "$out" "session-$DEAD.journal: an empty journal"
  t_eq "leftovers: the next start removed them" "$(find "$RT" -mindepth 1 -maxdepth 1 -name "*-${DEAD}[.-]*" | wc -l)" 0
  t_eq "leftovers: the live pid's files still stay" "$(find "$RT" -mindepth 1 -maxdepth 1 -name "*-$LIVE.journal*" | wc -l)" 2
  kill -TERM $HP; wait $HP 2>/dev/null
  rm -f "$RT/session-$LIVE.journal" "$RT/.tmp-$LIVE.journal"
fi
t_eq "leftovers: device back" "$(snapshot $DEV)" "$orig"

# 6. the real thing: brisk set SIGKILLed at many points, then one restore
RT=$BASE/rt-kill; mkdir -m 0700 "$RT"
export BRISK_RUNTIME_DIR=$RT
for i in $(seq 60); do
  "$BRISK" set $DEV read_ahead_kb=$((1000 + i)) >/dev/null 2>&1 &
  p=$!
  us=$(( (i * 37) % 40 ))
  sleep "0.0$(printf %02d $us)"
  kill -KILL $p 2>/dev/null; wait $p 2>/dev/null
done
out=$("$BRISK" restore 2>&1)
t_eq "killed sets: restore leaves no session or temporary journal" \
  "$(find "$RT" -mindepth 1 -maxdepth 1 \( -name 'session-*.journal' -o -name '.tmp-*.journal' \) | wc -l)" 0
t_eq "killed sets: restore leaves no lock file" "$(find "$RT" -mindepth 1 -maxdepth 1 -name '*.lock' | wc -l)" 0
t_eq "killed sets: device back" "$(snapshot $DEV)" "$orig"

# 7. without root, restore --dry-run still lists root's journals (0755 dir)
RT=$BASE/rt-ro; mkdir -m 0755 "$RT"
export BRISK_RUNTIME_DIR=$RT
evil_journal set 999995 >"$RT/session-999995.journal"
out=$($USER_RUN env BRISK_RUNTIME_DIR=$RT "$BRISK" restore --dry-run 2>&1)
t_match "non-root dry run: lists root's journal" "$out" "would restore $DEV scheduler=$EVIL_SCHED"
t_check "non-root dry run: file untouched" test -s "$RT/session-999995.journal"
rm -f "$RT/session-999995.journal"
t_eq "end: device unchanged" "$(snapshot $DEV)" "$orig"

# 8. lock files nobody holds
RT=$BASE/rt-locks; mkdir -m 0700 "$RT"
export BRISK_RUNTIME_DIR=$RT
# lock_file FILE [die]: a process takes a POSIX write lock on FILE (as
# devlock does), writes its pid, says "ready"; with die it is SIGKILLed
# then, else it holds the lock until killed
lock_file() {
  exec /usr/bin/python3 -c 'import fcntl, os, sys, time
f = open(sys.argv[1], "a+"); fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
f.write("%d\n" % os.getpid()); f.flush(); print("ready", flush=True)
os.kill(os.getpid(), 9) if sys.argv[2:] == ["die"] else time.sleep(300)' "$@"
}
plant_locks() {
  { (lock_file "$RT/sysctl-vm.lock" die); (lock_file "$RT/dev-$DEV.lock" die); } >/dev/null 2>&1
}
plant_locks
t_eq "stale locks: planted" "$(find "$RT" -name '*.lock' | wc -l)" 2
lock_file "$RT/dev-loop99.lock" >"$BASE/held.out" 2>&1 & HELD=$!; track_pid $HELD
wait_ready "$BASE/held.out" || t_fail "stale locks: a live holder" "$(cat "$BASE/held.out")"
: >"$RT/dev-sdz.lock"; chown 65534 "$RT/dev-sdz.lock"
: >"$BASE/target"; ln -s "$BASE/target" "$RT/dev-sdy.lock"
out=$("$BRISK" restore --dry-run 2>&1)
t_match "stale locks: restore --dry-run names one" "$out" \
  "$RT/sysctl-vm.lock: a lock file nobody holds left by a killed brisk \\(pid [0-9]+\\); would remove it"
t_eq "stale locks: the dry run removes nothing" "$(find "$RT" -name '*.lock' | wc -l)" 5
t_eq "stale locks: the dry run names no held lock" "$(grep -c dev-loop99 <<<"$out")" 0
out=$(BRISK_DEBUG=journal "$BRISK" get $DEV scheduler 2>&1 >/dev/null)
t_match "stale locks: the next start removes the vm lock, says so" "$out" \
  "^brisk: $RT/sysctl-vm.lock: a lock file nobody holds left by a killed brisk \\(pid [0-9]+\\); removed"
t_match "stale locks: and the device's" "$out" "$RT/dev-$DEV.lock: a lock file nobody holds .*; removed"
t_match "stale locks: traced under BRISK_DEBUG=journal" "$out" "$RT/sysctl-vm.lock: nobody holds it \\(last pid [0-9]+\\): removed"
t_check "stale locks: gone" test ! -e "$RT/sysctl-vm.lock" -a ! -e "$RT/dev-$DEV.lock"
t_check "stale locks: a held lock stays" test -s "$RT/dev-loop99.lock"
t_match "stale locks: another user's lock file refused, named" "$out" "$RT/dev-sdz.lock: owned by uid 65534.*refused"
t_check "stale locks: and left" test -e "$RT/dev-sdz.lock"
t_match "stale locks: a symbolic link refused, named" "$out" "$RT/dev-sdy.lock: .*symbolic link.*refused"
t_check "stale locks: the link and its target left" test -L "$RT/dev-sdy.lock" -a -e "$BASE/target"
kill $HELD 2>/dev/null; wait $HELD 2>/dev/null
plant_locks
out=$("$BRISK" restore 2>&1)
t_match "stale locks: restore removes them too" "$out" "$RT/sysctl-vm.lock: a lock file nobody holds .*; removed"
t_eq "stale locks: restore left only the refused ones" "$(cd "$RT" && ls -- *.lock | tr '\n' ' ')" "dev-sdy.lock dev-sdz.lock "
rm -f "$RT"/*.lock
t_eq "end: device unchanged" "$(snapshot $DEV)" "$orig"
