"""scripts/check-protocol-version.py against the released document changed one way at a time."""
import copy
import importlib.util
import json
import pathlib
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "scripts/check-protocol-version.py"
_spec = importlib.util.spec_from_file_location("check_protocol_version", SCRIPT)
check_protocol_version = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_protocol_version)

RELEASED_PATH = ROOT / "Protocol/released/openrpc-1.0.0.json"
RELEASED = json.loads(RELEASED_PATH.read_text(encoding="utf-8"))


def method(document, name):
    return next(m for m in document["methods"] if m["name"] == name)


def param(document, method_name, name):
    return next(p for p in method(document, method_name)["params"] if p["name"] == name)


def with_version(document, version):
    document["info"]["version"] = version
    return document


class ProtocolVersionCheckTests(unittest.TestCase):
    def changed(self, change, version="1.0.0"):
        """The check's problems with the released document after `change`, at `version`."""
        document = copy.deepcopy(RELEASED)
        change(document)
        return check_protocol_version.check(with_version(document, version), RELEASED)

    def assertBreaks(self, change, fragment):
        for version in ("1.0.1", "1.1.0"):
            problems = self.changed(change, version)
            self.assertTrue(any("breaking" in line and fragment in line for line in problems),
                            f"{version}: expected a breaking change naming {fragment!r}, got {problems}")
        self.assertEqual(self.changed(change, "2.0.0"), [], "a new major version may change anything")

    def test_the_released_document_holds_against_itself(self):
        self.assertEqual(check_protocol_version.check(RELEASED, RELEASED), [])

    def test_the_current_document_holds_against_the_released_one(self):
        run = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)

    def test_removing_a_method_breaks(self):
        self.assertBreaks(lambda d: d["methods"].remove(method(d, "get-cooldown")), "/methods/get-cooldown")

    def test_renaming_a_param_breaks(self):
        self.assertBreaks(lambda d: param(d, "donate", "interaction").update(name="interactions"), "/methods/donate/params/interaction")

    def test_removing_a_result_member_breaks(self):
        def change(d):
            del d["components"]["schemas"]["Delivery"]["properties"]["announce"]
        self.assertBreaks(change, "/components/schemas/Delivery/announce")

    def test_making_an_optional_param_required_breaks(self):
        self.assertBreaks(lambda d: param(d, "request-focus", "subscribe").update(required=True), "optional param made required")

    def test_making_an_optional_member_of_a_param_required_breaks(self):
        def change(d):
            d["components"]["schemas"]["Person"].setdefault("required", []).append("displayName")
        self.assertBreaks(change, "/components/schemas/Person/displayName")

    def test_changing_a_members_type_breaks(self):
        def change(d):
            d["components"]["schemas"]["Delivery"]["properties"]["sound"] = {"type": "string"}
        self.assertBreaks(change, "/components/schemas/Delivery/sound")

    def test_removing_a_value_a_client_sends_breaks(self):
        def change(d):
            d["components"]["schemas"]["InterruptionLevel"]["enum"].remove("passive")
        self.assertBreaks(change, "enum values removed")

    def test_an_added_optional_param_needs_a_minor_version(self):
        def change(d):
            method(d, "get-cooldown")["params"].append({"name": "verbose", "schema": {"type": "boolean"}})
        problems = self.changed(change, "1.0.1")
        self.assertTrue(any("addition without a new minor version" in line and "verbose" in line for line in problems), problems)
        self.assertEqual(self.changed(change, "1.1.0"), [])

    def test_an_added_method_needs_a_minor_version(self):
        def change(d):
            added = copy.deepcopy(method(d, "get-cooldown"))
            added["name"] = "get-cooldowns"
            d["methods"].append(added)
        self.assertTrue(self.changed(change, "1.0.0"))
        self.assertEqual(self.changed(change, "1.1.0"), [])

    def test_an_added_required_param_breaks(self):
        def change(d):
            method(d, "get-cooldown")["params"].append({"name": "verbose", "required": True, "schema": {"type": "boolean"}})
        self.assertBreaks(change, "a required param added")

    def test_a_description_may_change_in_a_patch(self):
        self.assertEqual(self.changed(lambda d: method(d, "donate").update(summary="Donates."), "1.0.1"), [])

    def test_an_older_version_fails(self):
        self.assertTrue(self.changed(lambda d: None, "0.9.0"))

    def test_the_script_exits_1_on_a_modified_document(self):
        document = copy.deepcopy(RELEASED)
        document["methods"].remove(method(document, "donate"))
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
            json.dump(document, file)
        try:
            # Against the document it was changed from, not the newest release.
            run = subprocess.run([sys.executable, str(SCRIPT), file.name, str(RELEASED_PATH)], capture_output=True, text=True)
        finally:
            pathlib.Path(file.name).unlink()
        self.assertEqual(run.returncode, 1)
        self.assertIn("/methods/donate: method removed or renamed", run.stdout)


if __name__ == "__main__":
    unittest.main()
