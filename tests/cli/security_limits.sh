#!/bin/bash
# Resource limits: brisk fails with a message, never by a signal.
# Under a tight address-space limit libpci's allocation failure used to reach
# an abort() (SIGABRT, no message); each limit from 3 to 14 MiB must now end
# with status 0 or 1 and, when 1, say why on stderr.
. tests/lib.sh

if ldd "$BRISK" 2>/dev/null | grep -q libasan; then
  t_skip limits_vm "an ASan build reserves terabytes of address space; ulimit -v cannot apply"
  exit 0
fi
out=$(t_tmpdir)
bad=""
for kib in 3000 4000 5000 6000 7000 8000 9000 10000 12000 14000; do
  for args in "devices ." "devices --all --json"; do
  # shellcheck disable=SC2086
  (ulimit -v "$kib"; exec "$BRISK" $args >"$out/o" 2>"$out/e"); rc=$?
  if [ "$rc" = 127 ] && grep -q 'error while loading shared libraries' "$out/e"; then
    continue   # ld.so could not map the libraries: brisk never ran
  elif [ "$rc" -gt 1 ]; then
    bad="$bad ${kib}KiB($args):rc=$rc"
  elif [ "$rc" = 1 ] && [ ! -s "$out/e" ]; then
    bad="$bad ${kib}KiB($args):silent"
  fi
  done
done
t_eq limits_vm_no_signal "${bad# }" ""
