"""Draw the app's PNG icons from the design of icon.svg, with the standard
library only (no image library or SVG renderer is needed to build the app).

icon.svg, on a 64-unit square: a rounded blue tile (corner radius 14),
three white square outlines (17 units, stroke 4) and a green disc (r 8.5).
The shapes are simple enough to rasterise exactly: the square outlines are
axis-aligned rectangles, whose pixel coverage is the product of the overlaps
along x and along y; the tile's rounded corners and the disc are drawn from
their signed distance, which gives smooth edges of about one pixel.

Writes icons/icon-192.png and icons/icon-512.png (the tile as drawn) and
icons/icon-maskable-512.png (a full-bleed tile with the motif scaled into
the safe zone: a launcher may cut the icon to any shape that contains the
centred circle of 40% of its size). Run from anywhere:
`python3 tools/icons.py`; the PNGs are committed.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "icons"

UNITS = 64.0  # icon.svg's viewBox
TILE = (0x2F, 0x5D, 0x8A)
LINE = (0xFF, 0xFF, 0xFF)
DISC = (0x7B, 0xD3, 0x89)
TILE_RADIUS = 14.0
SQUARES = ((12.0, 12.0), (35.0, 12.0), (12.0, 35.0))  # top-left corners
SQUARE_SIDE = 17.0
STROKE = 4.0
DISC_CENTRE = (43.5, 43.5)
DISC_RADIUS = 8.5
# The motif's farthest point (a square's outer corner, 22 units along each
# axis from the centre, 31.1 units away) scaled into the maskable safe zone
# (radius 0.4 * 64 = 25.6 units) with room to spare.
MASKABLE_SCALE = 0.78


def overlap(low: float, high: float, start: float, end: float) -> float:
    """The length of [low, high] that lies inside [start, end]."""
    return max(0.0, min(high, end) - max(low, start))


def rounded_tile_distance(x: float, y: float) -> float:
    """Signed distance (units) from the rounded tile's edge, negative inside."""
    half = UNITS / 2
    qx = abs(x - half) - (half - TILE_RADIUS)
    qy = abs(y - half) - (half - TILE_RADIUS)
    outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
    return outside + min(max(qx, qy), 0.0) - TILE_RADIUS


def coverage_from_distance(distance: float, pixel: float) -> float:
    return min(1.0, max(0.0, 0.5 - distance / pixel))


def over(under: tuple[float, float, float, float], colour: tuple[int, int, int], alpha: float) -> tuple[float, float, float, float]:
    """Paint ``colour`` with coverage ``alpha`` over a premultiplied pixel."""
    if alpha <= 0.0:
        return under
    r, g, b, a = under
    keep = 1.0 - alpha
    return (colour[0] * alpha + r * keep, colour[1] * alpha + g * keep, colour[2] * alpha + b * keep, alpha + a * keep)


def draw(size: int, maskable: bool) -> bytes:
    """Raw RGBA rows of the icon, each prefixed with PNG filter type 0."""
    pixel = UNITS / size  # one pixel, in design units
    scale = MASKABLE_SCALE if maskable else 1.0
    centre = UNITS / 2
    motif_pixel = pixel / scale  # a pixel measured in the motif's own units

    def motif(value: float) -> float:
        """Image units -> motif units (the motif is scaled about the centre)."""
        return centre + (value - centre) / scale

    rows = bytearray()
    for row in range(size):
        y0, y1 = motif(row * pixel), motif((row + 1) * pixel)
        y_mid = (y0 + y1) / 2
        # Coverage of each square's outer and inner edge along y, per row.
        outer_y = [overlap(y0, y1, top - STROKE / 2, top + SQUARE_SIDE + STROKE / 2) / motif_pixel for _, top in SQUARES]
        inner_y = [overlap(y0, y1, top + STROKE / 2, top + SQUARE_SIDE - STROKE / 2) / motif_pixel for _, top in SQUARES]
        rows.append(0)
        for column in range(size):
            x0, x1 = motif(column * pixel), motif((column + 1) * pixel)
            x_mid = (x0 + x1) / 2
            if maskable:
                tile = 1.0
            else:
                tile = coverage_from_distance(rounded_tile_distance((column + 0.5) * pixel, (row + 0.5) * pixel), pixel)
            colour = over((0.0, 0.0, 0.0, 0.0), TILE, tile)
            line = 0.0
            for (left, _), oy, iy in zip(SQUARES, outer_y, inner_y):
                if oy:
                    ox = overlap(x0, x1, left - STROKE / 2, left + SQUARE_SIDE + STROKE / 2) / motif_pixel
                    ix = overlap(x0, x1, left + STROKE / 2, left + SQUARE_SIDE - STROKE / 2) / motif_pixel
                    line += ox * oy - ix * iy
            colour = over(colour, LINE, min(1.0, line) * tile)
            disc = math.hypot(x_mid - DISC_CENTRE[0], y_mid - DISC_CENTRE[1]) - DISC_RADIUS
            colour = over(colour, DISC, coverage_from_distance(disc, motif_pixel) * tile)
            r, g, b, a = colour
            if a > 0:  # premultiplied -> straight alpha
                rows += bytes((round(r / a), round(g / a), round(b / a), round(a * 255)))
            else:
                rows += b"\0\0\0\0"
    return bytes(rows)


def png(size: int, raw_rows: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw_rows, 9)) + chunk(b"IEND", b"")


ICONS = {"icon-192.png": (192, False), "icon-512.png": (512, False), "icon-maskable-512.png": (512, True)}


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for name, (size, maskable) in ICONS.items():
        (OUT / name).write_bytes(png(size, draw(size, maskable)))
        print(f"icons: {name} ({size}x{size}{', maskable' if maskable else ''})")


if __name__ == "__main__":
    main()
