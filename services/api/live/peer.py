"""Whether a waiting request's client is still connected, asked of its socket without reading from it.

A stream writes only when there is something to send (an event, a frame, a keep-alive a heartbeat apart), and a
write is the only way the server hears that its client closed the page: so a quiet stream to a closed page would
go on renewing its seat's presence lease for a heartbeat or two.  The TCP state of the connection tells sooner:
once the client has closed its side (a FIN, or a reset) it is no longer ``ESTABLISHED``.  Asked with
``getsockopt(TCP_INFO)``, which never blocks, reads nothing and works the same under every worker class (gevent's
sockets included) and for any file descriptor number.  Where that is not available (not Linux, not TCP: a Unix
socket behind a proxy, no socket in the WSGI environ) the answer is "connected", as before.  A client that
half-closes (shuts down its writing side but keeps reading) counts as gone: browsers and HTTP proxies do not.
"""

from __future__ import annotations

import socket
from typing import Any

TCP_ESTABLISHED = 1  # Linux's include/net/tcp_states.h: the first byte of struct tcp_info is the state


def peer_connected(sock: Any) -> bool:
    """False once ``sock``'s peer has closed the connection; True while it has not, or when it cannot be told."""
    option = getattr(socket, "TCP_INFO", None)
    if sock is None or option is None:
        return True
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, option, 1)
    except (OSError, ValueError, AttributeError):  # not a TCP socket, or already closed here
        return True
    return not info or info[0] == TCP_ESTABLISHED
