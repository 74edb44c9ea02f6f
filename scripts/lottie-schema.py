#!/usr/bin/env python3
"""Validates Lottie files against lottie-spec 1.0's JSON Schema (PyPI's lottie-specs), and checks
that Strata reads every file the schema accepts (run by lottie-schema.sh).

For each file: "valid" (and read by `strata probe`), or the schema's deepest complaint with its
JSON path. Files outside the spec on purpose (features After Effects exports and lottie-web
draws, which spec 1.0 leaves out) are listed in OUTSIDE with the reason; any other invalid file,
and any valid file Strata cannot read, fails the run (exit 1).
"""
import json, os, subprocess, sys
import jsonschema, lottie_specs

# Fixtures that use what lottie-spec 1.0 does not have, and why they do.
OUTSIDE = {
    "mask-modes.json": "mask modes lighten, darken and difference ('l', 'd', 'f'): After Effects exports them and lottie-web draws them; spec 1.0 has add, subtract, intersect and none",
    "mask-opacity.json": "a lighten mask ('l'), as mask-modes.json",
}

def deepest(error):
    """The innermost reason of a schema error (the one naming the property that is wrong)."""
    while error.context:
        error = max(error.context, key=lambda e: len(list(e.absolute_path)))
    return error

def main():
    strata, files = sys.argv[1], sys.argv[2:]
    schema = json.load(open(os.path.join(os.path.dirname(lottie_specs.__file__), "data", "lottie.schema.json")))
    validator = jsonschema.validators.validator_for(schema)(schema)
    failed = 0
    for path in files:
        name = os.path.basename(path)
        try:
            doc = json.load(open(path, encoding="utf-8"))
        except (OSError, ValueError) as e:
            print(f"{name}: unreadable ({e})"); failed += 1; continue
        errors = list(validator.iter_errors(doc))
        if errors:
            e = deepest(errors[0])
            where = "/".join(map(str, e.absolute_path)) or "(top)"
            if name in OUTSIDE:
                print(f"{name}: outside lottie-spec 1.0, as intended: {OUTSIDE[name]} ({where}: {e.message[:80]})")
            else:
                print(f"{name}: not valid: {where}: {e.message[:160]} ({len(errors)} errors)"); failed += 1
            continue
        r = subprocess.run([strata, "probe", path], capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            print(f"{name}: valid, but Strata cannot read it: {r.stderr.strip()[-200:]}"); failed += 1
        else:
            print(f"{name}: valid, read by Strata")
    print(f"{len(files)} files, {failed} failing")
    sys.exit(1 if failed else 0)

main()
