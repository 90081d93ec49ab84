"""The sample messaging apps (examples/python-chat, examples/swift-chat) against a real heraldd,
restarted under them: each donates, updates content, follows Focus and answers a reply."""
import os
import pathlib
import subprocess
import sys
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients/python"))
sys.path.insert(0, str(ROOT / "clients/python/tests"))

from herald_client import Client  # noqa: E402
from heraldd import RunningHeraldd, heraldd_path  # noqa: E402

APP = "org.example.chat"
WAIT = 60
"""How long the apps wait for an event before they give up: a bound against a hang, not a timing."""


class SampleAppTests(unittest.TestCase):
    def run_app(self, command):
        heraldd = RunningHeraldd().start()
        self.addCleanup(heraldd.remove)
        environment = dict(os.environ, PYTHONPATH=str(ROOT / "clients/python"))
        app = subprocess.Popen(command + ["--socket", heraldd.socket_path, "--replies", "1"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, env=environment, text=True)
        self.addCleanup(lambda: app.poll() is None and app.kill())
        seen = []

        def read_until(wanted: str) -> None:
            for line in app.stdout:
                seen.append(line.rstrip("\n"))
                if line.startswith(wanted):
                    return
            self.fail(f"the app ended before printing {wanted!r}: {seen}")

        read_until("ready")
        self.assertIn("focus status not shared (authorization: notDetermined)", seen)
        self.assertIn("notification m-1: Bob Stone (Lunch crew): Lunch at noon? [alert]", seen)
        self.assertIn("sent m-2: Sounds good", seen)

        # heraldd restarts: the app connects again and subscribes again.
        heraldd.stop()
        heraldd.start()
        read_until("reconnected")

        with Client(heraldd.socket_path, timeout=WAIT) as person:
            person.set_focus_authorization(app=APP, status="authorized")
            read_until("Ann is available")
            person.set_focus(focus={"name": "Work", "allowedPeople": []})
            read_until("Ann has notifications silenced")
            person.respond_to_notification(app=APP, identifier="m-1", actionIdentifier="reply", userText="On my way")
            read_until("replied to m-1: On my way")
            self.assertEqual(app.wait(WAIT), 0, seen)
            # The reply went out as Ann's message: Bob is suggested for her two outgoing messages.
            people = person.suggest_people(app=APP)["people"]
            bob = [entry for entry in people if entry["person"].get("displayName") == "Bob Stone"]
            self.assertEqual([entry["messageCount"] for entry in bob], [2], people)
        app.stdout.close()
        return seen

    def test_the_python_app(self):
        seen = self.run_app([sys.executable, str(ROOT / "examples/python-chat/chat.py"), "--timeout", str(WAIT)])
        self.assertIn("notification call-1: Bob Stone: Incoming call [alert]", seen)

    def test_the_swift_app(self):
        binary = pathlib.Path(heraldd_path()).parent / "herald-chat-example"
        if not os.access(binary, os.X_OK):
            raise unittest.SkipTest(f"no herald-chat-example beside heraldd at {binary}: swift build builds it")
        self.run_app([str(binary)])


if __name__ == "__main__":
    unittest.main()
