#!/bin/bash
# The Debian package as a distribution would build it: `make dist` in a
# fresh clone of HEAD, the tarball as brisk_VERSION.orig.tar.gz, unpacked,
# packaging/debian copied to debian/, dpkg-buildpackage -us -uc (source
# and binary; nocheck: the tests are the rest of `make check`), then
#  - lintian --pedantic -I --display-experimental on the .changes: no tag
#    that is not overridden (debian/*lintian-overrides say why);
#  - blhc on the build log (when installed): nothing (verbose, all flags);
#  - the .deb: the binary, data, man pages, completions where Debian
#    wants them, README.md and copyright, the postrm; nothing under
#    /usr/local.
# Everything happens in a temporary directory; nothing is installed.
# Needs git and a git checkout, dpkg-buildpackage, lintian and the build
# dependencies (else SKIP, with what is missing).  About a minute.
source tests/lib.sh

if [ "$(git rev-parse --show-toplevel 2>/dev/null)" != "$(pwd -P)" ]; then
  why=$(git rev-parse --show-toplevel 2>&1 | head -1)
  t_skip package_deb "not a git checkout here (make dist archives git HEAD)${why:+: $why}"; exit 0
fi
for c in dpkg-buildpackage dpkg-checkbuilddeps lintian; do
  command -v $c >/dev/null 2>&1 ||
    { t_skip package_deb "$c is not installed (Debian: apt-get install dpkg-dev debhelper lintian)"; exit 0; }
done
if ! unmet=$(cd packaging && dpkg-checkbuilddeps -Pnocheck 2>&1); then
  t_skip package_deb "build dependencies missing: ${unmet##*: }"; exit 0
fi

ver=$(sed -n 's/^VERSION *:= *//p' Makefile)
deb_ver=$(sed -n '1s/^brisk (\([^)]*\)).*/\1/p' packaging/debian/changelog)
arch=$(dpkg --print-architecture)
d=$(t_tmpdir) || { t_fail setup "no temporary directory"; exit 0; }
if ! git clone -q --no-checkout "$PWD" "$d/clone" 2>"$d/err" ||
   ! git -C "$d/clone" checkout -q "$(git rev-parse HEAD)" 2>>"$d/err" ||
   ! make -s -C "$d/clone" dist >>"$d/err" 2>&1; then
  t_fail dist "git clone or make dist failed: $(head -c 300 "$d/err")"; exit 0
fi
mkdir "$d/pkg"
cp "$d/clone/brisk-$ver.tar.gz" "$d/pkg/brisk_$ver.orig.tar.gz"
rm -rf "$d/clone"
src=$d/pkg/brisk-$ver
tar xzf "$d/pkg/brisk_$ver.orig.tar.gz" -C "$d/pkg"
cp -r "$src/packaging/debian" "$src/debian"

(cd "$src" && DEB_BUILD_OPTIONS="nocheck ${DEB_BUILD_OPTIONS:-}" \
   dpkg-buildpackage -us -uc -Pnocheck -J) >"$d/build.log" 2>&1
rc=$?
t_eq dpkg-buildpackage-exit-0 "$rc" 0
if [ "$rc" != 0 ]; then echo "--- build log (tail)"; tail -20 "$d/build.log"; exit 0; fi
changes=$d/pkg/brisk_${deb_ver}_$arch.changes
deb=$d/pkg/brisk_${deb_ver}_$arch.deb
for f in "$changes" "$deb" "$d/pkg/brisk_$deb_ver.dsc" "$d/pkg/brisk_$deb_ver.debian.tar.xz"; do
  if [ -f "$f" ]; then t_pass "built $(basename "$f")"; else t_fail "built $(basename "$f")" "missing"; fi
done
t_match changes-source-and-binary "$(sed -n 's/^Architecture: //p' "$changes")" "^source .*$arch"

# lintian: every tag line (E W I P X, not overridden ones, O:) is a finding;
# its temporary files in our directory (lintian leaves mldbm-elf-* behind)
mkdir -p "$d/tmp"
lint=$(TMPDIR=$d/tmp lintian --pedantic -I --display-experimental "$changes" 2>"$d/lintian.err")
t_eq lintian-no-tags "$(grep -E '^[EWIPX]: ' <<<"$lint" | head -10)" ""
t_eq lintian-no-errors "$(grep -v 'running with root privileges' "$d/lintian.err" | head -5)" ""

if command -v blhc >/dev/null 2>&1; then
  t_eq blhc "$(blhc --debian --line-numbers "$d/build.log" 2>&1 | head -5)" ""
else
  t_skip blhc "blhc is not installed (Debian: apt-get install blhc)"
fi

files=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|')
for f in /usr/bin/brisk /usr/share/brisk/advisories.conf /usr/share/brisk/lab-models.ini \
         /usr/share/brisk/profiles/quick.profile /usr/share/man/man1/brisk.1.gz \
         /usr/share/man/man1/brisk-run.1.gz /usr/share/man/man5/brisk-profile.5.gz \
         /usr/share/bash-completion/completions/brisk /usr/share/zsh/vendor-completions/_brisk \
         /usr/share/fish/vendor_completions.d/brisk.fish /usr/share/doc/brisk/copyright; do
  if grep -qxF "$f" <<<"$files"; then t_pass "deb-has $f"; else t_fail "deb-has $f" "not in the .deb"; fi
done
# dh_compress gzips a document over 4 kB
readme=$(grep -xE '/usr/share/doc/brisk/README\.md(\.gz)?' <<<"$files")
t_match deb-has-readme "$readme" 'README'
t_eq deb-nothing-in-usr-local "$(grep '^/usr/local' <<<"$files")" ""
t_match deb-postrm "$(dpkg-deb -I "$deb")" ' postrm '
t_eq deb-maintainer "$(dpkg-deb -f "$deb" Maintainer)" \
  "$(sed -n 's/^Maintainer: *//p' packaging/debian/control)"
