#!/bin/bash
# brisk devices --json against umockdev testbeds (tests/fixtures/*.umockdev):
# one storage topology per file, addressed by device name because
# /proc/self/mountinfo is not redirected by umockdev.  Every expected value
# below is written in the fixture; see tests/fixtures/README.md.
source tests/lib.sh

FIX=tests/fixtures
t_umockdev || { t_skip devices_umockdev "$T_UMOCKDEV_WHY"; exit 0; }
if ! command -v jq >/dev/null 2>&1; then
	t_skip devices_umockdev "jq is not installed (Debian: apt-get install jq)"
	exit 0
fi
if [ ! -x "$BRISK" ]; then
	t_fail devices_umockdev "$BRISK is not built (run make)"
	exit 0
fi

OUT='' RC='' ERR=''
ERRF=$(mktemp) && T_CLEANUP_EXTRA="rm -f '$ERRF'"
# bd FIXTURE ARGS... : run "brisk devices ARGS --json" inside the testbed.
bd() {
	local fx=$1; shift
	OUT=$(umockdev-run -d "$FIX/$fx" -- "$BRISK" devices "$@" --json 2>"$ERRF")
	RC=$?
	ERR=$(head -c 400 "$ERRF")
}

# ran NAME: passes when the last bd exited 0 with valid JSON; returns 1 otherwise
# so the caller skips the detailed checks (they would all fail the same way).
ran() {
	if [ "$RC" -ne 0 ]; then
		t_fail "$1" "exit $RC, stderr: $ERR"; return 1
	fi
	if ! jq -e 'type == "object"' >/dev/null 2>&1 <<<"$OUT"; then
		t_fail "$1" "stdout is not a JSON object: $(head -c 300 <<<"$OUT")"; return 1
	fi
	t_pass "$1"
}

# jeq NAME JQ-FILTER WANT: the filter's compact output must equal WANT.
jeq() {
	local got
	got=$(jq -c "$2" <<<"$OUT" 2>&1)
	t_eq "$1" "$got" "$3"
}

# JQ definitions shared by the checks.
#  node(n): the node named n in the .stack tree (through children), or in .devices (--all)
#  tree:    "dm-0(md0(sda1(sda),sdb1(sdb)))" from .stack
JQDEFS='
def nodes: ., (.children[]? | nodes);
def node($n): first((.stack // empty | nodes | select(.name == $n)), (.devices[]? | select(.name == $n))) // null;
def tree: .name + (if ((.children // []) | length) > 0 then "(" + ([.children[] | tree] | join(",")) + ")" else "" end);
def leaves($p): if type == "object" and length > 0 and (($p | length) == 0 or $p[-1] != "iosched")
                then (to_entries[] as $e | $e.value | leaves($p + [$e.key])) else {p: $p, v: .} end;
'

# expect NAME DEVICE WANT-JSON: every key of WANT (nested objects key by key,
# except iosched and arrays, compared whole) must be present in the node with
# exactly that value.  One PASS/FAIL line per key.
expect() {
	local name=$1 dev=$2 want=$3
	jq -r --arg dev "$dev" --argjson want "$want" --arg t "$name" "$JQDEFS"'
		node($dev) as $n
		| if $n == null then "FAIL \($t): no device \($dev) in the output"
		  else $want | leaves([]) | . as $x
		  | ($x.p | map(tostring) | join(".")) as $k
		  | ($n | try (getpath($x.p[:-1]) | has($x.p[-1])) catch false) as $has
		  | ($n | getpath($x.p)) as $got
		  | if ($has | not) then "FAIL \($t).\($k): missing, want \($x.v | tojson)"
		    elif $got == $x.v then "PASS \($t).\($k)"
		    else "FAIL \($t).\($k): got \($got | tojson), want \($x.v | tojson)" end
		  end' <<<"$OUT" 2>&1 | sed '/^\(PASS\|FAIL\) /!s/^/FAIL '"$name"': jq: /'
}

# absent NAME DEVICE KEY...: the node must not have these keys.
absent() {
	local name=$1 dev=$2; shift 2
	local k got
	for k in "$@"; do
		got=$(jq -c --arg dev "$dev" --arg k "$k" "$JQDEFS"'node($dev) | if . == null then "no such device" else has($k) end' <<<"$OUT" 2>&1)
		t_eq "$name.no_$k" "$got" "false"
	done
}

# glob_any WORD GLOBS: WORD matches one of the space-separated fnmatch GLOBS
# (profiles/advisories.conf writes lists; "?" stands for a space in a model).
glob_any() {
	local g
	set -f
	for g in $2; do
		# shellcheck disable=SC2053
		if [[ $1 == $g ]]; then set +f; return 0; fi
	done
	set +f
	return 1
}

# advisory_matches NAME DEVICE MODEL FIRMWARE FIXED: the advisory's globs must
# match this disk and it must name the fix.
advisory_matches() {
	local name=$1 dev=$2 model=$3 fw=$4 fixed=$5 mg fg
	mg=$(jq -r --arg dev "$dev" "$JQDEFS"'node($dev).advisory.models // ""' <<<"$OUT")
	fg=$(jq -r --arg dev "$dev" "$JQDEFS"'node($dev).advisory.firmware // ""' <<<"$OUT")
	if glob_any "$model" "$mg"; then t_pass "$name.advisory.models"
	else t_fail "$name.advisory.models" "no glob of '$mg' matches model '$model'"; fi
	if glob_any "$fw" "$fg"; then t_pass "$name.advisory.firmware"
	else t_fail "$name.advisory.firmware" "no glob of '$fg' matches firmware '$fw'"; fi
	jeq "$name.advisory.fixed_in" "$JQDEFS"'node("'"$dev"'").advisory.fixed_in' "\"$fixed\""
	jeq "$name.advisory.problem" "$JQDEFS"'node("'"$dev"'").advisory.problem | type == "string" and length > 10' true
	jeq "$name.advisory.source" "$JQDEFS"'node("'"$dev"'").advisory.source | type == "string" and length > 0' true
}

# header NAME QUERY: the document frame of a device query.
header() {
	jeq "$1.brisk" .brisk '"0.1.0"'
	jeq "$1.format" '[.format_version, .kind, .all]' '[1,"devices",false]'
	jeq "$1.query" .query "\"$2\""
	jeq "$1.path" .path null
	jeq "$1.mount" .mount null
}
tree() { jeq "$1.tree" "$JQDEFS"'.stack | tree' "\"$2\""; }
leaves() { jeq "$1.leaves" .leaves "$2"; }
# all_names NAME JSON-ARRAY: --all lists exactly these devices, sorted by name.
all_names() {
	jeq "$1.brisk" .brisk '"0.1.0"'
	jeq "$1.names" '[.devices[].name]' "$2"
	jeq "$1.no_children" '[.devices[] | select(has("children"))] | length' 0
}

DEADLINE_IOSCHED='{"async_depth":48,"fifo_batch":16,"front_merges":1,"prio_aging_expire":10000,"read_expire":500,"write_expire":5000,"writes_starved":2}'
ALL_SCHEDS='["none","mq-deadline","kyber","bfq"]'

# ---------------------------------------------------------------- SATA HDD
SDA_WANT='{"name":"sda","devnode":"/dev/sda","devnum":"8:0","kind":"disk","transport":"sata",
 "vendor":"ATA","model":"ST31000340AS","serial":"9QJ1ABCD","firmware":"SD15","wwn":"0x5000c50010a1b2c3",
 "size_bytes":1000204886016,"rotational":true,"removable":false,"readonly":false,
 "controller":"Intel Corporation 82801JI (ICH10 Family) SATA AHCI Controller","pci_slot":"0000:00:1f.2",
 "queue":{"scheduler":"mq-deadline","schedulers":'"$ALL_SCHEDS"',"nr_requests":64,"read_ahead_kb":128,
  "wbt_lat_usec":75000,"max_sectors_kb":1280,"rq_affinity":1,"nomerges":0,"queue_depth":31,
  "iosched":'"$DEADLINE_IOSCHED"'}}'
bd sata-hdd.umockdev sda
if ran sata.sda.run; then
	header sata.sda sda
	tree sata.sda sda
	leaves sata.sda '["sda"]'
	expect sata.sda sda "$SDA_WANT"
	jeq sata.sda.children '.stack.children' '[]'
	advisory_matches sata.sda sda ST31000340AS SD15 SD1A
	absent sata.sda sda partition parent md dm loop
fi

bd sata-hdd.umockdev /dev/sda1
if ran sata.sda1.run; then
	header sata.sda1 /dev/sda1
	tree sata.sda1 'sda1(sda)'
	leaves sata.sda1 '["sda"]'
	expect sata.sda1 sda1 '{"devnode":"/dev/sda1","devnum":"8:1","kind":"partition","partition":1,"parent":"sda","size_bytes":1000203091968}'
	expect sata.sda1.disk sda '{"firmware":"SD15","queue":{"scheduler":"mq-deadline","queue_depth":31}}'
fi

bd sata-hdd.umockdev sdb
if ran sata.sdb.run; then
	tree sata.sdb sdb
	expect sata.sdb sdb '{"devnum":"8:16","kind":"disk","transport":"sata","model":"ST31500341AS","serial":"9VS2WXYZ",
	 "firmware":"CC1H","wwn":"0x5000c50020d4e5f6","size_bytes":1500301910016,"rotational":true,"advisory":null,
	 "controller":"Intel Corporation 82801JI (ICH10 Family) SATA AHCI Controller","pci_slot":"0000:00:1f.2",
	 "queue":{"scheduler":"kyber","schedulers":'"$ALL_SCHEDS"',"nr_requests":32,"read_ahead_kb":512,"wbt_lat_usec":0,
	  "max_sectors_kb":512,"rq_affinity":2,"nomerges":1,"queue_depth":1,
	  "iosched":{"read_lat_nsec":2000000,"write_lat_nsec":10000000}}}'
fi

bd sata-hdd.umockdev --all
if ran sata.all.run; then
	all_names sata.all '["sda","sda1","sdb"]'
	expect sata.all.sda sda '{"slaves":[],"firmware":"SD15","transport":"sata","queue":{"queue_depth":31}}'
	expect sata.all.sda1 sda1 '{"slaves":[],"kind":"partition","partition":1,"parent":"sda"}'
	jeq sata.all.sda.advisory '.devices[] | select(.name == "sda") | .advisory.fixed_in' '"SD1A"'
	jeq sata.all.sdb.advisory '.devices[] | select(.name == "sdb") | .advisory' null
fi

bd sata-hdd.umockdev sdz
if [ "$RC" -ne 0 ] && [ -n "$ERR" ]; then t_pass sata.unknown_device
else t_fail sata.unknown_device "brisk devices sdz: exit $RC, stderr '$ERR' (want non-zero and a message)"; fi

# ---------------------------------------------------------------- NVMe SSD
NVME_Q='"queue":{"scheduler":"none","schedulers":'"$ALL_SCHEDS"',"nr_requests":1023,"read_ahead_kb":128,
  "wbt_lat_usec":2000,"max_sectors_kb":128,"rq_affinity":1,"nomerges":0,"queue_depth":null,"iosched":{}}'
bd nvme-ssd.umockdev nvme0n1
if ran nvme.run; then
	header nvme nvme0n1
	tree nvme nvme0n1
	leaves nvme '["nvme0n1"]'
	# No ID_REVISION in this fixture: the firmware must come from device/firmware_rev.
	expect nvme nvme0n1 '{"devnode":"/dev/nvme0n1","devnum":"259:0","kind":"disk","transport":"nvme",
	 "model":"Samsung SSD 970 EVO Plus 1TB","serial":"S4EWNX0R123456K","firmware":"2B2QEXM7",
	 "wwn":"eui.002538b391b12345","size_bytes":1000204886016,"rotational":false,"removable":false,"readonly":false,
	 "controller":"Samsung Electronics Co Ltd NVMe SSD Controller SM981/PM981/PM983","pci_slot":"0000:3d:00.0",
	 "advisory":null,'"$NVME_Q"'}'
	absent nvme nvme0n1 partition parent md dm loop
fi

bd nvme-ssd.umockdev /dev/nvme0n1p1
if ran nvme.p1.run; then
	tree nvme.p1 'nvme0n1p1(nvme0n1)'
	leaves nvme.p1 '["nvme0n1"]'
	expect nvme.p1 nvme0n1p1 '{"devnum":"259:1","kind":"partition","partition":1,"parent":"nvme0n1","size_bytes":1000203091968}'
fi

bd nvme-ssd.umockdev --all
if ran nvme.all.run; then
	# nvme0 is the controller's character device, not a block device.
	all_names nvme.all '["nvme0n1","nvme0n1p1"]'
	expect nvme.all nvme0n1 '{"slaves":[],"firmware":"2B2QEXM7","transport":"nvme"}'
fi

# ------------------------------------------------- md RAID1 + dm-crypt on top
NOSCHED_Q='"scheduler":"","nr_requests":null,"wbt_lat_usec":null,"rq_affinity":null,"queue_depth":null'
bd md-raid1-crypt.umockdev dm-0
if ran mdcrypt.run; then
	header mdcrypt dm-0
	tree mdcrypt 'dm-0(md0(sda1(sda),sdb1(sdb)))'
	leaves mdcrypt '["sda","sdb"]'
	expect mdcrypt.dm-0 dm-0 '{"devnode":"/dev/dm-0","devnum":"253:0","kind":"dm","transport":"","controller":"",
	 "pci_slot":"","size_bytes":249906069504,"rotational":false,"advisory":null,
	 "dm":{"name":"md0_crypt","uuid":"CRYPT-LUKS2-3f1e5b2a9c4d4e6f8a7b6c5d4e3f2a1b-md0_crypt","target":"crypt"},
	 "queue":{'"$NOSCHED_Q"',"read_ahead_kb":128,"max_sectors_kb":1280,"nomerges":0}}'
	absent mdcrypt.dm-0 dm-0 md loop partition
	expect mdcrypt.md0 md0 '{"devnode":"/dev/md0","devnum":"9:0","kind":"md","transport":"","size_bytes":249922846720,
	 "md":{"level":"raid1","raid_disks":2,"degraded":0,"array_state":"clean",
	  "members":[{"name":"sda1","state":"in_sync"},{"name":"sdb1","state":"in_sync"}]},
	 "queue":{'"$NOSCHED_Q"',"read_ahead_kb":128}}'
	absent mdcrypt.md0 md0 dm loop partition
	expect mdcrypt.sda1 sda1 '{"kind":"partition","partition":1,"parent":"sda","devnum":"8:1","size_bytes":250058113024}'
	expect mdcrypt.sdb1 sdb1 '{"kind":"partition","partition":1,"parent":"sdb","devnum":"8:17"}'
	# ata_id's ID_MODEL is "Samsung_SSD_840_EVO_250GB"; the real name (as lsblk
	# shows it) is ID_MODEL_ENC decoded, and only that matches the advisory.
	expect mdcrypt.sda sda '{"devnum":"8:0","kind":"disk","transport":"sata","vendor":"ATA",
	 "model":"Samsung SSD 840 EVO 250GB","serial":"S1DBNSAF123456X","firmware":"EXT0BB6Q","wwn":"0x50025388a0123456",
	 "size_bytes":250059350016,"rotational":false,"removable":false,"readonly":false,
	 "controller":"Intel Corporation Q170/Q150/B150/H170/H110/Z170/CM236 Chipset SATA Controller [AHCI Mode]",
	 "pci_slot":"0000:00:17.0",
	 "queue":{"scheduler":"mq-deadline","schedulers":'"$ALL_SCHEDS"',"nr_requests":64,"read_ahead_kb":128,
	  "wbt_lat_usec":2000,"max_sectors_kb":1280,"rq_affinity":1,"nomerges":0,"queue_depth":31,
	  "iosched":'"$DEADLINE_IOSCHED"'}}'
	advisory_matches mdcrypt.sda sda "Samsung SSD 840 EVO 250GB" EXT0BB6Q EXT0CB6Q
	expect mdcrypt.sdb sdb '{"devnum":"8:16","model":"Samsung SSD 840 EVO 250GB","serial":"S1DBNSAF654321Y",
	 "firmware":"EXT0DB6Q","advisory":null,"queue":{"queue_depth":31,
	 "iosched":{"async_depth":48,"fifo_batch":32,"front_merges":1,"prio_aging_expire":10000,"read_expire":500,"write_expire":5000,"writes_starved":2}}}'
fi

bd md-raid1-crypt.umockdev /dev/md0
if ran mdcrypt.md0.run; then
	header mdcrypt.md0q /dev/md0
	tree mdcrypt.md0q 'md0(sda1(sda),sdb1(sdb))'
	leaves mdcrypt.md0q '["sda","sdb"]'
fi

bd md-raid1-crypt.umockdev --all
if ran mdcrypt.all.run; then
	all_names mdcrypt.all '["dm-0","md0","sda","sda1","sdb","sdb1"]'
	expect mdcrypt.all.dm-0 dm-0 '{"slaves":["md0"],"kind":"dm","dm":{"target":"crypt"}}'
	expect mdcrypt.all.md0 md0 '{"slaves":["sda1","sdb1"],"kind":"md","md":{"level":"raid1","degraded":0}}'
	expect mdcrypt.all.sda sda '{"slaves":[],"firmware":"EXT0BB6Q"}'
	expect mdcrypt.all.sdb1 sdb1 '{"slaves":[],"parent":"sdb"}'
fi

# ------------------------------------------- md RAID1, degraded: one member faulty
bd md-raid1-degraded.umockdev md127
if ran mddeg.run; then
	header mddeg md127
	tree mddeg 'md127(sda1(sda),sdb1(sdb))'
	leaves mddeg '["sda","sdb"]'
	expect mddeg md127 '{"devnode":"/dev/md127","devnum":"9:127","kind":"md","size_bytes":4000650887168,"rotational":true,
	 "md":{"level":"raid1","raid_disks":2,"degraded":1,"array_state":"clean",
	  "members":[{"name":"sda1","state":"in_sync"},{"name":"sdb1","state":"faulty"}]},"queue":{"scheduler":""}}'
	# A 20-character ATA model: the SCSI device/model attribute holds only its first 16.
	expect mddeg.sdb sdb '{"model":"WDC WD40EFRX-68N32N0","firmware":"82.00A82","serial":"WD-WCC7K7UVWXYZ","transport":"sata",
	 "controller":"Intel Corporation C610/X99 series chipset sSATA Controller [AHCI mode]","pci_slot":"0000:00:11.4","advisory":null}'
fi

# ------------------------------------------------------ LVM on an NVMe partition
bd nvme-lvm.umockdev dm-0
if ran lvm.run; then
	header lvm dm-0
	tree lvm 'dm-0(nvme0n1p2(nvme0n1))'
	leaves lvm '["nvme0n1"]'
	# This dm queue has a scheduler file reading "none" (older kernels): still no scheduler of its own.
	expect lvm.dm-0 dm-0 '{"devnum":"254:0","kind":"dm","transport":"","size_bytes":483183820800,
	 "dm":{"name":"vg0-root","uuid":"LVM-Xq3VZ2kHn8tY5cR1wE7uP0oI9aS4dF6gJ2hK5lM8nB3vC1xZ7qW4eR6tY9uI0oP1","target":"lvm"},
	 "queue":{"scheduler":"","read_ahead_kb":256,"max_sectors_kb":256,"queue_depth":null}}'
	expect lvm.p2 nvme0n1p2 '{"devnum":"259:2","kind":"partition","partition":2,"parent":"nvme0n1","size_bytes":499567820800}'
	expect lvm.nvme0n1 nvme0n1 '{"devnum":"259:0","kind":"disk","transport":"nvme","model":"WDC WDS500G3X0C-00SJG0",
	 "serial":"19480A800123","firmware":"111110WD","wwn":"eui.e8238fa6bf530001001b448b45a1b2c3","size_bytes":500107862016,
	 "rotational":false,"controller":"Sandisk Corp WD Black SN750 / PC SN730 NVMe SSD","pci_slot":"0000:01:00.0",
	 "advisory":null,"queue":{"scheduler":"none","nr_requests":1023,"max_sectors_kb":256,"queue_depth":null,"iosched":{}}}'
fi

bd nvme-lvm.umockdev dm-1
if ran lvm.dm-1.run; then
	tree lvm.dm-1 'dm-1(nvme0n1p2(nvme0n1))'
	expect lvm.dm-1 dm-1 '{"dm":{"name":"vg0-swap","target":"lvm"},"queue":{"read_ahead_kb":128}}'
fi

bd nvme-lvm.umockdev --all
if ran lvm.all.run; then
	all_names lvm.all '["dm-0","dm-1","nvme0n1","nvme0n1p1","nvme0n1p2"]'
	expect lvm.all.dm-0 dm-0 '{"slaves":["nvme0n1p2"]}'
	expect lvm.all.dm-1 dm-1 '{"slaves":["nvme0n1p2"]}'
	expect lvm.all.p2 nvme0n1p2 '{"slaves":[],"parent":"nvme0n1","partition":2}'
fi

# ---------------------------------------------------------------- USB stick
bd usb-stick.umockdev sdc
if ran usb.run; then
	header usb sdc
	tree usb sdc
	leaves usb '["sdc"]'
	expect usb sdc '{"devnode":"/dev/sdc","devnum":"8:32","kind":"disk","transport":"usb","vendor":"SanDisk",
	 "model":"Ultra","serial":"4C530001230512117215","firmware":"1.00","wwn":"","size_bytes":30752000000,
	 "rotational":true,"removable":true,"readonly":false,
	 "controller":"Intel Corporation 100 Series/C230 Series Chipset Family USB 3.0 xHCI Controller",
	 "pci_slot":"0000:00:14.0","advisory":null,
	 "queue":{"scheduler":"bfq","schedulers":["mq-deadline","kyber","bfq","none"],"nr_requests":2,
	  "read_ahead_kb":4096,"wbt_lat_usec":75000,"max_sectors_kb":240,"rq_affinity":1,"nomerges":0,"queue_depth":1,
	  "iosched":{"back_seek_max":16384,"back_seek_penalty":2,"fifo_expire_async":250,"fifo_expire_sync":125,
	   "low_latency":1,"max_budget":0,"slice_idle":8,"slice_idle_us":8000,"strict_guarantees":0,"timeout_sync":125}}}'
fi

bd usb-stick.umockdev sdc1
if ran usb.sdc1.run; then
	tree usb.sdc1 'sdc1(sdc)'
	expect usb.sdc1 sdc1 '{"kind":"partition","partition":1,"parent":"sdc","devnum":"8:33"}'
fi

bd usb-stick.umockdev --all
if ran usb.all.run; then
	all_names usb.all '["sdc","sdc1"]'
	expect usb.all sdc '{"transport":"usb","removable":true,"slaves":[]}'
fi

# ------------------------------------------- SD card in a PCIe card reader (mmc)
bd sd-card.umockdev mmcblk0p1
if ran sdcard.run; then
	header sdcard mmcblk0p1
	tree sdcard 'mmcblk0p1(mmcblk0)'
	leaves sdcard '["mmcblk0"]'
	expect sdcard.p1 mmcblk0p1 '{"devnum":"179:1","kind":"partition","partition":1,"parent":"mmcblk0","size_bytes":31910789120}'
	# The reader is a platform device under the PCI function: the nearest PCI ancestor names it.
	expect sdcard mmcblk0 '{"devnode":"/dev/mmcblk0","devnum":"179:0","kind":"disk","transport":"mmc","model":"SC32G",
	 "serial":"0x8c3a1b2f","size_bytes":31914983424,"rotational":false,"removable":false,"readonly":false,
	 "controller":"Realtek Semiconductor Co., Ltd. RTS5227 PCI Express Card Reader","pci_slot":"0000:02:00.0","advisory":null,
	 "queue":{"scheduler":"bfq","nr_requests":128,"read_ahead_kb":2048,"max_sectors_kb":512,"queue_depth":null}}'
fi

# ---------------------------------------------------------------- virtio disk
VDA_WANT='{"devnode":"/dev/vda","devnum":"254:0","kind":"disk","transport":"virtio","serial":"overlayblk",
 "firmware":"","size_bytes":274877906944,"rotational":true,"removable":false,"readonly":false,
 "controller":"Red Hat, Inc. Virtio 1.0 block device","pci_slot":"0000:00:02.0","advisory":null,
 "queue":{"scheduler":"mq-deadline","schedulers":'"$ALL_SCHEDS"',"nr_requests":256,"read_ahead_kb":8192,
  "wbt_lat_usec":75000,"max_sectors_kb":4096,"rq_affinity":1,"nomerges":0,"queue_depth":null,
  "iosched":{"async_depth":256,"fifo_batch":16,"front_merges":1,"prio_aging_expire":10000,"read_expire":500,"write_expire":5000,"writes_starved":2}}}'
bd virtio-disk.umockdev /dev/vda
if ran virtio.run; then
	header virtio /dev/vda
	tree virtio vda
	leaves virtio '["vda"]'
	expect virtio vda "$VDA_WANT"
fi

bd virtio-disk.umockdev --all
if ran virtio.all.run; then
	all_names virtio.all '["vda","zram0"]'
	expect virtio.all vda '{"transport":"virtio","controller":"Red Hat, Inc. Virtio 1.0 block device","slaves":[]}'
	# zram is bio-based: no scheduler, nr_requests, wbt_lat_usec or rq_affinity files.
	expect virtio.all.zram0 zram0 '{"devnode":"/dev/zram0","devnum":"253:0","kind":"zram","transport":"","controller":"",
	 "pci_slot":"","size_bytes":4294967296,"rotational":false,"slaves":[],"advisory":null,
	 "queue":{"scheduler":"","nr_requests":null,"wbt_lat_usec":null,"rq_affinity":null,"read_ahead_kb":128,
	  "max_sectors_kb":124,"queue_depth":null}}'
fi

# ---------------------------------------------------------------- loop on a file
bd loop-file.umockdev loop0
if ran loop.run; then
	header loop loop0
	tree loop loop0
	leaves loop '["loop0"]'
	expect loop loop0 '{"devnode":"/dev/loop0","devnum":"7:0","kind":"loop","transport":"","controller":"","pci_slot":"",
	 "size_bytes":2147483648,"rotational":false,"readonly":false,"advisory":null,
	 "loop":{"backing_file":"/var/lib/brisk-testbed/disk.img","dio":true},
	 "queue":{"scheduler":"none","schedulers":'"$ALL_SCHEDS"',"nr_requests":128,"read_ahead_kb":128,"wbt_lat_usec":2000,
	  "max_sectors_kb":1280,"rq_affinity":1,"nomerges":0,"queue_depth":null,"iosched":{}}}'
	absent loop loop0 partition parent md dm
fi

bd loop-file.umockdev --all
if ran loop.all.run; then
	all_names loop.all '["loop0","loop1"]'
	expect loop.all.loop0 loop0 '{"kind":"loop","slaves":[],"loop":{"backing_file":"/var/lib/brisk-testbed/disk.img","dio":true}}'
	# An unattached loop device: no loop/ directory in sysfs.
	expect loop.all.loop1 loop1 '{"kind":"loop","size_bytes":0,"loop":{"backing_file":"","dio":null}}'
fi
exit 0
