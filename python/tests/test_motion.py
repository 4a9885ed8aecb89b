"""Obstacles.check_path (continuous between poses) and Obstacles.time_to_collision
(a constant twist, rotation included): against closed forms and dense sampling
with shapely."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from conftest import ROBOT, place, random_obstacles
from sat_collision import Obstacles

SQUARE = np.array([(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)])
WALL = [(2.0, -1.0), (2.2, -1.0), (2.2, 1.0), (2.0, 1.0)]


def test_path_contact_between_poses():
    """Poses 1 m apart (no times): the front edge reaches x = 2 at 1.5 m."""
    obstacles = Obstacles([WALL])
    poses = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [3.0, 0.0, 0.0]])
    path = obstacles.check_path(SQUARE, poses)
    assert path.colliding and path.segment == 1 and path.obstacle == 0 and path.exact
    assert path.time == pytest.approx(1.5, abs=1e-9)
    assert path.distance == pytest.approx(1.5, abs=1e-9)
    np.testing.assert_allclose(path.pose, (1.5, 0.0, 0.0), atol=1e-9)
    np.testing.assert_allclose(path.clearance, (1.5, 0.5, 0.0, 0.3), atol=1e-9)
    # With times: the same place, at its time.
    timed = obstacles.check_path(SQUARE, poses, times=[10.0, 12.0, 13.0, 20.0])
    assert timed.segment == 1 and timed.time == pytest.approx(2.5, abs=1e-9)


def test_path_that_tunnels_between_poses():
    """Both poses clear, the motion between them passes through the wall."""
    obstacles = Obstacles([WALL])
    poses = np.array([[0.0, 0.0, 0.0], [4.0, 0.0, 0.0]])
    assert not obstacles.check(SQUARE, poses).colliding.any()
    path = obstacles.check_path(SQUARE, poses)
    assert path.colliding and path.segment == 0 and path.time == pytest.approx(1.5 / 4)


def test_clear_path_and_single_pose():
    obstacles = Obstacles([WALL])
    clear = obstacles.check_path(SQUARE, np.array([[0.0, 3.0, 0.0], [4.0, 3.0, 1.0]]))
    assert not clear.colliding and clear.segment is None and clear.time is None and clear.pose is None
    assert clear.clearance.shape == (2,)
    one = obstacles.check_path(SQUARE, np.array([[2.0, 0.0, 0.0]]))
    assert one.colliding and one.segment == 0 and one.time == 0.0
    none = obstacles.check_path(SQUARE, np.zeros((0, 3)))
    assert not none.colliding and none.clearance.shape == (0,)


def test_turning_path_never_late(rng):
    """Random turning paths: the contact time found is never after a sampled
    contact, and the pose there is touching (shapely's distance about 0)."""
    found = 0
    for _ in range(80):
        polygons = random_obstacles(rng, 40, size=8)
        geoms = [shapely.Polygon(p) for p in polygons]
        union = shapely.union_all(geoms)
        start = np.array([rng.uniform(0, 8), rng.uniform(0, 8), rng.uniform(-np.pi, np.pi)])
        end = start + np.array([rng.uniform(-3, 3), rng.uniform(-3, 3), rng.uniform(-2, 2)])
        if shapely.intersects(shapely.Polygon(place(ROBOT, start)), union):
            continue
        path = Obstacles(polygons).check_path(ROBOT, np.array([start, end]))
        # Dense samples along the segment (yaw the short way, as the library).
        turn = (end[2] - start[2] + np.pi) % (2 * np.pi) - np.pi
        ts = np.linspace(0.0, 1.0, 2001)
        sampled = None
        for t in ts:
            pose = start + t * np.array([end[0] - start[0], end[1] - start[1], turn])
            if shapely.intersects(shapely.Polygon(place(ROBOT, pose)), union):
                sampled = t
                break
        if sampled is None:
            assert not path.colliding or path.time > ts[-2]
            continue
        found += 1
        assert path.colliding and path.time <= sampled + 1e-12
        assert sampled - path.time <= 1 / 2000 + 1e-9
        if path.exact:
            at = shapely.Polygon(place(ROBOT, path.pose))
            assert shapely.distance(at, union) <= 1e-9
    assert found >= 10


def test_time_to_collision_translation_exact():
    obstacles = Obstacles([WALL])
    hit = obstacles.time_to_collision(SQUARE, [0.0, 0.0, 0.0], [0.5, 0.0, 0.0], 10.0)
    assert hit is not None and hit.exact and hit.obstacle == 0
    assert hit.time == pytest.approx(3.0, abs=1e-9)
    np.testing.assert_allclose(hit.pose, (1.5, 0.0, 0.0), atol=1e-9)
    # The twist is in the robot's frame: facing +y, driving +x of the robot.
    turned = obstacles.time_to_collision(SQUARE, [0.0, 0.0, -np.pi / 2], [0.0, 1.0, 0.0], 10.0)
    assert turned.time == pytest.approx(1.5, abs=1e-9)
    assert obstacles.time_to_collision(SQUARE, [0.0, 0.0, 0.0], [-1.0, 0.0, 0.0], 10.0) is None
    assert obstacles.time_to_collision(SQUARE, [0.0, 0.0, 0.0], [0.5, 0.0, 0.0], 2.9) is None
    assert obstacles.time_to_collision(SQUARE, [2.0, 0.0, 0.0], [0.0, 0.0, 0.0], 0.0).time == 0.0


def test_time_to_collision_turning_in_place():
    """A 2 m x 0.2 m bar turning about its centre at 0.5 rad/s below a post:
    the bar's corner (1, 0.1), on a circle of radius sqrt(1.01), meets the
    post's lower side (y = 0.8, x in [0.5, 0.7]) at x = sqrt(1.01 - 0.64):
    closed form."""
    bar = np.array([(-1.0, -0.1), (1.0, -0.1), (1.0, 0.1), (-1.0, 0.1)])
    post = [(0.5, 0.8), (0.7, 0.8), (0.7, 1.0), (0.5, 1.0)]
    obstacles = Obstacles([post])
    hit = obstacles.time_to_collision(bar, [0.0, 0.0, 0.0], [0.0, 0.0, 0.5], 10.0)
    assert hit is not None
    theta = np.arctan2(0.8, np.sqrt(1.01 - 0.64)) - np.arctan2(0.1, 1.0)
    assert hit.time <= theta / 0.5 + 1e-9
    if hit.exact:
        assert hit.time == pytest.approx(theta / 0.5, abs=1e-9)
    assert hit.pose[2] == pytest.approx(0.5 * hit.time, abs=1e-12)


def test_time_to_collision_arcs_against_sampling(rng):
    """Random arcs among random obstacles: never later than a dense sample's
    first contact, and within a sample step of it."""
    compared = 0
    for _ in range(40):
        polygons = random_obstacles(rng, 20, size=8)
        union = shapely.union_all([shapely.Polygon(p) for p in polygons])
        pose = np.array([rng.uniform(0, 8), rng.uniform(0, 8), rng.uniform(-np.pi, np.pi)])
        if shapely.intersects(shapely.Polygon(place(ROBOT, pose)), union):
            continue
        vx, vy, wz = rng.uniform(-1, 1), rng.uniform(-0.3, 0.3), rng.uniform(-1.5, 1.5)
        hit = Obstacles(polygons).time_to_collision(ROBOT, pose, [vx, vy, wz], 4.0)
        sampled = None
        for t in np.linspace(0, 4.0, 4001):
            # The body twist integrated exactly: an arc.
            yaw = pose[2] + wz * t
            if abs(wz) > 1e-12:
                dx = (vx * np.sin(wz * t) - vy * (1 - np.cos(wz * t))) / wz
                dy = (vx * (1 - np.cos(wz * t)) + vy * np.sin(wz * t)) / wz
            else:
                dx, dy = vx * t, vy * t
            c, s = np.cos(pose[2]), np.sin(pose[2])
            at = (pose[0] + c * dx - s * dy, pose[1] + s * dx + c * dy, yaw)
            if shapely.intersects(shapely.Polygon(place(ROBOT, at)), union):
                sampled = t
                break
        if sampled is None:
            assert hit is None or hit.time > 4.0 - 1e-3 - 1e-9
            continue
        compared += 1
        assert hit is not None and hit.time <= sampled + 1e-12
        assert sampled - hit.time <= 1e-3 + 1e-9
    assert compared >= 10
