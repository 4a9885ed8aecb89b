#!/usr/bin/env python3
"""Render what an RViz MarkerArray display would show, top-down, to SVG.

Subscribes to a visualization_msgs/MarkerArray topic (default
`collision_markers`), keeps the marker set the way RViz does (ADD replaces
by (ns, id), DELETE removes, DELETEALL clears), and after `--seconds` writes
the current set as an SVG seen from above (x right, y up), with a 1 m grid.
Handles the marker types sat_collision_node publishes: LINE_STRIP,
LINE_LIST (per-vertex colours), ARROW (two points), POINTS, SPHERE and TEXT_VIEW_FACING.

    source scripts/env.sh
    python3 scripts/markers_snapshot.py --seconds 3 --out markers.svg
"""

import argparse
import math
import sys
import time

import rclpy
from rclpy.node import Node
from visualization_msgs.msg import Marker, MarkerArray

WIDTH_PX = 900.0
MARGIN_PX = 30.0


def colour(c):
    return "#%02x%02x%02x" % tuple(int(max(0.0, min(1.0, v)) * 255) for v in (c.r, c.g, c.b))


class MarkerSet:
    """The markers RViz would display after a sequence of arrays."""

    def __init__(self):
        self.markers = {}
        self.arrays = 0

    def apply(self, array):
        self.arrays += 1
        for m in array.markers:
            if m.action == Marker.DELETEALL:
                self.markers.clear()
            elif m.action == Marker.DELETE:
                self.markers.pop((m.ns, m.id), None)
            else:
                self.markers[(m.ns, m.id)] = m


def points_of(marker):
    return [(p.x, p.y) for p in marker.points]


def bounds(markers):
    xs, ys = [], []
    for m in markers:
        for x, y in points_of(m):
            xs.append(x)
            ys.append(y)
        if m.type == Marker.TEXT_VIEW_FACING:
            xs.append(m.pose.position.x)
            ys.append(m.pose.position.y)
    if not xs:
        return (-1.0, -1.0, 1.0, 1.0)
    pad = 0.1 * max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
    return (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)


def render(markers):
    x0, y0, x1, y1 = bounds(markers)
    scale = (WIDTH_PX - 2 * MARGIN_PX) / max(x1 - x0, 1e-6)
    height = 2 * MARGIN_PX + (y1 - y0) * scale

    def px(x, y):
        return (MARGIN_PX + (x - x0) * scale, MARGIN_PX + (y1 - y) * scale)

    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" '
        'font-family="sans-serif" font-size="12">' % (WIDTH_PX, height),
        '<rect width="100%" height="100%" fill="#303030"/>',
    ]
    for gx in range(math.ceil(x0), math.floor(x1) + 1):
        a, b = px(gx, y0), px(gx, y1)
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#555"/>' % (*a, *b))
    for gy in range(math.ceil(y0), math.floor(y1) + 1):
        a, b = px(x0, gy), px(x1, gy)
        out.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#555"/>' % (*a, *b))
    order = {Marker.LINE_STRIP: 0, Marker.LINE_LIST: 1, Marker.ARROW: 2, Marker.POINTS: 3,
             Marker.SPHERE: 3, Marker.TEXT_VIEW_FACING: 4}
    for m in sorted(markers, key=lambda m: order.get(m.type, 9)):
        width = max(1.0, m.scale.x * scale)
        pts = points_of(m)
        if m.type == Marker.LINE_STRIP and len(pts) >= 2:
            path = " ".join("%.1f,%.1f" % px(x, y) for x, y in pts)
            out.append(
                '<polyline class="%s" points="%s" fill="none" stroke="%s" stroke-width="%.1f"/>'
                % (m.ns, path, colour(m.color), width)
            )
        elif m.type == Marker.LINE_LIST:
            for i in range(0, len(pts) - 1, 2):
                c = m.colors[i] if len(m.colors) > i else m.color
                a, b = px(*pts[i]), px(*pts[i + 1])
                out.append(
                    '<line class="%s" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" '
                    'stroke-width="%.1f" stroke-opacity="%.2f"/>'
                    % (m.ns, *a, *b, colour(c), width, c.a)
                )
        elif m.type == Marker.ARROW and len(pts) == 2:
            (ax, ay), (bx, by) = px(*pts[0]), px(*pts[1])
            length = math.hypot(bx - ax, by - ay)
            head = max(m.scale.z * scale, 4.0)
            if length > 0:
                ux, uy = (bx - ax) / length, (by - ay) / length
                hw = max(m.scale.y * scale, 3.0) / 2
                tip = (bx, by)
                base = (bx - ux * head, by - uy * head)
                left = (base[0] - uy * hw, base[1] + ux * hw)
                right = (base[0] + uy * hw, base[1] - ux * hw)
                out.append(
                    '<line class="%s" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" '
                    'stroke-width="%.1f"/>' % (m.ns, ax, ay, *base, colour(m.color), width)
                )
                out.append(
                    '<polygon points="%.1f,%.1f %.1f,%.1f %.1f,%.1f" fill="%s"/>'
                    % (*tip, *left, *right, colour(m.color))
                )
        elif m.type == Marker.POINTS:
            r = max(1.0, m.scale.x * scale / 2)
            for x, y in pts:
                cx, cy = px(x, y)
                out.append('<circle class="%s" cx="%.1f" cy="%.1f" r="%.1f" fill="%s"/>'
                           % (m.ns, cx, cy, r, colour(m.color)))
        elif m.type == Marker.SPHERE:
            cx, cy = px(m.pose.position.x, m.pose.position.y)
            out.append('<circle class="%s" cx="%.1f" cy="%.1f" r="%.1f" fill="%s"/>'
                       % (m.ns, cx, cy, max(2.0, m.scale.x * scale / 2), colour(m.color)))
        elif m.type == Marker.TEXT_VIEW_FACING:
            x, y = px(m.pose.position.x, m.pose.position.y)
            text = m.text.replace("&", "&amp;").replace("<", "&lt;")
            out.append('<text class="labels" x="%.1f" y="%.1f" fill="%s">%s</text>' % (x, y, colour(m.color), text))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--topic", default="collision_markers")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--out", default="markers.svg")
    args = parser.parse_args()

    rclpy.init()
    node = Node("markers_snapshot")
    state = MarkerSet()
    node.create_subscription(MarkerArray, args.topic, state.apply, 10)
    deadline = time.monotonic() + args.seconds
    try:
        while time.monotonic() < deadline:
            rclpy.spin_once(node, timeout_sec=0.05)
    finally:
        node.destroy_node()
        rclpy.shutdown()
    if state.arrays == 0:
        print("no MarkerArray received on %s" % args.topic, file=sys.stderr)
        return 1
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(render(list(state.markers.values())))
    print("%d markers from %d arrays -> %s" % (len(state.markers), state.arrays, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
