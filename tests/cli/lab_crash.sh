#!/bin/bash
# brisk lab after crashes: kill -9 of the FUSE server, kill -9 of 'lab up'
# half-way; 'lab down' / the next 'lab up' take everything apart.
source tests/lib.sh
source tests/cli/lab_common.bash
why=$(lab_requirements)
if [ -n "$why" ]; then t_skip "lab crash" "$why"; exit 0; fi
lab_setup

# 1. The server killed under a mounted file system with data on it.
if ! lab_up --size 256M; then t_fail "lab up" "$LAB_OUT"; exit 0; fi
dd if=/dev/urandom of="$LAB_MNT/f" bs=1M count=8 2>/dev/null
pid=$(lab_state_val "$LAB_NAME" server | cut -d: -f1)
kill -9 "$pid"
sleep 0.2
t_match "status calls it stale" "$("$BRISK" lab status)" "$LAB_NAME .* stale "
out=$("$BRISK" lab down "$LAB_NAME" 2>&1); rc=$?
t_eq "down after kill -9 of the server exits 0" "$rc" 0
check_gone "server killed"

# 2. 'lab up' killed once the loop device is recorded (before the mount).
"$BRISK" lab up --dir "$LAB_T" --size 256M --name crash1 >/dev/null 2>&1 &
up=$!
for _ in $(seq 1000); do
  grep -qs '^loop=/dev' "$LAB_T/run/lab/crash1.state" && break
  sleep 0.005
done
kill -9 "$up"; wait "$up" 2>/dev/null
t_match "status calls it incomplete" "$("$BRISK" lab status)" "crash1 .* incomplete "
out=$("$BRISK" lab down crash1 2>&1); rc=$?
t_eq "down after kill -9 of lab up exits 0" "$rc" 0
check_gone "lab up killed"

# 3. The next 'lab up' cleans a stale lab by itself.
"$BRISK" lab up --dir "$LAB_T" --size 256M --name crash2 >/dev/null 2>&1 &
up=$!
for _ in $(seq 1000); do
  grep -qs '^server=[1-9]' "$LAB_T/run/lab/crash2.state" && break
  sleep 0.005
done
kill -9 "$up"; wait "$up" 2>/dev/null
if lab_up --size 256M --name fresh; then
  t_pass "lab up after a crash"
  t_match "lab up took the stale one apart" "$LAB_OUT" "took apart 1 stale"
  t_eq "only the new lab is left" "$(find "$LAB_T/run/lab" -mindepth 1 -maxdepth 1 -name '*.state' ! -name '.*' -printf '%f\n' | sort | tr '\n' ' ')" "fresh.state "
else
  t_fail "lab up after a crash" "$LAB_OUT"
fi
out=$("$BRISK" lab down --all 2>&1); rc=$?
t_eq "down --all exits 0" "$rc" 0
check_gone "down --all"

# 4. The server killed, then 'brisk restore' (the explicit crash path).
if lab_up --size 256M --name crash3; then
  pid=$(lab_state_val crash3 server | cut -d: -f1)
  kill -9 "$pid"; sleep 0.2
  out=$("$BRISK" restore 2>&1); rc=$?
  t_eq "restore after kill -9 of the server exits 0" "$rc" 0
  t_match "restore says it took the lab apart" "$out" "took apart 1 stale lab"
  check_gone "restore after server killed"
  t_eq "restore put the loop settings back from the lab's journal" \
    "$(find "$LAB_T/run" -mindepth 1 -maxdepth 1 -name '*.journal' ! -name '.*' | wc -l)" 0
else
  t_fail "lab up (crash3)" "$LAB_OUT"
fi
