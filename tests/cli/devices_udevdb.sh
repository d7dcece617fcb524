#!/bin/bash
# "brisk devices --all" reads each device's uevent file and udev database
# entry itself; a single device ("brisk devices NAME") goes through libudev.
# Both must describe every device identically, with the udev database read
# the way libudev reads it (its E: lines override uevent keys).
#  - every device of every umockdev testbed, and of the real machine;
#  - as root, in a private mount namespace with a tmpfs on /run: a udev
#    database entry for the real disk under / and for a testbed disk.
source tests/lib.sh

FIX=tests/fixtures
if ! command -v jq >/dev/null 2>&1; then
	t_skip devices_udevdb "jq is not installed (Debian: apt-get install jq)"
	exit 0
fi
if [ ! -x "$BRISK" ]; then
	t_fail devices_udevdb "$BRISK is not built (run make)"
	exit 0
fi
HAVE_UMOCKDEV=0
t_umockdev && HAVE_UMOCKDEV=1

# SAME_BOTH: run inside the system under test (a testbed or the real
# machine).  Prints one "=NAME" line per device whose --all entry equals its
# single-device probe, or "!NAME" with both versions when they differ.
# (children and the loop backing file's stack are only in the single view.)
# shellcheck disable=SC2016
SAME_BOTH='
all=$("$BRISK" devices --all --json) || { echo "!--all failed"; exit 0; }
for n in $(jq -r ".devices[].name" <<<"$all"); do
	a=$(jq -cS --arg n "$n" ".devices[] | select(.name == \$n) | del(.slaves)" <<<"$all")
	one=$("$BRISK" devices "$n" --json | jq -cS ".stack | del(.children, .loop.backing, .loop.backing_error)")
	if [ "$a" = "$one" ]; then echo "=$n"; else echo "!$n"; echo " all: $a"; echo " one: $one"; fi
done'

# check_same NAME OUTPUT: one result per device, and at least one device
check_same() {
	local name=$1 out=$2 n
	if [ -z "$out" ]; then
		t_fail "$name" "no devices listed"
		return
	fi
	while read -r line; do
		case $line in
		=*) t_pass "$name.${line#=}" ;;
		!*) n=${line#!}; t_fail "$name.$n" "$(grep -A2 -F -x -- "!$n" <<<"$out" | tail -2 | head -c 1200)" ;;
		esac
	done <<<"$out"
}

if [ $HAVE_UMOCKDEV = 1 ]; then
	for fx in "$FIX"/*.umockdev; do
		base=$(basename "$fx" .umockdev)
		out=$(BRISK=$BRISK umockdev-run -d "$fx" -- bash -c "$SAME_BOTH" 2>&1)
		check_same "same.$base" "$out"
	done
else
	t_skip same.testbeds "umockdev-run is not installed or cannot redirect /sys here"
fi
check_same same.real "$(BRISK=$BRISK bash -c "$SAME_BOTH" 2>&1)"

# ------------------------------------------------------------ udev database
if ! is_root; then
	t_skip udevdb "needs root (a private mount namespace with a tmpfs on /run)"
	exit 0
fi
if ! unshare -m --propagation private true 2>/dev/null; then
	t_skip udevdb "unshare -m does not work here"
	exit 0
fi

# in_ns SCRIPT: run bash SCRIPT with a private, empty /run and the udev
# database entry $DBNUM holding $DB.
in_ns() {
	DB=$DB DBNUM=$DBNUM BRISK=$BRISK unshare -m --propagation private bash -c '
		mount -t tmpfs brisk-test-run /run || exit 99
		mkdir -p /run/udev/data && printf "%s" "$DB" >"/run/udev/data/b$DBNUM"
		'"$1"
}

# An entry as udevd writes it, with lines brisk must skip: other record
# types, an E: line without "=", and a value holding "=".
DB='S:disk/by-id/brisk-test-disk
I:1234567
E:ID_MODEL_ENC=Brisk\x20Test\x20Disk\x20\x20
E:ID_NO_VALUE
E:ID_SERIAL_SHORT=SER=42
X:ID_REVISION=wrong
E:ID_REVISION=FW1
E:ID_WWN=0x5000000000000042
G:systemd
Q:systemd
V:1
'
root=$(jq -r '.leaves[0] // empty' <<<"$("$BRISK" devices / --json 2>/dev/null)")
if [ -n "$root" ] && [ -r "/sys/class/block/$root/dev" ]; then
	DBNUM=$(cat "/sys/class/block/$root/dev")
	# the host's own entry (a machine running udevd has one) before the test
	host_entry() { stat -c '%s %Y %i' "/run/udev/data/b$DBNUM" 2>/dev/null || echo absent; }
	before=$(host_entry)
	out=$(in_ns '
		"$BRISK" devices --all --json | jq -c --arg n '"$root"' ".devices[] | select(.name == \$n) | [.model, .serial, .firmware, .wwn]"
		"$BRISK" devices '"$root"' --json | jq -c ".stack | [.model, .serial, .firmware, .wwn]"' 2>&1)
	want='["Brisk Test Disk","SER=42","FW1","0x5000000000000042"]'
	t_eq udevdb.real.all "$(sed -n 1p <<<"$out")" "$want"
	t_eq udevdb.real.libudev "$(sed -n 2p <<<"$out")" "$want"
	# every device, with a database entry present for one of them
	check_same udevdb.same "$(in_ns "$SAME_BOTH")"
	# and the host's /run/udev/data is as it was: the entry lived in the namespace
	t_eq udevdb.real.host-untouched "$(host_entry)" "$before"
else
	t_skip udevdb.real "no block device found under /"
fi

if [ $HAVE_UMOCKDEV = 1 ]; then
	# sata-hdd's uevent says firmware SD15 (a Barracuda 7200.11 with an
	# advisory); a database entry saying SD1A, the fixed firmware, wins.
	DB='E:ID_REVISION=SD1A
' DBNUM=8:0
	out=$(in_ns 'umockdev-run -d '"$FIX"'/sata-hdd.umockdev -- bash -c "
		\"\$BRISK\" devices --all --json | jq -c \".devices[] | select(.name == \\\"sda\\\") | [.firmware, .advisory, .model]\"
		\"\$BRISK\" devices sda --json | jq -c \".stack | [.firmware, .advisory, .model]\""' 2>&1)
	want='["SD1A",null,"ST31000340AS"]'
	t_eq udevdb.testbed.all "$(sed -n 1p <<<"$out")" "$want"
	t_eq udevdb.testbed.libudev "$(sed -n 2p <<<"$out")" "$want"
else
	t_skip udevdb.testbed "umockdev-run is not installed or cannot redirect /sys here"
fi
exit 0
