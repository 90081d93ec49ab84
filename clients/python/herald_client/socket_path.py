"""Where heraldd listens, found the way heraldctl finds it."""
import os
from typing import Mapping, Optional


def default_socket_path(environment: Optional[Mapping[str, str]] = None) -> str:
    """$HERALD_SOCKET, else the first of heraldd's own defaults that exists (else the last):
    $RUNTIME_DIRECTORY/herald.sock, $XDG_RUNTIME_DIR/herald/herald.sock, /run/herald/herald.sock."""
    environment = os.environ if environment is None else environment
    if environment.get("HERALD_SOCKET"):
        return environment["HERALD_SOCKET"]
    candidates = []
    if environment.get("RUNTIME_DIRECTORY"):
        candidates.append(os.path.join(environment["RUNTIME_DIRECTORY"].split(":")[0], "herald.sock"))
    if environment.get("XDG_RUNTIME_DIR"):
        candidates.append(os.path.join(environment["XDG_RUNTIME_DIR"], "herald", "herald.sock"))
    candidates.append("/run/herald/herald.sock")
    return next((path for path in candidates if os.path.exists(path)), candidates[-1])
