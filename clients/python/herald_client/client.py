"""A blocking client: one connection to heraldd, calls in turn, events as an iterator."""
import collections
import json
import socket
import time
from typing import Any, Deque, Dict, Iterator, List, Optional, Union

from .errors import ConnectionClosed, HeraldError
from .events import Event, Subscriptions
from .protocol import SyncMethods
from .socket_path import default_socket_path
from .version import ProtocolVersion, require, version_of

MAX_LINE_BYTES = 64 * 1024 * 1024
"""The longest line read: well past heraldd's own --max-response-bytes ceiling."""


class Client(SyncMethods):
    """A connection to heraldd over its Unix socket, newline-delimited JSON-RPC 2.0.

    Each method of the protocol is a method here (`donate`, `update_content`, …) taking the
    params by their protocol names as keyword arguments; an optional one left as None is not
    sent. A call blocks until its answer; the notifications that arrive meanwhile wait for
    `events()`. Not for use from several threads at once.
    """

    def __init__(self, path: Optional[str] = None, *, timeout: Optional[float] = None, connect: bool = True):
        self.path = path or default_socket_path()
        self.timeout = timeout
        self._socket: Optional[socket.socket] = None
        self._buffer = b""
        self._pending: Deque[Event] = collections.deque()
        self._next_id = 0
        self._discovery: Optional[Dict[str, Any]] = None
        self.subscriptions = Subscriptions()
        if connect:
            self.connect()

    # Connection

    def connect(self) -> None:
        """Opens the connection; raises OSError (FileNotFoundError, ConnectionRefusedError) when
        no heraldd listens."""
        self.close()
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            connection.settimeout(self.timeout)
            connection.connect(self.path)
        except BaseException:
            connection.close()
            raise
        self._socket, self._buffer, self._discovery = connection, b"", None

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exception: Any) -> None:
        self.close()

    def reconnect(self, *, attempts: Optional[int] = None, initial_delay: float = 0.1, max_delay: float = 5.0) -> List[Any]:
        """Connects again, waiting `initial_delay` and doubling up to `max_delay` between attempts
        (forever when `attempts` is None), then repeats the subscribing calls; returns their results
        in order. Events of the old connection not yet read are kept."""
        delay, attempt = initial_delay, 0
        while True:
            attempt += 1
            try:
                self.connect()
                break
            except OSError:
                if attempts is not None and attempt >= attempts:
                    raise
                time.sleep(delay)
                delay = min(delay * 2, max_delay)
        return [self.call(method, params) for method, params in self.subscriptions.calls()]

    # Calls

    def call(self, method: str, params: Optional[Dict[str, Any]] = None) -> Any:
        """Sends a request and returns its result; raises HeraldError for an error answer and
        ConnectionClosed when the connection ends first."""
        self._next_id += 1
        request_id = self._next_id
        request: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params:
            request["params"] = params
        self._send(request)
        while True:
            message = self._read_message(self.timeout)
            if isinstance(message, dict) and "method" in message and "id" not in message:
                self._pending.append(Event(message["method"], message.get("params") or {}))
            elif isinstance(message, dict) and message.get("id") == request_id:
                if "error" in message:
                    raise HeraldError.from_error(message["error"], method)
                self.subscriptions.record(method, params)
                return message.get("result")
            elif isinstance(message, dict) and message.get("id") is None and "error" in message:
                raise HeraldError.from_error(message["error"], method)

    def notify(self, method: str, params: Optional[Dict[str, Any]] = None) -> None:
        """Sends a JSON-RPC notification: heraldd runs it and answers nothing, not even an error."""
        request: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params:
            request["params"] = params
        self._send(request)

    # Events

    def next_event(self, timeout: Optional[float] = None) -> Optional[Event]:
        """The next notification from heraldd, waiting at most `timeout` seconds (None: until one
        comes); None when none came in time."""
        if self._pending:
            return self._pending.popleft()
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                message = self._read_message(remaining)
            except socket.timeout:
                return None
            if isinstance(message, dict) and "method" in message and "id" not in message:
                return Event(message["method"], message.get("params") or {})

    def events(self, timeout: Optional[float] = None) -> Iterator[Event]:
        """The notifications of this connection's subscriptions, as they come; ends when none
        came for `timeout` seconds (None: never), raises ConnectionClosed when the connection ends."""
        while True:
            event = self.next_event(timeout)
            if event is None:
                return
            yield event

    # Versions

    def discovery(self) -> Dict[str, Any]:
        """The daemon's OpenRPC document (`rpc.discover`), read once per connection."""
        if self._discovery is None:
            self._discovery = self.discover()
        return self._discovery

    def protocol_version(self) -> ProtocolVersion:
        """The protocol version the daemon speaks (`info.version` of `rpc.discover`)."""
        return version_of(self.discovery())

    def require_protocol(self, minimum: Union[str, ProtocolVersion, None] = None) -> ProtocolVersion:
        """The daemon's protocol version; raises IncompatibleProtocol when its major version is not
        this client's, or it is older than `minimum` (the version that added what you will use)."""
        return require(self.protocol_version(), minimum)

    def supports(self, method: str) -> bool:
        """Whether the daemon has the method (by `rpc.discover`'s method list)."""
        return any(entry.get("name") == method for entry in self.discovery().get("methods", []))

    # Framing: one compact JSON text a line each way.

    def _send(self, message: Dict[str, Any]) -> None:
        if self._socket is None:
            raise ConnectionClosed("not connected to heraldd")
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
        try:
            self._socket.sendall(data)
        except (BrokenPipeError, ConnectionResetError) as error:
            self.close()
            raise ConnectionClosed(f"heraldd closed the connection: {error}") from error

    def _read_message(self, timeout: Optional[float]) -> Any:
        if self._socket is None:
            raise ConnectionClosed("not connected to heraldd")
        while True:
            self._buffer = self._buffer.lstrip(b" \t\r\n")
            if b"\n" in self._buffer:
                break
            if len(self._buffer) > MAX_LINE_BYTES:
                self.close()
                raise ConnectionClosed(f"heraldd sent a line longer than {MAX_LINE_BYTES} bytes")
            self._socket.settimeout(timeout)
            try:
                chunk = self._socket.recv(65536)
            except ConnectionResetError as error:
                self.close()
                raise ConnectionClosed(f"heraldd closed the connection: {error}") from error
            finally:
                if self._socket is not None:
                    self._socket.settimeout(self.timeout)
            if not chunk:
                self.close()
                raise ConnectionClosed("heraldd closed the connection")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return json.loads(line)
