"""A real heraldd for the tests: on a socket and state folder of its own, stopped after."""
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def heraldd_path() -> str:
    """$HERALDD (what `make test` sets), else the debug build's."""
    return os.environ.get("HERALDD") or str(ROOT / ".build/debug/heraldd")


class RunningHeraldd:
    """heraldd started on a temporary socket; `stop()` ends it with SIGTERM, as systemd would."""

    def __init__(self, *arguments: str, folder: "str | None" = None):
        self.folder = folder or tempfile.mkdtemp(prefix="herald-python-")
        self.socket_path = os.path.join(self.folder, "herald.sock")
        self.arguments = arguments
        self.process: "subprocess.Popen[bytes] | None" = None

    def start(self) -> "RunningHeraldd":
        binary = heraldd_path()
        if not os.access(binary, os.X_OK):
            raise unittest.SkipTest(f"no heraldd at {binary}: build it, or set HERALDD")
        self.process = subprocess.Popen(
            [binary, "--socket", self.socket_path, "--state-dir", os.path.join(self.folder, "state"),
             "--log-target", "none", *self.arguments],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        # heraldd says where it serves once it listens: that line is the readiness signal.
        assert self.process.stderr is not None
        line = self.process.stderr.readline().decode("utf-8", "replace")
        if "serving on" not in line:
            self.process.kill()
            raise RuntimeError(f"heraldd did not start: {line}{self.process.stderr.read().decode('utf-8', 'replace')}")
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process is not None and self.process.stderr is not None:
            self.process.stderr.close()
        self.process = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
