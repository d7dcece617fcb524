# shellcheck shell=bash
# bash completion for brisk(1): every command and option, profile names,
# lab names, the keys of set/get (of the schedulers the disks run, and of
# one the line switches to) and the schedulers the disks of a path offer.
# Loaded by bash-completion (installed as .../completions/brisk).
#
# It only reads: `brisk profile list`, `brisk set --list-keys`,
# `brisk lab models`, `brisk devices PATH --json` and
# `brisk get [-d DEV]... PATH scheduler` run with
# BRISK_RUNTIME_DIR pointing at a directory that cannot exist, so the
# start-up recovery of journals left by killed sessions (which writes, as
# root) finds nothing to do; lab names are the state files of the runtime
# directory, read without running brisk.  Nothing here needs root.
#
# Profile and lab names are file names anyone who can write those
# directories chooses: only names that pass brisk's rules are offered,
# and no word offered is ever expanded (no `compgen -W`, which expands
# $(...) and backticks in its list) or inserted unquoted.

# The options of each command (the same as its --help; tests/cli/
# completion_bash.sh checks that), and those of them that take a value.
_brisk_opts_devices='-a --all -j -J --json -h --help'
_brisk_args_devices=''
_brisk_opts_run='-l --load --no-load -a --actions --exec --ls-files -i --idle-samples
  -n --samples --idle-max --warmup -d --duration --interval --jitter --timeout
  --max-time --tick --drop-caches --keep-warm --no-breakdown --load-dir --floor --seed --allow-shared-dir
  -j --json --csv --openmetrics --at -p --profile --no-settings --fio --scale -q --quiet
  --parse-only -h --help'
_brisk_args_run='-l --load -a --actions --exec --ls-files -i --idle-samples -n --samples
  --idle-max --warmup -d --duration --interval --jitter --timeout --max-time --tick
  --load-dir --floor --seed -j --json --csv --openmetrics --at -p --profile --fio --scale'
_brisk_opts_compare='--schedulers -r --rounds -b --budget -n --samples --looks --margin --no-racing
  --keep-warm --no-breakdown --settle-max -l --load -a --actions --exec --ls-files --warmup
  --steady-state --load-window --interval --timeout --drop-caches --load-dir --floor -p --profile --fio
  --scale --seed --allow-shared-dir -j --json --csv --openmetrics --plot --save --force
  -q --quiet --parse-only -h --help'
_brisk_args_compare='-r --rounds -b --budget -n --samples --looks --margin --settle-max -l --load
  -a --actions --exec --ls-files --warmup --load-window --interval --timeout --load-dir --floor -p --profile
  --fio --scale --seed -j --json --csv --openmetrics --plot --save'
_brisk_opts_tune='--space --list --resume -b --budget -r --rounds -n --samples --margin
  --keep-warm --no-breakdown --settle-max -l --load -a --actions --exec --ls-files --warmup
  --load-window --interval --timeout --load-dir --floor -p --profile --fio --scale --seed
  --allow-shared-dir -j --json --csv --openmetrics --plot --save --force -q --quiet --parse-only
  -h --help'
_brisk_args_tune='--space --resume -b --budget -r --rounds -n --samples --margin --settle-max
  -l --load -a --actions --exec --ls-files --warmup --load-window --interval --timeout --load-dir
  --floor -p --profile --fio --scale --seed -j --json --csv --openmetrics --plot --save'
_brisk_opts_report='--by --baseline --seed -j --json --csv --openmetrics --plot --save-profile
  --force --trust-file-identity -h --help'
_brisk_args_report='--by --baseline --seed -j --json --csv --openmetrics --plot --save-profile'
_brisk_opts_tui='-l --load -a --actions --exec --ls-files -i --idle-samples --interval
  --timeout --tick --load-dir --floor --drop-caches --keep-warm --no-breakdown --allow-shared-dir
  -n --iterations -d --duration --no-report --bench-redraw -h --help'
_brisk_args_tui='-l --load -a --actions --exec --ls-files -i --idle-samples --interval
  --timeout --tick --load-dir --floor -n --iterations -d --duration --bench-redraw'
_brisk_opts_set='-d --device --persist --list-keys -h --help'
_brisk_args_set='-d --device'
_brisk_opts_get='-d --device -j -J --json -h --help'
_brisk_args_get='-d --device'
_brisk_opts_restore='-n --dry-run -v --verbose -j -J --json -h --help'
_brisk_args_restore=''
_brisk_opts_export='-F --format -m --match -d --device -o --output -f --force
  -a --apply -n --dry-run -h --help'
_brisk_args_export='-F --format -m --match -d --device -o --output'
# profile and lab: per verb
_brisk_opts_profile='-h --help'
_brisk_opts_profile_save='-l --load -a --action -d --description -r --runtime
  -k --key --all -o --output -f --force -h --help'
_brisk_args_profile_save='-l --load -a --action -d --description -r --runtime -k --key
  -o --output'
_brisk_opts_profile_import='-s --scale -n --name --env --strict --group --list-keys
  -o --output -f --force -h --help'
_brisk_args_profile_import='-s --scale -n --name --group -o --output'
_brisk_opts_lab='-h --help'
_brisk_opts_lab_up='-m --model -s --size -n --name -d --dir -D --dirty-limit
  -c --calibrate -q --quiet -h --help'
_brisk_args_lab_up='-m --model -s --size -n --name -d --dir -D --dirty-limit'
_brisk_opts_lab_down='-a --all -h --help'
_brisk_opts_lab_status='-h --help'

_brisk_commands='run compare tune report tui devices set get restore profile export lab help'
_brisk_loads='seq-write seq-read rand-read rand-write fsync-heavy mixed rand-mixed'
_brisk_actions='exec ls ssh-like save'

# _brisk_q ARGS...: brisk from PATH, read-only as above, at most 3 s, no stderr
_brisk_q() {
  local t=()
  command -v timeout >/dev/null 2>&1 && t=(timeout 3)
  BRISK_RUNTIME_DIR=/proc/brisk-completion-none "${t[@]}" brisk "$@" 2>/dev/null
}

# profile names as brisk's rule has them (brisk profile list skips others)
_brisk_profiles() {
  _brisk_q profile list | awk '($2 == "user" || $2 == "system" || $2 == "shipped") &&
    $1 ~ /^[A-Za-z0-9_][A-Za-z0-9._-]*$/ { print $1 }'
}
_brisk_keys() { _brisk_q set --list-keys | awk '{ print $1 }'; }
# _brisk_keys_for SCHEDS: the keys of every scope but the schedulers', and
# the iosched keys of the schedulers SCHEDS (blank-separated; all when blank)
_brisk_keys_for() {
  _brisk_q set --list-keys | awk -v s=" $1 " '
    $2 !~ /^iosched:/ || s ~ /^ *$/ || index(s, " " substr($2, 9) " ") { print $1 }'
}
# _brisk_active TARGET [DEV...]: the schedulers the disks behind TARGET (or
# the DEVs) run now, as brisk get reads them
_brisk_active() {
  local target=$1 d a=()
  shift
  for d in "$@"; do a+=(-d "$d"); done
  _brisk_q get "${a[@]}" "${target:-.}" scheduler | sed -n 's/^[^ ]* scheduler=//p' | sort -u |
    tr '\n' ' '
}
# _brisk_named WORD...: the schedulers the words switch to (scheduler=X, also
# inside a comma list of compare)
_brisk_named() {
  local w
  for w in "$@"; do
    [[ $w =~ (^|,)scheduler=([A-Za-z0-9_-]+) ]] && printf '%s ' "${BASH_REMATCH[2]}"
  done
}
_brisk_models() { _brisk_q lab models | awk 'NR > 1 && $2 ~ /^[0-9]+$/ { print $1 }'; }
_brisk_labs() {
  local f
  for f in "${BRISK_RUNTIME_DIR:-/run/brisk}"/lab/*.state; do
    [ -f "$f" ] || continue
    f=${f##*/}
    f=${f%.state}
    [[ $f =~ ^[A-Za-z0-9_-]+$ ]] && printf '%s\n' "$f"
  done
}
_brisk_blockdevs() {
  local d
  for d in /sys/class/block/*; do [ -e "$d" ] && printf '%s\n' "${d##*/}"; done
}

# _brisk_schedulers TARGET [DEV...]: the schedulers every disk offers, of
# the DEVs when given, else of the leaves of `brisk devices TARGET --json`
_brisk_schedulers() {
  local target=$1 disks d f line s common='' first=1
  shift
  if [ $# -gt 0 ]; then
    disks=("$@")
  else
    mapfile -t disks < <(_brisk_q devices "${target:-.}" --json | awk '
      /"leaves"[[:space:]]*:/ { on = 1; sub(/.*"leaves"[[:space:]]*:[[:space:]]*\[/, "") }
      on { line = $0; end = index(line, "]"); if (end) line = substr(line, 1, end - 1)
           while (match(line, /"[^"]*"/)) {
             print substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH) }
           if (end) exit }')
  fi
  for d in "${disks[@]}"; do
    d=${d#/dev/}
    f=/sys/class/block/$d/queue/scheduler
    [ -r "$f" ] || f=/sys/class/block/$d/../queue/scheduler   # a partition
    [ -r "$f" ] || continue
    read -r line <"$f" || continue
    line=${line//[\[\]]/}
    if [ "$first" = 1 ]; then
      common=" $line "
      first=0
    else
      local keep=' '
      for s in $line; do [[ $common == *" $s "* ]] && keep+="$s "; done
      common=$keep
    fi
  done
  # shellcheck disable=SC2086  # one name a line
  printf '%s\n' $common
}

# _brisk_add HEAD TAIL TYPED WORDS...: add HEAD W TAIL to COMPREPLY for
# each word W of WORDS (split at blanks and newlines, never expanded)
# that starts with TYPED; quoted as the shell reads it back (printf %q)
# unless it is plain
_brisk_add() {
  local head=$1 tail=$2 typed=$3 w IFS=$' \t\n'
  local -a list
  shift 3
  read -r -d '' -a list <<<"$*"
  for w in "${list[@]}"; do
    [[ $w == "$typed"* ]] || continue
    w=$head$w$tail
    [[ $w =~ ^[A-Za-z0-9._,:=+@%/-]+$ ]] || printf -v w '%q' "$w"
    COMPREPLY+=("$w")
  done
}

# _brisk_reply WORDS...: COMPREPLY = the WORDS that start with $cur
_brisk_reply() { COMPREPLY=(); _brisk_add '' '' "$cur" "$@"; }

# _brisk_list WORDS...: complete the last item of a comma list in $cur
_brisk_list() {
  local head='' tail=$cur
  if [[ $cur == *,* ]]; then head=${cur%,*},; tail=${cur##*,}; fi
  COMPREPLY=()
  _brisk_add "$head" '' "$tail" "$@"
  compopt -o nospace
}

# _brisk_kv TARGET DEVS...: $cur is KEY or KEY=VALUE (set, compare ARMs)
_brisk_kv() {
  local target=$1
  shift
  if [[ $cur == *=* ]]; then
    local key=${cur%%=*} val=${cur#*=} vals=''
    case $key in
      scheduler) vals=$(_brisk_schedulers "$target" "$@") ;;
      low_latency|strict_guarantees|front_merges) vals='0 1' ;;
      rq_affinity|nomerges) vals='0 1 2' ;;
    esac
    # bash replaces only what follows '=' when '=' breaks words
    local head=$key=
    [[ $COMP_WORDBREAKS == *=* ]] && head=''
    COMPREPLY=()
    _brisk_add "$head" '' "$val" "$vals"
  else
    # the keys the disks' schedulers have now, and those of a scheduler
    # the line switches to
    COMPREPLY=()
    _brisk_add '' = "$cur" "$(_brisk_keys_for "$(_brisk_active "$target" "$@")$(_brisk_named "${pos[@]}")")"
    compopt -o nospace
  fi
}

# _brisk_value OPTION: complete the value of OPTION (nothing for numbers, sizes...)
_brisk_value() {
  case $1 in
    -l|--load) [[ $cur == *:* ]] || _brisk_reply "$_brisk_loads" ;;  # KIND[:...]
    -a|--actions|--action) _brisk_list "$_brisk_actions" ;;
    --exec) mapfile -t COMPREPLY < <(compgen -c -- "$cur"); compopt -o filenames ;;
    -p|--profile) _brisk_reply "$(_brisk_profiles)"; _filedir profile ;;
    --fio) _filedir ;;
    -j|--json|--csv|--openmetrics|--plot|-o|--output|--space) _filedir ;;
    --resume) _filedir json ;;
    -m) if [ "$cmd" = lab ]; then _brisk_reply "$(_brisk_models)"
        else _brisk_reply class this-device; fi ;;
    --model) _brisk_reply "$(_brisk_models)" ;;
    --match) _brisk_reply class this-device ;;
    -F|--format) _brisk_reply udev tuned sysctl sysfs.conf tmpfiles ;;
    --by) _brisk_reply class model model,firmware machine kernel ;;
    --baseline) _brisk_reply none mq-deadline kyber bfq ;;
    --device) _brisk_reply "$(_brisk_blockdevs)" ;;
    -d)
      case $cmd in
        set|get|export) _brisk_reply "$(_brisk_blockdevs)" ;;
        lab) _filedir -d ;;
        *) ;;  # a duration or a description
      esac ;;
    --dir) _filedir -d ;;
    -k|--key) _brisk_reply "$(_brisk_keys)" ;;
    *) ;;  # a number, size, duration, time or name: nothing to offer
  esac
  return 0
}

_brisk() {
  local cur prev words cword split
  _init_completion -s -n = || return

  if [ "$cword" -eq 1 ]; then
    if [[ $cur == -* ]]; then _brisk_reply -h --help -V --version
    else _brisk_reply "$_brisk_commands"; fi
    return
  fi
  local cmd=${words[1]} verb=''
  local key=$cmd
  case $cmd in
    help) [ "$cword" -eq 2 ] && _brisk_reply "${_brisk_commands% help}"; return ;;
    profile|lab)
      verb=${words[2]-}
      if [ "$cword" -eq 2 ]; then
        if [[ $cur == -* ]]; then _brisk_reply -h --help
        elif [ "$cmd" = profile ]; then _brisk_reply list show check save import
        else _brisk_reply up down status models; fi
        return
      fi
      key=${cmd}_$verb ;;
    devices|run|compare|tune|report|tui|set|get|restore|export) ;;
    *) return ;;
  esac
  local ov=_brisk_opts_$key av=_brisk_args_$key
  local opts=${!ov-} args=${!av-}
  opts=${opts:--h --help}   # the verbs that have no option of their own

  # the words before the cursor: positionals, and the -d DEVs of set/get
  local i w prev_opt='' pos=() devs=() skip=0 dashdash=0 first=2
  [ -n "$verb" ] && first=3
  for ((i = first; i < cword; i++)); do
    w=${words[i]}
    if [ "$skip" = 1 ]; then
      skip=0
      [[ $prev_opt == @(-d|--device) ]] && devs+=("$w")
      continue
    fi
    if [ "$dashdash" = 0 ] && [[ $w == -?* ]]; then
      [ "$w" = -- ] && { dashdash=1; continue; }
      if [[ $w == --*=* ]]; then
        [[ ${w%%=*} == --device ]] && devs+=("${w#*=}")
      elif [[ " ${args//$'\n'/ } " == *" $w "* ]]; then
        skip=1
        prev_opt=$w
      fi
      continue
    fi
    pos+=("$w")
  done

  # the value of an option
  if [ "$skip" = 1 ] || { [ "$split" = true ] && [[ " ${args//$'\n'/ } " == *" $prev "* ]]; }; then
    _brisk_value "$prev"
    return
  fi
  if [ "$dashdash" = 0 ] && [[ $cur == -* ]]; then
    _brisk_reply "$opts"
    [[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace
    return
  fi

  # positionals
  local n=${#pos[@]}
  case $key in
    devices) [ "$n" -eq 0 ] && { _brisk_reply "$(_brisk_blockdevs)"; _filedir -d; } ;;
    run|tui|tune) [ "$n" -eq 0 ] && _filedir -d ;;
    report) _filedir json; _filedir -d ;;
    compare)
      local dir=.
      if [ "$n" -gt 0 ] && [[ ${pos[0]} != *=* ]] && [ -d "${pos[0]}" ]; then dir=${pos[0]}; fi
      if [[ $cur == *=* ]]; then
        _brisk_kv "$dir"
      else
        _brisk_reply current "$(_brisk_profiles)"
        local profiles=("${COMPREPLY[@]}")
        COMPREPLY=()
        [ -n "$cur" ] && _brisk_kv "$dir"   # KEY= once a letter is typed
        COMPREPLY=("${profiles[@]}" "${COMPREPLY[@]}")
        [ "$n" -eq 0 ] && _filedir -d
        # one match that is not a KEY=: the space after it
        [ "${#COMPREPLY[@]}" -eq 1 ] && [[ ${COMPREPLY[0]} != *= ]] && compopt +o nospace
      fi ;;
    set|get)
      if [ "$n" -eq 0 ]; then
        _brisk_reply "$(_brisk_blockdevs)"
        _filedir -d
      elif [ "$key" = set ]; then
        _brisk_kv "${pos[0]}" "${devs[@]}"
      else
        # what the disks' schedulers have: get refuses another's key
        _brisk_reply "$(_brisk_keys_for "$(_brisk_active "${pos[0]}" "${devs[@]}")")"
      fi ;;
    export|profile_show) [ "$n" -eq 0 ] && { _brisk_reply "$(_brisk_profiles)"; _filedir profile; } ;;
    profile_check) _filedir profile ;;
    profile_save) [ "$n" -eq 1 ] && _filedir -d ;;
    profile_import) [ "$n" -eq 0 ] && _filedir ;;
    lab_down) _brisk_reply "$(_brisk_labs)" ;;
    *) ;;
  esac
}
complete -F _brisk brisk
