#!/usr/bin/env python3
"""Checks Protocol/openrpc.json: prints every problem it finds and exits 1 if there is any.

- The file is JSON, pretty-printed with 2-space indentation, and an OpenRPC 1.3.2 document
  (the members the specification requires, each of the right kind).
- Every `$ref` resolves inside the document.
- Every schema (components, params, results, notification params) is a valid draft-7 JSON Schema.
- Every example pairing names only declared params, gives every required one, and its params
  and result validate against their schemas; so do the notification examples.
- Each error code and message is one of Sources/HeraldProtocol/JSONRPC/ErrorCode.swift.
- `info.version` is the protocol's own MAJOR.MINOR.PATCH; `info.x-herald-daemon-version` is
  heraldd's, as Sources/HeraldProtocol/HeraldVersion.swift says. (That the version moved as
  the changes since the released document require is scripts/check-protocol-version.py's.)
  (That the methods are exactly the method descriptors, in order, with "Administrators only"
  where they say so, is checked by HeraldServerTests' MethodDescriptorTests.)

Usage: scripts/check-openrpc.py [path/to/openrpc.json]
"""
import json
import pathlib
import re
import sys

try:
    import jsonschema
except ImportError as error:  # pragma: no cover
    print(f"check-openrpc: needs python3-jsonschema (apt-get install python3-jsonschema): {error}", file=sys.stderr)
    sys.exit(2)
try:  # jsonschema 4.18 and later resolve references through `referencing`.
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT7
except ImportError:  # Older releases (Debian 12 ships 4.10) use RefResolver.
    Registry = None

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOCUMENT_URI = "urn:herald:openrpc"

problems: list[str] = []


def problem(where: str, what: str) -> None:
    problems.append(f"{where}: {what}")


def pointer_escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def resolve_pointer(document, pointer: str):
    """The value at an RFC 6901 pointer, or raises KeyError."""
    if pointer == "":
        return document
    if not pointer.startswith("/"):
        raise KeyError(pointer)
    value = document
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, list):
            if not token.isdigit() or int(token) >= len(value):
                raise KeyError(pointer)
            value = value[int(token)]
        elif isinstance(value, dict):
            if token not in value:
                raise KeyError(pointer)
            value = value[token]
        else:
            raise KeyError(pointer)
    return value


def check_refs(document, value, where: str) -> None:
    """Every `$ref` is a local pointer that resolves."""
    if isinstance(value, dict):
        target = value.get("$ref")
        if isinstance(target, str):
            if not target.startswith("#"):
                problem(where, f"$ref {target} is not a reference inside the document")
            else:
                try:
                    resolve_pointer(document, target[1:])
                except KeyError:
                    problem(where, f"$ref {target} does not resolve")
        for key, member in value.items():
            check_refs(document, member, f"{where}/{pointer_escape(key)}")
    elif isinstance(value, list):
        for index, member in enumerate(value):
            check_refs(document, member, f"{where}/{index}")


def expect(condition: bool, where: str, what: str) -> bool:
    if not condition:
        problem(where, what)
    return condition


def check_schema(schema, where: str) -> None:
    try:
        jsonschema.Draft7Validator.check_schema(schema)
    except jsonschema.SchemaError as error:
        problem(where, f"not a valid draft-7 schema: {error.message}")


def make_registry(document):
    """What resolves `#/…` references against the document: a `referencing` registry, or
    the document itself for older jsonschema releases."""
    if Registry is None:
        return document
    return Registry().with_resource(DOCUMENT_URI, Resource.from_contents(document, default_specification=DRAFT7))


def validator_for(registry, where: str) -> jsonschema.Draft7Validator:
    """A validator for the schema at `where` (a pointer), resolving `#/…` against the document."""
    format_checker = jsonschema.Draft7Validator.FORMAT_CHECKER
    if Registry is None:
        resolver = jsonschema.RefResolver("", registry)
        return jsonschema.Draft7Validator({"$ref": f"#{where}"}, resolver=resolver, format_checker=format_checker)
    return jsonschema.Draft7Validator({"$ref": f"{DOCUMENT_URI}#{where}"}, registry=registry, format_checker=format_checker)


def validate(registry, schema_where: str, value, where: str) -> None:
    try:
        errors = sorted(validator_for(registry, schema_where).iter_errors(value), key=lambda e: list(e.path))
    except Exception as error:  # an unresolvable reference, say
        problem(where, f"cannot validate against {schema_where}: {error}")
        return
    for error in errors:
        location = "/" + "/".join(str(part) for part in error.absolute_path)
        problem(where, f"{location if location != '/' else 'value'}: {error.message}")


def deref(document, value):
    """Follows `$ref` (e.g. of an error object) to its target."""
    seen = 0
    while isinstance(value, dict) and isinstance(value.get("$ref"), str) and seen < 16:
        try:
            value = resolve_pointer(document, value["$ref"][1:])
        except KeyError:
            return None
        seen += 1
    return value


def check_content_descriptor(descriptor, where: str) -> None:
    if not expect(isinstance(descriptor, dict), where, "a content descriptor must be an object"):
        return
    expect(isinstance(descriptor.get("name"), str) and descriptor["name"], where, "a content descriptor needs a name")
    if expect("schema" in descriptor, where, "a content descriptor needs a schema"):
        check_schema(descriptor["schema"], f"{where}/schema")
    if "required" in descriptor:
        expect(isinstance(descriptor["required"], bool), f"{where}/required", "must be a boolean")


def check_examples(registry, method, where: str, needs_result: bool) -> None:
    params = {p.get("name"): index for index, p in enumerate(method.get("params", [])) if isinstance(p, dict)}
    required = {p["name"] for p in method.get("params", []) if isinstance(p, dict) and p.get("required")}
    examples = method.get("examples", [])
    expect(isinstance(examples, list) and examples, where, "needs at least one example")
    for e_index, example in enumerate(examples if isinstance(examples, list) else []):
        e_where = f"{where}/examples/{e_index}"
        if not expect(isinstance(example, dict), e_where, "an example pairing must be an object"):
            continue
        expect(isinstance(example.get("name"), str), e_where, "an example pairing needs a name")
        given = set()
        if not expect(isinstance(example.get("params"), list), e_where, "an example pairing needs a params array"):
            continue
        for p_index, param in enumerate(example["params"]):
            p_where = f"{e_where}/params/{p_index}"
            if not expect(isinstance(param, dict) and "name" in param and "value" in param, p_where, "an example needs name and value"):
                continue
            name = param["name"]
            if not expect(name in params, p_where, f"names no param of the method: {name}"):
                continue
            expect(name not in given, p_where, f"gives {name} twice")
            given.add(name)
            validate(registry, f"{where}/params/{params[name]}/schema", param["value"], p_where)
        for missing in sorted(required - given):
            problem(e_where, f"leaves out the required param {missing}")
        if needs_result:
            result = example.get("result")
            if expect(isinstance(result, dict) and "value" in result, e_where, "an example pairing needs a result with a value"):
                validate(registry, f"{where}/result/schema", result["value"], f"{e_where}/result")


def swift_error_codes() -> dict[int, str]:
    """Each code of ErrorCode.swift and its standard message."""
    path = ROOT / "Sources/HeraldProtocol/JSONRPC/ErrorCode.swift"
    text = path.read_text(encoding="utf-8")
    values = {m.group(1): int(m.group(2)) for m in re.finditer(r"static\s+let\s+(\w+)\s*=\s*ErrorCode\(rawValue:\s*(-?\d+)\)", text)}
    messages = {m.group(1): m.group(2) for m in re.finditer(r'case\s+\.(\w+):\s*"([^"]*)"', text)}
    return {code: messages.get(name, "Server error") for name, code in values.items()}


def heraldd_version() -> str:
    """heraldd's own version, as HeraldVersion.swift gives it."""
    text = (ROOT / "Sources/HeraldProtocol/HeraldVersion.swift").read_text(encoding="utf-8")
    match = re.search(r'static\s+let\s+string\s*=\s*"([^"]*)"', text)
    return match.group(1) if match else "(not found)"


def check_against_sources(document) -> None:
    try:
        codes = swift_error_codes()
    except OSError as error:
        problem("Sources", f"cannot read ErrorCode.swift: {error}")
        return
    listed = []
    for index, method in enumerate(document.get("methods", [])):
        for e_index, error in enumerate(method.get("errors", []) if isinstance(method, dict) else []):
            listed.append((f"/methods/{index}/errors/{e_index}", deref(document, error)))
    for index, error in enumerate(document.get("x-errors", [])):
        listed.append((f"/x-errors/{index}", error))
    for where, error in listed:
        if not isinstance(error, dict):
            problem(where, "an error must be an object {code, message}")
            continue
        code, message = error.get("code"), error.get("message")
        if code not in codes:
            problem(where, f"code {code} is not in ErrorCode.swift")
        elif codes[code] != message:
            problem(where, f"message for {code} is {message!r}; ErrorCode.swift says {codes[code]!r}")
    documented = {e.get("code") for _, e in listed if isinstance(e, dict)}
    for code in sorted(set(codes) - documented):
        problem("/x-errors", f"code {code} of ErrorCode.swift appears nowhere in the document")


def main() -> int:
    path = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "Protocol/openrpc.json"
    try:
        text = path.read_text(encoding="utf-8")
        document = json.loads(text)
    except (OSError, ValueError) as error:
        print(f"{path}: not readable JSON: {error}")
        return 1

    if text != json.dumps(document, indent=2, ensure_ascii=False) + "\n":
        problem(str(path), "not pretty-printed with 2-space indentation (python3 -m json.tool --indent 2 --no-ensure-ascii)")
    if '"""##' in text:
        problem(str(path), 'contains """##, which ends the raw string scripts/embed-openrpc.sh embeds it in')

    expect(isinstance(document, dict), "/", "the document must be an object")
    if not isinstance(document, dict):
        return report()
    expect(document.get("openrpc") == "1.3.2", "/openrpc", "must be \"1.3.2\"")
    info = document.get("info")
    if expect(isinstance(info, dict), "/info", "required object"):
        expect(isinstance(info.get("title"), str), "/info/title", "required string")
        expect(isinstance(info.get("version"), str) and re.fullmatch(r"\d+\.\d+\.\d+", info["version"]) is not None,
               "/info/version", "the protocol's own version: MAJOR.MINOR.PATCH (Protocol/README.md, Versioning)")
        daemon = heraldd_version()
        expect(info.get("x-herald-daemon-version") == daemon, "/info/x-herald-daemon-version",
               f"must be heraldd's version, {daemon!r} (Sources/HeraldProtocol/HeraldVersion.swift)")
    methods = document.get("methods")
    expect(isinstance(methods, list), "/methods", "required array")
    check_refs(document, document, "")

    registry = make_registry(document)

    for name, schema in (document.get("components", {}).get("schemas", {}) or {}).items():
        check_schema(schema, f"/components/schemas/{pointer_escape(name)}")

    names = set()
    for index, method in enumerate(methods if isinstance(methods, list) else []):
        where = f"/methods/{index}"
        if not expect(isinstance(method, dict), where, "a method must be an object"):
            continue
        name = method.get("name")
        expect(isinstance(name, str) and name, where, "a method needs a name")
        expect(name not in names, where, f"method {name} appears twice")
        names.add(name)
        expect(method.get("paramStructure") == "by-name", f"{where}/paramStructure", "must be by-name: Herald takes params by name only")
        expect(isinstance(method.get("summary"), str) and method["summary"], f"{where}/summary", "needs a summary")
        expect(isinstance(method.get("description"), str) and method["description"], f"{where}/description", "needs a description")
        if expect(isinstance(method.get("params"), list), f"{where}/params", "required array"):
            seen = set()
            for p_index, param in enumerate(method["params"]):
                check_content_descriptor(param, f"{where}/params/{p_index}")
                if isinstance(param, dict):
                    expect(param.get("name") not in seen, f"{where}/params/{p_index}", "param name appears twice")
                    seen.add(param.get("name"))
        if expect(isinstance(method.get("result"), dict), f"{where}/result", "needs a result"):
            check_content_descriptor(method["result"], f"{where}/result")
        for e_index, error in enumerate(method.get("errors", [])):
            target = deref(document, error)
            expect(isinstance(target, dict) and isinstance(target.get("code"), int) and isinstance(target.get("message"), str),
                   f"{where}/errors/{e_index}", "an error needs an integer code and a message")
        check_examples(registry, method, where, needs_result=True)

    notifications = document.get("x-notifications", [])
    expect(isinstance(notifications, list) and notifications, "/x-notifications", "describes the server's notifications")
    for index, notification in enumerate(notifications if isinstance(notifications, list) else []):
        where = f"/x-notifications/{index}"
        if not expect(isinstance(notification, dict) and isinstance(notification.get("name"), str), where, "needs a name"):
            continue
        for p_index, param in enumerate(notification.get("params", [])):
            check_content_descriptor(param, f"{where}/params/{p_index}")
        check_examples(registry, notification, where, needs_result=False)

    check_against_sources(document)
    return report()


def report() -> int:
    for line in problems:
        print(line)
    if problems:
        print(f"check-openrpc: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print("check-openrpc: Protocol/openrpc.json is valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
