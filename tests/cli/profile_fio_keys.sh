#!/bin/bash
# One table of fio keys: brisk-profile(5)'s "fio keys" table (key, group and
# text of each .TP entry) is exactly `brisk profile import --list-keys` (the
# table in src/profile/fiojob_keys.c), and every group has members.  No root needed.
. tests/lib.sh
BRISK=${BRISK:-./brisk}

code=$($BRISK profile import --list-keys)
t_eq list-keys-exit "$($BRISK profile import --list-keys >/dev/null; echo $?)" 0
for g in honoured harmless refused; do
  t_match "list-keys-has-$g" "$(cut -f2 <<<"$code" | grep -c "^$g\$")" '^[1-9][0-9]*$'
done
t_eq list-keys-no-dup "$(cut -f1 <<<"$code" | sort | uniq -d | tr '\n' ' ')" ""
for k in filename norandommap stonewall gtod_reduce unlink thread ioengine bssplit ratemin \
         random_generator zonemode verify iodepth direct rate time_based runtime; do
  t_match "list-keys-knows-$k" "$code" "^$k	"
done

# The man page: ".TP" / ".BR key \" (group)\"" / text, between ".SS fio keys"
# and the next ".SH"; \- is a plain '-' there.
man=$(sed -n '/^\.SS fio keys/,/^\.SH/p' man/brisk-profile.5 |
  awk 'prev == ".TP" && /^\.BR / { key = $2; grp = $0; sub(/.*" \(/, "", grp); sub(/\)"$/, "", grp);
                                   getline text; print key "\t" grp "\t" text } { prev = $0 }' |
  sed 's/\\-/-/g')
t_match man-table-many "$(wc -l <<<"$man")" '^[1-9][0-9]+$'
t_eq man-table-is-code-table "$(diff <(echo "$man") <(echo "$code") | grep '^[<>]' | head -5 | tr '\n' ' ')" ""

# --list-keys takes no job file
$BRISK profile import --list-keys x.fio >/dev/null 2>&1; t_eq list-keys-alone $? 2
