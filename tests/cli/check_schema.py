#!/usr/bin/python3
# check_schema.py SCHEMA RESULT.json...: validates each result file against the
# published JSON Schema (draft 2020-12); prints every violation with its JSON
# path and exits 1 when there is one.  Needs Debian's python3-jsonschema: run
# it with /usr/bin/python3.
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
bad = 0
for path in sys.argv[2:]:
    for e in validator.iter_errors(json.load(open(path))):
        print(f"{path}: {e.json_path}: {e.message}")
        bad += 1
sys.exit(1 if bad else 0)
