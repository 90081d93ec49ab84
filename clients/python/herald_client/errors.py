"""What a Herald call can fail with."""
from typing import Any, Dict, Optional


class HeraldError(Exception):
    """A JSON-RPC error heraldd answered: its code, message and `data` (reason, pointer, limit).

    `reason` is a sentence for a person (its wording may change); programs read `code` and
    `pointer`, the RFC 6901 pointer into the params at the member at fault.
    """

    def __init__(self, code: int, message: str, data: Optional[Dict[str, Any]] = None, method: Optional[str] = None):
        self.code = code
        self.message = message
        self.data: Dict[str, Any] = data if isinstance(data, dict) else {}
        self.method = method
        where = f" at {self.pointer}" if self.pointer is not None else ""
        super().__init__(f"{method + ': ' if method else ''}{message} ({code}){where}: {self.reason or ''}".rstrip(": "))

    @property
    def reason(self) -> Optional[str]:
        return self.data.get("reason")

    @property
    def pointer(self) -> Optional[str]:
        return self.data.get("pointer")

    @property
    def limit(self) -> Optional[int]:
        return self.data.get("limit")

    @classmethod
    def from_error(cls, error: Any, method: Optional[str] = None) -> "HeraldError":
        if not isinstance(error, dict):
            return cls(-32603, "Internal error", {"reason": f"heraldd answered an error that is not an object: {error!r}"}, method)
        return cls(int(error.get("code", -32603)), str(error.get("message", "")), error.get("data"), method)


class ConnectionClosed(ConnectionError):
    """The connection to heraldd ended (the daemon stopped or restarted, or closed it).

    A call that was waiting gets this; `reconnect()` opens a new connection and subscribes again.
    """


class IncompatibleProtocol(Exception):
    """The daemon speaks a protocol version this client cannot use (another major version,
    or an older minor one than the caller asked for)."""

    def __init__(self, daemon: str, wanted: str):
        self.daemon, self.wanted = daemon, wanted
        super().__init__(f"heraldd speaks protocol {daemon}; this needs {wanted}")
