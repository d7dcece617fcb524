#!/bin/bash
# Issue 24: CSV formula injection.  brisk report --csv writes strings of
# the result files (a model, a kernel, a host) as cells; a spreadsheet
# program runs a cell that begins with = + - @ TAB or CR as a formula, even
# in quotes.  Forged results (made here) whose host folders, models and
# kernels are formulas, grouped --by model, kernel and machine: every text
# cell must start with an apostrophe before such a character (csv_text),
# every number stay a plain number, and Python's csv module must read the
# file back as written.  Fails on the brisk before (the cells were written
# as the files said).  No root.
source tests/lib.sh
PY=/usr/bin/python3
[ -x "$PY" ] || { t_skip report-csv "needs $PY"; exit 0; }
d=$(t_tmpdir)
export BRISK_RUNTIME_DIR=$d/rt

# four machines; the fourth finds bfq slower, so it is named as disagreeing
"$PY" - "$d/fleet" <<'EOF' || { t_fail report-csv "could not write the forged files"; exit 0; }
import hashlib, json, os, sys
hosts = ["=cmd|' -C calc'!A0", "+1+1", "@SUM(A1)", "-x\tTAB"]
for i, h in enumerate(hosts):
    os.makedirs(os.path.join(sys.argv[1], h))
    mid = hashlib.md5(h.encode()).hexdigest()
    f = 1.5 if i == 3 else 0.7
    doc = {"format_version": 1, "kind": "compare", "brisk_version": "0.1.0",
           "workload": "load seq-write:size=600m; actions save",
           "machine": {"hostname": h, "kernel": "-2+3" if i % 2 else "\t=1+1", "machine_id": mid,
                       "disks": [{"name": "sda", "class": "rotational",
                                  "model": '=HYPERLINK("http://example.invalid","x")',
                                  "vendor": "ATA", "firmware": "@1", "transport": "sata",
                                  "rotational": True, "scheduler": "mq-deadline"}]},
           "arms": [{"index": 0, "settings": "", "load_mibps": {"est": 100}},
                    {"index": 1, "settings": "scheduler=bfq", "load_mibps": {"est": 100}}],
           "samples": [{"arm": a, "action": "save", "cold": True, "timeout": False, "err": 0,
                        "ms": (50 + 5 * i) * (f if a else 1) * (1 + 0.01 * k)}
                       for a in (0, 1) for k in range(6)]}
    with open(os.path.join(sys.argv[1], h, "r-compare.json"), "w") as o:
        json.dump(doc, o)
    with open(os.path.join(sys.argv[1], h, "machine-id"), "w") as o:
        o.write(mid + "\n")
EOF

# check CSV: every text cell safe, numbers plain; prints what is wrong
check() {
	"$PY" - "$1" <<'EOF'
import csv, sys
text = {"group", "arm", "settings", "disagree"}
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
bad = []
for r in rows:
    for k, v in r.items():
        if k in text:
            if v[:1] in ("=", "+", "-", "@", "\t", "\r"):
                bad.append("%s=%r" % (k, v))
        elif k not in ("phase", "action", "verdict") and v != "":
            try:
                float(v)
            except ValueError:
                bad.append("%s=%r is no number" % (k, v))
print(len(rows), " ".join(bad))
EOF
}

for by in model kernel machine; do
	"$BRISK" report "$d/fleet" --by "$by" --csv "$d/$by.csv" >/dev/null 2>"$d/err"; rc=$?
	t_eq "--by $by: exit 0" "$rc" 0
	got=$(check "$d/$by.csv")
	t_match "--by $by: rows read back, no text cell starts a formula" "$got" '^[1-9][0-9]* $'
done
# what the cells hold: the text behind an apostrophe, quoted
t_match "--by model: the model behind an apostrophe" "$(cat "$d/model.csv")" \
  '^"'"'"'=HYPERLINK\(""http://example\.invalid"",""x""\)",loaded,save,"mq-deadline",'
t_match "--by kernel: -2+3 behind an apostrophe" "$(cat "$d/kernel.csv")" \
  '^"'"'"'-2\+3",loaded,save,'
t_match "--by kernel: a TAB first behind an apostrophe" "$(cat "$d/kernel.csv")" \
  '^"'"'"'	=1\+1",loaded,save,'
t_match "--by machine: each host behind an apostrophe" "$(cut -d, -f1 "$d/machine.csv" | sort -u | tr '\n' ' ')" \
  "^\"'\\+1\\+1\" \"'-x	TAB\" \"'=cmd\\|' -C calc'!A0\" \"'@SUM\\(A1\\)\" group $"
# the disagreeing machine, by class (one group of four)
"$BRISK" report "$d/fleet" --csv - >"$d/class.csv" 2>/dev/null
t_match "--by class: the disagreeing host behind an apostrophe" "$(cat "$d/class.csv")" \
  ',"bfq","scheduler=bfq",4,24,.*,4,3,[a-z ]+,"'"'"'-x	TAB"$'
t_match "--by class: rows read back" "$(check "$d/class.csv")" '^2 $'
