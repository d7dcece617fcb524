#!/bin/bash
# Issue 11 parts 2 and 5: profile text never becomes config or terminal
# control.  An unprivileged user (nobody) writes the profiles; root runs
# brisk.  Checks:
#  - the loader refuses CR, ESC, DEL, C1 (\xc2\x85) and invalid UTF-8 (\xff)
#    in the description, the name, a settings value and a section name:
#    exit 2, "FILE:LINE:", the byte named escaped, nothing written;
#  - the tmpfiles reproducer: systemd-tmpfiles --create on what brisk wrote
#    creates nothing;
#  - a clean but hostile description ([sysctl], RUN+=, %, trailing '\') in
#    every format stays one comment/summary line: tmpfiles creates nothing,
#    python3 configparser sees only the keys brisk meant, the udev file
#    holds only comments and the rule, sysctl/sysfs.conf only their lines;
#  - a file name that gives no profile name is refused (no 60-brisk-.rules);
#  - profile list/show and error messages print file names escaped.
# Exports address a testbed disk (umockdev) so no real device is involved.
source tests/lib.sh

if ! is_root; then
	t_skip security_export "needs root (setpriv to nobody, root runs brisk)"
	exit 0
fi
t_umockdev || { t_skip security_export "$T_UMOCKDEV_WHY"; exit 0; }
d=$(t_tmpdir)
chown 65534:65534 "$d"
chmod 755 "$d"
# as_nobody CMD...: the untrusted party
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
# bx ARGS...: root runs brisk inside the SATA testbed (sda, sdb)
bx() { umockdev-run -d tests/fixtures/sata-hdd.umockdev -- "$BRISK" "$@"; }
# raw_ctl FILE: 0 when FILE holds a C0 control byte other than TAB/LF, DEL,
# a C1 control (UTF-8 \xc2\x80-\x9f) or invalid UTF-8
raw_ctl() { LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]' "$1" ||
	    ! iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; }

# ---- the loader refuses bad bytes: 4 places x 5 byte kinds ----
declare -A BYTE=([cr]='\r' [esc]='\033' [del]='\177' [c1]='\302\205' [ff]='\377')
declare -A SHOWN=([cr]='\\x0d' [esc]='\\x1b' [del]='\\x7f' [c1]='\\xc2\\x85' [ff]='\\xff')
for k in cr esc del c1 ff; do
	b=${BYTE[$k]}
	for where in description name setting section; do
		f=$d/$k-$where.profile
		case $where in
		description) body="[profile]\nname = p\ndescription = x${b}f /INJECTED 0644 root root - x\n[settings]\nvm.dirty_ratio = 20\n"; line=3 ;;
		name)        body="[profile]\nname = p${b}q\n[settings]\nvm.dirty_ratio = 20\n"; line=2 ;;
		setting)     body="[profile]\nname = p\n[settings]\nvm.dirty_ratio = 2${b}0\n"; line=4 ;;
		section)     body="[profile]\nname = p\n[settings]\nvm.dirty_ratio = 20\n[load w${b}]\nrw = write\n"; line=5 ;;
		esac
		# shellcheck disable=SC2059
		as_nobody sh -c "printf '$body' > '$f'"
		rm -f "$d/out.conf"
		bx export "$f" --format tmpfiles --device sda -o "$d/out.conf" >"$d/stdout" 2>"$d/stderr"
		rc=$?
		t_eq "refuse-$k-$where-exit" "$rc" 2
		t_match "refuse-$k-$where-fileline" "$(cat "$d/stderr")" "^brisk export: $f:$line: .*${SHOWN[$k]}"
		if raw_ctl "$d/stderr"; then t_fail "refuse-$k-$where-stderr-escaped" "raw byte in: $(head -c 200 "$d/stderr" | od -c | head -3)"
		else t_pass "refuse-$k-$where-stderr-escaped"; fi
		if [ -e "$d/out.conf" ]; then t_fail "refuse-$k-$where-nothing-written" "$d/out.conf exists"
		else t_pass "refuse-$k-$where-nothing-written"; fi
		out=$("$BRISK" profile check "$f" 2>&1); rc=$?
		t_eq "check-$k-$where-exit" "$rc" 2
		t_match "check-$k-$where-fileline" "$out" "$f:$line: .*${SHOWN[$k]}"
	done
done

# ---- the reproducer from the issue, end to end ----
printf '[profile]\nname=inj2\ndescription = x\rf /INJECTED 0644 root root - injected\n[settings]\nvm.dirty_ratio = 20\n' >"$d/inj2.profile.tmp"
as_nobody cp "$d/inj2.profile.tmp" "$d/inj2.profile"
rm -f "$d/inj2.profile.tmp"
bx export "$d/inj2.profile" --format tmpfiles --device sda -o "$d/inj2.conf" >/dev/null 2>&1
mkdir -p "$d/root"
[ -e "$d/inj2.conf" ] && systemd-tmpfiles --create --root="$d/root" "$d/inj2.conf" >/dev/null 2>&1
t_eq tmpfiles-reproducer-creates-nothing "$(find "$d/root" -mindepth 1 | head -3)" ""

# ---- clean but hostile text in every format ----
hostile='x [sysctl] kernel.core_pattern=|/tmp/evil RUN+="/bin/x" %h ; # \'
as_nobody sh -c "cat > '$d/hostile.profile'" <<EOF
[profile]
name = hostile
description = $hostile
[settings]
scheduler = mq-deadline
nr_requests = 64
read_ahead_kb = 256
rq_affinity = 2
vm.dirty_ratio = 20
EOF
for fmt in udev tuned sysctl sysfs.conf tmpfiles; do
	args=(--format "$fmt")
	case $fmt in sysfs.conf|tmpfiles) args+=(--device sda) ;; esac
	rm -f "$d/h.$fmt"
	bx export "$d/hostile.profile" "${args[@]}" -o "$d/h.$fmt" >/dev/null 2>"$d/stderr"
	t_eq "hostile-$fmt-exit" "$?" 0
	if raw_ctl "$d/h.$fmt"; then t_fail "hostile-$fmt-no-control" "raw control byte"
	else t_pass "hostile-$fmt-no-control"; fi
	# every line is a comment, empty, or one the format's writer makes
	case $fmt in
	udev)       re='^(#.*|ACTION=="add\|change", SUBSYSTEM=="block", ENV\{DEVTYPE\}=="disk", .*|  ATTR\{[a-z_/]+\}="[a-z0-9-]+",? ?\\?)?$' ;;
	tuned)      re='^(#.*|\[(main|disk_[a-z_]+|sysfs|sysctl)\]|summary=brisk profile hostile: .*|type=disk|devices=[a-z*]+( [a-z*]+)*|elevator=[a-z-]+|readahead=[0-9]+|/sys/block/[a-z*]+/[a-z_/]+=[0-9a-z-]+|vm\.[a-z_]+=[0-9]+)?$' ;;
	sysctl)     re='^(#.*|vm\.[a-z_]+ = [0-9]+)?$' ;;
	sysfs.conf) re='^(#.*|block/sda/[a-z_/]+ = [0-9a-z-]+)?$' ;;
	tmpfiles)   re='^(#.*|w /(sys/block/sda|proc/sys/vm)/[a-z_/]+ - - - - [0-9a-z-]+)?$' ;;
	esac
	bad=$(grep -cvE "$re" "$d/h.$fmt")
	t_eq "hostile-$fmt-only-own-lines" "$bad" 0
	# what stderr says (the hardware-bound nr_requests dropped by class) is plain
	if raw_ctl "$d/stderr"; then t_fail "hostile-$fmt-stderr-plain" "raw control byte"
	else t_pass "hostile-$fmt-stderr-plain"; fi
done
rm -rf "$d/root" && mkdir "$d/root"
systemd-tmpfiles --create --root="$d/root" "$d/h.tmpfiles" >/dev/null 2>&1
t_eq hostile-tmpfiles-creates-nothing "$(find "$d/root" -mindepth 1 | head -3)" ""
if command -v python3 >/dev/null 2>&1; then
	got=$(python3 - "$d/h.tuned" <<'EOF'
import configparser, sys
c = configparser.ConfigParser(interpolation=None, strict=True)
c.optionxform = str
c.read(sys.argv[1])
print(" ".join(f"{s}.{k}" for s in c.sections() for k in c[s]))
EOF
)
	t_eq hostile-tuned-configparser-keys "$got" \
	     "main.summary disk_sd_vd_xvd.type disk_sd_vd_xvd.devices disk_sd_vd_xvd.elevator disk_sd_vd_xvd.readahead disk_nvme.type disk_nvme.devices disk_nvme.elevator disk_nvme.readahead disk_mmc.type disk_mmc.devices disk_mmc.elevator disk_mmc.readahead sysfs./sys/block/sd*/queue/rq_affinity sysfs./sys/block/vd*/queue/rq_affinity sysfs./sys/block/xvd*/queue/rq_affinity sysfs./sys/block/nvme*n*/queue/rq_affinity sysfs./sys/block/mmcblk*/queue/rq_affinity sysctl.vm.dirty_ratio"
else
	t_skip hostile-tuned-configparser "python3 is not installed"
fi

# ---- a file name that gives no profile name ----
for fname in .profile -x.profile 'a b.profile'; do
	as_nobody sh -c "printf '[settings]\nvm.dirty_ratio = 20\n' > '$d/$fname'"
	rm -f "$d/noname.out"
	bx export "$d/$fname" --format sysctl -o "$d/noname.out" >/dev/null 2>"$d/stderr"
	t_eq "noname-refused ($fname)" "$?" 2
	t_match "noname-message ($fname)" "$(cat "$d/stderr")" "gives no profile name"
	if [ -e "$d/noname.out" ]; then t_fail "noname-nothing-written ($fname)" "written"
	else t_pass "noname-nothing-written ($fname)"; fi
done

# ---- profile list/show and errors print file names escaped ----
x=$d/xdg
as_nobody mkdir -p "$x/brisk/profiles"
as_nobody sh -c "printf '[profile]\ndescription = fine\n[settings]\nvm.dirty_ratio = 20\n' > '$x/brisk/profiles/t'\$(printf '\033]0;PWNED\007')'.profile'"
XDG_CONFIG_HOME=$x "$BRISK" profile list >"$d/list" 2>&1
if raw_ctl "$d/list"; then t_fail list-escaped "raw control byte in profile list"
else t_pass list-escaped; fi
t_match list-shows-escape "$(cat "$d/list")" 't\\x1b\]0;PWNED\\x07'
f=$(printf '%s/t\033]0;PWNED\007.profile' "$x/brisk/profiles")
"$BRISK" profile show "$f" >"$d/show" 2>&1
t_eq show-exit "$?" 2
if raw_ctl "$d/show"; then t_fail show-escaped "raw control byte in profile show"
else t_pass show-escaped; fi
"$BRISK" profile check "$d/esc-name.profile" >"$d/check" 2>&1
if raw_ctl "$d/check"; then t_fail check-escaped "raw control byte in profile check"
else t_pass check-escaped; fi
