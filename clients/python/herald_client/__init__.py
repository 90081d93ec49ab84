"""Herald's client for Python: heraldd's JSON-RPC protocol over its Unix socket.

    from herald_client import Client
    with Client() as herald:                      # $HERALD_SOCKET, else heraldd's default
        herald.donate(app="org.example.chat", interaction={...})

`Client` blocks; `AsyncClient` is the same for asyncio. Every protocol method is a method of
both, generated from Protocol/openrpc.json (herald_client.protocol, with its types). An error
answer raises HeraldError (code, message, reason, pointer). docs/clients.md says more.
"""
from .aio import AsyncClient
from .client import Client
from .errors import ConnectionClosed, HeraldError, IncompatibleProtocol
from .events import Event
from .protocol import METHODS, NOTIFICATIONS, PROTOCOL_VERSION
from .socket_path import default_socket_path
from .version import CLIENT_VERSION, ProtocolVersion

__all__ = [
    "AsyncClient",
    "CLIENT_VERSION",
    "Client",
    "ConnectionClosed",
    "Event",
    "HeraldError",
    "IncompatibleProtocol",
    "METHODS",
    "NOTIFICATIONS",
    "PROTOCOL_VERSION",
    "ProtocolVersion",
    "default_socket_path",
]
