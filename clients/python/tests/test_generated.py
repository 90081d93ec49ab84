"""herald_client/protocol.py is what scripts/generate-python-client.py makes of Protocol/openrpc.json."""
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from herald_client import protocol  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[3]
GENERATED = ROOT / "clients/python/herald_client/protocol.py"


class GeneratedProtocolTests(unittest.TestCase):
    def test_the_committed_module_is_what_the_generator_makes_now(self):
        with tempfile.TemporaryDirectory() as folder:
            fresh = pathlib.Path(folder) / "protocol.py"
            subprocess.run([sys.executable, str(ROOT / "scripts/generate-python-client.py"), str(fresh)], check=True)
            self.assertEqual(fresh.read_text(encoding="utf-8"), GENERATED.read_text(encoding="utf-8"),
                             "clients/python/herald_client/protocol.py is stale: run scripts/generate-python-client.py")

    def test_every_method_and_the_version_come_from_the_document(self):
        document = json.loads((ROOT / "Protocol/openrpc.json").read_text(encoding="utf-8"))
        self.assertEqual(protocol.PROTOCOL_VERSION, document["info"]["version"])
        self.assertEqual(list(protocol.METHODS), [method["name"] for method in document["methods"]])
        for name in protocol.METHODS:
            python_name = "discover" if name == "rpc.discover" else name.replace("-", "_")
            self.assertTrue(callable(getattr(protocol.SyncMethods, python_name, None)), name)
            self.assertTrue(callable(getattr(protocol.AsyncMethods, python_name, None)), name)


if __name__ == "__main__":
    unittest.main()
