"""Validates rendered Kubernetes objects strictly against the schemas of Kubernetes 1.27-1.33.

Objects of API groups that Kubernetes does not define (CRDs: KEDA's keda.sh) are validated
against JSON schemas shipped next to this file (<schemas>/<group>/<kind>_<version>.json,
lower case); an object for which no schema exists at all is an error, never skipped.
"""
import argparse
import json
import os
import sys

import jsonschema
import kubernetes_validate
import yaml

VERSIONS = [f"1.{minor}.0" for minor in range(27, 34)]


def describe(path, obj):
    meta = obj.get("metadata") or {}
    return f"{os.path.basename(path)}: {obj.get('kind')}/{meta.get('name')}"


def crd_schema(schemas, obj):
    """The shipped schema of a custom resource (<schemas>/<group>/<kind>_<version>.json), if any."""
    group, _, version = obj.get("apiVersion", "").rpartition("/")
    if not group:
        return None
    file = os.path.join(schemas, group, f"{obj.get('kind', '').lower()}_{version}.json")
    if not os.path.exists(file):
        return None
    with open(file, encoding="utf-8") as f:
        return json.load(f)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--schemas", required=True)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    problems, checked = [], 0
    for path in args.files:
        with open(path, encoding="utf-8") as f:
            objects = [o for o in yaml.safe_load_all(f) if o]
        if not objects:
            problems.append(f"{path}: no objects rendered")
        for obj in objects:
            checked += 1
            schema = crd_schema(args.schemas, obj)
            if schema is not None:
                validator = jsonschema.Draft202012Validator(schema)
                for err in validator.iter_errors(obj):
                    # A oneOf (which trigger type) failure: report the closest branch's reason.
                    err = jsonschema.exceptions.best_match(err.context) if err.context else err
                    where = "/".join(str(p) for p in err.absolute_path) or "(root)"
                    problems.append(f"{describe(path, obj)}: {where}: {err.message} (shipped schema)")
                continue
            for version in VERSIONS:
                try:
                    kubernetes_validate.validate(obj, version, strict=True)
                except kubernetes_validate.SchemaNotFoundError:
                    problems.append(f"{describe(path, obj)}: Kubernetes {version} has no schema for {obj.get('apiVersion')} {obj.get('kind')}, and none is shipped")
                except kubernetes_validate.ValidationError as err:
                    where = "/".join(str(p) for p in err.path) or "(root)"
                    problems.append(f"{describe(path, obj)}: Kubernetes {version}: {where}: {err.message}")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{checked} object(s) in {len(args.files)} file(s) checked against Kubernetes {VERSIONS[0]}..{VERSIONS[-1]}: {len(problems)} problem(s)")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
