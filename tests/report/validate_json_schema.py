#!/usr/bin/env python3
"""Validates a JSON document against a JSON schema; exit 0 valid, 1 invalid, 77 no jsonschema."""
import json
import sys

try:
    import jsonschema
except ImportError:
    sys.exit(77)

schema = json.load(open(sys.argv[1]))
document = json.load(open(sys.argv[2]))
validator_class = jsonschema.validators.validator_for(schema)
errors = sorted(validator_class(schema).iter_errors(document), key=lambda e: list(e.path))
for error in errors:
    print("/".join(str(p) for p in error.path) + ": " + error.message)
sys.exit(1 if errors else 0)
