# shellcheck shell=bash
# The device's own counters, read beside brisk while it runs: sourced by
# tests/cli/compare_load_window.sh and tests/bench/load_window.sh.

# devstat_poll DEV OUT STOP: "uptime-s sectors-written" of /sys/block/DEV
# every 100 ms into OUT until the file STOP exists (run it in the background)
devstat_poll() {
  rm -f "$3"
  while [ ! -e "$3" ]; do
    read -r up _ </proc/uptime
    read -r _ _ _ _ _ _ wr _ <"/sys/block/$1/stat"
    echo "$up $wr"
    sleep 0.1
  done >"$2"
}

# devstat_rates FILE: the MiB/s written over each 1 s stretch of a poll,
# one per line
devstat_rates() {
  awk '{ t[NR] = $1; s[NR] = $2 }
       END { j = 1
             for (i = 1; i <= NR; i++) {
               while (j < i && t[i] - t[j] > 1.0) j++
               if (t[i] - t[j] >= 0.9) printf "%.3f\n", (s[i] - s[j]) * 512 / 1048576 / (t[i] - t[j])
             } }' "$1"
}
