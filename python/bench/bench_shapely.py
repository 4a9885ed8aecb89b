"""sat_collision against shapely 2.x: 10,000 poses of an 8-gon against 1,000 obstacles.

    python python/bench/bench_shapely.py [--repeat 7] [--poses 10000] [--obstacles 1000]

The scene: 1,000 obstacles in a 100 m x 100 m square, 800 random convex polygons
(5 to 10 vertices, 0.3 to 1.5 m across) and 200 concave ones (10-point stars);
an 8-gon footprint (a 1.0 m x 0.6 m rectangle with its corners cut by 0.1 m) at
10,000 random poses (uniform position and yaw). Built once, outside the timings,
on both sides: our Obstacles, shapely's geometries (prepared) and STRtree.

Timed (each the best way shapely offers, each its median over --repeat runs):

* shapely, placing: the footprint at every pose as shapely Polygons
  (coordinates turned with NumPy, then shapely.polygons, vectorized);
* shapely, intersects: STRtree.query(footprints, predicate="intersects") (and the
  other way, the tree's boxes first, then shapely.intersects on the prepared
  obstacles; the faster is kept);
* shapely, distance: STRtree.query_nearest(footprints, return_distance=True);
* ours, collides: Obstacles.collides (the boolean), placing included;
* ours, check: Obstacles.check (colliding, clearance, depth, MTV, obstacle),
  placing included.

The answers are compared too: colliding must equal intersects, clearance equal
distance to 1e-9.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np
import shapely
from shapely import STRtree

import sat_collision
from sat_collision import Obstacles


def scene(rng: np.random.Generator, count: int) -> list:
    """``count`` obstacles: 80 % random convex polygons, 20 % 10-point stars."""
    obstacles = []
    for k in range(count):
        cx, cy = rng.uniform(0.0, 100.0, 2)
        if k % 5 == 4:
            angles = np.linspace(0.0, 2 * np.pi, 10, endpoint=False) + rng.uniform(0, 1)
            radii = np.where(np.arange(10) % 2 == 0, rng.uniform(0.5, 0.75), rng.uniform(0.2, 0.35))
        else:
            n = int(rng.integers(5, 11))
            angles = np.sort(rng.uniform(0.0, 2 * np.pi, n))
            radii = np.full(n, rng.uniform(0.15, 0.75))
        obstacles.append(np.column_stack([cx + radii * np.cos(angles), cy + radii * np.sin(angles)]))
    return obstacles


def footprint() -> np.ndarray:
    """A 1.0 m x 0.6 m rectangle with its corners cut by 0.1 m: an 8-gon."""
    return np.array(
        [
            (0.5, -0.2), (0.5, 0.2), (0.4, 0.3), (-0.4, 0.3),
            (-0.5, 0.2), (-0.5, -0.2), (-0.4, -0.3), (0.4, -0.3),
        ]
    )


def placed(fp: np.ndarray, poses: np.ndarray) -> np.ndarray:
    """``(N, K, 2)``: the footprint at every pose."""
    c, s = np.cos(poses[:, 2])[:, None], np.sin(poses[:, 2])[:, None]
    x = c * fp[None, :, 0] - s * fp[None, :, 1] + poses[:, 0:1]
    y = s * fp[None, :, 0] + c * fp[None, :, 1] + poses[:, 1:2]
    return np.stack([x, y], axis=-1)


def timed(repeat: int, work):
    """(median seconds, min seconds, last result) of ``repeat`` runs of ``work``."""
    times = []
    result = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--poses", type=int, default=10_000)
    parser.add_argument("--obstacles", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    polygons = scene(rng, args.obstacles)
    fp = footprint()
    poses = np.column_stack(
        [rng.uniform(0, 100, args.poses), rng.uniform(0, 100, args.poses), rng.uniform(-np.pi, np.pi, args.poses)]
    )

    ours = Obstacles(polygons)
    geoms = np.array([shapely.Polygon(p) for p in polygons], dtype=object)
    shapely.prepare(geoms)
    tree = STRtree(geoms)

    def shapely_place():
        return shapely.polygons(placed(fp, poses))

    def shapely_intersects_tree():
        feet = shapely_place()
        hits = tree.query(feet, predicate="intersects")
        colliding = np.zeros(len(poses), dtype=bool)
        colliding[hits[0]] = True
        return colliding

    def shapely_intersects_prepared():
        feet = shapely_place()
        pairs = tree.query(feet)
        keep = shapely.intersects(geoms[pairs[1]], feet[pairs[0]])
        colliding = np.zeros(len(poses), dtype=bool)
        colliding[pairs[0][keep]] = True
        return colliding

    def shapely_distance():
        feet = shapely_place()
        (index, _), distance = tree.query_nearest(feet, return_distance=True, all_matches=False)
        clearance = np.full(len(poses), np.inf)
        clearance[index] = distance
        return clearance

    rows = []
    t_place, _, _ = timed(args.repeat, shapely_place)
    t_tree, m_tree, col_tree = timed(args.repeat, shapely_intersects_tree)
    t_prep, m_prep, col_prep = timed(args.repeat, shapely_intersects_prepared)
    t_dist, m_dist, clear_shapely = timed(args.repeat, shapely_distance)
    t_coll, m_coll, col_ours = timed(args.repeat, lambda: ours.collides(fp, poses))
    t_check, m_check, check = timed(args.repeat, lambda: ours.check(fp, poses))

    assert (col_tree == col_prep).all()
    assert (col_ours == col_tree).all(), "collides differs from shapely's intersects"
    assert (check.colliding == col_tree).all(), "check differs from shapely's intersects"
    error = np.abs(check.clearance - clear_shapely).max()
    assert error <= 1e-9, f"clearance differs from shapely's distance by {error}"

    best_bool = min(t_tree, t_prep)
    rows.append(("shapely: place the footprints (shapely.polygons)", t_place, None))
    rows.append(("shapely: STRtree.query(predicate='intersects')", t_tree, m_tree))
    rows.append(("shapely: STRtree.query, then intersects on prepared", t_prep, m_prep))
    rows.append(("shapely: STRtree.query_nearest (distance)", t_dist, m_dist))
    rows.append(("ours: collides (boolean)", t_coll, m_coll))
    rows.append(("ours: check (colliding, clearance, depth, MTV, obstacle)", t_check, m_check))

    print(
        f"sat_collision {sat_collision.__version__}, shapely {shapely.__version__} (GEOS {shapely.geos_version_string}), "
        f"numpy {np.__version__}, Python {platform.python_version()}, {os.cpu_count()} CPUs"
    )
    print(
        f"{args.poses} poses of an 8-gon against {args.obstacles} obstacles; "
        f"{int(col_ours.sum())} poses collide; median (min) of {args.repeat} runs"
    )
    for name, median, best in rows:
        extra = "" if best is None else f" ({best * 1e3:7.2f})"
        print(f"  {name:58s} {median * 1e3:8.2f} ms{extra}")
    print(f"  boolean: ours {best_bool / t_coll:.1f}x faster than shapely's best intersects")
    print(f"  check: ours {best_bool / t_check:.1f}x shapely's intersects, {t_dist / t_check:.1f}x its distance")
    print(f"  clearance against shapely's distance: largest difference {error:.1e} m")


if __name__ == "__main__":
    main()
