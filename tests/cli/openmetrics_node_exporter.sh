#!/bin/bash
# node_exporter's textfile collector serves brisk's --openmetrics files
# (issue 16): two runs (one in a directory with a hostile name) and two
# fleet reports (by class, by model with a hostile fixture) in one
# collector directory are read without a scrape error and without a
# gathering error (a series collision between files, inconsistent help or
# labels), and their samples are served.  The same checks first see the
# errors they look for: a copy of a file (every series twice) and a file
# with a timestamp.  node_exporter listens on 127.0.0.1 only and is
# stopped by its pid.  No root.
source tests/lib.sh
NE=$(command -v prometheus-node-exporter || command -v node_exporter)
[ -n "$NE" ] || { t_skip openmetrics-node-exporter "node_exporter is not installed (Debian: prometheus-node-exporter)"; exit 0; }
command -v curl >/dev/null || { t_skip openmetrics-node-exporter "needs curl"; exit 0; }
F=tests/fixtures/fleet
d=$(t_tmpdir)
export BRISK_RUNTIME_DIR=$d/rt
mkdir "$d/tf" "$d/w" "$d/"$'we"ird\\dir\nx\x1b'
"$BRISK" run "$d/w" -q --no-load -a ls,save -i 2 --ls-files 50 --openmetrics "$d/tf/brisk-w.prom" >/dev/null 2>&1
t_eq "run: exit 0" "$?" 0
"$BRISK" run "$d/"$'we"ird\\dir\nx\x1b' -q --no-load -a save -i 2 --openmetrics "$d/tf/brisk-weird.prom" >/dev/null 2>&1
t_eq "run in the hostile dir: exit 0" "$?" 0
"$BRISK" report "$F"/real/*/*.json "$F"/synthetic/*/*.json --openmetrics "$d/tf/fleet-class.prom" >/dev/null 2>&1
t_eq "report by class: exit 0" "$?" 0
"$BRISK" report "$F"/hostile/evil/evil-cmp.json "$F"/real/*/*.json --by model --openmetrics "$d/tf/fleet-model.prom" >/dev/null 2>&1
t_eq "report by model: exit 0" "$?" 0

ne_pid=
ne_start() {   # DIR LOG: node_exporter on a free loopback port; sets ne_url
  local port
  for _ in 1 2 3 4 5; do
    port=$((20000 + RANDOM % 20000))
    "$NE" --collector.disable-defaults --collector.textfile --collector.textfile.directory="$1" \
      --web.listen-address=127.0.0.1:$port >"$2" 2>&1 &
    ne_pid=$!
    # shellcheck disable=SC2034  # read by tests/lib.sh's t_cleanup
    T_CLEANUP_EXTRA="kill $ne_pid 2>/dev/null"
    for _ in $(seq 50); do
      if curl -sf "http://127.0.0.1:$port/metrics" -o /dev/null; then
        ne_url=http://127.0.0.1:$port/metrics; return 0
      fi
      kill -0 "$ne_pid" 2>/dev/null || break
      sleep 0.1
    done
    ne_stop
  done
  return 1
}
# shellcheck disable=SC2034  # read by tests/lib.sh's t_cleanup
ne_stop() { [ -n "$ne_pid" ] && kill "$ne_pid" 2>/dev/null; wait "$ne_pid" 2>/dev/null; ne_pid=; T_CLEANUP_EXTRA=; }
# scrape DIR NAME: the exposition in $d/NAME.out, node_exporter's log in $d/NAME.log
scrape() {
  ne_start "$1" "$d/$2.log" || { t_fail "$2: node_exporter starts" "see $d/$2.log"; return 1; }
  curl -s "$ne_url" >"$d/$2.out"
  ne_stop
}
problems() {   # NAME: the scrape error and the errors node_exporter logged
  grep -E '^node_textfile_scrape_error ' "$d/$1.out"
  grep -cE 'level=error' "$d/$1.log"
}

# the checks can see what they look for
mkdir "$d/bad1" "$d/bad2"
cp "$d/tf/brisk-w.prom" "$d/bad1/a.prom"; cp "$d/tf/brisk-w.prom" "$d/bad1/b.prom"
sed '0,/^brisk_run_duration_seconds{.*/s//& 1000/' "$d/tf/brisk-w.prom" >"$d/bad2/ts.prom"
if scrape "$d/bad1" bad1; then
  t_match "control: a file twice is a gathering error" "$(cat "$d/bad1.log")" 'collected before with the same name and label values'
fi
if scrape "$d/bad2" bad2; then
  t_eq "control: a timestamp is a scrape error" "$(grep '^node_textfile_scrape_error ' "$d/bad2.out")" "node_textfile_scrape_error 1"
fi

if scrape "$d/tf" good; then
  t_eq "no scrape error, nothing logged as an error" "$(problems good | tr '\n' ' ')" "node_textfile_scrape_error 0 0 "
  t_eq "every file read" "$(grep -c '^node_textfile_mtime_seconds{' "$d/good.out")" 4
  w=$(cd "$d/w" && pwd -P)
  t_match "the run's latency served" "$(grep '^brisk_action_latency_seconds{' "$d/good.out")" \
    "dir=\"$w\".*stat=\"p50\""
  t_match "the hostile dir served escaped" "$(grep -m1 '^brisk_info{.*we' "$d/good.out")" \
    'we\\"ird\\\\dir\\nx\\\\x1b"'
  t_match "the fleet's verdicts served" "$(grep '^brisk_fleet_verdict{' "$d/good.out")" 'by="class",group="rotational"'
  t_match "the other machines' model served escaped" "$(grep '^brisk_fleet_group_machines{' "$d/good.out")" \
    'group="Evil\\\\x1b\]0;pwn\\\\x07"'
  t_eq "brisk_info: one per file" "$(grep -c '^brisk_info{' "$d/good.out")" 4
fi
