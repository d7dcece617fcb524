#!/bin/bash
# The copied program start finds its libraries as the loader does: a
# library in a directory that only ld.so.conf names (as on Fedora's
# /usr/lib64/..., Arch's or openSUSE's own directories, or a vendor's
# /opt/X/lib) comes from the loader's cache, not from a list of multiarch
# directories.  A program and its library are built here (cc), the
# library's directory goes into a cache of the test's own (ldconfig -C),
# bound over /etc/ld.so.cache in a mount namespace of the copier only; the
# copy then starts and prints what the library returns.  Needs root (the
# namespace), cc and ldconfig.
source tests/lib.sh
if ! is_root; then t_skip exec-ldconfig "needs root (a mount namespace for the cache)"; exit 0; fi
ldc=$(command -v ldconfig || echo /sbin/ldconfig)
for c in cc unshare "$ldc"; do
  command -v "$c" >/dev/null 2>&1 || { t_skip exec-ldconfig "no $c"; exit 0; }
done
H=build/tests/helpers/progcopy_run
[ -x "$H" ] || { t_fail exec-ldconfig "no $H (make tests)"; exit 0; }
d=$(t_tmpdir)
mkdir "$d/vendor" "$d/work" "$d/work2"
printf 'const char *brisk_t_word(void) { return "from-the-vendor-dir"; }\n' >"$d/lib.c"
printf '#include <stdio.h>\nconst char *brisk_t_word(void);\nint main(void) { puts(brisk_t_word()); return 0; }\n' >"$d/prog.c"
if ! cc -shared -fPIC -Wl,-soname,libbriskt.so.1 -o "$d/vendor/libbriskt.so.1" "$d/lib.c" ||
   ! cc -o "$d/prog" "$d/prog.c" "$d/vendor/libbriskt.so.1"; then
  t_fail exec-ldconfig "cannot build the test program"; exit 0
fi
# no RPATH/RUNPATH: only the cache can name the directory
if readelf -d "$d/prog" 2>/dev/null | grep -qE 'RPATH|RUNPATH'; then
  t_fail "the test program has no RPATH" "$(readelf -d "$d/prog" | grep -E 'RPATH|RUNPATH')"
fi
printf 'include /etc/ld.so.conf\n%s\n' "$d/vendor" >"$d/ld.so.conf"
"$ldc" -C "$d/ld.so.cache" -f "$d/ld.so.conf" 2>/dev/null
t_match "the test's cache holds the library" "$("$ldc" -p -C "$d/ld.so.cache" 2>/dev/null)" \
  "libbriskt\.so\.1 .*=> $d/vendor/libbriskt\.so\.1"

# the copier with the test's cache in place of the machine's
out=$(unshare -m sh -c 'mount --make-rprivate / && mount --bind "$1" /etc/ld.so.cache &&
      exec "$2" "$3" "$4"' sh "$d/ld.so.cache" "$H" "$d/prog" "$d/work" 2>&1); rc=$?
t_eq "copied with the library of ld.so.conf's directory: exit 0" "$rc" "0"
t_match "the library is in the copy" "$out" '^prog/lib/libbriskt\.so\.1$'
# the command line the copier printed, run from prog/ as the exec action does
cmd=$(sed -n 's/^run: //p' <<<"$out")
# shellcheck disable=SC2086  # the command line the copier printed
t_eq "the copy starts and uses it" "$(cd "$d/work/prog" && $cmd 2>&1)" "from-the-vendor-dir"
# the machine's own cache does not name the directory: not found (the
# check above is the cache's doing)
out=$("$H" "$d/prog" "$d/work2" 2>&1); rc=$?
t_eq "without the test's cache: not found" "$rc" 1
t_match "and says which library" "$out" 'libbriskt\.so\.1'
