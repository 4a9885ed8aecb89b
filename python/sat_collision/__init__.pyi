"""Type stubs of ``sat_collision``: exact 2-D collision checks of a robot
footprint against obstacles (see ``__init__.py`` for the documentation)."""

from typing import Any, Iterable, NamedTuple, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str
__all__ = ["Obstacles", "Check", "PathCheck", "Impact", "__version__"]

# A polygon: an (M, 2) array-like of points, or a shapely Polygon /
# MultiPolygon / LinearRing (shapely is not required).
Polygon = Union[npt.ArrayLike, Any]
# Poses: an (N, 3) array-like of x, y, yaw.
Poses = npt.ArrayLike

class Check(NamedTuple):
    colliding: npt.NDArray[np.bool_]
    clearance: npt.NDArray[np.float64]
    depth: npt.NDArray[np.float64]
    mtv: npt.NDArray[np.float64]
    obstacle: npt.NDArray[np.int64]

class PathCheck(NamedTuple):
    colliding: bool
    segment: Optional[int]
    time: Optional[float]
    obstacle: Optional[int]
    pose: Optional[npt.NDArray[np.float64]]
    exact: bool
    distance: Optional[float]
    clearance: npt.NDArray[np.float64]

class Impact(NamedTuple):
    time: float
    obstacle: int
    pose: npt.NDArray[np.float64]
    exact: bool

class Obstacles:
    def __init__(
        self, polygons: Iterable[Polygon], circles: Optional[npt.ArrayLike] = None
    ) -> None: ...
    @classmethod
    def from_coordinates(
        cls,
        coords: npt.ArrayLike,
        index: npt.ArrayLike,
        circles: Optional[npt.ArrayLike] = None,
    ) -> "Obstacles": ...
    def __len__(self) -> int: ...
    def check(
        self,
        footprint: Polygon,
        poses: Poses,
        padding: float = 0.0,
        threads: int = 1,
    ) -> Check: ...
    def collides(
        self,
        footprint: Polygon,
        poses: Poses,
        padding: float = 0.0,
        threads: int = 1,
    ) -> npt.NDArray[np.bool_]: ...
    def check_path(
        self,
        footprint: Polygon,
        poses: Poses,
        times: Optional[Sequence[float] | npt.ArrayLike] = None,
        padding: float = 0.0,
    ) -> PathCheck: ...
    def time_to_collision(
        self,
        footprint: Polygon,
        pose: npt.ArrayLike,
        twist: npt.ArrayLike,
        horizon: float,
        padding: float = 0.0,
    ) -> Optional[Impact]: ...
