"""An asyncio client: one connection to heraldd, calls at once, events as an async iterator."""
import asyncio
import json
from typing import Any, AsyncIterator, Dict, List, Optional, Union

from .client import MAX_LINE_BYTES
from .errors import ConnectionClosed, HeraldError
from .events import Event, Subscriptions
from .protocol import AsyncMethods
from .socket_path import default_socket_path
from .version import ProtocolVersion, require, version_of


class AsyncClient(AsyncMethods):
    """A connection to heraldd for asyncio: `await client.donate(...)`.

    Calls may run concurrently on one connection: a task reads every line and hands each
    answer to its call by id, and each notification to `events()`. Open with
    `await AsyncClient.open(path)` (or `async with AsyncClient(path) as client`).
    """

    def __init__(self, path: Optional[str] = None):
        self.path = path or default_socket_path()
        self._reader: Optional[asyncio.StreamReader] = None
        self._writer: Optional[asyncio.StreamWriter] = None
        self._reading: Optional["asyncio.Task[None]"] = None
        self._waiting: Dict[int, "asyncio.Future[Any]"] = {}
        # Made in connect(), inside the running loop (Python 3.9 binds a queue to its loop).
        self._events: "Optional[asyncio.Queue[Union[Event, ConnectionClosed]]]" = None
        self._next_id = 0
        self._discovery: Optional[Dict[str, Any]] = None
        self.subscriptions = Subscriptions()

    @classmethod
    async def open(cls, path: Optional[str] = None) -> "AsyncClient":
        client = cls(path)
        await client.connect()
        return client

    async def __aenter__(self) -> "AsyncClient":
        if self._writer is None:
            await self.connect()
        return self

    async def __aexit__(self, *exception: Any) -> None:
        await self.close()

    # Connection

    async def connect(self) -> None:
        await self._disconnect()
        self._reader, self._writer = await asyncio.open_unix_connection(self.path, limit=MAX_LINE_BYTES)
        self._discovery = None
        if self._events is None:
            self._events = asyncio.Queue()
        self._reading = asyncio.ensure_future(self._read_lines(self._reader))

    async def close(self) -> None:
        """Closes the connection; an `events()` iteration waiting ends with ConnectionClosed."""
        reading = self._reading is not None and not self._reading.done()
        await self._disconnect()
        if reading and self._events is not None:
            self._events.put_nowait(ConnectionClosed("the connection to heraldd was closed"))

    async def _disconnect(self) -> None:
        if self._reading is not None:
            self._reading.cancel()
            try:
                await self._reading
            except (asyncio.CancelledError, Exception):
                pass
            self._reading = None
        if self._writer is not None:
            self._writer.close()
            try:
                await self._writer.wait_closed()
            except OSError:
                pass
            self._writer = None
        self._fail_waiting(ConnectionClosed("the connection to heraldd was closed"))

    async def reconnect(self, *, attempts: Optional[int] = None, initial_delay: float = 0.1, max_delay: float = 5.0) -> List[Any]:
        """Connects again with the same backoff as Client.reconnect, then repeats the
        subscribing calls; returns their results in order."""
        delay, attempt = initial_delay, 0
        while True:
            attempt += 1
            try:
                await self.connect()
                break
            except OSError:
                if attempts is not None and attempt >= attempts:
                    raise
                await asyncio.sleep(delay)
                delay = min(delay * 2, max_delay)
        return [await self.call(method, params) for method, params in self.subscriptions.calls()]

    # Calls

    async def call(self, method: str, params: Optional[Dict[str, Any]] = None) -> Any:
        """Sends a request and awaits its result; raises HeraldError for an error answer and
        ConnectionClosed when the connection ends first."""
        if self._writer is None:
            raise ConnectionClosed("not connected to heraldd")
        self._next_id += 1
        request_id = self._next_id
        request: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params:
            request["params"] = params
        answer: "asyncio.Future[Any]" = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = answer
        try:
            self._writer.write(json.dumps(request, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n")
            await self._writer.drain()
            message = await answer
        except (BrokenPipeError, ConnectionResetError) as error:
            raise ConnectionClosed(f"heraldd closed the connection: {error}") from error
        finally:
            self._waiting.pop(request_id, None)
        if "error" in message:
            raise HeraldError.from_error(message["error"], method)
        self.subscriptions.record(method, params)
        return message.get("result")

    # Events

    async def events(self) -> AsyncIterator[Event]:
        """The notifications of this connection's subscriptions, as they come; raises
        ConnectionClosed when the connection ends (then `reconnect()` and iterate again)."""
        if self._events is None:
            raise ConnectionClosed("not connected to heraldd")
        while True:
            item = await self._events.get()
            if isinstance(item, ConnectionClosed):
                raise item
            yield item

    async def next_event(self, timeout: Optional[float] = None) -> Optional[Event]:
        """The next notification, or None when none came within `timeout` seconds."""
        if self._events is None:
            raise ConnectionClosed("not connected to heraldd")
        try:
            item = await asyncio.wait_for(self._events.get(), timeout)
        except asyncio.TimeoutError:
            return None
        if isinstance(item, ConnectionClosed):
            raise item
        return item

    # Versions

    async def discovery(self) -> Dict[str, Any]:
        if self._discovery is None:
            self._discovery = await self.discover()
        return self._discovery

    async def protocol_version(self) -> ProtocolVersion:
        return version_of(await self.discovery())

    async def require_protocol(self, minimum: Union[str, ProtocolVersion, None] = None) -> ProtocolVersion:
        """As Client.require_protocol."""
        return require(await self.protocol_version(), minimum)

    async def supports(self, method: str) -> bool:
        return any(entry.get("name") == method for entry in (await self.discovery()).get("methods", []))

    # The reading task

    async def _read_lines(self, reader: asyncio.StreamReader) -> None:
        closed = ConnectionClosed("heraldd closed the connection")
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                if not line.strip():
                    continue
                message = json.loads(line)
                if isinstance(message, dict) and "method" in message and "id" not in message:
                    assert self._events is not None
                    self._events.put_nowait(Event(message["method"], message.get("params") or {}))
                elif isinstance(message, dict) and message.get("id") in self._waiting:
                    answer = self._waiting[message["id"]]
                    if not answer.done():
                        answer.set_result(message)
                elif isinstance(message, dict) and message.get("id") is None and "error" in message:
                    # An answer heraldd could not tie to a request (a parse error): the oldest call's.
                    for answer in list(self._waiting.values())[:1]:
                        if not answer.done():
                            answer.set_result(message)
        except (ConnectionResetError, ValueError) as error:
            closed = ConnectionClosed(f"the connection to heraldd failed: {error}")
        self._fail_waiting(closed)
        if self._events is not None:
            self._events.put_nowait(closed)

    def _fail_waiting(self, error: ConnectionClosed) -> None:
        for answer in self._waiting.values():
            if not answer.done():
                answer.set_exception(error)
        self._waiting.clear()
