#!/bin/bash
# brisk export: formats through the CLI, golden comparison, udevadm verify
# when the installed udev has it, sysctl and tuned parsed back, bad input.
source tests/lib.sh

G=tests/fixtures/profiles/good
E=tests/fixtures/export
d=$(t_tmpdir)

# class exports through the CLI match the golden files (made by test_export)
t_eq cli-udev-golden "$($BRISK export $G/desktop.profile --format udev)" "$(cat $E/udev-class-desktop.golden)"
t_eq cli-tuned-golden "$($BRISK export $G/server.profile --format tuned)" "$(cat $E/tuned-class-server.golden)"
t_eq cli-sysctl-golden "$($BRISK export $G/server.profile -F sysctl)" "$(cat $E/sysctl-server.golden)"

# -o writes the file, refuses to replace it without --force
$BRISK export $G/desktop.profile --format udev -o "$d/60-brisk.rules"; t_eq export-o-exit $? 0
t_eq export-o-content "$(cat "$d/60-brisk.rules")" "$(cat $E/udev-class-desktop.golden)"
$BRISK export $G/desktop.profile --format udev -o "$d/60-brisk.rules" 2>/dev/null; t_eq export-o-no-clobber $? 2
$BRISK export $G/desktop.profile --format udev -o "$d/60-brisk.rules" --force; t_eq export-o-force $? 0

# hardware-bound values: class rules leave them out and say so on stderr,
# why and how to keep them; a rule for one device keeps them
printf '[settings]\nscheduler = mq-deadline\nread_expire = 250\nnr_requests = 64\nmax_sectors_kb = 512\n' >"$d/hw.profile"
out=$($BRISK export "$d/hw.profile" --format udev 2>"$d/hw.err"); t_eq hw-udev-exit $? 0
t_eq hw-udev-rules-lack-them "$(grep -cE 'ATTR\{queue/(nr_requests|max_sectors_kb)\}' <<<"$out")" 0
t_match hw-udev-keeps-the-rest "$out" 'ATTR\{queue/iosched/read_expire\}="250"'
t_match hw-udev-comment "$out" '^# Hardware-bound, so not in the class rules \(see brisk-export\(1\)\): nr_requests=64 max_sectors_kb=512$'
t_eq hw-udev-says "$(cat "$d/hw.err")" "brisk export: dropped nr_requests=64 from the class rules: bounded by each disk's tag depth; use --match this-device to keep it
brisk export: dropped max_sectors_kb=512 from the class rules: bounded by each disk's max_hw_sectors_kb; use --match this-device to keep it"
out=$($BRISK export "$d/hw.profile" --format tuned 2>"$d/hw.err"); t_eq hw-tuned-exit $? 0
t_eq hw-tuned-lacks-them "$(grep -cE 'nr_requests=|max_sectors_kb=' <<<"$(grep -v '^#' <<<"$out")")" 0
t_match hw-tuned-says "$(cat "$d/hw.err")" "^brisk export: dropped nr_requests=64 from the class rules: bounded by each disk's tag depth; use --device DEV to keep it"
printf '[settings]\nnr_requests = 64\n' >"$d/hwonly.profile"
$BRISK export "$d/hwonly.profile" --format udev >/dev/null 2>"$d/hw.err"; t_eq hw-only-exit $? 2
t_match hw-only-says-both "$(cat "$d/hw.err")" $'dropped nr_requests=64 from the class rules.*\nbrisk export: profile hwonly has no device settings'

# the class rules cover virtio (vd*) and Xen (xvd*) disks, rotational or
# not: the KERNEL match, as udev reads it ("|" separates alternatives)
out=$($BRISK export $G/desktop.profile --format udev)
# kmatch NAME ROTATIONAL: the class rules whose KERNEL and rotational
# matches hold for a disk NAME with that flag, one comment label a line
kmatch() {
  local label='' line pat rot alt hit
  while IFS= read -r line; do
    case $line in '# '*) label=${line#\# }; continue;; esac
    [[ $line == ACTION==* ]] || continue
    pat=$(sed -n 's/.*KERNEL=="\([^"]*\)".*/\1/p' <<<"$line")
    rot=$(sed -n 's/.*ATTR{queue\/rotational}=="\([01]\)".*/\1/p' <<<"$line")
    hit=0
    IFS='|' read -ra alts <<<"$pat"
    # shellcheck disable=SC2053  # the alternatives are globs
    for alt in "${alts[@]}"; do [[ $1 == $alt ]] && hit=1; done
    [ "$hit" = 1 ] && { [ -z "$rot" ] || [ "$rot" = "$2" ]; } && echo "$label"
  done <<<"$out"
}
t_eq udev-class-vda-rotational "$(kmatch vda 1)" "rotational SATA/SAS, virtio and Xen disks"
t_eq udev-class-vdb-ssd "$(kmatch vdb 0)" "non-rotational SATA/SAS (SSDs), virtio and Xen disks"
t_eq udev-class-xvda-rotational "$(kmatch xvda 1)" "rotational SATA/SAS, virtio and Xen disks"
t_eq udev-class-xvdb-ssd "$(kmatch xvdb 0)" "non-rotational SATA/SAS (SSDs), virtio and Xen disks"
t_eq udev-class-sda "$(kmatch sda 1)" "rotational SATA/SAS, virtio and Xen disks"
t_eq udev-class-nvme "$(kmatch nvme0n1 0)" "NVMe namespaces"
t_eq udev-class-loop-none "$(kmatch loop0 1)" ""
# this machine's disk behind a directory gets a rule, when it is sd, vd or xvd
src=$(df --output=source "$d" | tail -1)
disk=$(lsblk -no PKNAME "$src" 2>/dev/null | head -1); [ -z "$disk" ] && disk=$(basename "$src")
case $disk in
  sd*|vd*|xvd*)
    if [ -r "/sys/block/$disk/queue/rotational" ]; then
      $BRISK profile save here "$d" -o "$d/here.profile" >/dev/null 2>&1
      out=$($BRISK export "$d/here.profile" --format udev)
      t_match "udev-class-this-disk ($disk)" "$(kmatch "$disk" "$(cat /sys/block/$disk/queue/rotational)")" 'virtio and Xen disks$'
    else
      t_skip udev-class-this-disk "no /sys/block/$disk/queue/rotational"
    fi ;;
  *) t_skip udev-class-this-disk "the disk behind $d is $disk, not sd*, vd* or xvd*" ;;
esac

# udev's own checker, where the installed udev has it (systemd >= 253)
if command -v udevadm >/dev/null && udevadm verify --help >/dev/null 2>&1; then
  for p in desktop server prefixed; do
    $BRISK export $G/$p.profile --format udev -o "$d/$p.rules"
    out=$(udevadm verify "$d/$p.rules" 2>&1); t_eq "udevadm-verify-$p" $? 0
  done
else
  t_skip udevadm-verify "udevadm verify is not available (udev < 253 or not installed)"
fi

# sysctl parsed back: every line is vm.KEY = VALUE, and /proc/sys/vm/KEY exists
$BRISK export $G/desktop.profile --format sysctl -o "$d/sysctl.conf"
n=0; bad=0
while read -r k eq v; do
  case "$k" in ''|'#'*) continue;; esac
  n=$((n + 1))
  [ "$eq" = "=" ] && [[ "$k" == vm.dirty_* ]] && [ -e "/proc/sys/${k//.//}" ] && [[ "$v" =~ ^[0-9]+$ ]] || bad=1
done < "$d/sysctl.conf"
t_eq sysctl-lines "$n" 2
t_eq sysctl-parsed-back "$bad" 0

# tuned parsed back with Python's configparser (as tuned reads it), when present
if command -v python3 >/dev/null; then
  $BRISK export $G/server.profile --format tuned -o "$d/tuned.conf"
  out=$(python3 - "$d/tuned.conf" <<'PY'
import configparser, sys
c = configparser.ConfigParser(delimiters=('=',), interpolation=None)
c.optionxform = str
c.read(sys.argv[1])
print(c['main']['summary'])
print(c['disk_sd_vd_xvd']['elevator'], c['disk_nvme']['elevator'], c['disk_mmc']['devices'])
print(c['disk_sd_vd_xvd']['devices'])
print(c['sysfs']['/sys/block/vd*/queue/wbt_lat_usec'], c['sysctl']['vm.dirty_ratio'])
print(sorted(k for k in c['sysfs'] if 'nr_requests' in k))
PY
); t_eq tuned-configparser $? 0
  t_eq tuned-parsed-back "$out" $'brisk profile server: mq-deadline everywhere, none on NVMe\nmq-deadline none mmcblk*\nsd* vd* xvd*\n2000 10\n[]'
else
  t_skip tuned-configparser "python3 not installed"
fi

# fixed-device formats: the device from --device, or the one disk behind the
# profile's [target] directory
src=$(df --output=source "$d" | tail -1)
disk=$(lsblk -no PKNAME "$src" 2>/dev/null | head -1); [ -z "$disk" ] && disk=$(basename "$src")
if [ -e "/sys/block/$disk/queue/scheduler" ]; then
  out=$($BRISK export $G/server.profile --format sysfs.conf --device "/dev/$disk"); t_eq sysfs.conf-exit $? 0
  t_match sysfs.conf-line "$out" "^block/$disk/queue/nr_requests = 128$"
  out=$($BRISK export $G/server.profile --format tmpfiles --device "$disk")
  t_match tmpfiles-line "$out" "^w /sys/block/$disk/queue/nr_requests - - - - 128$"
  t_match tmpfiles-vm "$out" '^w /proc/sys/vm/dirty_ratio - - - - 10$'
  printf '[target]\ndirectory = %s\n[settings]\nnr_requests = 64\n' "$d" > "$d/t.profile"
  out=$($BRISK export "$d/t.profile" --format tmpfiles); t_eq device-from-target-exit $? 0
  t_match device-from-target "$out" "^w /sys/block/$disk/queue/nr_requests - - - - 64$"
  out=$($BRISK export "$d/t.profile" --format udev --match this-device 2>&1); rc=$?
  if [ $rc = 0 ]; then
    t_match this-device-rule "$out" '(ENV\{(ID_WWN|ID_SERIAL_SHORT)\}|ATTRS\{(wwid|serial)\})=="[^"]+", \\$'
  else
    t_match this-device-no-id "$out" "neither a WWN nor a serial"
  fi
else
  t_skip fixed-device "no whole disk with a scheduler behind $d ($src)"
fi

# --match this-device matches on udev's property when udev gave the value,
# else on the sysfs attribute it came from (udev sets only ID_SERIAL for a
# virtio disk, so ENV{ID_SERIAL_SHORT} would never match it).
if t_umockdev; then
  this_device() {
    umockdev-run -d "tests/fixtures/$1.umockdev" -- \
      "$BRISK" export $G/server.profile --format udev --match this-device --device "$2" 2>&1 |
      grep -o 'ENV{DEVTYPE}=="disk", [^,]*'
  }
  t_eq this-device-udev-wwn "$(this_device nvme-ssd nvme0n1)" \
       'ENV{DEVTYPE}=="disk", ENV{ID_WWN}=="eui.002538b391b12345"'
  t_eq this-device-sysfs-serial "$(this_device virtio-disk vda)" \
       'ENV{DEVTYPE}=="disk", ATTRS{serial}=="overlayblk"'
  # one device keeps the hardware-bound values, and nothing is said dropped
  out=$(umockdev-run -d tests/fixtures/virtio-disk.umockdev -- "$BRISK" export "$d/hw.profile" \
        --format udev --match this-device --device vda 2>"$d/hw.err"); t_eq hw-this-device-exit $? 0
  t_match hw-this-device-keeps-nr_requests "$out" 'ATTR\{queue/nr_requests\}="64"'
  t_match hw-this-device-keeps-max_sectors_kb "$out" 'ATTR\{queue/max_sectors_kb\}="512"'
  t_eq hw-this-device-says-nothing "$(cat "$d/hw.err")" ""
  out=$(umockdev-run -d tests/fixtures/virtio-disk.umockdev -- "$BRISK" export "$d/hw.profile" \
        --format tuned --device vda 2>"$d/hw.err")
  t_match hw-tuned-device-keeps "$out" '^/sys/block/vda/queue/nr_requests=64$'
  t_eq hw-tuned-device-says-nothing "$(cat "$d/hw.err")" ""
else
  t_skip this-device-testbeds "umockdev-run is not installed"
fi

# bad input: exit 2, nothing written
for bad in "--format udev" "$G/desktop.profile" "$G/desktop.profile --format systemd" \
           "$G/desktop.profile --format tuned" "$G/server.profile --format sysfs.conf" \
           "$G/prefixed.profile --format sysctl" "$G/server.profile --format sysctl --device sda" \
           "$G/server.profile --format udev --device sda" "$G/server.profile --format tuned --match this-device" \
           "$G/server.profile --format udev --match none" "nosuchprofile --format udev" \
           "tests/fixtures/profiles/bad/duplicate-key.profile --format udev" \
           "$G/server.profile --format tmpfiles --device nosuchdisk"; do
  # shellcheck disable=SC2086
  $BRISK export $bad -o "$d/bad.out" >/dev/null 2>&1; rc=$?
  t_eq "export-bad ($bad)" "$rc" 2
done
[ -e "$d/bad.out" ]; t_eq export-bad-writes-nothing $? 1
err=$($BRISK export tests/fixtures/profiles/bad/duplicate-key.profile --format udev 2>&1)
t_eq export-bad-profile-message "$err" "brisk export: tests/fixtures/profiles/bad/duplicate-key.profile:5: duplicate key 'bs' (first at line 4), expected each key once per section"

# every shipped profile holds no settings: exporting one says so
err=$($BRISK export quick --format udev 2>&1); rc=$?
t_eq export-quick-exit "$rc" 2
t_match export-quick-says "$err" 'profile quick has no device settings'
