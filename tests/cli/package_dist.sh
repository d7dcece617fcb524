#!/bin/bash
# The release tarball and the packaging around it:
#  - `make dist`, in a fresh clone of HEAD (as CI and a release would run
#    it; the working tree is neither used nor touched), makes
#    brisk-VERSION.tar.gz that unpacks to brisk-VERSION/ with what a build
#    and the packages need and nothing that must not ship; twice the same
#    bytes; refused with a message for a tree with uncommitted changes and
#    outside a git checkout; untracked files stay out;
#  - the version is one: Makefile, debian/changelog (upstream part), the
#    spec, the PKGBUILD; the maintainer address is one: debian/control,
#    debian/changelog, the spec's %changelog, the PKGBUILD;
#  - the PKGBUILD parses (bash -n) and is shellcheck clean as bash with the
#    usual PKGBUILD exclusions; debian/postrm and the autopkgtest script
#    are shellcheck clean (lint_shell.sh takes *.sh and *.bash only).
# Needs git and a git checkout (else SKIP).
source tests/lib.sh

P=packaging
# --- one version, one address (the working tree's files) -------------------
ver=$(sed -n 's/^VERSION *:= *//p' Makefile)
t_match makefile-version "$ver" '^[0-9]+\.[0-9]+\.[0-9]+$'
deb_full=$(sed -n '1s/^brisk (\([^)]*\)).*/\1/p' $P/debian/changelog)
t_eq debian-changelog-version "${deb_full%-*}" "$ver"
t_match debian-revision "$deb_full" '^[^-]+-[0-9]+$'
t_eq debian-source-format "$(cat $P/debian/source/format)" "3.0 (quilt)"
spec_ver=$(sed -n 's/^Version: *//p' $P/brisk.spec)
spec_rel=$(sed -n 's/^Release: *\([^%]*\).*/\1/p' $P/brisk.spec)
t_eq spec-version "$spec_ver" "$ver"
t_eq pkgbuild-pkgver "$(sed -n 's/^pkgver=//p' $P/PKGBUILD)" "$ver"

maint=$(sed -n 's/^Maintainer: *//p' $P/debian/control)
t_match maintainer-address "$maint" '^[^<>]+ <[^@<> ]+@[^@<> ]+\.[a-z]+>$'
t_eq debian-changelog-maintainer \
  "$(sed -n '/^ -- /{s/^ -- \(.*>\)  .*/\1/p;q}' $P/debian/changelog)" "$maint"
# * Tue Dec 01 2026 NAME <EMAIL> - VERSION-RELEASE
spec_cl=$(sed -n '/^%changelog/{n;p;q}' $P/brisk.spec)
t_eq spec-changelog-maintainer "$(sed 's/^\* [A-Z][a-z]\{2\} [A-Z][a-z]\{2\} [0-9]\{2\} [0-9]\{4\} \(.*>\) - .*/\1/' <<<"$spec_cl")" "$maint"
t_eq spec-changelog-version "${spec_cl##* - }" "$spec_ver-$spec_rel"
t_eq pkgbuild-maintainer "$(sed -n 's/^# Maintainer: *//p' $P/PKGBUILD)" "$maint"
# one home: the spec's URL is the Debian Homepage and the PKGBUILD's url
home=$(sed -n 's/^Homepage: *//p' $P/debian/control)
t_eq spec-url "$(sed -n 's/^URL: *//p' $P/brisk.spec)" "$home"
t_eq pkgbuild-url "$(sed -n "s/^url='\(.*\)'$/\1/p" $P/PKGBUILD)" "$home"

# --- the PKGBUILD ------------------------------------------------------------
t_check pkgbuild-bash-n bash -n $P/PKGBUILD
if command -v shellcheck >/dev/null 2>&1; then
  out=$(shellcheck --shell=bash -e SC2034,SC2154,SC2164 -f gcc $P/PKGBUILD 2>&1)
  t_eq pkgbuild-shellcheck "$out" ""
  for f in $P/debian/postrm $P/debian/tests/loop-device; do
    t_eq "shellcheck $f" "$(shellcheck -S warning -f gcc "$f" 2>&1)" ""
  done
else
  t_skip pkgbuild-shellcheck "shellcheck is not installed (Debian: apt-get install shellcheck)"
fi

# --- make dist -------------------------------------------------------------
if ! command -v git >/dev/null 2>&1; then
  t_skip dist "git is not installed"; exit 0
fi
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" != "$(pwd -P)" ]; then
  # (a checkout of another user's, run as nobody by check-noroot: git says why)
  why=$(git rev-parse --show-toplevel 2>&1 | head -1)
  t_skip dist "not a git checkout here (make dist archives git HEAD)${why:+: $why}"; exit 0
fi
d=$(t_tmpdir) || { t_fail dist-setup "no temporary directory"; exit 0; }
head=$(git rev-parse HEAD)
if ! git clone -q --no-checkout "$PWD" "$d/clone" 2>"$d/err" ||
   ! git -C "$d/clone" checkout -q "$head" 2>>"$d/err"; then
  t_fail dist-clone "git clone of HEAD failed: $(head -c 300 "$d/err")"; exit 0
fi
name=brisk-$ver
tgz=$d/clone/$name.tar.gz
make -s -C "$d/clone" dist >"$d/out" 2>&1; rc=$?
t_eq dist-exit-0 "$rc" 0
[ -f "$tgz" ] || { t_fail dist-tarball "no $name.tar.gz: $(head -c 300 "$d/out")"; exit 0; }
t_pass dist-tarball
t_eq dist-no-temporaries "$(cd "$d/clone" && ls -d ./*.tmp 2>/dev/null)" ""
list=$(tar tzf "$tgz") || { t_fail dist-gzip-tar "tar cannot read $tgz"; exit 0; }
t_eq dist-one-top-directory "$(cut -d/ -f1 <<<"$list" | sort -u)" "$name"
for f in Makefile LICENSE README.md src/ man/ completions/ packaging/ probes/ ui/ \
         profiles/ tests/run.sh packaging/brisk.spec packaging/PKGBUILD \
         packaging/check-noroot.sh packaging/debian/control packaging/debian/rules; do
  if grep -qxF "$name/$f" <<<"$list"; then t_pass "dist-has $f"; else t_fail "dist-has $f" "not in $name.tar.gz"; fi
done
bad=$(grep -E "^$name/(\.git(/|$)|build/|brisk$|debian/)|\.(o|d|a|tar\.gz|tmp)$" <<<"$list" | grep -v "^$name/\.gitignore$" | head -5)
t_eq dist-nothing-that-must-not-ship "$bad" ""
# the tarball is exactly HEAD's tree
t_eq dist-is-head "$(grep -v '/$' <<<"$list" | sed "s|^$name/||" | sort)" \
  "$(git ls-tree -r --name-only "$head" | sort)"
sum1=$(sha256sum <"$tgz")
sleep 1
touch "$d/clone/untracked-file"
make -s -C "$d/clone" dist >/dev/null 2>&1
t_eq dist-reproducible "$(sha256sum <"$tgz")" "$sum1"
t_eq dist-untracked-left-out "$(tar tzf "$tgz" | grep -c untracked-file)" 0

# refused: uncommitted changes, and outside a git checkout
echo "# local change" >>"$d/clone/README.md"
err=$(make -s -C "$d/clone" dist 2>&1); rc=$?
t_match dist-dirty-refused "$rc:$err" '^[1-9][0-9]*:.*uncommitted changes'
git -C "$d/clone" checkout -q README.md
mkdir "$d/unpacked"
tar xzf "$tgz" -C "$d/unpacked"
err=$(make -s -C "$d/unpacked/$name" dist 2>&1); rc=$?
t_match dist-outside-git-refused "$rc:$err" '^[1-9][0-9]*:.*not a git checkout'
t_eq dist-outside-git-nothing-made "$(ls "$d/unpacked/$name"/*.tar.gz 2>/dev/null)" ""
