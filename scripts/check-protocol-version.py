#!/usr/bin/env python3
"""Checks that Protocol/openrpc.json's version moved as its changes since the last release require.

The protocol's own version is `info.version`, MAJOR.MINOR.PATCH (Protocol/README.md,
"Versioning"). The document as released is kept in Protocol/released/openrpc-X.Y.Z.json; this
compares the current document with the newest of them:

- **Breaking** (needs a new major version): a method or a notification removed; a param, a
  result member or a component schema removed or renamed; an optional param or member made
  required; a member's type changed (its JSON type, its `$ref`, its `const`); a value removed
  from an enum a client may send; a required result member made optional; a choice
  (`oneOf`/`anyOf`) losing an alternative.
- **Additive** (needs at least a new minor version): a method, notification, schema, optional
  param or member, enum value or alternative added.
- Anything else (descriptions, examples, limits such as `maxLength`) may ship as a patch.

Params, and the schemas they reach, are what a client sends; results and notifications, and
the schemas they reach, what it receives. A schema reached from both is held to both sets of
rules. A new major version may change anything: then the check only asks that it is newer.

Usage: scripts/check-protocol-version.py [CURRENT.json [RELEASED.json]]
Exits 1 and prints each problem when the version did not move enough.
"""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEMVER = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")
SEND, RECEIVE = "send", "receive"


def version_of(document, where: str) -> tuple:
    text = document.get("info", {}).get("version", "")
    match = SEMVER.match(text if isinstance(text, str) else "")
    if not match:
        raise ValueError(f"{where}: info.version {text!r} is not MAJOR.MINOR.PATCH")
    return tuple(int(part) for part in match.groups())


def newest_released(folder: pathlib.Path) -> pathlib.Path:
    candidates = []
    for path in folder.glob("openrpc-*.json"):
        match = SEMVER.match(path.name[len("openrpc-"):-len(".json")])
        if match:
            candidates.append((tuple(int(part) for part in match.groups()), path))
    if not candidates:
        raise FileNotFoundError(f"no openrpc-X.Y.Z.json in {folder}")
    return max(candidates)[1]


class Comparison:
    """The breaking and additive differences between two documents."""

    def __init__(self, old, new):
        self.old, self.new = old, new
        self.breaking: list = []
        self.additive: list = []
        self.directions = {}  # component schema name → {SEND, RECEIVE}
        self.compared = set()  # (schema name, direction) already compared

    def breaks(self, where: str, what: str) -> None:
        self.breaking.append(f"{where}: {what}")

    def adds(self, where: str, what: str) -> None:
        self.additive.append(f"{where}: {what}")

    def run(self) -> "Comparison":
        self.compare_named("method", self.old.get("methods", []), self.new.get("methods", []), "/methods", self.compare_method)
        self.compare_named("notification", self.old.get("x-notifications", []), self.new.get("x-notifications", []),
                           "/x-notifications", self.compare_notification)
        old_schemas = self.old.get("components", {}).get("schemas", {})
        new_schemas = self.new.get("components", {}).get("schemas", {})
        for name in old_schemas:
            if name not in new_schemas:
                self.breaks(f"/components/schemas/{name}", "removed or renamed")
        for name in new_schemas:
            if name not in old_schemas:
                self.adds(f"/components/schemas/{name}", "added")
        return self

    def compare_named(self, kind, old_list, new_list, where, compare) -> None:
        new_by_name = {item.get("name"): item for item in new_list if isinstance(item, dict)}
        old_names = set()
        for item in old_list:
            name = item.get("name")
            old_names.add(name)
            if name not in new_by_name:
                self.breaks(f"{where}/{name}", f"{kind} removed or renamed")
            else:
                compare(item, new_by_name[name], f"{where}/{name}")
        for name in new_by_name:
            if name not in old_names:
                self.adds(f"{where}/{name}", f"{kind} added")

    def compare_method(self, old, new, where) -> None:
        self.compare_params(old.get("params", []), new.get("params", []), f"{where}/params", SEND)
        self.compare_schema(old.get("result", {}).get("schema", {}), new.get("result", {}).get("schema", {}),
                            f"{where}/result", RECEIVE)

    def compare_notification(self, old, new, where) -> None:
        self.compare_params(old.get("params", []), new.get("params", []), f"{where}/params", RECEIVE)

    def compare_params(self, old_params, new_params, where, direction) -> None:
        new_by_name = {p.get("name"): p for p in new_params}
        old_by_name = {p.get("name"): p for p in old_params}
        for name, old in old_by_name.items():
            new = new_by_name.get(name)
            if new is None:
                self.breaks(f"{where}/{name}", "removed or renamed")
                continue
            if direction == SEND and new.get("required", False) and not old.get("required", False):
                self.breaks(f"{where}/{name}", "an optional param made required")
            if direction == RECEIVE and old.get("required", False) and not new.get("required", False):
                self.breaks(f"{where}/{name}", "a required member made optional")
            self.compare_schema(old.get("schema", {}), new.get("schema", {}), f"{where}/{name}", direction)
        for name, new in new_by_name.items():
            if name not in old_by_name:
                if direction == SEND and new.get("required", False):
                    self.breaks(f"{where}/{name}", "a required param added")
                else:
                    self.adds(f"{where}/{name}", "added")

    @staticmethod
    def types(schema) -> set:
        kind = schema.get("type")
        if kind is None:
            return set()
        return set(kind) if isinstance(kind, list) else {kind}

    def compare_schema(self, old, new, where, direction) -> None:
        if not isinstance(old, dict) or not isinstance(new, dict):
            return
        old_ref, new_ref = old.get("$ref"), new.get("$ref")
        if old_ref or new_ref:
            if old_ref != new_ref:
                self.breaks(where, f"type changed from {old_ref or 'an inline schema'} to {new_ref or 'an inline schema'}")
            else:
                self.compare_component(old_ref.rsplit("/", 1)[-1], direction)
            return
        if self.types(old) != self.types(new):
            old_types, new_types = sorted(self.types(old)), sorted(self.types(new))
            self.breaks(where, f"type changed from {old_types or 'any'} to {new_types or 'any'}")
        if "const" in old or "const" in new:
            if old.get("const") != new.get("const"):
                self.breaks(where, f"const changed from {old.get('const')!r} to {new.get('const')!r}")
        if "enum" in old and "enum" in new:
            removed = [value for value in old["enum"] if value not in new["enum"]]
            added = [value for value in new["enum"] if value not in old["enum"]]
            if removed and direction == SEND:
                self.breaks(where, f"enum values removed: {removed}")
            if added:
                self.adds(where, f"enum values added: {added}")
        elif ("enum" in old) != ("enum" in new):
            self.breaks(where, "enum added or removed")
        self.compare_object(old, new, where, direction)
        if "items" in old or "items" in new:
            self.compare_schema(old.get("items", {}), new.get("items", {}), f"{where}/items", direction)
        for keyword in ("oneOf", "anyOf", "allOf"):
            old_list, new_list = old.get(keyword, []), new.get(keyword, [])
            for index, old_member in enumerate(old_list):
                if index >= len(new_list):
                    self.breaks(f"{where}/{keyword}/{index}", "alternative removed")
                else:
                    self.compare_schema(old_member, new_list[index], f"{where}/{keyword}/{index}", direction)
            if len(new_list) > len(old_list):
                self.adds(f"{where}/{keyword}", "alternative added")

    def compare_object(self, old, new, where, direction) -> None:
        old_props, new_props = old.get("properties", {}), new.get("properties", {})
        old_required, new_required = set(old.get("required", [])), set(new.get("required", []))
        for name, old_member in old_props.items():
            if name not in new_props:
                self.breaks(f"{where}/{name}", "member removed or renamed")
                continue
            if direction == SEND and name in new_required and name not in old_required:
                self.breaks(f"{where}/{name}", "an optional member made required")
            if direction == RECEIVE and name in old_required and name not in new_required:
                self.breaks(f"{where}/{name}", "a required member made optional")
            self.compare_schema(old_member, new_props[name], f"{where}/{name}", direction)
        for name in new_props:
            if name not in old_props:
                if direction == SEND and name in new_required:
                    self.breaks(f"{where}/{name}", "a required member added")
                else:
                    self.adds(f"{where}/{name}", "member added")

    def compare_component(self, name, direction) -> None:
        if (name, direction) in self.compared:
            return
        self.compared.add((name, direction))
        old = self.old.get("components", {}).get("schemas", {}).get(name)
        new = self.new.get("components", {}).get("schemas", {}).get(name)
        if old is None or new is None:
            return  # reported with the components
        self.compare_schema(old, new, f"/components/schemas/{name}", direction)


def check(current, released) -> list:
    """The problems with `current`'s version against `released`; empty when it moved enough."""
    old_version, new_version = version_of(released, "released"), version_of(current, "current")
    if new_version < old_version:
        return [f"info.version {'.'.join(map(str, new_version))} is older than the released {'.'.join(map(str, old_version))}"]
    if new_version[0] > old_version[0]:
        return []
    comparison = Comparison(released, current).run()
    problems = []
    if comparison.breaking:
        problems += [f"breaking change without a new major version: {line}" for line in sorted(set(comparison.breaking))]
    if comparison.additive and new_version[1] == old_version[1]:
        problems += [f"addition without a new minor version: {line}" for line in sorted(set(comparison.additive))]
    return problems


def main() -> int:
    current_path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "Protocol/openrpc.json"
    released_path = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else newest_released(ROOT / "Protocol/released")
    try:
        current = json.loads(current_path.read_text(encoding="utf-8"))
        released = json.loads(released_path.read_text(encoding="utf-8"))
        problems = check(current, released)
    except (OSError, ValueError) as error:
        print(f"check-protocol-version: {error}", file=sys.stderr)
        return 1
    for line in problems:
        print(line)
    if problems:
        print(f"check-protocol-version: {current_path} against {released_path.name}: {len(problems)} problem(s); "
              "move info.version (Protocol/README.md, Versioning)", file=sys.stderr)
        return 1
    print(f"check-protocol-version: info.version {current['info']['version']} holds against {released_path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
