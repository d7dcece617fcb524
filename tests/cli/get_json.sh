#!/bin/bash
# brisk get --json: the same keys (and values) as the text output, numbers
# as JSON numbers, the scheduler a string with the offered list beside it,
# a key the disk lacks as null (exit 2, as in text).  No root needed.
source tests/lib.sh

if ! command -v jq >/dev/null 2>&1; then
  t_skip get_json "jq is not installed (Debian: apt-get install jq)"; exit 0
fi
if ! text=$("$BRISK" get / 2>/dev/null) || [ -z "$text" ]; then
  t_skip get_json "brisk get / finds no disk behind / here"; exit 0
fi

json=$("$BRISK" get / --json); rc=$?
t_eq json-exit "$rc" 0
jq -e . >/dev/null 2>&1 <<<"$json"; t_eq json-parses $? 0
t_eq json-query "$(jq -r .query <<<"$json")" /

# "DEVICE KEY=VALUE" and "vm.NAME=VALUE" lines, from either output, sorted
text_pairs() { sort <<<"$1"; }
json_pairs() {
  jq -r '(.devices[] | .name as $d | .settings | to_entries[] | "\($d) \(.key)=\(.value)"),
         (.sysctl | to_entries[] | "\(.key)=\(.value)")' <<<"$1" | sort
}
t_eq same-keys "$(text_pairs "$text" | sed 's/=.*//' | tr '\n' ' ')" \
  "$(json_pairs "$json" | sed 's/=.*//' | tr '\n' ' ')"
# bdi.max_bytes and bdi.min_bytes are a share of the system's dirty limit
# of the moment (brisk-set(1)): they may move between two reads
steady() { grep -Ev ' bdi\.(max|min)_bytes=' | tr '\n' ' '; }
t_eq same-values "$(text_pairs "$text" | steady)" "$(json_pairs "$json" | steady)"

leaf=$(jq -r '.devices[0].name' <<<"$json")
t_eq scheduler-is-a-string "$(jq -r '.devices[0].settings.scheduler | type' <<<"$json")" string
t_eq nr_requests-is-a-number "$(jq -r '.devices[0].settings.nr_requests | type' <<<"$json")" number
t_eq sysctl-is-a-number "$(jq -r '.sysctl["vm.dirty_ratio"] | type' <<<"$json")" number
t_eq schedulers-offer-the-active-one \
  "$(jq -r '.devices[0] | .settings.scheduler as $s | .schedulers | index($s) != null' <<<"$json")" true
t_eq scheduler-matches-text "$(jq -r '.devices[0].settings.scheduler' <<<"$json")" \
  "$(sed -n "s/^$leaf scheduler=//p" <<<"$text")"

# named keys: exactly those, options anywhere
one=$("$BRISK" get / nr_requests vm.dirty_ratio --json); rc=$?
t_eq named-keys-exit "$rc" 0
t_eq named-keys-only "$(jq -r '[.devices[0].settings, .sysctl | keys[]] | join(" ")' <<<"$one")" \
  "nr_requests vm.dirty_ratio"
t_eq json-option-first "$("$BRISK" get -j / nr_requests vm.dirty_ratio)" "$one"

# a key the disk lacks: null, said on stderr, exit 2 as in text
err=$("$BRISK" get / --json nr_requests no_such_attr 2>&1 >/dev/null)
out=$("$BRISK" get / --json nr_requests no_such_attr 2>/dev/null); rc=$?
t_eq missing-exit "$rc" 2
t_eq missing-is-null "$(jq -c '.devices[0].settings | [has("iosched/no_such_attr"), .["iosched/no_such_attr"]]' <<<"$out")" \
  '[true,null]'
t_eq missing-others-kept "$(jq -r '.devices[0].settings.nr_requests | type' <<<"$out")" number
t_match missing-said "$err" "^brisk get: $leaf: .*no_such_attr"
