#!/bin/bash
# Issue 24: the exec action's copied program must not start as root.  DIR's
# file system sits on a loop image the user (nobody here) owns, as
# `udisksctl loop-setup` leaves it: the user rewrites, in the image, the
# blocks of the copied json/__init__.py (the first module the copy
# imports) with a payload of the same length and zeroes its .pyc; brisk
# evicts before every sample, so a later start reads the payload.  The
# payload records its uid, euid and CapEff: they must be the dropped
# user's, never root's.  Then --exec of a script that records the same
# (deterministic), and the JSON and text reports name the user.
source tests/lib.sh
source tests/cli/loop_common.bash

t_nobody security-exec-drop
command -v jq >/dev/null || { t_skip security-exec-drop "jq is not installed"; exit 0; }
PY=/usr/bin/python3
srcdir=$($PY -I -S -c 'import json, os; print(os.path.dirname(json.__file__))' 2>/dev/null)
if ! $PY -I -S -c 'import sqlite3, ssl, curses' 2>/dev/null || [ ! -f "$srcdir/__init__.py" ]; then
  t_skip security-exec-drop "no usable $PY: brisk copies ls, which imports no module"
  exit 0
fi
pysrc=$srcdir/__init__.py
pyc=$($PY -I -S -c 'import json; print(json.__cached__ or "")')
[ -f "$pyc" ] || pyc=

d=$(t_tmpdir)
chmod 755 "$d"                       # nobody reaches its image and the drop box
out=$d/out; mkdir -m 1777 "$out"
loop_mount -d "$d" -o nosuid,nodev security-exec-drop 300M
img=$d/img
chown "$NOBODY" "$img"
lmode=$(stat -c '%u:%g %a' "$L")
chown "$NOBODY" "$L"                 # what udisks does for the user who set it up
# shellcheck disable=SC2034  # read by t_cleanup in tests/lib.sh
T_CLEANUP_EXTRA="chown '${lmode% *}' '$L'; chmod '${lmode#* }' '$L'"
mkdir -m 755 "$d/mnt/w"              # root's, as brisk wants DIR

# The attacker: finds the copy's blocks in the image by their content (the
# system's files are world-readable; a fresh image holds no other copy),
# then rewrites them in place.
cat >"$d/attack.py" <<'EOF'
import os, sys, time
img, src, pyc, drop, done = sys.argv[1:6]
B = 1024                 # the smallest ext4 block: any block size is a multiple
payload = ("import os\n"
           "try:\n"
           "    cap = [l.split()[1] for l in open('/proc/self/status') if l.startswith('CapEff:')][0]\n"
           "    with open(%r + '/ran.%%d' %% os.getpid(), 'w') as f:\n"
           "        f.write('%%d %%d %%s\\n' %% (os.getuid(), os.geteuid(), cap))\n"
           "except Exception:\n"
           "    pass\n" % drop).encode()
def blocks(path):
    data = open(path, 'rb').read()
    return data, [data[i:i + B].ljust(B, b'\0') for i in range(0, len(data), B)]
sdata, sblocks = blocks(src)
payload += b'#' * (len(sdata) - len(payload) - 1) + b'\n'
assert len(payload) == len(sdata)
want = {}
for name, bl in (('py', sblocks),) + ((('pyc', blocks(pyc)[1]),) if pyc else ()):
    for i, b in enumerate(bl):
        want.setdefault(b, []).append((name, i))
need = sum(len(v) for v in want.values())
deadline = time.monotonic() + 120
fd = os.open(img, os.O_RDWR)
while time.monotonic() < deadline:
    found = {}
    off = 0
    while True:
        buf = os.pread(fd, 1 << 20, off)
        if not buf:
            break
        for i in range(0, len(buf) - B + 1, B):
            for k in want.get(buf[i:i + B], ()):
                found.setdefault(k, off + i)
        off += len(buf)
    if len(found) == need:
        break
    time.sleep(0.1)
else:
    sys.exit("the copy never appeared in the image")
for (name, i), at in found.items():
    new = payload[i * B:(i + 1) * B].ljust(B, b'\0') if name == 'py' else b'\0' * B
    os.pwrite(fd, new, at)
os.fsync(fd)
open(done, 'w').write('%d blocks rewritten\n' % len(found))
EOF

as_nobody $PY -I "$d/attack.py" "$img" "$pysrc" "$pyc" "$out" "$out/attacked" 2>"$d/attack.err" &
apid=$!
"$BRISK" run "$d/mnt/w" --floor 0 -q -a exec --no-load -i 40 --interval 200ms --timeout 20s \
  --json "$d/run.json" >"$d/run.txt" 2>&1
kill "$apid" 2>/dev/null; wait "$apid" 2>/dev/null
if [ ! -f "$out/attacked" ]; then
  t_skip security-exec-drop "the attacker did not rewrite the copy in time: $(head -c 200 "$d/attack.err")"
else
  recs=$(cat "$out"/ran.* 2>/dev/null)
  echo "attack: $(cat "$out/attacked"); the payload ran $(grep -c . <<<"$recs") times as" \
    "(uid euid CapEff): $(sort -u <<<"$recs" | tr '\n' ' ')"
  if [ -z "$recs" ]; then
    t_pass "exec-copy-payload-did-not-run"
  else
    bad=$(awk '$1 == 0 || $2 == 0 || $3 !~ /^0+$/' <<<"$recs")
    t_eq exec-copy-payload-unprivileged "$bad" ""
    t_match exec-copy-payload-as-nobody "$(head -1 <<<"$recs")" "^$NOBODY $NOBODY 0+$"
  fi
fi
if [ -s "$d/run.json" ]; then
  t_eq ran-as-json "$(jq -c '.ran_as' "$d/run.json")" \
    "{\"uid\":$NOBODY,\"gid\":$(id -g nobody),\"user\":\"nobody\",\"privileged\":false}"
else
  t_fail ran-as-json "no JSON: $(head -c 300 "$d/run.txt")"
fi
t_match ran-as-text "$(cat "$d/run.txt")" "^actions ran as uid $NOBODY \(nobody\), without privileges"

# --exec: the user's own program, in place, as the invoking user (SUDO_UID)
rm -f "$out"/ran.*
printf '#!/bin/sh\nprintf "%%s %%s %%s\\n" "$(id -ru)" "$(id -u)" "$(sed -n "s/^CapEff:[[:space:]]*//p" /proc/self/status)" >"%s/ran.$$"\n' \
  "$out" >"$d/rec.sh"
chmod 755 "$d/rec.sh"
SUDO_UID=$NOBODY SUDO_GID=$NOBODY "$BRISK" run "$d/mnt/w" --floor 0 -q -a exec --exec "$d/rec.sh" \
  --no-load -i 2 --interval 50ms --json "$d/exec.json" >/dev/null 2>&1
t_eq exec-cmd-exit-0 "$?" 0
recs=$(cat "$out"/ran.* 2>/dev/null)
t_match exec-cmd-ran "$recs" .
t_eq exec-cmd-unprivileged "$(awk '$1 == 0 || $2 == 0 || $3 !~ /^0+$/' <<<"$recs")" ""
t_eq exec-cmd-ran-as "$(jq -c '[.ran_as.uid, .ran_as.privileged]' "$d/exec.json" 2>/dev/null)" \
  "[$NOBODY,false]"

# brisk without root: nothing to drop, its own user, still no new privileges
mkdir "$out/own"; chown "$NOBODY" "$out/own"
as_nobody "$BRISK" run "$out/own" --floor 0 -q -a save --no-load -i 1 --json "$out/own.json" \
  >/dev/null 2>&1
t_eq nonroot-ran-as "$(jq -c '[.ran_as.uid, .ran_as.privileged]' "$out/own.json" 2>/dev/null)" \
  "[$NOBODY,false]"
