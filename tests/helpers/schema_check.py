#!/usr/bin/python3
"""schema_check.py SCHEMA [DOC...]: check that SCHEMA is a valid JSON Schema
(draft 2020-12) and that each DOC conforms to it.  One line per DOC that
does not ("DOC: PATH: why", at most five each) on stdout; exit 0 when every
DOC conforms, 1 when one does not, 2 when SCHEMA itself is not valid or a
file cannot be read.  Used by tests/cli/json_schema.sh (Debian:
python3-jsonschema)."""
import json
import sys

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError


def main(argv):
    try:
        with open(argv[1], encoding="utf-8") as f:
            schema = json.load(f)
        Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, SchemaError) as e:
        print(f"{argv[1]}: not a valid schema: {str(e)[:300]}")
        return 2
    validator = Draft202012Validator(schema)
    rc = 0
    for path in argv[2:]:
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: cannot read: {e}")
            return 2
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.path)))
        for e in errors[:5]:
            where = "/".join(map(str, e.path)) or "(top)"
            print(f"{path}: {where}: {e.message[:240]}")
        if errors:
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
