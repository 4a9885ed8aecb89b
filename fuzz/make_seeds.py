#!/usr/bin/env python3
"""Writes the hand-made seed inputs of the fuzz corpora (fuzz/corpus/<target>/seed_*).

The byte formats are those of tests/geometry/fuzz_support.rs: a frame (scale index,
offset index), then for `polygon` one point list, for `pair_query` a padding
and two shapes. Grid coordinates are one byte each: value = byte % 16 - 8.

    python3 fuzz/make_seeds.py      # from anywhere; overwrites the seed_* files
"""
import glob
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def g(v):
    """Grid byte for the integer v in [-8, 7]."""
    return (v + 8) % 16


def grid(points):
    """Mode 0: count (u16) then one byte per coordinate."""
    out = bytes([0]) + struct.pack("<H", len(points))
    for x, y in points:
        out += bytes([g(x), g(y)])
    return out


def raw(points):
    """Mode 3: raw little-endian f64 coordinates."""
    out = bytes([3]) + struct.pack("<H", len(points))
    for x, y in points:
        out += struct.pack("<dd", x, y)
    return out


def tagged(coords):
    """Mode 2: each coordinate a (tag, payload) pair given as bytes."""
    out = bytes([2]) + struct.pack("<H", len(coords) // 2)
    for c in coords:
        out += c
    return out


def star(count, radii):
    """Mode 4 (mode byte 9): star polygon with `count` (3 to 61) vertices,
    radii bytes (1 + b % 16)."""
    return bytes([9]) + struct.pack("<H", count) + bytes(radii)


def large_star(index, radii):
    """Mode byte 4: star polygon with LARGE_STARS[index] vertices."""
    return bytes([4]) + struct.pack("<H", index) + bytes(radii)


def frame(scale=0, offset=0):
    return bytes([scale, offset])


SQUARE = [(0, 0), (4, 0), (4, 4), (0, 4)]
L_SHAPE = [(0, 0), (4, 0), (4, 1), (1, 1), (1, 4), (0, 4)]
BOW_TIE = [(0, 0), (2, 2), (2, 0), (0, 2)]
FLAT = [(0, 0), (1, 0), (2, 0), (3, 0)]
SPIKE = [(0, 0), (4, 0), (4, 4), (4, 6), (4, 4), (0, 4)]
TOUCHING = [(0, 0), (4, 0), (2, 2), (4, 4), (0, 4), (2, 2)]
MIDPOINTS = [(0, 0), (2, 0), (4, 0), (4, 0), (4, 4), (0, 4), (0, 0)]

polygon = {
    "square": frame() + grid(SQUARE),
    "l_shape": frame() + grid(L_SHAPE),
    "bow_tie": frame() + grid(BOW_TIE),
    "flat": frame() + grid(FLAT),
    "spike": frame() + grid(SPIKE),
    "touching_vertex": frame() + grid(TOUCHING),
    "midpoints_duplicates": frame() + grid(MIDPOINTS),
    "far_tiny_l_shape": frame(4, 4) + grid(L_SHAPE),
    "huge_square": frame(7, 0) + grid(SQUARE),
    "raw_triangle": frame() + raw([(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]),
    "raw_nan": frame() + raw([(0.0, 0.0), (float("nan"), 0.0), (0.0, 1.0)]),
    "tagged_special": frame()
    + tagged([b"\x00\x08", b"\x00\x08", b"\x05\x05", b"\x00\x08", b"\x06", b"\x07\x03",
              b"\x04" + struct.pack("<d", 1e-300), b"\x00\x0c"]),
    "star_60": frame() + star(60, [1, 7, 3, 15, 0, 9]),
    "star_1000": frame() + large_star(1, [1, 7, 3, 15, 0, 9]),
    "star_4096": frame() + large_star(2, [1, 5]),
    "star_4097": frame() + large_star(3, [1, 5]),
}

A_SQUARE = bytes([1]) + grid(SQUARE)
B_SQUARE = bytes([1]) + grid([(x + 2, y + 1) for x, y in SQUARE])
FAR_SQUARE = bytes([1]) + grid([(x - 8, y - 8) for x, y in [(0, 0), (2, 0), (2, 2), (0, 2)]])
L = bytes([2]) + grid(L_SHAPE)
CIRCLE = bytes([0]) + b"\x00\x0a" + b"\x00\x09" + b"\x00\x0b"  # centre (2, 1), radius 3
SMALL_CIRCLE = bytes([0]) + b"\x00\x02" + b"\x00\x02" + b"\x00\x09"  # (-6, -6), r 1

pair_query = {
    "squares_overlap": frame() + b"\x00" + A_SQUARE + B_SQUARE,
    "squares_apart": frame() + b"\x00" + A_SQUARE + FAR_SQUARE,
    "square_circle_padded": frame() + b"\x02\x03" + A_SQUARE + CIRCLE,
    "l_square": frame() + b"\x00" + L + B_SQUARE,
    "square_l_padded": frame() + b"\x02\x02" + B_SQUARE + L,
    "circles": frame() + b"\x00" + CIRCLE + SMALL_CIRCLE,
    "far_tiny": frame(4, 4) + b"\x00" + A_SQUARE + B_SQUARE,
    "star_square": frame() + b"\x00" + bytes([1]) + star(40, [3, 6, 2]) + B_SQUARE,
}


def write(target, seeds):
    directory = os.path.join(HERE, "corpus", target)
    os.makedirs(directory, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(directory, "seed_" + name), "wb") as f:
            f.write(data)


write("polygon", polygon)
write("pair_query", pair_query)
scene_dir = os.path.join(HERE, "corpus", "scene_yaml")
os.makedirs(scene_dir, exist_ok=True)
for path in sorted(glob.glob(os.path.join(ROOT, "config", "*scene*.yaml")) +
                   glob.glob(os.path.join(ROOT, "config", "zones*.yaml"))):
    shutil.copy(path, os.path.join(scene_dir, "seed_" + os.path.basename(path)))
extra = {
    "circle_footprint.yaml": "frame_id: map\npadding: 0.1\nfootprint: {circle: {center: [0, 0], radius: 0.35}}\n"
    "obstacles:\n  - id: a\n    circle: {center: [0.5, 0], radius: 0.2}\n  - {id: b, polygon: [[1, -1], [2, -1], [2, 1], [1, 1], [1.5, 0]]}\n",
    "aliases.yaml": "p: &p [[0, 0], [1, 0], [1, 1]]\n",
    "anchors_flow.yaml": "footprint: &f [[0, 0], [1, 0], [1, 1], [0, 1]]\nobstacles: [{id: x, polygon: *f}, {id: y, circle: {center: [0.5, 0.5], radius: 1e300}}]\n",
    "no_footprint.yaml": "frame_id: odom\nobstacles: []\n",
    "bad_padding.yaml": "padding: -1\nobstacles: []\n",
    "specials.yaml": "footprint: [[.inf, 0], [0, 1e150], [-1e151, 0]]\nobstacles:\n  - {id: q, polygon: [[0, 0], [0x10, 0], [1e-320, 1]]}\n",
}
for name, text in extra.items():
    with open(os.path.join(scene_dir, "seed_" + name), "w") as f:
        f.write(text)
