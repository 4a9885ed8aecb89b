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

Each contender runs back to back: two runs to warm up, then --repeat runs, each on
its own random set of poses (the same sets for every contender). Ours is timed
with one thread (its default, as shapely runs) and with a thread per core.

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

    current = {"poses": poses}

    def shapely_place():
        return shapely.polygons(placed(fp, current["poses"]))

    def shapely_intersects_tree():
        feet = shapely_place()
        hits = tree.query(feet, predicate="intersects")
        colliding = np.zeros(len(feet), dtype=bool)
        colliding[hits[0]] = True
        return colliding

    def shapely_intersects_prepared():
        feet = shapely_place()
        pairs = tree.query(feet)
        keep = shapely.intersects(geoms[pairs[1]], feet[pairs[0]])
        colliding = np.zeros(len(feet), dtype=bool)
        colliding[pairs[0][keep]] = True
        return colliding

    def shapely_distance():
        feet = shapely_place()
        (index, _), distance = tree.query_nearest(feet, return_distance=True, all_matches=False)
        clearance = np.full(len(feet), np.inf)
        clearance[index] = distance
        return clearance

    # Each contender back to back: two runs to warm up, then --repeat runs,
    # each on its own set of poses (the same sets for every contender).
    pose_sets = [poses] + [
        np.column_stack([rng.uniform(0, 100, args.poses), rng.uniform(0, 100, args.poses), rng.uniform(-np.pi, np.pi, args.poses)])
        for _ in range(args.repeat - 1)
    ]
    contenders = {
        "place": shapely_place,
        "tree": shapely_intersects_tree,
        "prepared": shapely_intersects_prepared,
        "distance": shapely_distance,
        "collides1": lambda: ours.collides(fp, current["poses"], threads=1),
        "check1": lambda: ours.check(fp, current["poses"], threads=1),
        "collides": lambda: ours.collides(fp, current["poses"], threads=os.cpu_count()),
        "check": lambda: ours.check(fp, current["poses"], threads=os.cpu_count()),
    }
    times = {}
    results = {}
    for name, work in contenders.items():
        current["poses"] = poses
        work(), work()
        times[name] = []
        for k in range(args.repeat):
            current["poses"] = pose_sets[k]
            t0 = time.perf_counter()
            result = work()
            times[name].append(time.perf_counter() - t0)
            if k == 0:
                results[name] = result
    med = {name: statistics.median(t) for name, t in times.items()}
    low = {name: min(t) for name, t in times.items()}
    col_tree, col_prep = results["tree"], results["prepared"]
    clear_shapely, col_ours, check = results["distance"], results["collides"], results["check"]
    assert (results["collides1"] == col_ours).all()
    for field in check._fields:
        assert (getattr(results["check1"], field) == getattr(check, field)).all()
    shapely_best = min(med["tree"], med["prepared"])

    assert (col_tree == col_prep).all()
    assert (col_ours == col_tree).all(), "collides differs from shapely's intersects"
    assert (check.colliding == col_tree).all(), "check differs from shapely's intersects"
    error = np.abs(check.clearance - clear_shapely).max()
    assert error <= 1e-9, f"clearance differs from shapely's distance by {error}"

    rows = [
        ("shapely: place the footprints (shapely.polygons)", "place"),
        ("shapely: STRtree.query(predicate='intersects')", "tree"),
        ("shapely: STRtree.query, then intersects on prepared", "prepared"),
        ("shapely: STRtree.query_nearest (distance)", "distance"),
        ("ours: collides, one thread", "collides1"),
        ("ours: check, one thread", "check1"),
        (f"ours: collides, threads={os.cpu_count()}", "collides"),
        (f"ours: check, threads={os.cpu_count()}", "check"),
    ]
    print(
        f"sat_collision {sat_collision.__version__}, shapely {shapely.__version__} (GEOS {shapely.geos_version_string}), "
        f"numpy {np.__version__}, Python {platform.python_version()}, {os.cpu_count()} CPUs"
    )
    print(
        f"{args.poses} poses of an 8-gon against {args.obstacles} obstacles; "
        f"{int(col_ours.sum())} poses of the first set collide; median (min) of {args.repeat} runs; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    for label, name in rows:
        print(f"  {label:58s} {med[name] * 1e3:8.2f} ms ({low[name] * 1e3:7.2f})")
    for threads, suffix in (("one thread", "1"), (f"threads={os.cpu_count()}", "")):
        print(
            f"  {threads}: collides {shapely_best / med['collides' + suffix]:.1f}x faster than shapely's best "
            f"intersects; check {shapely_best / med['check' + suffix]:.1f}x its speed, "
            f"{med['distance'] / med['check' + suffix]:.1f}x its distance's"
        )
    print(f"  clearance against shapely's distance: largest difference {error:.1e} m")


if __name__ == "__main__":
    main()
