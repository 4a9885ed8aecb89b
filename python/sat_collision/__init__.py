"""Exact 2-D collision checks of a robot footprint against obstacles.

The Separating Axis Theorem engine of the ``sat_collision`` collision monitor,
without ROS: a footprint (a polygon, convex or concave) at many poses against
polygons and circles, with NumPy arrays in and out.

>>> import numpy as np
>>> from sat_collision import Obstacles
>>> obstacles = Obstacles([[(2, -1), (3, -1), (3, 1), (2, 1)]], circles=[(0, 3, 0.5)])
>>> robot = [(-0.5, -0.3), (0.5, -0.3), (0.5, 0.3), (-0.5, 0.3)]
>>> result = obstacles.check(robot, np.array([[0.0, 0.0, 0.0], [1.6, 0.0, 0.0]]))
>>> result.colliding.tolist(), result.clearance.round(3).tolist()
([False, True], [1.5, 0.0])
>>> result.depth.round(3).tolist(), result.obstacle.tolist()
([0.0, 0.1], [0, 0])
>>> float(result.mtv[1, 0].round(3))  # out of the wall: 0.1 m back along x
-0.1

Conventions: metres, seconds, radians; a pose is ``(x, y, yaw)`` of the robot
frame in the obstacles' frame; touching counts as colliding. Obstacles are
numbered as given: ``polygons`` first, then ``circles`` (so obstacle
``len(polygons) + j`` is circle ``j``); a shapely MultiPolygon is one obstacle.
Every call that loops releases the GIL.
"""

from __future__ import annotations

from typing import Any, Iterable, NamedTuple, Optional

import numpy as np

from ._core import Index as _Index
from ._core import __version__

__all__ = ["Obstacles", "Check", "PathCheck", "Impact", "__version__"]


class Check(NamedTuple):
    """The answer of :meth:`Obstacles.check`, one entry per pose."""

    colliding: np.ndarray
    """``(N,)`` bool: the footprint touches or overlaps an obstacle."""
    clearance: np.ndarray
    """``(N,)`` float: distance (m) to the nearest obstacle; 0 when colliding,
    ``inf`` when there is none."""
    depth: np.ndarray
    """``(N,)`` float: penetration depth (m) into the deepest obstacle; 0 when
    clear or just touching."""
    mtv: np.ndarray
    """``(N, 2)`` float: the translation that moves the footprint out of the
    deepest obstacle (``|mtv| == depth``); zero when clear."""
    obstacle: np.ndarray
    """``(N,)`` int: the deepest obstacle when colliding, else the nearest;
    -1 when there is none."""


class PathCheck(NamedTuple):
    """The answer of :meth:`Obstacles.check_path`."""

    colliding: bool
    """The footprint touches an obstacle somewhere along the path."""
    segment: Optional[int]
    """The pose that starts the segment in which contact begins (0: the first
    pose already collides); ``None`` when clear."""
    time: Optional[float]
    """When contact begins, from the first pose (s; without ``times``, poses
    are one second apart, so this is a fractional pose index)."""
    obstacle: Optional[int]
    """The obstacle touched first."""
    pose: Optional[np.ndarray]
    """``(3,)``: the pose ``(x, y, yaw)`` at contact."""
    exact: bool
    """``time`` is the first contact (within 1e-12 of the coordinates'
    scale); when False (a turning segment whose search hit its step cap) it is
    a lower bound: never late."""
    distance: Optional[float]
    """Path length (m) travelled by the robot's origin until contact."""
    clearance: np.ndarray
    """``(N,)`` float: each pose's clearance, as :meth:`Obstacles.check`."""


class Impact(NamedTuple):
    """The answer of :meth:`Obstacles.time_to_collision`."""

    time: float
    """Time (s) of first contact, in ``[0, horizon]``; 0 when already touching."""
    obstacle: int
    """The obstacle touched."""
    pose: np.ndarray
    """``(3,)``: the pose ``(x, y, yaw)`` at contact."""
    exact: bool
    """``time`` is the first contact (within tolerance); when False it is a
    lower bound (never late)."""


def _is_geometry(obj: Any) -> bool:
    return hasattr(obj, "geom_type") and hasattr(obj, "is_empty")


def _rings(geometry: Any, what: str) -> list:
    """The outlines of a shapely Polygon, MultiPolygon or LinearRing."""
    kind = geometry.geom_type
    if geometry.is_empty:
        raise ValueError(f"{what}: the shapely {kind} is empty")
    if kind == "Polygon":
        if len(geometry.interiors):
            raise ValueError(f"{what}: a polygon with holes is not supported")
        return [np.asarray(geometry.exterior.coords, dtype=np.float64)[:, :2]]
    if kind == "MultiPolygon":
        return [ring for part in geometry.geoms for ring in _rings(part, what)]
    if kind == "LinearRing":
        return [np.asarray(geometry.coords, dtype=np.float64)[:, :2]]
    raise ValueError(f"{what}: a shapely {kind} is not a polygon")


def _array(obj: Any, what: str, columns: int) -> np.ndarray:
    """``obj`` as a float64 ``(M, columns)`` array."""
    try:
        array = np.asarray(obj, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what}: expected an (M, {columns}) array of numbers ({e})") from None
    if array.ndim != 2 or array.shape[1] != columns:
        raise ValueError(
            f"{what}: expected an (M, {columns}) array of numbers, got shape {array.shape}"
        )
    return array


def _vector(obj: Any, what: str, size: int) -> np.ndarray:
    """``obj`` as a float64 ``(size,)`` array."""
    try:
        array = np.asarray(obj, dtype=np.float64)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what}: expected {size} numbers ({e})") from None
    if array.shape != (size,):
        raise ValueError(f"{what}: expected {size} numbers, got shape {array.shape}")
    return array


def _footprint(footprint: Any) -> np.ndarray:
    """A footprint: an ``(K, 2)`` array-like or a shapely polygon."""
    if _is_geometry(footprint):
        rings = _rings(footprint, "footprint")
        if len(rings) != 1:
            raise ValueError("footprint: a MultiPolygon of several parts is not one footprint")
        return rings[0]
    return _array(footprint, "footprint", 2)


def _number(value: Any, what: str) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{what}: expected a number, got {type(value).__name__}") from None


def _threads(threads: Any) -> int:
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)):
        raise TypeError(f"threads: expected an int, got {type(threads).__name__}")
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    return int(threads)


class Obstacles:
    """Polygons and circles, validated and indexed once for any number of checks.

    ``polygons``: a sequence of polygons, each an ``(M, 2)`` array-like of
    points in order (either orientation; the last point may repeat the first),
    a shapely ``Polygon`` (no holes), ``MultiPolygon`` (one obstacle of several
    parts) or ``LinearRing``. Convex or concave: a concave polygon is decomposed
    into convex pieces, as the ROS node does. ``circles``: a ``(C, 3)``
    array-like of ``cx, cy, r``.

    Raises ``ValueError`` naming the first bad obstacle by its number and
    saying why: a NaN, infinite or out-of-range coordinate, fewer than 3
    distinct points, all points on a line, a self-intersection (with the two
    edges), too many vertices, a radius not > 0, or not an array of points.

    Obstacles are numbered ``0 .. len(polygons) - 1``, then the circles: every
    ``obstacle`` in an answer is such a number.
    """

    __slots__ = ("_index", "_polygons", "_circles")

    def __init__(self, polygons: Iterable[Any], circles: Optional[Any] = None) -> None:
        if _is_geometry(polygons) or isinstance(polygons, (str, bytes)):
            raise TypeError("polygons: expected a sequence of polygons (wrap a single one in a list)")
        try:
            items = list(polygons)
        except TypeError:
            raise TypeError(
                f"polygons: expected a sequence of polygons, got {type(polygons).__name__}"
            ) from None
        arrays = []
        owners = []
        split = False
        for i, item in enumerate(items):
            what = f"obstacle {i}"
            if _is_geometry(item):
                rings = _rings(item, what)
                split |= len(rings) > 1
                arrays.extend(rings)
                owners.extend([i] * len(rings))
            else:
                arrays.append(_array(item, what, 2))
                owners.append(i)
        circle_array = None
        if circles is not None:
            circle_array = _array(
                circles if np.size(circles) else np.empty((0, 3)), "circles", 3
            )
            owners.extend(range(len(items), len(items) + len(circle_array)))
        owner_array = np.asarray(owners, dtype=np.int64) if split else None
        self._index = _Index(arrays, circle_array, owner_array)
        self._polygons = len(items)
        self._circles = 0 if circle_array is None else len(circle_array)

    @classmethod
    def from_coordinates(
        cls, coords: Any, index: Any, circles: Optional[Any] = None
    ) -> "Obstacles":
        """Obstacles from ``shapely.get_coordinates(geometries, return_index=True)``.

        ``coords``: ``(P, 2)`` points; ``index``: ``(P,)`` the geometry each
        belongs to. Obstacle ``g`` is geometry ``g`` (the answers index back
        into ``geometries``); each must be one ring (a polygon without holes).
        """
        coords = _array(coords, "coords", 2)
        try:
            index = np.asarray(index, dtype=np.int64)
        except (TypeError, ValueError) as e:
            raise ValueError(f"index: expected integers ({e})") from None
        if index.shape != (len(coords),):
            raise ValueError(f"index: one per point ({len(coords)}), got shape {index.shape}")
        if len(index) and index.min() < 0:
            raise ValueError("index: geometry numbers must be >= 0")
        count = int(index.max()) + 1 if len(index) else 0
        order = np.argsort(index, kind="stable")
        starts = np.searchsorted(index[order], np.arange(count + 1))
        polygons = []
        for g in range(count):
            points = coords[order[starts[g] : starts[g + 1]]]
            if len(points) == 0:
                raise ValueError(f"obstacle {g}: no coordinates (an empty geometry)")
            closes = np.flatnonzero((points == points[0]).all(axis=1))
            if len(closes) > 2 or (len(closes) == 2 and closes[1] != len(points) - 1):
                raise ValueError(
                    f"obstacle {g}: several rings (holes or parts): "
                    "pass the shapely geometries instead"
                )
            polygons.append(points)
        return cls(polygons, circles)

    def __len__(self) -> int:
        """Number of obstacles: polygons and circles."""
        return self._polygons + self._circles

    def __repr__(self) -> str:
        return f"Obstacles({self._polygons} polygons, {self._circles} circles)"

    def check(
        self, footprint: Any, poses: Any, padding: float = 0.0, threads: int = 1
    ) -> Check:
        """Checks ``footprint`` at each of ``poses``: colliding, clearance, depth, MTV.

        ``footprint``: ``(K, 2)`` points in the robot's frame (convex or
        concave), or a shapely polygon; ``poses``: ``(N, 3)`` of ``x, y, yaw``;
        ``padding`` (m) inflates the footprint (rounded corners). Exact: the
        clearance to 1e-12 of the coordinates' scale; for a concave obstacle
        the depth is that of its deepest convex piece (a lower bound of what
        separates the whole). ``threads`` > 1 cuts a batch of at least 4,096
        poses among that many threads (the answers do not depend on it; the
        default, 1, leaves the cores to your own threads: every call
        releases the GIL). Returns a :class:`Check` of arrays.
        """
        colliding, clearance, depth, mtv, obstacle = self._index.check(
            _footprint(footprint),
            _array(poses, "poses", 3),
            _number(padding, "padding"),
            _threads(threads),
        )
        return Check(colliding, clearance, depth, mtv, obstacle)

    def collides(
        self, footprint: Any, poses: Any, padding: float = 0.0, threads: int = 1
    ) -> np.ndarray:
        """Only the ``colliding`` array of :meth:`check` (touching counts): faster.

        ``threads`` as in :meth:`check`.
        """
        return self._index.collides(
            _footprint(footprint),
            _array(poses, "poses", 3),
            _number(padding, "padding"),
            _threads(threads),
        )

    def check_path(
        self, footprint: Any, poses: Any, times: Optional[Any] = None, padding: float = 0.0
    ) -> PathCheck:
        """The first contact along a path, continuous between its poses.

        Between consecutive poses the robot's origin moves in a straight line
        while its yaw turns the short way, both linear in time (the ROS node's
        ``check_path``); ``times``: ``(N,)`` strictly increasing seconds, one
        per pose (default: one second apart). Exact where a segment does not
        turn, never late where it does. Returns a :class:`PathCheck`.
        """
        time_array = None
        if times is not None:
            time_array = np.asarray(times, dtype=np.float64)
            if time_array.ndim != 1:
                raise ValueError(f"times: expected an (N,) array, got shape {time_array.shape}")
        contact, clearance = self._index.check_path(
            _footprint(footprint),
            _array(poses, "poses", 3),
            time_array,
            _number(padding, "padding"),
        )
        if contact is None:
            return PathCheck(False, None, None, None, None, True, None, clearance)
        segment, time, obstacle, pose, exact, distance = contact
        return PathCheck(True, segment, time, obstacle, np.array(pose), exact, distance, clearance)

    def time_to_collision(
        self, footprint: Any, pose: Any, twist: Any, horizon: float, padding: float = 0.0
    ) -> Optional[Impact]:
        """The first contact of ``footprint`` moving from ``pose`` at a constant ``twist``.

        ``twist``: ``(vx, vy, wz)``, the velocity in the robot's (body) frame
        (m/s) and the turn rate (rad/s): the robot drives an arc. Looks up to
        ``horizon`` seconds ahead. Exact for a translation; with rotation the
        contact is found within tolerance (``exact``), never late. Returns an
        :class:`Impact`, or ``None`` when nothing is touched within ``horizon``.
        """
        hit = self._index.time_to_collision(
            _footprint(footprint),
            _vector(pose, "pose", 3),
            _vector(twist, "twist", 3),
            _number(horizon, "horizon"),
            _number(padding, "padding"),
        )
        if hit is None:
            return None
        time, obstacle, at, exact = hit
        return Impact(time, obstacle, np.array(at), exact)
