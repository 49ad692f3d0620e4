"""Reads the QR codes the server draws (QRCode.svg in MomentaryCore) back to their text.

`decode_qr_svg(svg_text)` paints the SVG's one path into a picture, a few pixels per module with
the quiet zone the viewBox includes, and decodes it with zxing-cpp, a reader written apart from
the encoder, so a test can check that what the website shows scans to the link it means.

The path is read as the encoder writes it: closed axis-parallel rectangles (`M x y h w v 1 h -w z`,
absolute or relative moves, H/V/h/v lines). Anything else is refused rather than guessed at.
"""
import re
import xml.etree.ElementTree as ElementTree

import numpy
import zxingcpp

PIXELS_PER_MODULE = 4
_TOKEN = re.compile(r"[MmHhVvZzLl]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _local(tag):
    return tag.rsplit("}", 1)[-1]


def _rectangles(path_data):
    """(x0, y0, x1, y1) of each closed subpath of `path_data`, which must be a rectangle."""
    tokens = _TOKEN.findall(path_data)
    rectangles, points = [], []
    x = y = 0.0
    start = (0.0, 0.0)
    index = 0

    def number():
        nonlocal index
        if index >= len(tokens) or tokens[index].isalpha():
            raise ValueError(f"path: a number expected at token {index}")
        index += 1
        return float(tokens[index - 1])

    def close():
        if points:
            xs = {p[0] for p in points}
            ys = {p[1] for p in points}
            if len(xs) != 2 or len(ys) != 2 or len(set(points)) != 4:
                raise ValueError(f"path: subpath is not a rectangle: {points}")
            rectangles.append((min(xs), min(ys), max(xs), max(ys)))
            points.clear()

    command = None
    while index < len(tokens):
        if tokens[index].isalpha():
            command = tokens[index]
            index += 1
        if command is None:
            raise ValueError("path: it does not start with a command")
        if command in "Zz":
            if index < len(tokens) and not tokens[index].isalpha():
                raise ValueError(f"path: a number after z at token {index}")
            close()
            x, y = start  # closing returns the pen to where the subpath began
            continue
        if command in "Mm":
            close()
            dx, dy = number(), number()
            x, y = (x + dx, y + dy) if command == "m" else (dx, dy)
            start = (x, y)
            points.append((x, y))
            command = "l" if command == "m" else "L"  # further pairs are lines
        elif command in "Ll":
            dx, dy = number(), number()
            x, y = (x + dx, y + dy) if command == "l" else (dx, dy)
            points.append((x, y))
        elif command in "Hh":
            value = number()
            x = x + value if command == "h" else value
            points.append((x, y))
        elif command in "Vv":
            value = number()
            y = y + value if command == "v" else value
            points.append((x, y))
        else:
            raise ValueError(f"path: unexpected {tokens[index]!r}")
    close()
    return rectangles


def rasterise_qr_svg(svg_text, pixels_per_module=PIXELS_PER_MODULE):
    """The SVG as a greyscale numpy image: white background, the path's rectangles black."""
    try:
        root = ElementTree.fromstring(svg_text)
    except ElementTree.ParseError as error:
        raise ValueError(f"not well-formed XML: {error}") from error
    if _local(root.tag) != "svg":
        raise ValueError("not an <svg> element")
    view_box = root.get("viewBox") or root.get("viewbox")
    if not view_box:
        raise ValueError("the SVG has no viewBox")
    left, top, width, height = (float(v) for v in view_box.replace(",", " ").split())
    paths = [element for element in root.iter() if _local(element.tag) == "path"]
    if len(paths) != 1:
        raise ValueError(f"expected one <path>, found {len(paths)}")
    scale = pixels_per_module
    image = numpy.full((round(height * scale), round(width * scale)), 255, dtype=numpy.uint8)
    for x0, y0, x1, y1 in _rectangles(paths[0].get("d", "")):
        image[round((y0 - top) * scale):round((y1 - top) * scale),
              round((x0 - left) * scale):round((x1 - left) * scale)] = 0
    return image


def decode_qr_svg(svg_text):
    """The text of the QR code drawn by `svg_text`; raises ValueError when none can be read."""
    image = rasterise_qr_svg(svg_text)
    results = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    if not results:
        raise ValueError("no QR code could be read from the SVG")
    if len(results) > 1:
        raise ValueError(f"{len(results)} QR codes read from one SVG")
    return results[0].text
