"""A link code's QR code, made on the server (segno), so the web client draws no QR itself and a phone's camera
opens the link on the other device.  The QR holds the link as an absolute address (a camera cannot follow a path):
the address the request came to, as werkzeug's ProxyFix reads it behind a proxy."""

from __future__ import annotations

import io

import segno


def absolute_link(host_url: str, link: str) -> str:
    """``link`` (``/play#link=…``) on the server at ``host_url`` (``https://example.org/``)."""
    return host_url.rstrip("/") + link


def qr_svg(address: str) -> str:
    """An SVG document of ``address``'s QR code: black modules on a white square with its quiet zone (cameras need
    the contrast whatever the page's colours), no fixed size (it scales to its box) and no script or link in it."""
    buffer = io.BytesIO()
    qr = segno.make_qr(address, error="m")
    qr.save(buffer, kind="svg", xmldecl=False, omitsize=True, border=4, dark="#000", light="#fff")
    return buffer.getvalue().decode("utf-8")
