"""A link code's QR code: the SVG document draws exactly the modules segno encodes for the absolute link (with its
quiet zone), black on white, scales to its box, and holds nothing a page could run or follow."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import segno

from services.api.http.link_qr import absolute_link, qr_svg

SVG = "{http://www.w3.org/2000/svg}"
ADDRESS = "https://spades.example/play#link=7K3M9QXR"


def drawn_modules(path: str) -> set[tuple[int, int]]:
    """The dark modules an SVG path of horizontal runs draws (segno's ``M x y`` / ``m dx dy`` / ``h n``)."""
    dark: set[tuple[int, int]] = set()
    x = y = 0.0
    for op, args in re.findall(r"([MmHh])([^MmHh]*)", path):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", args)]
        if op == "M":
            x, y = numbers
        elif op == "m":
            x, y = x + numbers[0], y + numbers[1]
        else:
            end = x + numbers[0] if op == "h" else numbers[0]
            dark |= {(int(y), column) for column in range(int(x), int(end))}
            x = end
    return dark


def test_the_absolute_link_joins_the_host_and_the_path():
    assert absolute_link("https://spades.example/", "/play#link=7K3M9QXR") == ADDRESS
    assert absolute_link("http://127.0.0.1:8000", "/play#link=7K3M9QXR") == "http://127.0.0.1:8000/play#link=7K3M9QXR"


def test_the_svg_draws_the_qr_code_of_the_address_and_nothing_else():
    document = qr_svg(ADDRESS)
    root = ET.fromstring(document)
    assert root.tag == f"{SVG}svg" and "width" not in root.attrib and "height" not in root.attrib
    assert {element.tag for element in root.iter()} == {f"{SVG}svg", f"{SVG}path"}
    assert not any(name.endswith("href") or name.startswith("on") for e in root.iter() for name in e.attrib)
    background, modules = root.findall(f"{SVG}path")
    assert background.get("fill") == "#fff" and modules.get("stroke") == "#000"

    qr = segno.make_qr(ADDRESS, error="m")
    border = 4
    side = qr.symbol_size(scale=1, border=border)[0]
    assert root.get("viewBox") == f"0 0 {side} {side}"
    expected = {
        (row + border, column + border)
        for row, line in enumerate(qr.matrix)
        for column, module in enumerate(line)
        if module
    }
    assert drawn_modules(modules.get("d")) == expected
