#!/bin/bash
# packaging/install-deps.sh --missing against stand-ins for the package
# managers (apt, dnf, pacman), alone in PATH: --missing prints the
# packages of its list that are not installed, one per line, and installs
# nothing (the Ansible role's tarball install says with it which build
# dependencies it leaves); a bad argument exits 2.  Nothing is installed.
source tests/lib.sh
d=$(t_tmpdir) || { t_fail install_deps "no temporary directory"; exit 0; }
mkdir -p "$d/bin"
script=$PWD/packaging/install-deps.sh
# PATH is $d/bin alone: the stand-ins and grep (the real package managers
# of this machine out of sight)
ln -s "$(command -v grep)" "$d/bin/grep"
P=$d/bin

# stub NAME BODY: a command in $d/bin; each call logged in $d/calls
stub() { printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n%s\n' "$1" "$d" "$2" >"$d/bin/$1"; chmod +x "$d/bin/$1"; }
# the installed state: every package but those in $d/missing
# shellcheck disable=SC2016  # expanded by the stand-ins, not here
isin='grep -qx "$p" "'"$d"'/missing"'

# apt: dpkg-query -W -f=FORMAT PKG
stub apt-get 'exit 0'
stub apt-cache 'exit 1'
stub dpkg-query 'for p; do :; done; if '"$isin"'; then exit 1; fi; printf "ii "'
printf 'libinih-dev\nfuse3\n' >"$d/missing"
out=$(PATH=$P /bin/sh "$script" --missing build); rc=$?
t_eq "apt: --missing build: exit 0" "$rc" 0
t_eq "apt: --missing build: the missing ones, in the list's order" "$(printf '%s' "$out" | tr '\n' ' ')" "libinih-dev fuse3"
t_check "apt: --missing installs nothing" test -z "$(grep -v '^dpkg-query' "$d/calls" 2>/dev/null | grep -v '^apt-cache')"
: >"$d/missing"
t_eq "apt: --missing build: nothing missing, nothing printed" "$(PATH=$P /bin/sh "$script" --missing build)" ""
printf 'ansible-core\nlintian\n' >"$d/missing"
t_eq "apt: --missing test: its test packages too" "$(PATH=$P /bin/sh "$script" --missing test | tr '\n' ' ')" "lintian ansible-core "

# dnf: rpm -q --whatprovides PKG
rm -f "$d/bin/apt-get" "$d/bin/apt-cache" "$d/bin/dpkg-query" "$d/calls"
stub dnf 'exit 0'
stub rpm 'for p; do :; done; if '"$isin"'; then exit 1; fi; exit 0'
printf 'gcc\ninih-devel\n' >"$d/missing"
t_eq "dnf: --missing build" "$(PATH=$P /bin/sh "$script" --missing build | tr '\n' ' ')" "gcc inih-devel "
t_check "dnf: --missing installs nothing" test -z "$(grep '^dnf' "$d/calls" 2>/dev/null)"

# pacman: pacman -Q PKG, or -Qg GROUP (base-devel)
rm -f "$d/bin/dnf" "$d/bin/rpm" "$d/calls"
stub pacman 'for p; do :; done; if '"$isin"'; then exit 1; fi; exit 0'
printf 'base-devel\nlibinih\n' >"$d/missing"
t_eq "pacman: --missing build" "$(PATH=$P /bin/sh "$script" --missing build | tr '\n' ' ')" "base-devel libinih "
t_check "pacman: --missing installs nothing" test -z "$(grep -e '-S' "$d/calls" 2>/dev/null)"

# usage
PATH=$P /bin/sh "$script" --missing all >/dev/null 2>"$d/err"; rc=$?
t_eq "usage: a bad set: exit 2" "$rc" 2
t_match "usage: says the usage" "$(cat "$d/err")" 'usage: .*\[--check\|--missing\] build\|test'
