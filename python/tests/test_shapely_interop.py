"""Shapely geometries in, answers that index back into the input."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from conftest import ROBOT, place, random_obstacles
from sat_collision import Obstacles


def test_shapely_polygons_in_answers_index_back(rng):
    polygons = [shapely.Polygon(p) for p in random_obstacles(rng, 30)]
    obstacles = Obstacles(polygons)
    assert len(obstacles) == 30
    footprint = shapely.Polygon(ROBOT)
    poses = np.column_stack([rng.uniform(0, 10, 300), rng.uniform(0, 10, 300), rng.uniform(-np.pi, np.pi, 300)])
    result = obstacles.check(footprint, poses)
    feet = [shapely.Polygon(place(ROBOT, p)) for p in poses]
    for k in range(len(poses)):
        named = polygons[result.obstacle[k]]
        if result.colliding[k]:
            assert shapely.intersects(feet[k], named)
        else:
            assert shapely.distance(feet[k], named) == pytest.approx(result.clearance[k], abs=1e-9)
    # An array of shapely geometries (shapely's own vectorized output) works too.
    again = Obstacles(np.array(polygons, dtype=object)).check(footprint, poses)
    np.testing.assert_array_equal(again.obstacle, result.obstacle)


def test_get_coordinates_output(rng):
    """shapely.get_coordinates: a footprint's (closing point repeated) and many
    obstacles' with their index."""
    polygons = [shapely.Polygon(p) for p in random_obstacles(rng, 20)]
    footprint = shapely.get_coordinates(shapely.Polygon(ROBOT))
    assert len(footprint) == len(ROBOT) + 1
    coords, index = shapely.get_coordinates(polygons, return_index=True)
    from_coords = Obstacles.from_coordinates(coords, index)
    direct = Obstacles(polygons)
    poses = np.column_stack([rng.uniform(0, 10, 200), rng.uniform(0, 10, 200), rng.uniform(-np.pi, np.pi, 200)])
    a = from_coords.check(footprint, poses)
    b = direct.check(ROBOT, poses)
    for name in a._fields:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


def test_multipolygon_is_one_obstacle():
    """A MultiPolygon's parts answer as the one obstacle they came as."""
    left = shapely.box(-3, -1, -2, 1)
    right = shapely.box(2, -1, 3, 1)
    square = shapely.box(-0.5, -0.5, 0.5, 0.5)
    obstacles = Obstacles([shapely.box(10, 10, 11, 11), shapely.MultiPolygon([left, right])], circles=[(0, 10, 1)])
    assert len(obstacles) == 3
    result = obstacles.check(square, np.array([[2.0, 0.0, 0.0], [-2.0, 0.0, 0.0], [0.0, 8.6, 0.0], [6.0, 6.0, 0.0]]))
    np.testing.assert_array_equal(result.obstacle, [1, 1, 2, 0])
    np.testing.assert_array_equal(result.colliding, [True, True, True, False])
    # Up to (0, 5) clear, then down to (5, 0) through the right part.
    assert obstacles.check_path(square, np.array([[0.0, 0.0, 0.0], [0.0, 5.0, 0.0], [5.0, 0.0, 0.0]])).obstacle == 1
    assert obstacles.check_path(square, np.array([[0.0, 0.0, 0.0], [0.0, 9.0, 0.0]])).obstacle == 2


def test_concave_polygons_as_the_node_decomposes_them():
    """A U-shaped (concave) obstacle: a footprint inside the U is clear of it."""
    u = [(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)]
    square = [(-0.25, -0.25), (0.25, -0.25), (0.25, 0.25), (-0.25, 0.25)]
    obstacles = Obstacles([shapely.Polygon(u)])
    inside = obstacles.check(square, np.array([[1.5, 2.0, 0.0], [1.5, 2.0, 0.5], [1.5, 0.5, 0.0]]))
    np.testing.assert_array_equal(inside.colliding, [False, False, True])
    assert inside.clearance[0] == pytest.approx(0.25)
