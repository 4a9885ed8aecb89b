"""Shared helpers of the Python package's tests: random shapes and the footprint
placed the way the library places it."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261128)


def convex(rng: np.random.Generator, center, radius: float, n: int) -> np.ndarray:
    """A random convex polygon: ``n`` points on a circle, counter-clockwise."""
    angles = np.sort(rng.uniform(0.0, 2 * np.pi, n))
    return np.column_stack(
        [center[0] + radius * np.cos(angles), center[1] + radius * np.sin(angles)]
    )


def star(rng: np.random.Generator, center, outer: float, inner: float, points: int) -> np.ndarray:
    """A concave star of ``points`` spikes."""
    angles = np.linspace(0.0, 2 * np.pi, 2 * points, endpoint=False) + rng.uniform(0, 1)
    radii = np.where(np.arange(2 * points) % 2 == 0, outer, inner)
    return np.column_stack(
        [center[0] + radii * np.cos(angles), center[1] + radii * np.sin(angles)]
    )


def random_obstacles(rng: np.random.Generator, count: int, size: float = 10.0) -> list:
    """Convex polygons and stars spread over a ``size`` x ``size`` square."""
    out = []
    for k in range(count):
        center = rng.uniform(0.0, size, 2)
        if k % 3 == 2:
            out.append(star(rng, center, rng.uniform(0.4, 1.0), rng.uniform(0.1, 0.35), int(rng.integers(3, 7))))
        else:
            out.append(convex(rng, center, rng.uniform(0.1, 1.0), int(rng.integers(3, 9))))
    return out


def place(footprint: np.ndarray, pose) -> np.ndarray:
    """``footprint`` at ``pose`` (x, y, yaw)."""
    x, y, yaw = pose
    c, s = np.cos(yaw), np.sin(yaw)
    return np.column_stack(
        [c * footprint[:, 0] - s * footprint[:, 1] + x, s * footprint[:, 0] + c * footprint[:, 1] + y]
    )


ROBOT = np.array([(0.5, -0.2), (0.5, 0.2), (0.4, 0.3), (-0.4, 0.3), (-0.5, 0.2), (-0.5, -0.2), (-0.4, -0.3), (0.4, -0.3)])
"""An 8-gon: a 1.0 m x 0.6 m rectangle with its corners cut by 0.1 m."""
