#!/bin/bash
# Issue 24 part 3: TAB must not run a command.  An unprivileged user
# (nobody, with a HOME of its own; as root the test runs the shells as
# nobody, else as the caller) names profile files in
# ~/.config/brisk/profiles with backticks, $(...), ;, |, &, spaces,
# quotes, a backslash, a glob, a newline and a leading dash, most of them
# holding `id>pwnN`, and lab state files in a runtime directory alike.
#  - `brisk profile list` lists only the good name, names each other file
#    on stderr (escaped: no raw newline) and exits 2;
#  - bash (the real _brisk with COMP_WORDS set), zsh (an interactive zsh
#    in a zpty with compinit, TAB pressed: tests/helpers/zsh_complete.zsh)
#    and fish (complete -C) after `brisk export`, `run -p`, `run
#    --profile=`, `compare`, `profile show` and `lab down` offer the good
#    names and only plain words, and run nothing: no pwn* file appears in
#    the working directory;
#  - the same with a brisk that lists the hostile names (as one before
#    issue 24 did): the completions' own name rule holds;
#  - bash's _brisk_add offers a word that is not plain quoted, so the
#    shell reads back the word itself.
source tests/lib.sh
N=completion_hostile
H=$(t_tmpdir) || { t_fail $N "no temporary directory"; exit 0; }
chmod 755 "$H"
RUN=()
if is_root && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
  NOBODY=$(id -u nobody)
  RUN=(setpriv --reuid="$NOBODY" --regid="$NOBODY" --clear-groups)
fi
mkdir -p "$H/home/.config/brisk/profiles" "$H/cwd" "$H/rt/lab" "$H/bin" "$H/out"
ln -s "$(cd "$(dirname "$BRISK")" && pwd)/$(basename "$BRISK")" "$H/bin/brisk"
P=$H/home/.config/brisk/profiles
# shellcheck disable=SC2016  # the names hold $ and backticks on purpose
hostile=('a`id>pwn1`' '$(id>pwn2)' 'b;id>pwn3' 'c|id>pwn4' 'd&id>pwn5&' 'sp ace' "q'uote"
         'd"q' $'nl\nid>pwn6' '-dash' 'e$((6*7))' 'f${HOME}' 'g\h' 'h*')
for n in "${hostile[@]}" ok-1; do
  printf '[profile]\ndescription = a profile\n[load w]\nrw = write\n' >"$P/$n.profile"
done
# shellcheck disable=SC2016
for n in lab0 '$(id>pwn7)' 'l`id>pwn8`' 'sp ace'; do : >"$H/rt/lab/$n.state"; done
[ "${#RUN[@]}" -gt 0 ] && chown -R "$NOBODY" "$H/home" "$H/cwd" "$H/rt" "$H/out"
chmod 700 "$H/rt"
# as_user CMD...: CMD as the unprivileged user, in its HOME and working
# directory, with the tree's brisk (or BIN's) first in PATH
as_user() {
  (cd "$H/cwd" && "${RUN[@]}" env HOME="$H/home" XDG_CONFIG_HOME= XDG_DATA_HOME= \
     BRISK_RUNTIME_DIR="$H/rt" PATH="${BIN:-$H/bin}:$PATH" "$@")
}
# pwned NAME: FAIL when a hostile name ran, naming the files it made
pwned() {
  local made
  made=$(find "$H" -name 'pwn[0-9]*' ! -name '*.profile' ! -name '*.state' 2>/dev/null)
  if [ -n "$made" ]; then t_fail "$1" "a command ran: $(tr '\n' ' ' <<<"$made")"; rm -f "$H"/cwd/pwn*
  else t_pass "$1"; fi
}
# offers NAME WANT OUTPUT: WANT (if not empty) is among the words of
# OUTPUT (one a line), and every word is plain (what a profile or lab
# name may be, a path, or a KEY=)
offers() {
  local bad
  if [ -n "$2" ] && ! grep -qxF -- "$2" <<<"$3"; then
    t_fail "$1" "no $2 in '$(tr '\n' ' ' <<<"$3")'"; return
  fi
  bad=$(grep -vxE '[A-Za-z0-9_][A-Za-z0-9._/-]*=?' <<<"$3" | grep -v '^$')
  if [ -n "$bad" ]; then t_fail "$1" "offered '$(head -5 <<<"$bad" | tr '\n' '|')'"
  else t_pass "$1"; fi
}

# ---- brisk profile list ----
as_user brisk profile list >"$H/out/list" 2>"$H/out/list.err"
t_eq list-exit "$?" 2
t_eq list-only-good "$(awk '$2 == "user" { print $1 }' "$H/out/list")" ok-1
t_eq list-names-each "$(grep -c 'not listed: its name is no profile name' "$H/out/list.err")" "${#hostile[@]}"
t_check list-escapes-newline grep -qF 'nl\x0aid>pwn6.profile: not listed' "$H/out/list.err"
pwned list-runs-nothing

# the command lines, as words (bash) and as typed (zsh, fish)
cases=(export 'brisk export ' run-p 'brisk run -p ' run-profile 'brisk run --profile='
       compare 'brisk compare ' compare-a 'brisk compare a' profile-show 'brisk profile show '
       lab-down 'brisk lab down ')
want() { case $1 in lab-down) echo lab0 ;; compare-a) echo '' ;; *) echo ok-1 ;; esac; }
# a brisk that lists every file as it is, as one before issue 24 did
mkdir "$H/oldbin"
{ printf '#!/bin/sh\n[ "$1 $2" = "profile list" ] || exec %q "$@"\n' "$H/bin/brisk"
  printf 'for f in "$HOME"/.config/brisk/profiles/*.profile; do\n'
  printf '  n=${f##*/}; printf "%%s user a profile\\n" "${n%%.profile}"\ndone\n'
} >"$H/oldbin/brisk"
chmod 755 "$H/oldbin/brisk"
# as_old_user CMD...: as_user, with that brisk first in PATH
as_old_user() { BIN=$H/oldbin as_user "$@"; }

# ---- bash ----
bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ]; then
  t_skip bash "bash-completion is not installed (Debian: apt-get install bash-completion)"
else
  # shellcheck disable=SC2016  # expanded by the bash run below
  harness='source "$1"; source "$2"; shift 2
    compopt() { :; }
    # split as bash does: at blanks, "=" its own word
    line=$1; read -ra COMP_WORDS <<<"${line//=/ = }"; [[ $line == *[\ =] ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMP_LINE=$line COMP_POINT=${#line}
    _brisk brisk "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    printf "%s\n" "${COMPREPLY[@]}"'
  for ((i = 0; i < ${#cases[@]}; i += 2)); do
    c=${cases[i]} line=${cases[i + 1]}
    got=$(as_user bash --norc --noprofile -c "$harness" bash "$bc" "$PWD/completions/brisk.bash" "$line" 2>&1)
    offers "bash-$c" "$(want "$c")" "$got"
    pwned "bash-$c-runs-nothing"
  done
  got=$(as_old_user bash --norc --noprofile -c "$harness" bash "$bc" "$PWD/completions/brisk.bash" 'brisk export ' 2>&1)
  offers bash-old-brisk "ok-1" "$got"
  pwned bash-old-brisk-runs-nothing
  # shellcheck disable=SC2016  # expanded by the bash run below
  got=$(as_user bash --norc --noprofile -c 'source "$1"; COMPREPLY=()
    _brisk_add "" "" "" "a\`id>pwn9\` \$(id>pwn10) ok"
    for q in "${COMPREPLY[@]}"; do eval "w=$q"; printf "%s\n" "$w"; done' bash "$PWD/completions/brisk.bash" 2>&1)
  # shellcheck disable=SC2016
  t_eq bash-add-quotes "$got" "$(printf '%s\n' 'a`id>pwn9`' '$(id>pwn10)' ok)"
  pwned bash-add-quotes-runs-nothing
fi

# ---- zsh ----
if ! command -v zsh >/dev/null 2>&1; then
  t_skip zsh "zsh is not installed (Debian: apt-get install zsh)"
elif ! zsh -fc 'zmodload zsh/zpty' 2>/dev/null; then
  t_skip zsh "zsh has no zsh/zpty module"
else
  for ((i = 0; i < ${#cases[@]}; i += 2)); do
    c=${cases[i]} line=${cases[i + 1]}
    o=$H/out/zsh-$c
    if ! as_user zsh -f "$PWD/tests/helpers/zsh_complete.zsh" "$o" "$PWD/completions" "$line"; then
      t_fail "zsh-$c" "no completion within 10 s"; continue
    fi
    got=$(grep -vx DONE "$o")
    offers "zsh-$c" "$(want "$c")" "$got"
    pwned "zsh-$c-runs-nothing"
  done
  if as_old_user zsh -f "$PWD/tests/helpers/zsh_complete.zsh" "$H/out/zsh-old" "$PWD/completions" 'brisk export '; then
    offers zsh-old-brisk ok-1 "$(grep -vx DONE "$H/out/zsh-old")"
  else
    t_fail zsh-old-brisk "no completion within 10 s"
  fi
  pwned zsh-old-brisk-runs-nothing
fi

# ---- fish ----
if ! command -v fish >/dev/null 2>&1; then
  t_skip fish "fish is not installed (Debian: apt-get install fish)"
else
  for ((i = 0; i < ${#cases[@]}; i += 2)); do
    c=${cases[i]} line=${cases[i + 1]}
    # shellcheck disable=SC2016  # fish's variables
    got=$(as_user fish --no-config -c 'source $argv[1]; complete -C $argv[2]' \
            "$PWD/completions/brisk.fish" "$line" 2>&1 | cut -f1)
    # fish prints --profile=VALUE whole
    [ "$c" = run-profile ] && got=$(sed 's/^--profile=//' <<<"$got")
    offers "fish-$c" "$(want "$c")" "$got"
    pwned "fish-$c-runs-nothing"
  done
  # shellcheck disable=SC2016
  got=$(as_old_user fish --no-config -c 'source $argv[1]; complete -C $argv[2]' \
          "$PWD/completions/brisk.fish" 'brisk export ' 2>&1 | cut -f1)
  offers fish-old-brisk ok-1 "$got"
  pwned fish-old-brisk-runs-nothing
fi
