#!/usr/bin/env python3
"""Generates the Python client's protocol module from Protocol/openrpc.json.

Writes clients/python/herald_client/protocol.py: the protocol's version, a `TypedDict` or
type alias per component schema, one per inline result and per notification's params, and
one method per protocol method for the sync client (`SyncMethods`) and the asyncio client
(`AsyncMethods`). Nothing in that file is written by hand, so it cannot drift from the
document: clients/python/tests/test_generated.py regenerates it and compares.

Usage: scripts/generate-python-client.py [OUTPUT] [--document openrpc.json]
"""
import argparse
import json
import keyword
import pathlib
import re
import textwrap

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = ROOT / "clients/python/herald_client/protocol.py"

SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}


def type_name(words: str) -> str:
    """`update-content` → `UpdateContent`, `rpc.discover` → `RpcDiscover`."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", words) if part)


def python_method_name(method: str) -> str:
    """`update-content` → `update_content`; `rpc.discover` → `discover`."""
    if method == "rpc.discover":
        return "discover"
    return method.replace("-", "_").replace(".", "_")


def argument_name(member: str) -> str:
    return member + "_" if keyword.iskeyword(member) else member


def annotation(schema) -> str:
    """The Python type of a schema, with component references quoted (forward references)."""
    if not isinstance(schema, dict):
        return "Any"
    if "$ref" in schema:
        return repr(schema["$ref"].rsplit("/", 1)[-1])
    if "const" in schema:
        return f"Literal[{schema['const']!r}]"
    if "enum" in schema:
        return "Literal[" + ", ".join(repr(value) for value in schema["enum"]) + "]"
    for choice in ("oneOf", "anyOf"):
        if choice in schema and "properties" not in schema and "type" not in schema:
            members = []
            for alternative in schema[choice]:
                member = annotation(alternative)
                if member not in members:
                    members.append(member)
            if "None" in members:
                members.remove("None")
                return f"Optional[{members[0]}]" if len(members) == 1 else "Optional[Union[" + ", ".join(members) + "]]"
            return members[0] if len(members) == 1 else "Union[" + ", ".join(members) + "]"
    kind = schema.get("type")
    if isinstance(kind, list):
        members = [annotation({**schema, "type": one}) for one in kind if one != "null"]
        inner = members[0] if len(members) == 1 else "Union[" + ", ".join(members) + "]"
        return f"Optional[{inner}]" if "null" in kind else inner
    if kind == "array":
        return f"List[{annotation(schema.get('items', {}))}]"
    if kind == "object" or "properties" in schema or "allOf" in schema:
        return "Dict[str, Any]"
    return SCALARS.get(kind, "Any")


def docstring(text: str, indent: str) -> list:
    text = " ".join((text or "").split()).replace("\\", "\\\\").replace('"""', "'''")
    if not text:
        return []
    lines = textwrap.wrap(text, width=96 - len(indent))
    if len(lines) == 1:
        return [f'{indent}"""{lines[0]}"""']
    return [f'{indent}"""{lines[0]}'] + [f"{indent}{line}" for line in lines[1:]] + [f'{indent}"""']


def typed_dict(name: str, members, required: set, description: str) -> list:
    """A TypedDict; required and optional members apart, as Python 3.9 needs."""
    members = list(members)
    plain = all(member.isidentifier() and not keyword.iskeyword(member) for member, _ in members)
    if not plain:  # an APNs spelling such as `mutable-content`: only the functional form takes it
        fields = ", ".join(f"{member!r}: {annotation(schema)}" for member, schema in members)
        return [f"{name} = TypedDict({name!r}, {{{fields}}}, total=False)"]
    needed = [(member, schema) for member, schema in members if member in required]
    optional = [(member, schema) for member, schema in members if member not in required]
    lines = []
    if needed and optional:
        lines += [f"class _{name}Required(TypedDict):"]
        lines += [f"    {member}: {annotation(schema)}" for member, schema in needed]
        lines += ["", "", f"class {name}(_{name}Required, total=False):"]
        lines += docstring(description, "    ")
        lines += [f"    {member}: {annotation(schema)}" for member, schema in optional]
    else:
        total = "" if needed or not members else ", total=False"
        lines += [f"class {name}(TypedDict{total}):"]
        lines += docstring(description, "    ")
        lines += [f"    {member}: {annotation(schema)}" for member, schema in (needed or optional)]
        if not members:
            lines += ["    pass"]
    return lines


def schema_definition(name: str, schema) -> list:
    description = schema.get("title", "") + (": " if schema.get("title") and schema.get("description") else "") + schema.get("description", "")
    if schema.get("type") == "object" and isinstance(schema.get("properties"), dict) and schema["properties"]:
        return typed_dict(name, schema["properties"].items(), set(schema.get("required", [])), description)
    comment = textwrap.wrap(" ".join(description.split()), width=94)
    return [f"#: {line}" for line in comment] + [f"{name} = {annotation(schema)}"]


def result_type(method) -> tuple:
    """The annotation of a method's result, and the TypedDict to define for an inline one."""
    schema = method.get("result", {}).get("schema", {})
    if schema.get("type") == "object" and isinstance(schema.get("properties"), dict) and schema["properties"]:
        name = type_name(method["name"]) + "Result"
        return name, schema_definition(name, schema)
    return annotation(schema), []


def method_lines(method, asynchronous: bool) -> list:
    python_name = python_method_name(method["name"])
    result, _ = result_type(method)
    params = method.get("params", [])
    arguments = ["self"]
    if params:
        arguments.append("*")
    for param in sorted(params, key=lambda p: not p.get("required", False)):
        kind = annotation(param["schema"])
        if param.get("required", False):
            arguments.append(f"{argument_name(param['name'])}: {kind}")
        else:
            kind = kind if kind.startswith("Optional[") else f"Optional[{kind}]"
            arguments.append(f"{argument_name(param['name'])}: {kind} = None")
    prefix = "async def" if asynchronous else "def"
    signature = f"    {prefix} {python_name}({', '.join(arguments)}) -> {result}:"
    if len(signature) > 110:
        signature = f"    {prefix} {python_name}(\n" + "".join(f"        {argument},\n" for argument in arguments) + f"    ) -> {result}:"
    who = method.get("x-herald-access", "")
    lines = [signature]
    lines += docstring(f"`{method['name']}`: {method.get('summary', '')}" + (f" Who may call it: {who}." if who else ""), "        ")
    members = ", ".join(f"{p['name']!r}: {argument_name(p['name'])}" for p in params)
    call = "await self.call" if asynchronous else "self.call"
    lines += [f"        return {call}({method['name']!r}, _present({{{members}}}))"]
    return lines


def generate(document) -> str:
    info = document["info"]
    out = [
        '"""Herald\'s protocol for Python: its version, types and methods.',
        "",
        "Generated by scripts/generate-python-client.py from Protocol/openrpc.json. Do not edit:",
        "change the document and run the script again.",
        '"""',
        "# fmt: off",
        "from __future__ import annotations",
        "",
        "from typing import Any, Dict, List, Literal, Optional, TypedDict, Union",
        "",
        f"PROTOCOL_VERSION = {info['version']!r}",
        '"""The protocol version this module was generated from (`info.version`)."""',
        "",
        "METHODS = (",
    ]
    out += [f"    {method['name']!r}," for method in document["methods"]]
    out += [")", '"""Every method of PROTOCOL_VERSION, in the document\'s order."""', ""]
    out += ["NOTIFICATIONS = ("]
    out += [f"    {notification['name']!r}," for notification in document.get("x-notifications", [])]
    out += [")", '"""Every notification the daemon sends (an `Event`\'s `method`)."""', "", ""]
    for name, schema in document.get("components", {}).get("schemas", {}).items():
        out += schema_definition(name, schema) + ["", ""]
    for method in document["methods"]:
        _, definition = result_type(method)
        if definition:
            out += definition + ["", ""]
    for notification in document.get("x-notifications", []):
        params = [(p["name"], p["schema"]) for p in notification.get("params", [])]
        required = {p["name"] for p in notification.get("params", []) if p.get("required", False)}
        out += typed_dict(type_name(notification["name"]) + "Params", params, required, notification.get("summary", "")) + ["", ""]
    out += [
        "def _present(params: Dict[str, Any]) -> Dict[str, Any]:",
        '    """The params without the members left as None: an older daemon never sees a member it may not know."""',
        "    return {name: value for name, value in params.items() if value is not None}",
    ]
    for class_name, what, asynchronous in (("SyncMethods", "method", False), ("AsyncMethods", "coroutine", True)):
        prefix = "async def" if asynchronous else "def"
        out += [
            "",
            "",
            f"class {class_name}:",
            f'    """One {what} per protocol method, over `call` ({"AsyncClient" if asynchronous else "Client"})."""',
            "",
            f"    {prefix} call(self, method: str, params: Optional[Dict[str, Any]] = None) -> Any:",
            "        raise NotImplementedError",
        ]
        for method in document["methods"]:
            out += [""] + method_lines(method, asynchronous)
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", default=str(DEFAULT_OUTPUT))
    parser.add_argument("--document", default=str(ROOT / "Protocol/openrpc.json"))
    arguments = parser.parse_args()
    document = json.loads(pathlib.Path(arguments.document).read_text(encoding="utf-8"))
    pathlib.Path(arguments.output).write_text(generate(document), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
