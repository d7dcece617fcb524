#!/bin/sh
# Install what brisk needs to build (build) or to build and test (test).
#   packaging/install-deps.sh [--check|--missing] build|test
# With --check it installs nothing and exits 1 when something is missing;
# with --missing it installs nothing and prints the packages it would
# install that are not installed yet, one per line (what an install leaves).
# Knows apt (Debian, Ubuntu), dnf (Fedora), pacman (Arch) and zypper (openSUSE);
# uses sudo when not root.
set -eu

check=0 list_missing=0
case "${1:-}" in --check) check=1; shift;; --missing) list_missing=1; shift;; esac
what=${1:-build}
case "$what" in build|test) ;; *) echo "usage: $0 [--check|--missing] build|test" >&2; exit 2;; esac

# pkg-config modules and commands each set needs.
build_pc="ncursesw libudev libsystemd libpci inih json-c fuse3 cairo liburing"
build_cmd="cc pkg-config"
# the breakdown's BPF collector (probes/iowhy.bpf.c): clang's BPF target,
# bpftool for the skeleton, libbpf to load it (make BPF=0 builds without)
build_pc="$build_pc libbpf"
build_cmd="$build_cmd clang bpftool"
test_pc="cmocka umockdev-1.0"
test_cmd="umockdev-run tmux mkfs.ext4 losetup fio jq xmllint shellcheck mandoc"
# tests/cli/completion_*.sh: the zsh and fish completions, driven in those
# shells (same package names in apt, dnf, pacman, zypper)
test_cmd="$test_cmd zsh fish"
# tests/cli/ansible_fleet.sh: the playbook in packaging/ansible (ansible-core)
# and ansible-lint; the packages have these names in apt, dnf, pacman, zypper
test_cmd="$test_cmd ansible-playbook ansible-lint"
ansible=
[ "$what" = test ] && ansible="ansible-core ansible-lint"

missing=0
have_pc() { pkg-config --exists "$1" 2>/dev/null; }
# the OpenMetrics parser tests/cli/openmetrics_*.sh validate with: Python's
# prometheus_client (promtool too where it comes without a server to start:
# pacman, zypper, newer apt; not required)
have_om_parser() {
  for py in /usr/bin/python3 python3; do
    "$py" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null && return 0
  done
  return 1
}
have_cmd() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/sbin/$1" ]; }
# tests/cli/json_schema.sh validates every JSON output against schemas/
# with Python's jsonschema (python3-jsonschema; Arch: python-jsonschema)
have_jsonschema() { /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; }
for p in $build_pc; do have_pc "$p" || missing=1; done
for c in $build_cmd; do have_cmd "$c" || missing=1; done
if [ "$what" = test ]; then
  for p in $test_pc; do have_pc "$p" || missing=1; done
  for c in $test_cmd; do have_cmd "$c" || missing=1; done
  [ -e /usr/share/misc/pci.ids ] || [ -e /usr/share/hwdata/pci.ids ] || missing=1
  [ -e /usr/share/bash-completion/bash_completion ] || missing=1   # tests/cli/completion_bash.sh
  have_om_parser || missing=1
  have_jsonschema || missing=1
  # tests/cli/locale_numeric.sh makes de_DE locales of its own with
  # localedef from the glibc locale sources
  [ -e /usr/share/i18n/locales/de_DE ] || missing=1
  # tests/cli/package_deb.sh builds the .deb and runs lintian: Debian and
  # Ubuntu only (elsewhere the test skips, and nothing is asked for)
  if command -v apt-get >/dev/null; then
    for c in dpkg-buildpackage dh lintian blhc; do have_cmd "$c" || missing=1; done
  fi
fi
# The packages for this distribution's manager: sets mgr and pkgs.
if command -v apt-get >/dev/null; then
  mgr=apt
  pkgs="build-essential pkg-config libncurses-dev libudev-dev libsystemd-dev libpci-dev pci.ids libinih-dev libjson-c-dev libfuse3-dev fuse3 libcairo2-dev liburing-dev clang bpftool libbpf-dev"
  [ "$what" = test ] && pkgs="$pkgs libcmocka-dev umockdev libumockdev-dev tmux e2fsprogs util-linux fio jq libxml2-utils shellcheck mandoc bash-completion zsh fish dpkg-dev debhelper lintian blhc python3-prometheus-client python3-jsonschema locales"
  # promtool has a package of its own from Debian 13 and Ubuntu 25.10 on;
  # Debian 12 ships it only in the prometheus server package, whose install
  # starts a server: not brought in for a test
  [ "$what" = test ] && apt-cache show promtool >/dev/null 2>&1 && pkgs="$pkgs promtool"
elif command -v dnf >/dev/null; then
  mgr=dnf
  pkgs="gcc make pkgconf-pkg-config ncurses-devel systemd-devel pciutils-devel hwdata inih-devel json-c-devel fuse3-devel fuse3 cairo-devel liburing-devel clang bpftool libbpf-devel"
  [ "$what" = test ] && pkgs="$pkgs libcmocka-devel umockdev umockdev-devel tmux e2fsprogs util-linux fio jq libxml2 ShellCheck mandoc bash-completion zsh fish python3-prometheus_client python3-jsonschema glibc-locale-source"
elif command -v pacman >/dev/null; then
  mgr=pacman
  pkgs="base-devel pkgconf ncurses systemd-libs pciutils hwdata libinih json-c fuse3 cairo liburing clang bpf libbpf"
  [ "$what" = test ] && pkgs="$pkgs cmocka umockdev tmux e2fsprogs util-linux fio jq libxml2 shellcheck mandoc bash-completion zsh fish python-prometheus_client python-jsonschema prometheus"
elif command -v zypper >/dev/null; then
  mgr=zypper
  pkgs="gcc make pkg-config ncurses-devel libudev-devel systemd-devel pciutils-devel hwdata libinih-devel libjson-c-devel fuse3-devel fuse3 cairo-devel liburing-devel clang bpftool libbpf-devel"
  [ "$what" = test ] && pkgs="$pkgs libcmocka-devel umockdev umockdev-devel tmux e2fsprogs util-linux fio jq libxml2-tools ShellCheck mandoc bash-completion zsh fish python3-prometheus_client python3-jsonschema glibc-i18ndata golang-github-prometheus-prometheus"
else
  [ "$missing" = 0 ] && [ "$list_missing" = 0 ] && exit 0
  [ "$check" = 1 ] && exit 1
  echo "install-deps: no apt-get, dnf, pacman or zypper here: install the packages listed in packaging/install-deps.sh by hand" >&2
  exit 1
fi
pkgs="$pkgs $ansible"

# --missing: the packages of the list not installed yet (an install brings
# these, and what they depend on)
if [ "$list_missing" = 1 ]; then
  installed() {
    case "$mgr" in
      apt) dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null | grep -q '^ii' ;;
      dnf|zypper) rpm -q --whatprovides "$1" >/dev/null 2>&1 ;;
      pacman) pacman -Q "$1" >/dev/null 2>&1 || pacman -Qg "$1" >/dev/null 2>&1 ;;
    esac
  }
  for p in $pkgs; do installed "$p" || echo "$p"; done
  exit 0
fi

[ "$missing" = 0 ] && exit 0
[ "$check" = 1 ] && exit 1

if [ "$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null; then SUDO=sudo; else
  echo "install-deps: missing packages and neither root nor sudo: install them by hand (see packaging/install-deps.sh)" >&2; exit 1
fi

# shellcheck disable=SC2086  # the package lists split at blanks
case "$mgr" in
  apt)
    $SUDO apt-get update -qq || true
    case " $pkgs " in *" promtool "*) ;; *)
      [ "$what" = test ] && apt-cache show promtool >/dev/null 2>&1 && pkgs="$pkgs promtool" ;; esac
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $pkgs ;;
  dnf) $SUDO dnf install -y $pkgs ;;
  pacman) $SUDO pacman -S --needed --noconfirm $pkgs ;;
  zypper) $SUDO zypper --non-interactive install $pkgs ;;
esac
