#!/bin/bash
# make install into a DESTDIR: every command has a manual entry (get and
# restore as .so links to brisk-set(1), which documents them), the
# completions and data are where the Makefile says, and make uninstall
# leaves no file behind.  No root needed.
source tests/lib.sh
d=$(t_tmpdir)
if ! make -s install DESTDIR="$d" PREFIX=/usr BASHCOMPDIR=/usr/share/bash-completion/completions \
     >"$d.log" 2>&1; then
  t_fail install "$(tail -5 "$d.log")"; rm -f "$d.log"; exit 0
fi
rm -f "$d.log"
m=$d/usr/share/man/man1
# the commands brisk --help lists, each with a page
for c in $("$BRISK" --help | awk '/^  [a-z]+ / { print $1 }'); do
  [ "$c" = help ] && continue
  if [ -f "$m/brisk-$c.1" ]; then t_pass "man page for $c"; else t_fail "man page for $c" "no $m/brisk-$c.1"; fi
done
for c in get restore; do
  t_eq "brisk-$c.1 is a link to brisk-set(1)" "$(cat "$m/brisk-$c.1")" ".so man1/brisk-set.1"
  if command -v man >/dev/null; then
    out=$(MANWIDTH=80 man -M "$d/usr/share/man" "brisk-$c" 2>&1 | head -5)
    t_match "man brisk-$c shows brisk-set(1)" "$out" "^BRISK-SET\\(1\\)"
  else
    t_skip "man brisk-$c" "man is not installed"
  fi
done
# the JSON Schemas (brisk(1) FILES), one per kind of JSON output
t_eq "schemas installed" "$(cd "$d/usr/share/brisk/schemas" 2>/dev/null && ls | tr '\n' ' ')" \
  "$(cd schemas && ls | tr '\n' ' ')"
make -s uninstall DESTDIR="$d" PREFIX=/usr BASHCOMPDIR=/usr/share/bash-completion/completions \
  >/dev/null 2>&1
t_eq "uninstall leaves no file" "$(find "$d" -type f | head -5)" ""
