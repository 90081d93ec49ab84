"""What heraldd sends unasked, and the subscriptions that ask for it."""
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple


@dataclass(frozen=True)
class Event:
    """A notification from heraldd: `method` is one of protocol.NOTIFICATIONS (`focus-changed`,
    `notification-response`, …), `params` its members (protocol.FocusChangedParams, …)."""

    method: str
    params: Dict[str, Any] = field(default_factory=dict)


class Subscriptions:
    """The subscribing calls made on a connection, to make again on the next one.

    A subscription ends with its connection; after a reconnection the client repeats these
    calls in the order they were first made. Subscribing again for the same thing replaces
    the earlier call, as heraldd does.
    """

    def __init__(self) -> None:
        self._calls: Dict[Tuple[str, Any], Tuple[str, Dict[str, Any]]] = {}

    @staticmethod
    def key(method: str, params: Optional[Dict[str, Any]]) -> Optional[Tuple[str, Any]]:
        """What a call subscribes to, or None when it subscribes to nothing."""
        params = params or {}
        if method == "request-focus" and params.get("subscribe"):
            return (method, params.get("app"))
        if method == "subscribe-responses":
            return (method, (params.get("app"), bool(params.get("observe"))))
        if method == "subscribe-notifications":
            return (method, params.get("uid"))
        return None

    def record(self, method: str, params: Optional[Dict[str, Any]]) -> None:
        key = self.key(method, params)
        if key is not None:
            self._calls.pop(key, None)
            self._calls[key] = (method, dict(params or {}))

    def calls(self) -> List[Tuple[str, Dict[str, Any]]]:
        return list(self._calls.values())
