#!/bin/bash
# Every man page is clean: `mandoc -Tlint` says nothing (no error, warning
# or style message: a text line over 80 bytes is one) and `man --warnings`
# (groff's warnings, rendered at 80 columns) prints nothing.  One line per
# page.  mandoc is a test dependency; without it only man --warnings is
# checked, and the script says so.  No root needed.
source tests/lib.sh

have_mandoc=1 have_man=1
command -v mandoc >/dev/null || have_mandoc=0
command -v man >/dev/null && command -v groff >/dev/null || have_man=0
if [ $have_mandoc = 0 ]; then
  t_skip mandoc-lint "mandoc is not installed (Debian: apt-get install mandoc)"
fi
if [ $have_man = 0 ]; then
  t_skip man-warnings "man or groff is not installed"
fi
[ $have_mandoc = 1 ] || [ $have_man = 1 ] || exit 0

pages=(man/*.[1-9])
t_match pages-found "${#pages[@]}" '^[1-9][0-9]*$'
for p in "${pages[@]}"; do
  [ -f "$p" ] || continue
  out=""
  if [ $have_mandoc = 1 ]; then
    out=$(mandoc -Tlint "$p" 2>&1)
  fi
  if [ $have_man = 1 ]; then
    # in a UTF-8 locale and in the C locale (package builds: LANG=C), where
    # a glyph that has no ASCII fallback warns
    w=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$p" 2>&1 >/dev/null)
    w+=$(MANWIDTH=80 LC_ALL=C man --warnings -l "$p" 2>&1 >/dev/null)
    out+=${w:+${out:+; }man --warnings: $w}
  fi
  if [ -z "$out" ]; then
    t_pass "lint-$(basename "$p")"
  else
    t_fail "lint-$(basename "$p")" "$(printf '%s' "$out" | head -5 | tr '\n' ' ')"
  fi
done
