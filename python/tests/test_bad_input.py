"""Every bad input is refused with ValueError (or TypeError for a value of the
wrong kind) that says what and why; none crashes the interpreter."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from conftest import ROBOT
from sat_collision import Obstacles, _core

GOOD = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
POSES = np.zeros((2, 3))


@pytest.mark.parametrize(
    "bad, message",
    [
        ([(0, 0), (1, 0), (math.nan, 1)], "obstacle 1: point 2 has a NaN"),
        ([(0, 0), (1, 0), (math.inf, 1)], "obstacle 1: point 2 has a NaN, infinite"),
        ([(0, 0), (1e200, 0), (1, 1)], "out-of-range"),
        ([(0, 0), (1, 1), (1, 0), (0, 1)], "obstacle 1: polygon is self-intersecting (edges 0 and 2)"),
        ([(0, 0), (1, 1)], "obstacle 1: polygon needs at least 3 distinct points, got 2"),
        ([(0, 0), (0, 0), (0, 0), (1, 1)], "at least 3 distinct points"),
        ([], "obstacle 1: expected an (M, 2) array"),
        ([(0, 0), (1, 0), (2, 0)], "obstacle 1: polygon has zero area"),
        ([(0, 0, 0), (1, 0, 0), (1, 1, 0)], "obstacle 1: expected an (M, 2) array of numbers, got shape (3, 3)"),
        ([0, 1, 2], "obstacle 1: expected an (M, 2) array"),
        ("abc", "obstacle 1: expected an (M, 2) array of numbers"),
        ([(0, 0), (1, 0), ("x", 1)], "obstacle 1: expected an (M, 2) array of numbers"),
        ([(0, 0), (1, 0, 3), (1, 1)], "obstacle 1: expected an (M, 2) array of numbers"),
        (None, "obstacle 1: expected an (M, 2) array"),
        (np.array([(0, 0), (1, 1), (1, 0), (0, 1)])[::-1], "self-intersecting"),
        (shapely.Polygon([(0, 0), (4, 0), (4, 4), (0, 4)], [[(1, 1), (2, 1), (2, 2)]]), "obstacle 1: a polygon with holes"),
        (shapely.Polygon(), "obstacle 1: the shapely Polygon is empty"),
        (shapely.Point(0, 0), "obstacle 1: a shapely Point is not a polygon"),
        (shapely.LineString([(0, 0), (1, 1)]), "is not a polygon"),
    ],
)
def test_bad_obstacle_is_named(bad, message):
    with pytest.raises(ValueError) as e:
        Obstacles([GOOD, bad])
    assert message in str(e.value)


def test_too_many_concave_vertices():
    angles = np.linspace(0, 2 * np.pi, 5000, endpoint=False)
    radii = np.where(np.arange(5000) % 2 == 0, 1.0, 0.9)
    star = np.column_stack([radii * np.cos(angles), radii * np.sin(angles)])
    with pytest.raises(ValueError, match="obstacle 0: polygon has 5000 vertices, at most 4096"):
        Obstacles([star])


@pytest.mark.parametrize(
    "circles, message",
    [
        ([(0, 0, 0)], "obstacle 1 (circle 0): circle radius must be > 0, got 0"),
        ([(0, 0, 1), (0, 0, -1)], "obstacle 2 (circle 1): circle radius must be > 0, got -1"),
        ([(math.nan, 0, 1)], "obstacle 1 (circle 0): circle centre or radius is NaN"),
        ([(0, 0, math.inf)], "circle centre or radius is NaN, infinite"),
        ([(0, 0)], "circles: expected an (M, 3) array"),
        ([0, 0, 1], "circles: expected an (M, 3) array"),
        ("x", "circles: expected an (M, 3) array"),
    ],
)
def test_bad_circle_is_named(circles, message):
    with pytest.raises(ValueError) as e:
        Obstacles([GOOD], circles=circles)
    assert message in str(e.value)


def test_bad_polygons_argument():
    with pytest.raises(TypeError, match="sequence of polygons"):
        Obstacles(shapely.Polygon(GOOD))
    with pytest.raises(TypeError, match="sequence of polygons"):
        Obstacles(42)
    with pytest.raises(TypeError, match="sequence of polygons"):
        Obstacles("abc")
    # Empty is fine; so are empty circles.
    assert len(Obstacles([], circles=[])) == 0


def test_bad_coordinates():
    coords, index = shapely.get_coordinates([shapely.box(0, 0, 1, 1)] * 2, return_index=True)
    with pytest.raises(ValueError, match="index: one per point"):
        Obstacles.from_coordinates(coords, index[:-1])
    with pytest.raises(ValueError, match=">= 0"):
        Obstacles.from_coordinates(coords, index - 1)
    with pytest.raises(ValueError, match="obstacle 1: no coordinates"):
        Obstacles.from_coordinates(coords, np.where(index == 1, 2, 0))
    holed = shapely.Polygon([(0, 0), (4, 0), (4, 4), (0, 4)], [[(1, 1), (2, 1), (2, 2)]])
    c, i = shapely.get_coordinates([shapely.box(0, 0, 1, 1), holed], return_index=True)
    with pytest.raises(ValueError, match="obstacle 1: several rings"):
        Obstacles.from_coordinates(c, i)
    with pytest.raises(ValueError, match="index: expected integers"):
        Obstacles.from_coordinates(coords, ["a"] * len(coords))


@pytest.fixture(scope="module")
def obstacles():
    return Obstacles([np.array(GOOD) + 3], circles=[(-3, 0, 1)])


BAD_FOOTPRINTS = [
    ([(0, 0), (1, 1)], "footprint: polygon needs at least 3 distinct points"),
    ([(0, 0), (1, 1), (1, 0), (0, 1)], "footprint: polygon is self-intersecting"),
    ([(0, 0), (1, 0), (math.nan, 1)], "footprint: point 2 has a NaN"),
    ([(0, 0, 0), (1, 0, 0), (1, 1, 0)], "footprint: expected an (M, 2) array"),
    ("abc", "footprint: expected an (M, 2) array"),
    (None, "footprint: expected an (M, 2) array"),
    (shapely.MultiPolygon([shapely.box(0, 0, 1, 1), shapely.box(2, 2, 3, 3)]), "footprint: a MultiPolygon"),
    (shapely.Point(0, 0), "footprint: a shapely Point is not a polygon"),
]


@pytest.mark.parametrize("footprint, message", BAD_FOOTPRINTS)
def test_bad_footprint(obstacles, footprint, message):
    calls = [
        lambda: obstacles.check(footprint, POSES),
        lambda: obstacles.collides(footprint, POSES),
        lambda: obstacles.check_path(footprint, POSES + [[0, 0, 0], [1, 0, 0]]),
        lambda: obstacles.time_to_collision(footprint, [0, 0, 0], [1, 0, 0], 1.0),
    ]
    for call in calls:
        with pytest.raises(ValueError) as e:
            call()
        assert message in str(e.value)


BAD_POSES = [
    (np.zeros((2, 2)), "poses: expected an (M, 3) array"),
    (np.zeros(3), "poses: expected an (M, 3) array"),
    ([[0, 0, math.nan]], "poses: pose 0: x and y must be finite"),
    ([[0, 0, 0], [math.inf, 0, 0]], "poses: pose 1: x and y must be finite"),
    ([[0, 0, 0], [0, 0, 0], [0, 1e151, 0]], "poses: pose 2"),
    ([[0, 0, math.inf]], "yaw finite"),
    ("abc", "poses: expected an (M, 3) array of numbers"),
    ([[0, 0], [1, 2, 3]], "poses: expected an (M, 3) array of numbers"),
]


@pytest.mark.parametrize("poses, message", BAD_POSES)
def test_bad_poses(obstacles, poses, message):
    for call in (obstacles.check, obstacles.collides, obstacles.check_path):
        with pytest.raises(ValueError) as e:
            call(ROBOT, poses)
        assert message in str(e.value)


@pytest.mark.parametrize("padding", [-0.1, math.nan, math.inf])
def test_bad_padding(obstacles, padding):
    for call in (obstacles.check, obstacles.collides, obstacles.check_path):
        with pytest.raises(ValueError, match="padding must be finite and >= 0"):
            call(ROBOT, POSES, padding=padding)
    with pytest.raises(ValueError, match="padding must be finite and >= 0"):
        obstacles.time_to_collision(ROBOT, [0, 0, 0], [1, 0, 0], 1.0, padding=padding)
    with pytest.raises(TypeError, match="padding: expected a number"):
        obstacles.check(ROBOT, POSES, padding="wide")


def test_bad_times(obstacles):
    poses = np.array([[0, 0, 0], [1, 0, 0], [2, 0, 0]], dtype=float)
    for times, message in [
        ([0, 1], "times: one per pose (3), got 2"),
        ([0, 1, 1], "strictly increasing"),
        ([0, 2, 1], "strictly increasing"),
        ([0, math.nan, 2], "finite and strictly increasing"),
        ([[0, 1, 2]], "times: expected an (N,) array"),
        (["a", "b", "c"], "could not convert"),
    ]:
        with pytest.raises(ValueError) as e:
            obstacles.check_path(ROBOT, poses, times=times)
        assert message in str(e.value)


def test_bad_motion(obstacles):
    for kwargs, message in [
        (dict(pose=[0, 0], twist=[1, 0, 0], horizon=1.0), "pose: expected 3 numbers, got shape (2,)"),
        (dict(pose=[0, 0, math.nan], twist=[1, 0, 0], horizon=1.0), "pose: x and y must be finite"),
        (dict(pose=[0, 0, 0], twist=[1, 0], horizon=1.0), "twist: expected 3 numbers"),
        (dict(pose=[0, 0, 0], twist=[1, math.inf, 0], horizon=1.0), "twist must be finite"),
        (dict(pose=[0, 0, 0], twist=[[1, 0, 0]], horizon=1.0), "twist: expected 3 numbers, got shape (1, 3)"),
        (dict(pose=[0, 0, 0], twist=[1, 0, 0], horizon=-1.0), "horizon must be finite and >= 0"),
        (dict(pose=[0, 0, 0], twist=[1, 0, 0], horizon=math.nan), "horizon must be finite and >= 0"),
        (dict(pose=[0, 0, 0], twist=[1, 0, 0], horizon=math.inf), "horizon must be finite and >= 0"),
        (dict(pose="abc", twist=[1, 0, 0], horizon=1.0), "pose: expected 3 numbers"),
    ]:
        with pytest.raises(ValueError) as e:
            obstacles.time_to_collision(ROBOT, **kwargs)
        assert message in str(e.value)
    with pytest.raises(TypeError, match="horizon: expected a number"):
        obstacles.time_to_collision(ROBOT, [0, 0, 0], [1, 0, 0], None)


def test_core_refuses_what_the_wrapper_would_catch():
    """The extension module checks its arrays itself: called directly, with
    any shapes, it refuses and never panics."""
    index = _core.Index([np.array(GOOD, dtype=float)])
    with pytest.raises(ValueError, match="footprint: expected an"):
        index.check(np.zeros((3, 5)), np.zeros((1, 3)))
    with pytest.raises(ValueError, match="poses: expected an"):
        index.collides(np.array(GOOD, dtype=float), np.zeros((1, 7)))
    with pytest.raises(ValueError, match="owners: one per obstacle"):
        _core.Index([np.array(GOOD, dtype=float)], None, np.zeros(3, dtype=np.int64))
    with pytest.raises(TypeError):
        index.check(np.zeros((3, 2), dtype=np.float32), np.zeros((1, 3)))
    with pytest.raises(TypeError):
        _core.Index("abc")
    # Non-contiguous views are read as they are.
    wide = np.zeros((4, 4))
    wide[:, :2] = GOOD
    assert not index.check(wide[:, :2], np.array([[5.0, 5.0, 0.0]]))[0][0]


def test_extreme_but_valid_input(obstacles):
    """Far away, huge or tiny, but valid: answers, no error."""
    far = obstacles.check(ROBOT, [[1e150, -1e150, 1e6]])
    assert not far.colliding[0] and far.clearance[0] > 1e149
    tiny = Obstacles([np.array(GOOD) * 1e-9])
    assert tiny.check(np.array(GOOD) * 1e-9, [[0.5e-9, 0, 0]]).colliding[0]
    spin = obstacles.time_to_collision(ROBOT, [0, 0, 0], [1e6, 0, 1e6], 1e6)
    assert spin is None  # a 1 m circle about (0, 1), never reaching either obstacle
    fast = obstacles.time_to_collision(ROBOT, [0, 3.5, 0], [1e6, 0, 1e-3], 1e6)
    # Within the tolerance of the coordinates involved: 1e-12 of the swept
    # arc's 1e9 m radius.
    assert fast is not None and fast.obstacle == 0 and fast.time == pytest.approx(2.5e-6, abs=1e-8)


def test_too_many_obstacles():
    """More than 2^20 obstacles are refused before anything is built."""
    circles = np.column_stack([np.arange(2**20 + 1, dtype=float), np.zeros(2**20 + 1), np.ones(2**20 + 1)])
    with pytest.raises(ValueError, match="at most 1048576 obstacles are accepted, got 1048577"):
        Obstacles([], circles=circles)
