"""Obstacles.check and Obstacles.collides against shapely 2.x on random cases:
colliding equals intersects (touching included, built deliberately), clearance
equals distance to 1e-9, the obstacle named is the deepest or the nearest, and
the MTV moves the footprint out."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from conftest import ROBOT, convex, place, random_obstacles, star
from sat_collision import Obstacles


def shapely_answers(polygons, footprint, poses):
    """Per pose: intersects any, distance to the nearest, the distances to each."""
    geoms = np.array([shapely.Polygon(p) for p in polygons], dtype=object)
    feet = np.array([shapely.Polygon(place(footprint, pose)) for pose in poses], dtype=object)
    distances = shapely.distance(feet[:, None], geoms[None, :])
    hits = shapely.intersects(feet[:, None], geoms[None, :])
    return hits.any(axis=1), distances.min(axis=1), distances, hits


@pytest.mark.parametrize("footprint_kind", ["convex", "concave"])
def test_random_poses_match_shapely(rng, footprint_kind):
    footprint = ROBOT if footprint_kind == "convex" else star(rng, (0.0, 0.0), 0.6, 0.25, 4)
    for _ in range(6):
        polygons = random_obstacles(rng, 40)
        obstacles = Obstacles(polygons)
        poses = np.column_stack(
            [rng.uniform(-1, 11, 400), rng.uniform(-1, 11, 400), rng.uniform(-np.pi, np.pi, 400)]
        )
        colliding, distance, distances, hits = shapely_answers(polygons, footprint, poses)
        result = obstacles.check(footprint, poses)
        assert colliding.any() and not colliding.all()
        np.testing.assert_array_equal(result.colliding, colliding)
        np.testing.assert_array_equal(obstacles.collides(footprint, poses), colliding)
        np.testing.assert_allclose(result.clearance, distance, rtol=0, atol=1e-9)
        # Clear: the nearest obstacle; colliding: one it touches.
        clear = ~colliding
        np.testing.assert_allclose(
            distances[clear, result.obstacle[clear]], distance[clear], rtol=0, atol=1e-9
        )
        assert hits[colliding, result.obstacle[colliding]].all()
        assert (result.depth[clear] == 0).all() and (result.mtv[clear] == 0).all()
        np.testing.assert_allclose(np.hypot(*result.mtv.T), result.depth, rtol=1e-12, atol=1e-15)


def test_touching_counts_as_colliding():
    """Exact touching cases (dyadic coordinates, yaw 0): what shapely calls
    intersecting, and no more."""
    square = np.array([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)])
    obstacles = [
        [(1.0, 0.25), (2.0, 0.25), (2.0, 0.75), (1.0, 0.75)],  # edge on edge
        [(1.0, 1.0), (2.0, 1.0), (2.0, 2.0)],  # corner on corner
        [(-1.0, 0.5), (0.0, 0.5), (-0.5, 2.0)],  # vertex on an edge
        [(0.5, -1.0), (0.75, -0.5), (0.5, 0.0), (0.25, -0.5)],  # diamond's tip on an edge
        [(0.5, 1.0 + 2**-20), (1.0, 2.0), (0.0, 2.0)],  # 1e-6 away: clear
    ]
    poses = np.array([[0.0, 0.0, 0.0]])
    for k, obstacle in enumerate(obstacles):
        ours = Obstacles([obstacle])
        expected = shapely.intersects(shapely.Polygon(square), shapely.Polygon(obstacle))
        result = ours.check(square, poses)
        assert result.colliding[0] == expected, k
        assert ours.collides(square, poses)[0] == expected, k
        if expected:
            assert result.depth[0] == 0 and result.clearance[0] == 0
        else:
            assert result.clearance[0] == pytest.approx(2**-20, abs=1e-12)


def test_random_touching_cases_match_shapely(rng):
    """Random dyadic polygons moved so that a vertex of one lands on a vertex or
    an edge's midpoint of the other: shapely's exact answer, touching or
    overlapping, is ours."""
    grid = 1 / 8
    touching = 0
    for _ in range(300):
        fp = np.round(convex(rng, (0, 0), rng.uniform(0.5, 1.0), int(rng.integers(3, 7))) / grid) * grid
        ob = np.round(convex(rng, (0, 0), rng.uniform(0.5, 1.0), int(rng.integers(3, 7))) / grid) * grid
        fp_geom, ob_geom = shapely.Polygon(fp), shapely.Polygon(ob)
        if not (fp_geom.is_valid and ob_geom.is_valid and fp_geom.area > 0 and ob_geom.area > 0):
            continue
        i, j = rng.integers(len(fp)), rng.integers(len(ob))
        target = fp[i] if rng.uniform() < 0.5 else (fp[i] + fp[(i + 1) % len(fp)]) / 2
        # Push the obstacle out along the direction from the footprint's centre.
        moved = ob - ob[j] + target
        direction = np.sign(target - fp.mean(axis=0))
        for step in range(6):
            candidate = moved + direction * step * grid
            geom = shapely.Polygon(candidate)
            expected = shapely.intersects(fp_geom, geom)
            try:
                ours = Obstacles([candidate])
            except ValueError:
                break
            result = ours.check(fp, np.zeros((1, 3)))
            assert result.colliding[0] == expected
            assert ours.collides(fp, np.zeros((1, 3)))[0] == expected
            if expected and shapely.intersection(fp_geom, geom).area == 0:
                touching += 1
                assert result.depth[0] <= 1e-12  # touching: no depth beyond rounding
            if not expected:
                assert result.clearance[0] == pytest.approx(shapely.distance(fp_geom, geom), abs=1e-9)
                break
    assert touching >= 30, touching


def test_circles_match_exact_distances(rng):
    """A circle obstacle: colliding when the footprint comes within the radius
    of its centre (shapely's distance to the centre), clearance that distance
    minus the radius."""
    circles = np.column_stack([rng.uniform(0, 10, 30), rng.uniform(0, 10, 30), rng.uniform(0.1, 0.8, 30)])
    obstacles = Obstacles([], circles=circles)
    poses = np.column_stack([rng.uniform(0, 10, 500), rng.uniform(0, 10, 500), rng.uniform(-np.pi, np.pi, 500)])
    feet = np.array([shapely.Polygon(place(ROBOT, p)) for p in poses], dtype=object)
    centres = shapely.points(circles[:, :2])
    gap = shapely.distance(feet[:, None], centres[None, :]) - circles[None, :, 2]
    result = obstacles.check(ROBOT, poses)
    expected = (gap <= 0).any(axis=1)
    np.testing.assert_array_equal(result.colliding, expected)
    np.testing.assert_allclose(result.clearance, np.maximum(gap.min(axis=1), 0), rtol=0, atol=1e-9)
    # Touching exactly: a unit circle whose edge meets the square's right side.
    touching = Obstacles([], circles=[(2.0, 0.5, 1.0)])
    square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    assert touching.check(square, np.zeros((1, 3))).colliding[0]
    assert not touching.check(square, [[-2**-20, 0.0, 0.0]]).colliding[0]


def sat_depth(a: np.ndarray, b: np.ndarray):
    """Brute-force SAT between two convex polygons: the least overlap over
    every edge normal of both, and the MTV moving ``a`` out of ``b``."""
    best = (np.inf, None)
    for poly in (a, b):
        edges = np.roll(poly, -1, axis=0) - poly
        normals = np.column_stack([edges[:, 1], -edges[:, 0]])
        normals /= np.hypot(*normals.T)[:, None]
        for n in normals:
            pa, pb = a @ n, b @ n
            overlap = min(pa.max() - pb.min(), pb.max() - pa.min())
            if overlap < best[0]:
                push = -n if pa.max() - pb.min() < pb.max() - pa.min() else n
                best = (overlap, push * overlap)
    return best


def test_depth_and_mtv_of_convex_pairs(rng):
    """Convex against convex: the depth is SAT's least overlap, the MTV is
    ``depth`` long, and moving the footprint by it leaves it touching."""
    checked = 0
    for _ in range(300):
        ob = convex(rng, rng.uniform(-0.5, 0.5, 2), rng.uniform(0.3, 1.0), int(rng.integers(3, 9)))
        pose = (rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(-np.pi, np.pi))
        result = Obstacles([ob]).check(ROBOT, np.array([pose]))
        placed = place(ROBOT, pose)
        if not result.colliding[0]:
            continue
        depth, mtv = sat_depth(placed, ob)
        assert result.depth[0] == pytest.approx(depth, abs=1e-9)
        assert np.hypot(*result.mtv[0]) == pytest.approx(depth, abs=1e-9)
        moved = shapely.Polygon(placed + result.mtv[0])
        assert shapely.intersection(moved, shapely.Polygon(ob)).area < 1e-9
        assert shapely.distance(moved, shapely.Polygon(ob)) < 1e-9
        checked += 1
    assert checked > 100


def test_deepest_obstacle_is_named():
    """Two overlapped obstacles: the deeper one is named, its MTV given."""
    square = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
    shallow = [(0.4, -2), (2, -2), (2, 2), (0.4, 2)]  # 0.1 deep
    deep = [(-2, -2), (-0.2, -2), (-0.2, 2), (-2, 2)]  # 0.3 deep
    result = Obstacles([shallow, deep]).check(square, np.zeros((1, 3)))
    assert result.obstacle[0] == 1
    assert result.depth[0] == pytest.approx(0.3)
    np.testing.assert_allclose(result.mtv[0], (0.3, 0.0), atol=1e-12)


def test_padding_is_a_buffer(rng):
    """``padding`` inflates the footprint by a disc: shapely's buffer with round
    joins, within the buffer's polygonal error."""
    polygons = random_obstacles(rng, 30)
    poses = np.column_stack([rng.uniform(0, 10, 300), rng.uniform(0, 10, 300), rng.uniform(-np.pi, np.pi, 300)])
    _, distance, _, _ = shapely_answers(polygons, ROBOT, poses)
    result = Obstacles(polygons).check(ROBOT, poses, padding=0.2)
    np.testing.assert_allclose(result.clearance, np.maximum(distance - 0.2, 0), rtol=0, atol=1e-9)
    np.testing.assert_array_equal(result.colliding, distance <= 0.2)


def test_no_obstacles_and_no_poses():
    empty = Obstacles([])
    result = empty.check(ROBOT, np.zeros((3, 3)))
    assert not result.colliding.any() and np.isinf(result.clearance).all()
    assert (result.obstacle == -1).all()
    some = Obstacles([ROBOT + 5])
    result = some.check(ROBOT, np.zeros((0, 3)))
    assert result.colliding.shape == (0,) and result.mtv.shape == (0, 2)
    assert result.colliding.dtype == bool and result.obstacle.dtype == np.int64
    assert some.collides(ROBOT, np.zeros((0, 3))).shape == (0,)


def test_large_batches_match_small_ones(rng):
    """Many poses are taken in runs, in a spatial order: the answers are each
    pose's own, whatever the batch."""
    polygons = random_obstacles(rng, 200, size=30)
    obstacles = Obstacles(polygons, circles=[(15, 15, 2.0)])
    poses = np.column_stack([rng.uniform(0, 30, 3000), rng.uniform(0, 30, 3000), rng.uniform(-np.pi, np.pi, 3000)])
    whole = obstacles.check(ROBOT, poses)
    for k in rng.integers(0, len(poses), 50):
        one = obstacles.check(ROBOT, poses[k : k + 1])
        for name in whole._fields:
            np.testing.assert_array_equal(getattr(whole, name)[k], getattr(one, name)[0])
    np.testing.assert_array_equal(obstacles.collides(ROBOT, poses), whole.colliding)
