#!/bin/bash
# brisk run without root: everything but drop_caches works, and the cold
# flags say what really happened.
source tests/lib.sh

if ! is_root; then
  as_user() { "$@"; }
elif id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
  as_user() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
else
  t_skip nonroot "no 'nobody' user or setpriv to drop root"; exit 0
fi
d=$(t_tmpdir)
chmod 755 "$d"
mkdir "$d/w" "$d/ro"
is_root && chown nobody "$d/w"
touch "$d/w/keep-me"

as_user test -w "$d/w" || { t_skip nonroot "$d/w is not writable for the test user"; exit 0; }
t_eq test-user-not-root "$(as_user id -u)" "$(is_root && id -u nobody || id -u)"

out=$(as_user $BRISK run "$d/w" -q -i 2 -n 2 --interval 20ms --warmup 1s --ls-files 40 \
      --load seq-write:rate=20m --json -); rc=$?
t_eq nonroot-exit-0 "$rc" 0
t_eq nonroot-samples "$(jq '.samples|length' <<<"$out")" 16
t_eq nonroot-errors "$(jq '[.samples[]|select(.error!=0)]|length' <<<"$out")" 0
t_eq nonroot-ssh-cold "$(jq '[.samples[]|select(.action=="ssh-like" and .cold)]|length' <<<"$out")" 4
t_eq nonroot-ls-warm "$(jq '[.samples[]|select(.action=="ls" and .cold)]|length' <<<"$out")" 0
t_eq nonroot-eviction "$(jq -r .config.eviction <<<"$out")" fadvise
t_eq nonroot-cleanup "$(ls -A "$d/w")" keep-me

err=$(as_user $BRISK run "$d/w" -q --drop-caches 2>&1); rc=$?
t_eq nonroot-drop-caches-exit-4 "$rc" 4
t_match nonroot-drop-caches-message "$err" 'needs root'
t_eq nonroot-drop-caches-nothing-created "$(ls -A "$d/w")" keep-me

# a directory the user cannot write: exit 2, a clear message
if is_root; then
  err=$(as_user $BRISK run "$d/ro" -q 2>&1); rc=$?
  t_eq unwritable-exit-2 "$rc" 2
  t_match unwritable-message "$err" 'not writable'
  # realtime I/O priority needs privileges: the load says why it ended
  out=$(as_user $BRISK run "$d/w" -q -a save -i 1 -n 2 --interval 10ms --warmup 200ms \
        --load seq-write:ionice=rt/0 --json -)
  t_eq nonroot-ionice-rt-refused "$(jq -r '.loads[0].end + ": " + .loads[0].error' <<<"$out")" \
       "I/O error: Operation not permitted"
  t_eq nonroot-ionice-cleanup "$(ls -A "$d/w")" keep-me
else
  t_skip unwritable-exit-2 "needs root to make a directory unwritable for another user"
fi
