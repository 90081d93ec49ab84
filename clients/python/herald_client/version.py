"""The protocol's version, and whether a daemon's is one this client can use."""
from typing import Any, Dict, NamedTuple, Union

from .errors import IncompatibleProtocol
from .protocol import PROTOCOL_VERSION


class ProtocolVersion(NamedTuple):
    major: int
    minor: int
    patch: int = 0

    @classmethod
    def parse(cls, text: str) -> "ProtocolVersion":
        parts = [int(part) for part in str(text).split(".")]
        while len(parts) < 3:
            parts.append(0)
        return cls(*parts[:3])

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}.{self.patch}"


CLIENT_VERSION = ProtocolVersion.parse(PROTOCOL_VERSION)
"""The protocol version the client's methods were generated from."""


def version_of(document: Dict[str, Any]) -> ProtocolVersion:
    """The protocol version of an `rpc.discover` document."""
    return ProtocolVersion.parse(document["info"]["version"])


def require(daemon: ProtocolVersion, minimum: Union[str, ProtocolVersion, None] = None) -> ProtocolVersion:
    """Raises IncompatibleProtocol unless `daemon` has this client's major version and is at
    least `minimum` (a "1.2" or "1.2.0": what the caller is about to use)."""
    wanted = ProtocolVersion.parse(minimum) if isinstance(minimum, str) else (minimum or ProtocolVersion(CLIENT_VERSION.major, 0, 0))
    if daemon.major != CLIENT_VERSION.major or daemon.major != wanted.major or daemon < wanted:
        raise IncompatibleProtocol(str(daemon), f"{wanted.major}.x, at least {wanted}")
    return daemon
