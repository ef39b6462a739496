#!/usr/bin/env python3
"""Validates a CycloneDX 1.6 JSON BOM against the vendored schema (data/cyclonedx/);
exit 0 valid, 1 invalid, 77 no jsonschema."""
import json
import warnings
import os
import sys

try:
    import jsonschema
except ImportError:
    sys.exit(77)

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "cyclonedx")
store = {}
for name in ("bom-1.6.schema.json", "spdx.schema.json", "jsf-0.82.schema.json"):
    with open(os.path.join(here, name)) as f:
        schema = json.load(f)
    store[schema["$id"]] = schema
    store[schema["$id"].replace("http://", "https://")] = schema
bom_schema = store["http://cyclonedx.org/schema/bom-1.6.schema.json"]
with open(sys.argv[1]) as f:
    document = json.load(f)
warnings.simplefilter("ignore", DeprecationWarning)
resolver = jsonschema.RefResolver.from_schema(bom_schema, store=store)
validator = jsonschema.Draft7Validator(bom_schema, resolver=resolver, format_checker=jsonschema.FormatChecker())
errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
for error in errors:
    print("/".join(str(p) for p in error.path) + ": " + error.message)
sys.exit(1 if errors else 0)
