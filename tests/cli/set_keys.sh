#!/bin/bash
# One settings table: the keys brisk-profile(5) lists are exactly the keys
# of `brisk set --list-keys` (the table in src/settings/tunable.c), and every key
# brisk-set(1) names is one of them.  No root needed.
. tests/lib.sh
BRISK=${BRISK:-./brisk}

# man_keys FILE START END: the bold words of the line after each .TP
# between the line matching START and the one matching END.
man_keys() {
  sed -n "/$2/,/$3/p" "$1" | awk 'prev == ".TP" && /^\.BR? / { print } { prev = $0 }' |
    while read -r macro rest; do
      # .BR alternates bold and roman: keys are the 1st, 3rd, ... words
      printf '%s\n' "$rest" | xargs -n1 printf '%s\n' 2>/dev/null |
        if [ "$macro" = .B ]; then cat; else awk 'NR % 2 == 1'; fi
    done | sort -u
}

table=$($BRISK set --list-keys | awk '{ print $1 }' | sort -u)
t_eq list-keys-exit "$($BRISK set --list-keys >/dev/null; echo $?)" 0
t_match list-keys-many "$(wc -l <<<"$table")" '^[1-9][0-9]+$'

prof=$(man_keys man/brisk-profile.5 '^Keys (values are checked' '^An iosched tunable must belong')
t_eq profile5-keys-are-the-table "$(diff <(echo "$prof") <(echo "$table") | grep '^[<>]' | tr '\n' ' ')" ""

set1=$(man_keys man/brisk-set.1 '^\.SH KEYS' '^\.SH OPTIONS')
t_match set1-names-keys "$set1" 'nr_requests'
extra=$(comm -23 <(echo "$set1") <(echo "$table") | tr '\n' ' ')
t_eq set1-keys-in-table "$extra" ""

# --list-keys takes nothing else
$BRISK set --list-keys /tmp >/dev/null 2>&1; t_eq list-keys-alone $? 2
$BRISK set /tmp --list-keys >/dev/null 2>&1; t_eq list-keys-alone-after-a-path $? 2

# options anywhere, as in the other subcommands; "--" ends them
out=$($BRISK get / scheduler -h); t_eq get-help-after-args-exit $? 0
t_match get-help-after-args "$out" '^usage: brisk get '
out=$($BRISK set / scheduler=none --help); t_eq set-help-after-args-exit $? 0
t_match set-help-after-args "$out" '^usage: brisk set '
leaf=$($BRISK devices / --json | jq -r '.leaves[0] // empty')
if [ -n "$leaf" ]; then
  a=$($BRISK get -d "$leaf" / scheduler); ra=$?
  b=$($BRISK get / -d "$leaf" scheduler); rb=$?
  t_eq get-option-after-path-exit "$ra $rb" "0 0"
  t_eq get-option-after-path-same "$b" "$a"
  $BRISK get / -- -d >/dev/null 2>&1; t_eq get-double-dash-ends-options $? 2
else
  t_skip get-option-after-path "no disk behind /"
fi
