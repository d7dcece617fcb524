#!/bin/bash
# brisk profile save: the settings of the disk behind a directory and the
# workload, saved -> loaded -> the same settings (compared with sysfs) and
# the same workload; with --all every value, without it a subset of the
# same values (profile_save_defaults.sh says which).  Reads only; works
# without root.
source tests/lib.sh

d=$(t_tmpdir)
export XDG_CONFIG_HOME=$d/xdg

$BRISK profile save mine "$d" -o "$d/mine.profile" --all >/dev/null; t_eq save-exit $? 0
t_check saved-checks $BRISK profile check "$d/mine.profile"
saved=$(cat "$d/mine.profile")
# load + write again gives the same text: nothing lost or reformatted
t_eq saved-reloads-same "$($BRISK profile show "$d/mine.profile" | tail -n +2)" "$saved"
t_match saved-directory "$saved" "^directory = $(cd "$d" && pwd -P)$"

# value of KEY in the one [settings CLASS] section (or [settings])
val() { awk -v k="$1" -v s="$2" '/^\[/{ins=($0==s)} ins && $1==k {print $3}' <<<"$saved"; }
src=$(df --output=source "$d" | tail -1)
disk=$(lsblk -no PKNAME "$src" 2>/dev/null | head -1); [ -z "$disk" ] && disk=$(basename "$src")
sec=$(grep -m1 -E '^\[settings (rotational|ssd|nvme|mmc)\]$' <<<"$saved")
if [ -n "$sec" ] && [ -r "/sys/block/$disk/queue/scheduler" ]; then
  live=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$disk/queue/scheduler")
  t_eq "saved-scheduler ($disk)" "$(val scheduler "$sec")" "$live"
  for k in nr_requests read_ahead_kb rq_affinity nomerges max_sectors_kb; do
    t_eq "saved-$k" "$(val $k "$sec")" "$(cat "/sys/block/$disk/queue/$k")"
  done
  # every iosched key brisk knows is saved (--all); one it does not know is not
  known=$("$BRISK" set --list-keys | awk '$2 ~ /^iosched:/ { print $1 }')
  for f in /sys/block/$disk/queue/iosched/*; do
    k=$(basename "$f")
    if grep -qx -- "$k" <<<"$known"; then t_eq "saved-iosched-$k" "$(val "$k" "$sec")" "$(cat "$f")"
    else t_skip "saved-iosched-$k" "brisk knows no iosched key $k"; fi
  done
  rot=$(cat "/sys/block/$disk/queue/rotational")
  case "$disk" in
    nvme*) want="[settings nvme]";; mmcblk*) want="[settings mmc]";;
    *) [ "$rot" = 1 ] && want="[settings rotational]" || want="[settings ssd]";;
  esac
  t_eq saved-class "$sec" "$want"
else
  t_skip saved-device-settings "no whole disk with a scheduler behind $d ($src)"
fi
for k in dirty_expire_centisecs dirty_writeback_centisecs; do
  t_eq "saved-vm.$k" "$(val vm.$k '[settings]')" "$(cat /proc/sys/vm/$k)"
done
if [ "$(cat /proc/sys/vm/dirty_bytes)" = 0 ]; then
  t_eq saved-vm.dirty_ratio "$(val vm.dirty_ratio '[settings]')" "$(cat /proc/sys/vm/dirty_ratio)"
else
  t_eq saved-vm.dirty_bytes "$(val vm.dirty_bytes '[settings]')" "$(cat /proc/sys/vm/dirty_bytes)"
fi

# without --all: the same values, some left out; the scheduler always there
$BRISK profile save some "$d" -o "$d/some.profile" >/dev/null 2>"$d/some.err"; t_eq save-some-exit $? 0
some=$(grep -E '^[a-z_.]+ = ' "$d/some.profile" | sort)
all=$(sed 's/^name = mine$/name = some/' "$d/mine.profile" | grep -E '^[a-z_.]+ = ' | sort)
t_eq save-some-is-a-subset "$(comm -23 <(echo "$some") <(echo "$all"))" ""
if [ -n "$sec" ]; then
  t_match save-some-scheduler "$(sed -n "/^\\$sec\$/,/^\\[/p" "$d/some.profile")" '^scheduler = '
else
  t_skip save-some-scheduler "no whole disk with a scheduler behind $d ($src)"
fi

# the default workload is the quick profile's
wl() { sed -n '/^\[load \|^\[action /,$p' <<<"$1"; }
t_eq saved-default-workload "$(wl "$saved")" "$(wl "$($BRISK profile show profiles/quick.profile)")"

# workload from options; loads and actions come back as given
$BRISK profile save opts "$d" -o "$d/opts.profile" --load 'rand-read:count=3,bs=4k-16k,size=64m,ionice=idle' \
  --load 'fsync-heavy' --action ls,save --description 'two loads' --runtime 90s >/dev/null
t_eq save-options-exit $? 0
o=$(cat "$d/opts.profile")
t_match save-options-desc "$o" '^description = two loads$'
t_match save-options-runtime "$o" '^runtime = 90s$'
t_eq save-options-loads "$(grep -c '^\[load ' <<<"$o")" 2
t_eq save-options-actions "$(grep '^type = ' <<<"$o" | tr '\n' ' ')" "type = ls type = save "
t_match save-options-randread "$o" '^numjobs = 3$'
t_match save-options-idle "$o" '^prioclass = 3$'
t_match save-options-fsync "$o" '^fsync = 1$'
t_check save-options-checks $BRISK profile check "$d/opts.profile"

# into the user directory; no silent overwrite; then found by name
out=$($BRISK profile save desk "$d"); t_eq save-user-exit $? 0
t_match save-user-path "$out" "^saved $XDG_CONFIG_HOME/brisk/profiles/desk.profile "
$BRISK profile save desk "$d" >/dev/null 2>&1; t_eq save-no-clobber $? 2
$BRISK profile save desk "$d" --force >/dev/null; t_eq save-force $? 0
t_eq save-found-by-name "$($BRISK profile show desk | sed -n 2p)" "; brisk profile (see brisk-profile(5))"

# bad input: exit 2, nothing written
for bad in "a/b $d" "x $d/missing" "x $d --load frob" "x $d --action dance" \
           "x $d --runtime 5parsecs" "x $d extra" "--bogus x"; do
  # shellcheck disable=SC2086
  $BRISK profile save $bad -o "$d/bad.profile" >/dev/null 2>&1; rc=$?
  t_eq "save-bad ($bad)" "$rc" 2
done
[ -e "$d/bad.profile" ]; t_eq save-bad-writes-nothing $? 1
t_eq save-bad-no-temp-files "$(find "$d" -mindepth 1 -maxdepth 1 -name '*tmp*' ! -name '.*' | wc -l)" 0
