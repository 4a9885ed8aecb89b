"""Type stubs of ``sat_collision._core``, the Rust extension module.

Use the package's API (:class:`sat_collision.Obstacles`) rather than this
module: it takes float64 arrays only, and answers with plain tuples.
"""

from typing import Optional, Tuple

import numpy as np
import numpy.typing as npt

__version__: str

_PathContact = Tuple[int, float, int, Tuple[float, float, float], bool, float]
_Hit = Tuple[float, int, Tuple[float, float, float], bool]

class Index:
    """Obstacles validated and indexed once (the library's ObstacleIndex)."""

    def __new__(
        cls,
        polygons: list[npt.NDArray[np.float64]],
        circles: Optional[npt.NDArray[np.float64]] = None,
        owners: Optional[npt.NDArray[np.int64]] = None,
    ) -> "Index": ...
    def __len__(self) -> int: ...
    def check(
        self,
        footprint: npt.NDArray[np.float64],
        poses: npt.NDArray[np.float64],
        padding: float = 0.0,
        threads: int = 1,
    ) -> Tuple[
        npt.NDArray[np.bool_],
        npt.NDArray[np.float64],
        npt.NDArray[np.float64],
        npt.NDArray[np.float64],
        npt.NDArray[np.int64],
    ]: ...
    def collides(
        self,
        footprint: npt.NDArray[np.float64],
        poses: npt.NDArray[np.float64],
        padding: float = 0.0,
        threads: int = 1,
    ) -> npt.NDArray[np.bool_]: ...
    def check_path(
        self,
        footprint: npt.NDArray[np.float64],
        poses: npt.NDArray[np.float64],
        times: Optional[npt.NDArray[np.float64]] = None,
        padding: float = 0.0,
    ) -> Tuple[Optional[_PathContact], npt.NDArray[np.float64]]: ...
    def time_to_collision(
        self,
        footprint: npt.NDArray[np.float64],
        pose: npt.NDArray[np.float64],
        twist: npt.NDArray[np.float64],
        horizon: float,
        padding: float = 0.0,
    ) -> Optional[_Hit]: ...
