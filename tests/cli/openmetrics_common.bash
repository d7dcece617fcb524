# shellcheck shell=bash
# Shared by tests/cli/openmetrics_*.sh (source it after tests/lib.sh): the
# real parsers that validate brisk's --openmetrics files.
#   - promtool check metrics: the Prometheus text format as Prometheus and
#     node_exporter's textfile collector parse it (expfmt), plus promtool's
#     lint (names, units, suffixes, no "quantile" on a gauge, HELP);
#   - Python prometheus_client's OpenMetrics parser
#     (prometheus_client.openmetrics.parser.text_string_to_metric_families):
#     strict OpenMetrics 1.0 (# EOF last, UNIT a suffix of the name, one
#     block per family, escaping), fed the file decoded as strict UTF-8.
# Each check says which parser ran.  Where neither is installed a test
# SKIPs with the reason (packaging/install-deps.sh test installs them).

om_python() {   # the python3 that has prometheus_client, or nothing
  local py
  for py in /usr/bin/python3 python3; do
    if "$py" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
      echo "$py"; return 0
    fi
  done
  return 1
}
OM_PY=$(om_python)
OM_PROMTOOL=$(command -v promtool)
OM_PY_VERSION=
[ -n "$OM_PY" ] && OM_PY_VERSION=$("$OM_PY" -c \
  'import importlib.metadata as m; print(m.version("prometheus_client"))' 2>/dev/null)
om_have_parser() { [ -n "$OM_PY" ] || [ -n "$OM_PROMTOOL" ]; }
OM_NO_PARSER="neither promtool nor Python's prometheus_client is installed (packaging/install-deps.sh test)"

# om_parse FILE: the Python parser's view as JSON lines, one per sample:
# {"family", "type", "unit", "name", "labels", "value"}; exit 1 with the
# parser's error on stderr.  Also checks what the parser leaves to the
# caller: strict UTF-8, the label names of a family alike in every sample
# (node_exporter serves a directory's files as one set), no duplicate
# series.
om_parse() {
  "$OM_PY" - "$1" <<'PY'
import json, math, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
raw = open(sys.argv[1], "rb").read()
text = raw.decode("utf-8", errors="strict")
seen = set()
for fam in text_string_to_metric_families(text):
    names = {tuple(sorted(s.labels)) for s in fam.samples}
    if len(names) > 1:
        sys.exit("%s: samples with different label names: %s" % (fam.name, sorted(names)))
    for s in fam.samples:
        key = (s.name, tuple(sorted(s.labels.items())))
        if key in seen:
            sys.exit("duplicate series: %s %s" % key)
        seen.add(key)
        if s.timestamp is not None:
            sys.exit("%s: a timestamp (node_exporter refuses the file)" % s.name)
        v = s.value
        print(json.dumps({"family": fam.name, "type": fam.type, "unit": fam.unit,
                          "name": s.name, "labels": s.labels,
                          "value": None if math.isnan(v) else v}))
PY
}

# om_check NAME FILE: one PASS/FAIL line per parser that is installed
# (SKIP when none is).
om_check() {
  local n=$1 f=$2 out
  if ! om_have_parser; then t_skip "$n: parsers" "$OM_NO_PARSER"; return; fi
  if [ -n "$OM_PROMTOOL" ]; then
    if out=$("$OM_PROMTOOL" check metrics <"$f" 2>&1); then
      t_pass "$n: promtool check metrics ($("$OM_PROMTOOL" --version 2>&1 | head -1 | awk '{print $3}'))"
    else
      t_fail "$n: promtool check metrics" "$(head -c 400 <<<"$out")"
    fi
  else
    t_skip "$n: promtool check metrics" "promtool is not installed"
  fi
  if [ -n "$OM_PY" ]; then
    if out=$(om_parse "$f" 2>&1 >/dev/null); then
      t_pass "$n: OpenMetrics parser (prometheus_client $OM_PY_VERSION)"
    else
      t_fail "$n: OpenMetrics parser (prometheus_client $OM_PY_VERSION)" "$(tail -c 400 <<<"$out")"
    fi
  else
    t_skip "$n: OpenMetrics parser" "Python's prometheus_client is not installed"
  fi
}

# om_value FILE FAMILY JQ-FILTER-ON-LABELS: the first matching sample's
# value ("" when none), from the Python parser.
om_value() {
  [ -n "$OM_PY" ] || return 0
  om_parse "$1" 2>/dev/null | jq -r --arg fam "$2" \
    "select(.family == \$fam and (.labels | $3)) | .value" | head -1
}
