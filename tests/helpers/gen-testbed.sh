#!/bin/bash
# gen-testbed.sh N [DIR]: write a umockdev testbed of N SATA disks (whole
# disks, no partitions) in umockdev-record format, for benchmarking
# "brisk devices --all --json".  Without DIR it goes to stdout as one file.
# With DIR it is split into DIR/ctlNNN.umockdev (one AHCI controller and its
# 32 disks each) plus DIR/root.umockdev: umockdev-run parses one file in time
# quadratic in its size (1,000 disks in one file: ~2 minutes; split: ~20 s),
# so load them all with one -d per file:
#   umockdev-run $(for f in DIR/*.umockdev; do printf -- "-d %s " "$f"; done) -- CMD
#
# Each disk is a full SATA chain like tests/fixtures/sata-hdd.umockdev:
# block device (udev properties, size, queue/*, mq-deadline iosched/*) ->
# SCSI device (vendor, model, rev, queue_depth) -> target -> host ->
# AHCI PCI controller.  32 ports per controller, controllers behind one
# PCIe root port.  Names and numbers follow the kernel's sd driver:
# sda..sdz, sdaa..sdzz, sdaaa...; major 8, 65-71, 128-135 by (index/16)%16,
# minor (index%16)*16 + (index/256)*4096.  Models and firmware cycle
# through a few values (one in ten is an ST31000340AS SD15, which has an
# advisory), so the advisory matcher works as hard as on a real machine.
set -eu
n=${1:?usage: gen-testbed.sh N [DIR]}
case $n in ''|*[!0-9]*) echo "gen-testbed.sh: N must be a positive integer, not '$n'" >&2; exit 2;; esac
[ "$n" -ge 1 ] || { echo "gen-testbed.sh: N must be at least 1" >&2; exit 2; }
dir=${2:-}
if [ -n "$dir" ]; then
	mkdir -p "$dir" && rm -f "$dir"/*.umockdev
fi

awk -v n="$n" -v dir="$dir" '
function sdname(i,   s) {
	s = ""
	do { s = substr("abcdefghijklmnopqrstuvwxyz", i % 26 + 1, 1) s; i = int(i / 26) - 1 } while (i >= 0)
	return "sd" s
}
function sdmajor(k) { return k == 0 ? 8 : (k < 8 ? 64 + k : 120 + k) }
function pad(s, w) { while (length(s) < w) s = s " "; return s }
function enc(s, w) { s = pad(s, w); gsub(/ /, "\\x20", s); return s }
# out(): to stdout, or to the current controller file
function out(line) { if (dir == "") print line; else print line > cur }
BEGIN {
	split("ST31000340AS|ST2000DM008-2FR102|WDC WD40EFRX-68N32N0|Samsung SSD 870 EVO 1TB|CT1000MX500SSD1", models, "|")
	split("SD15|0001|82.00A82|SVT02B6Q|M3CR046", fws, "|")
	split("1|1|1|0|0", rots, "|")
	root = "/devices/pci0000:00/0000:00:1c.0"
	for (i = 0; i < n; i++) {
		if (i % 32 == 0 && dir != "") {
			if (cur != "") close(cur)
			cur = sprintf("%s/ctl%03d.umockdev", dir, int(i / 32))
		}
		name = sdname(i)
		maj = sdmajor(int(i / 16) % 16)
		min = (i % 16) * 16 + int(i / 256) * 4096
		m = (i % 10 == 0) ? 1 : 2 + i % 4
		model = models[m]; fw = fws[m]; rot = rots[m]
		bus = 1 + int(i / 32); port = i % 32 + 1
		slot = sprintf("0000:%02x:00.0", bus)
		ctl = root "/" slot
		sdev = sprintf("%s/ata%d/host%d/target%d:0:0/%d:0:0:0", ctl, i + 1, i, i, i)
		serial = sprintf("BENCH%07d", i)
		wwn = sprintf("0x5000c500%08x", i)
		idmodel = model; gsub(/ /, "_", idmodel)
		p = sdev "/block/" name
		out("P: " p)
		out("N: " name)
		out("E: DEVNAME=/dev/" name)
		out("E: DEVTYPE=disk")
		out("E: MAJOR=" maj)
		out("E: MINOR=" min)
		out("E: SUBSYSTEM=block")
		out("E: ID_ATA=1")
		out("E: ID_BUS=ata")
		out("E: ID_TYPE=disk")
		out("E: ID_MODEL=" idmodel)
		out("E: ID_MODEL_ENC=" enc(model, 40))
		out("E: ID_REVISION=" fw)
		out("E: ID_SERIAL=" idmodel "_" serial)
		out("E: ID_SERIAL_SHORT=" serial)
		out("E: ID_WWN=" wwn)
		out("E: ID_ATA_SATA=1")
		out("E: ID_PATH=pci-" slot "-ata-" port)
		out("A: dev=" maj ":" min "\\n")
		out("A: size=" (1953525168 + i * 2048) "\\n")
		out("A: removable=0\\n")
		out("A: ro=0\\n")
		out("A: range=16\\n")
		out("A: capability=0\\n")
		out("A: queue/scheduler=none [mq-deadline] kyber bfq \\n")
		out("A: queue/nr_requests=" (rot ? 64 : 256) "\\n")
		out("A: queue/read_ahead_kb=128\\n")
		out("A: queue/wbt_lat_usec=" (rot ? 75000 : 2000) "\\n")
		out("A: queue/max_sectors_kb=1280\\n")
		out("A: queue/rq_affinity=1\\n")
		out("A: queue/nomerges=0\\n")
		out("A: queue/rotational=" rot "\\n")
		out("A: queue/logical_block_size=512\\n")
		out("A: queue/physical_block_size=" (rot ? 4096 : 512) "\\n")
		out("A: queue/iosched/async_depth=48\\n")
		out("A: queue/iosched/fifo_batch=16\\n")
		out("A: queue/iosched/front_merges=1\\n")
		out("A: queue/iosched/prio_aging_expire=10000\\n")
		out("A: queue/iosched/read_expire=500\\n")
		out("A: queue/iosched/write_expire=5000\\n")
		out("A: queue/iosched/writes_starved=2\\n")
		out(sprintf("L: device=../../../%d:0:0:0", i))
		out("")
		out("P: " sdev)
		out("E: DEVTYPE=scsi_device")
		out("E: DRIVER=sd")
		out("E: SUBSYSTEM=scsi")
		out("A: vendor=ATA     \\n")
		out("A: model=" pad(substr(model, 1, 16), 16) "\\n")
		out("A: rev=" substr(fw, 1, 4) "\\n")
		out("A: queue_depth=" (rot ? 31 : 32) "\\n")
		out("A: state=running\\n")
		out("")
		out("P: " sprintf("%s/ata%d/host%d/target%d:0:0", ctl, i + 1, i, i))
		out("E: DEVTYPE=scsi_target")
		out("E: SUBSYSTEM=scsi")
		out("")
		out("P: " sprintf("%s/ata%d/host%d", ctl, i + 1, i))
		out("E: DEVTYPE=scsi_host")
		out("E: SUBSYSTEM=scsi")
		out("")
		if (i % 32 == 0) {
			out("P: " ctl)
			out("E: DRIVER=ahci")
			out("E: PCI_SLOT_NAME=" slot)
			out("E: SUBSYSTEM=pci")
			out("A: vendor=0x" (bus % 2 ? "8086" : "1b21") "\\n")
			out("A: device=0x" (bus % 2 ? "a102" : "0612") "\\n")
			out("A: class=0x010601\\n")
			out("")
		}
	}
	if (dir != "") { close(cur); cur = dir "/root.umockdev" }
	out("P: " root)
	out("E: DRIVER=pcieport")
	out("E: PCI_SLOT_NAME=0000:00:1c.0")
	out("E: SUBSYSTEM=pci")
	out("A: vendor=0x8086\\n")
	out("A: device=0xa110\\n")
	out("A: class=0x060400\\n")
}'
