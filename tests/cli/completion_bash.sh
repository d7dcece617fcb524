#!/bin/bash
# The shell completions (completions/): the bash one is loaded with
# bash-completion and asked what a user's TAB would get: every command,
# --drop-caches, scheduler=, the schedulers /'s disk offers, the keys of
# get and set (the iosched keys of the scheduler /'s disks run, none of
# another's; set also those of a scheduler the line names), the shipped
# profile `quick`, the lab names of a runtime directory made here; and for
# each command (the list in ui/main.c) the options it completes equal those
# of its option tables (options_common.bash; man_options.sh holds --help
# and the man pages to the same).  The fish one gives the same options and
# lab names (`complete -C`) and keys, zsh the keys; zsh and fish files
# parse (-n).  The completions call `brisk` from PATH: the tree's binary is
# put first, behind a wrapper that logs the calls, which must all be
# read-only ones.  No root needed; nothing is written.
source tests/lib.sh
source tests/cli/options_common.bash

# the commands and the verbs of those that have them
subs=$(grep -oE '^[[:space:]]*\{ *"[a-z]+", *cmd_[a-z]+_main' ui/main.c | sed -E 's/.*"([a-z]+)".*/\1/')
verbs() { case $1 in profile) echo list show check save import ;; lab) echo up down status models ;; esac; }
# `brisk` on PATH: the binary under test, whatever its file is called,
# behind a wrapper that logs each call's BRISK_RUNTIME_DIR and arguments
bindir=$(t_tmpdir) || { t_fail setup "no temporary directory"; exit 0; }
calls=$bindir/calls
real=$(cd "$(dirname "$BRISK")" && pwd)/$(basename "$BRISK")
printf '#!/bin/sh\nprintf "%%s|%%s\\n" "${BRISK_RUNTIME_DIR-}" "$*" >>"%s"\nexec "%s" "$@"\n' \
  "$calls" "$real" >"$bindir/brisk"
chmod +x "$bindir/brisk"
: >"$calls"
# the test's own run of brisk reads only too: no journal recovery at start
readonly_rt=/proc/brisk-completion-none
# a runtime directory with two lab disks' state files, for lab names
labrt=$(t_tmpdir) && mkdir "$labrt/lab" && touch "$labrt/lab/lab0.state" "$labrt/lab/lab7.state"
# keys: get and set offer the iosched keys of the scheduler /'s disks run
# now, not those of another (get refuses them); set also those of a
# scheduler the line switches to.  ACTIVE: what / runs; MINE and OTHERS:
# the iosched keys of ACTIVE and of every other scheduler
active=$(BRISK_RUNTIME_DIR=$readonly_rt "$BRISK" get / scheduler 2>/dev/null |
         sed -n 's/^[^ ]* scheduler=//p' | sort -u | tr '\n' ' ')
sched_keys() {   # sched_keys in|out SCHEDS: the iosched keys of SCHEDS, or of the others
  "$BRISK" set --list-keys | awk -v s=" $2 " -v want="$1" '$2 ~ /^iosched:/ {
    has = index(s, " " substr($2, 9) " ") > 0; if (has == (want == "in")) print $1 }'
}
mine=$(sched_keys in "$active") others=$(sched_keys out "$active")
# keys_check NAME CANDIDATES [SUFFIX]: every key of MINE and none of OTHERS
keys_check() {
  local k missing='' extra=''
  for k in $mine; do grep -qx -- "$k${3-}" <<<"$2" || missing+="$k "; done
  for k in $others; do grep -qx -- "$k${3-}" <<<"$2" && extra+="$k "; done
  if [ -z "$active" ]; then t_skip "$1" "brisk get / names no scheduler here"
  elif [ -z "$missing$extra" ] && grep -qx -- "vm.dirty_ratio${3-}" <<<"$2"; then t_pass "$1"
  else t_fail "$1" "for /'s ${active}: missing '$missing', offered another scheduler's '$extra'"; fi
}
# a scheduler / does not run, and its keys
other=$("$BRISK" set --list-keys | awk -v s=" $active " '$2 ~ /^iosched:/ &&
        !index(s, " " substr($2, 9) " ") { print substr($2, 9); exit }')

# ---- bash ----
bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ]; then
  t_skip bash "bash-completion is not installed (Debian: apt-get install bash-completion)"
else
  (
    PATH=$bindir:$PATH
    # shellcheck source=/dev/null
    source "$bc"
    source completions/brisk.bash
    compopt() { :; }   # only works inside a real completion; its effect is not checked
    # comp LINE: COMPREPLY for LINE with the cursor at its end, one a line,
    # sorted; the words split as bash splits them (at = and :, which
    # COMP_WORDBREAKS holds); the function's stderr goes to $err
    err=$(t_tmpdir)/stderr
    comp() {
      local line=$1 w ws=() parts=()
      read -ra ws <<<"$line"
      [[ $line == *' ' ]] && ws+=("")
      COMP_WORDS=()
      for w in "${ws[@]}"; do
        if [ -z "$w" ]; then COMP_WORDS+=(""); continue; fi
        mapfile -t parts < <(grep -oE '[=:]+|[^=:]+' <<<"$w")
        COMP_WORDS+=("${parts[@]}")
      done
      # shellcheck disable=SC2034  # read by the completion function
      COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMP_LINE=$line COMP_POINT=${#line}
      COMPREPLY=()
      _brisk brisk "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>"$err"
      local rc=$?
      [ "${#COMPREPLY[@]}" -gt 0 ] && printf '%s\n' "${COMPREPLY[@]}" | sort -u
      return $rc
    }
    words() { tr '\n' ' ' <<<"$1" | sed 's/ $//'; }   # for messages

    got=$(comp 'brisk ')
    missing=$(for s in $subs help; do grep -qx -- "$s" <<<"$got" || echo "$s"; done)
    if [ -n "$subs" ] && [ -z "$missing" ]; then t_pass bash-commands
    else t_fail bash-commands "missing '$(words "$missing")' in '$(words "$got")'"; fi

    t_eq bash-run-drop-caches "$(comp 'brisk run --dr')" --drop-caches

    got=$(comp 'brisk set / sched')
    if grep -qx 'scheduler=' <<<"$got"; then t_pass bash-set-key
    else t_fail bash-set-key "no scheduler= in '$(words "$got")'"; fi

    # what /'s leaf disks offer, read here from sysfs
    if ! command -v jq >/dev/null 2>&1; then
      t_skip bash-set-schedulers "jq is not installed (Debian: apt-get install jq)"
    else
      want='' n=0
      for d in $(BRISK_RUNTIME_DIR=$readonly_rt "$BRISK" devices / --json 2>/dev/null | jq -r '.leaves[]'); do
        f=/sys/block/$d/queue/scheduler
        [ -r "$f" ] || continue
        offered=$(tr -d '[]' <"$f" | tr ' ' '\n' | sed '/^$/d' | sort -u)
        if [ "$n" = 0 ]; then want=$offered; else want=$(comm -12 <(echo "$want") <(echo "$offered")); fi
        n=$((n + 1))
      done
      if [ "$n" = 0 ] || [ -z "$want" ]; then
        t_skip bash-set-schedulers "no leaf disk of / has a queue/scheduler here"
      else
        t_eq bash-set-schedulers "$(words "$(comp 'brisk set / scheduler=')")" "$(words "$want")"
      fi
    fi

    keys_check bash-get-keys "$(comp 'brisk get / ')"
    keys_check bash-set-keys "$(comp 'brisk set / ')" =
    if [ -n "$other" ]; then
      k=$(sched_keys in "$other" | head -1)
      got=$(comp "brisk set / scheduler=$other ")
      if grep -qx -- "$k=" <<<"$got"; then t_pass "bash-set-keys-of-$other"
      else t_fail "bash-set-keys-of-$other" "no $k= after scheduler=$other in '$(words "$got")'"; fi
    else
      t_skip "bash-set-keys-of-another" "brisk knows the iosched keys of no scheduler but ${active:-the one of /}"
    fi

    got=$(comp 'brisk profile show ')
    if grep -qx quick <<<"$got"; then t_pass bash-profile-names
    else t_fail bash-profile-names "no quick in '$(words "$got")'"; fi

    comp 'brisk lab down ' >/dev/null
    rc=$?
    if [ "$rc" = 0 ] && [ ! -s "$err" ]; then t_pass bash-lab-down
    else t_fail bash-lab-down "exit $rc, stderr '$(head -c 300 "$err")'"; fi
    # lab names: the state files of the runtime directory (one made here)
    t_eq bash-lab-names "$(words "$(BRISK_RUNTIME_DIR=$labrt comp 'brisk lab down ')")" "lab0 lab7"

    # every command: the options completed equal those of its tables
    # options_check NAME SUB: PASS, or FAIL naming what differs
    options_check() {
      local got want v
      got=$( { comp "brisk $2 -"; for v in $(verbs "$2"); do comp "brisk $2 $v -"; done; } | sort -u)
      want=$(cmd_opts "$2")
      if [ -z "$want" ]; then t_fail "$1" "no options in the tables of $(cmd_source "$2")"
      elif [ "$got" = "$want" ]; then t_pass "$1"
      else t_fail "$1" "completed only: '$(words "$(comm -23 <(echo "$got") <(echo "$want"))")'; in the option table only: '$(words "$(comm -13 <(echo "$got") <(echo "$want"))")'"
      fi
    }
    # first on a planted copy that lacks run's --seed: the check can fail
    plant=$(t_tmpdir)/brisk.bash
    sed '/^_brisk_opts_run=/,/^_brisk_args_run=/s/ --seed / /' completions/brisk.bash >"$plant"
    # shellcheck source=completions/brisk.bash
    source "$plant"
    t_eq bash-finds-planted "$(options_check planted run)" \
      "FAIL planted: completed only: ''; in the option table only: '--seed'"
    source completions/brisk.bash
    for s in $subs; do options_check "bash-options-$s" "$s"; done
  )
fi

# what the completions ran: only commands that read, with the runtime
# directory that cannot exist (no journal recovery)
# calls_check NAME: PASS, or FAIL naming the other calls
calls_check() {
  local bad
  bad=$(grep -vxE "$readonly_rt\|(profile list|set --list-keys|lab models|devices .+ --json|get (-d [^ ]+ )*.+ scheduler)" "$calls")
  if [ ! -s "$calls" ]; then t_fail "$1" "the completions ran no brisk"
  elif [ -z "$bad" ]; then t_pass "$1"
  else t_fail "$1" "ran: $(head -5 <<<"$bad" | tr '\n' ';')"; fi
}
[ -r "$bc" ] && calls_check bash-runs-only-readers

# ---- zsh, fish ----
if command -v zsh >/dev/null 2>&1; then
  t_check zsh-syntax zsh -n completions/_brisk
  # zsh_comp LINE: what TAB after LINE offers (tests/helpers/zsh_complete.zsh)
  zsh_comp() {
    local o
    o=$(t_tmpdir)/zsh.out
    PATH=$bindir:$PATH zsh -f tests/helpers/zsh_complete.zsh "$o" "$PWD/completions" "$1" &&
      grep -vx DONE "$o" | sort -u
  }
  keys_check zsh-get-keys "$(zsh_comp 'brisk get / ')"
  keys_check zsh-set-keys "$(zsh_comp 'brisk set / ')"
else
  t_skip zsh-syntax "zsh is not installed (Debian: apt-get install zsh)"
fi
if ! command -v fish >/dev/null 2>&1; then
  t_skip fish-syntax "fish is not installed (Debian: apt-get install fish)"
  exit 0
fi
t_check fish-syntax fish -n completions/brisk.fish
# fish_comp LINE...: the candidates fish offers for each LINE, sorted
fish_comp() {
  local l script="source completions/brisk.fish"
  for l in "$@"; do script+="; complete -C '$l'"; done
  PATH=$bindir:$PATH fish --no-config -c "$script" 2>&1 | cut -f1 | sort -u
}
t_eq fish-run-drop-caches "$(fish_comp 'brisk run --dr')" --drop-caches
keys_check fish-get-keys "$(fish_comp 'brisk get / ')"
keys_check fish-set-keys "$(fish_comp 'brisk set / ')" =
t_eq fish-lab-names "$(BRISK_RUNTIME_DIR=$labrt fish_comp 'brisk lab down ' | tr '\n' ' ')" "lab0 lab7 "
for s in $subs; do
  lines=("brisk $s -")
  for v in $(verbs "$s"); do lines+=("brisk $s $v -"); done
  got=$(fish_comp "${lines[@]}")
  want=$(cmd_opts "$s")
  if [ -n "$want" ] && [ "$got" = "$want" ]; then t_pass "fish-options-$s"
  else t_fail "fish-options-$s" "completed only: '$(comm -23 <(echo "$got") <(echo "$want") | tr '\n' ' ')'; in the option table only: '$(comm -13 <(echo "$got") <(echo "$want") | tr '\n' ' ')'"
  fi
done
: >"$calls"
fish_comp 'brisk set / scheduler=' 'brisk profile show ' 'brisk lab up -m ' 'brisk get / ' >/dev/null
calls_check fish-runs-only-readers
