//! `nav2_msgs/Costmap` as the squares of its obstacle cells, in the
//! costmap's frame.
//!
//! nav2 main's costmap source (`nav2_collision_monitor/src/costmap.cpp`,
//! navigation2 #5642) takes a cell as an obstacle when its cost is at or
//! above `cost_threshold` and below `NO_INFORMATION` (255), or is 255 and
//! `treat_unknown_as_obstacle` is set, and then keeps only the cell's
//! centre as a point. Here an obstacle cell is the square it covers
//! ([`costmap_cells`]): a lethal cell whose centre lies outside a zone but
//! whose area reaches into it is seen, where nav2 misses it by up to half a
//! cell's diagonal. The origin's heading is applied (nav2 ignores the
//! orientation; costmaps publish none, and then both agree).

use crate::geometry::{Point, Shape, MAX_COORDINATE};
use crate::limits::{MAX_COSTMAP_CELLS, MAX_COSTMAP_OBSTACLE_CELLS};

/// nav2's `NO_INFORMATION` cost: an unknown cell.
pub const NO_INFORMATION: u8 = 255;

/// nav2's default `cost_threshold`: `INSCRIBED_INFLATED_OBSTACLE` (253),
/// so lethal (254) and inscribed cells are obstacles.
pub const DEFAULT_COST_THRESHOLD: u8 = 253;

/// A costmap, borrowed from its message (`nav2_msgs/Costmap`; the fields
/// the cells need).
#[derive(Clone, Copy, Debug)]
pub struct Costmap<'a> {
    /// Metres per cell (`metadata.resolution`).
    pub resolution: f32,
    /// Cells along the grid's x axis (`metadata.size_x`).
    pub size_x: u32,
    /// Cells along the grid's y axis (`metadata.size_y`).
    pub size_y: u32,
    /// Position of cell (0, 0)'s outer corner in the message's frame
    /// (`metadata.origin.position`: x, y).
    pub origin: [f64; 2],
    /// `metadata.origin.orientation` as x, y, z, w: its heading (yaw) turns
    /// the grid about the origin.
    pub orientation: [f64; 4],
    /// The costs, row-major from (0, 0): cell (x, y) is `data[y * size_x + x]`.
    pub data: &'a [u8],
}

/// Which costs are obstacles: nav2's `cost_threshold` and
/// `treat_unknown_as_obstacle`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostRule {
    /// A known cost at or above it is an obstacle.
    pub threshold: u8,
    /// An unknown cell ([`NO_INFORMATION`]) is an obstacle.
    pub unknown_is_obstacle: bool,
}

impl Default for CostRule {
    /// nav2's defaults: 253, unknown cells are obstacles.
    fn default() -> Self {
        CostRule {
            threshold: DEFAULT_COST_THRESHOLD,
            unknown_is_obstacle: true,
        }
    }
}

impl CostRule {
    /// Whether a cell of `cost` is an obstacle (nav2's rule, `costmap.cpp`).
    pub fn is_obstacle(&self, cost: u8) -> bool {
        if cost == NO_INFORMATION {
            self.unknown_is_obstacle
        } else {
            cost >= self.threshold
        }
    }
}

/// Why a costmap gives no cells (the source becomes invalid: it says
/// nothing, not "no obstacle").
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CostmapError {
    /// `resolution` is NaN, infinite, zero or negative.
    #[error("the resolution is not finite and positive")]
    InvalidResolution,
    /// More than [`MAX_COSTMAP_CELLS`] cells (`size_x * size_y`).
    #[error("more than {MAX_COSTMAP_CELLS} cells")]
    TooManyCells,
    /// `data` does not hold `size_x * size_y` costs.
    #[error("the data's length is not size_x * size_y")]
    SizeMismatch,
    /// The origin's position or orientation is not finite, or the
    /// orientation is the zero quaternion.
    #[error("the origin is not finite or its orientation is not a rotation")]
    InvalidOrigin,
    /// The grid reaches beyond the coordinates the engine takes
    /// ([`MAX_COORDINATE`]).
    #[error("the grid reaches beyond the coordinate limit")]
    OutOfRange,
    /// More than [`MAX_COSTMAP_OBSTACLE_CELLS`] obstacle cells.
    #[error("more than {MAX_COSTMAP_OBSTACLE_CELLS} obstacle cells")]
    TooManyObstacleCells,
}

impl CostmapError {
    /// The stable snake_case spelling (logs, statuses).
    pub const fn as_str(self) -> &'static str {
        match self {
            CostmapError::InvalidResolution => "invalid_resolution",
            CostmapError::TooManyCells => "too_many_cells",
            CostmapError::SizeMismatch => "size_mismatch",
            CostmapError::InvalidOrigin => "invalid_origin",
            CostmapError::OutOfRange => "out_of_range",
            CostmapError::TooManyObstacleCells => "too_many_obstacle_cells",
        }
    }
}

/// The grid's frame in the message's: where cell (0, 0)'s corner is and
/// the directions of its x and y axes, one cell long.
#[derive(Clone, Copy, Debug)]
struct Grid {
    origin: Point,
    step_x: [f64; 2],
    step_y: [f64; 2],
}

impl Grid {
    /// The corner (`i`, `j`) of the lattice (cell (i, j)'s lower corner).
    fn corner(&self, i: u32, j: u32) -> Point {
        let (i, j) = (f64::from(i), f64::from(j));
        Point::new(
            self.origin.x + i * self.step_x[0] + j * self.step_y[0],
            self.origin.y + i * self.step_x[1] + j * self.step_y[1],
        )
    }
}

/// The grid of `map` after the checks that need no cell.
fn grid(map: &Costmap<'_>) -> Result<Grid, CostmapError> {
    let resolution = f64::from(map.resolution);
    if !(resolution.is_finite() && resolution > 0.0) {
        return Err(CostmapError::InvalidResolution);
    }
    let cells = u64::from(map.size_x) * u64::from(map.size_y);
    if cells > MAX_COSTMAP_CELLS as u64 {
        return Err(CostmapError::TooManyCells);
    }
    if map.data.len() as u64 != cells {
        return Err(CostmapError::SizeMismatch);
    }
    let [qx, qy, qz, qw] = map.orientation;
    let norm = (qx * qx + qy * qy + qz * qz + qw * qw).sqrt();
    if !(map.origin.iter().all(|v| v.is_finite()) && norm.is_finite() && norm > 0.0) {
        return Err(CostmapError::InvalidOrigin);
    }
    // The heading of the rotation (its yaw, ZYX), from the normalised
    // quaternion: the direction the rotation takes the x axis to, in the
    // plane. A planar rotation (x = y = 0) gives exactly its angle.
    let (qx, qy, qz, qw) = (qx / norm, qy / norm, qz / norm, qw / norm);
    let yaw = (2.0 * (qw * qz + qx * qy)).atan2(1.0 - 2.0 * (qy * qy + qz * qz));
    let (sin, cos) = yaw.sin_cos();
    let grid = Grid {
        origin: Point::new(map.origin[0], map.origin[1]),
        step_x: [resolution * cos, resolution * sin],
        step_y: [-resolution * sin, resolution * cos],
    };
    // The grid's four corners bound every cell's: each is inside the limit
    // when they are (the grid is convex).
    let far = [
        grid.corner(0, 0),
        grid.corner(map.size_x, 0),
        grid.corner(0, map.size_y),
        grid.corner(map.size_x, map.size_y),
    ];
    if far
        .iter()
        .any(|p| !(p.x.abs() <= MAX_COORDINATE && p.y.abs() <= MAX_COORDINATE))
    {
        return Err(CostmapError::OutOfRange);
    }
    Ok(grid)
}

/// The obstacle cells of `map` under `rule`, each the square it covers in
/// the message's frame (four vertices, counter-clockwise), appended to
/// `out` with the cell's index in `data` (`y * size_x + x`), row by row.
/// Returns how many were appended; on an error `out` is left as it was.
///
/// Every size is checked before a cell is read: the number of cells, the
/// data's length, the resolution, the origin, the grid's extent, then the
/// number of obstacle cells (counted without allocating).
pub fn costmap_cells(
    map: &Costmap<'_>,
    rule: &CostRule,
    out: &mut Vec<(usize, Shape)>,
) -> Result<usize, CostmapError> {
    let grid = grid(map)?;
    let obstacles = map.data.iter().filter(|&&c| rule.is_obstacle(c)).count();
    if obstacles > MAX_COSTMAP_OBSTACLE_CELLS {
        return Err(CostmapError::TooManyObstacleCells);
    }
    let start = out.len();
    out.reserve(obstacles);
    let width = map.size_x as usize;
    for (index, _) in map
        .data
        .iter()
        .enumerate()
        .filter(|(_, &c)| rule.is_obstacle(c))
    {
        // index < size_x * size_y <= MAX_COSTMAP_CELLS < 2^32: both fit.
        let (i, j) = ((index % width) as u32, (index / width) as u32);
        let square = [
            grid.corner(i, j),
            grid.corner(i + 1, j),
            grid.corner(i + 1, j + 1),
            grid.corner(i, j + 1),
        ];
        // A square of positive size within the coordinate limit is a valid
        // convex polygon; one too small for the engine's tolerance (a
        // resolution of about 1e-9 m and less) is refused rather than lost.
        match Shape::polygon(&square) {
            Ok(shape) => out.push((index, shape)),
            Err(_) => {
                out.truncate(start);
                return Err(CostmapError::InvalidResolution);
            }
        }
    }
    Ok(obstacles)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{contains_point, intersects};

    /// A `size_x` x `size_y` map of free cells, 0.5 m each, its origin at
    /// (1, 2), not turned.
    fn map(size_x: u32, size_y: u32, data: &[u8]) -> Costmap<'_> {
        Costmap {
            resolution: 0.5,
            size_x,
            size_y,
            origin: [1.0, 2.0],
            orientation: [0.0, 0.0, 0.0, 1.0],
            data,
        }
    }

    fn cells(map: &Costmap<'_>, rule: &CostRule) -> Result<Vec<(usize, Shape)>, CostmapError> {
        let mut out = Vec::new();
        costmap_cells(map, rule, &mut out).map(|n| {
            assert_eq!(n, out.len());
            out
        })
    }

    fn square(points: [(f64, f64); 4]) -> Shape {
        Shape::polygon(&points.map(|(x, y)| Point::new(x, y))).expect("a square")
    }

    #[test]
    fn nav2s_rule_of_costs() {
        let rule = CostRule::default();
        assert!(!rule.is_obstacle(252));
        assert!(rule.is_obstacle(253) && rule.is_obstacle(254));
        assert!(rule.is_obstacle(NO_INFORMATION));
        let known = CostRule {
            threshold: 0,
            unknown_is_obstacle: false,
        };
        // nav2: `cost >= threshold && cost < NO_INFORMATION`, so a
        // threshold of 0 takes every known cell but never an unknown one.
        assert!(known.is_obstacle(0) && known.is_obstacle(254));
        assert!(!known.is_obstacle(NO_INFORMATION));
    }

    #[test]
    fn an_obstacle_cell_is_the_square_it_covers() {
        // Row-major: cell (x = 2, y = 1) of a 3 x 2 map is index 5.
        let data = [0, 0, 0, 0, 100, 254];
        let found = cells(&map(3, 2, &data), &CostRule::default()).expect("cells");
        assert_eq!(found.len(), 1);
        let (index, shape) = &found[0];
        assert_eq!(*index, 5);
        let aabb = shape.aabb();
        assert_eq!((aabb.min.x, aabb.min.y), (2.0, 2.5));
        assert_eq!((aabb.max.x, aabb.max.y), (2.5, 3.0));
        // Its corner and its edges belong to it (touching counts): a zone
        // that only reaches its corner sees it; nav2's centre point (2.25,
        // 2.75) is 0.35 m from that corner, outside such a zone.
        let corner_zone = square([(1.5, 2.0), (2.0, 2.0), (2.0, 2.5), (1.5, 2.5)]);
        assert!(intersects(&corner_zone, shape, 0.0));
        assert!(!contains_point(&corner_zone, Point::new(2.25, 2.75)));
        let apart = square([(1.5, 2.0), (1.99, 2.0), (1.99, 2.49), (1.5, 2.49)]);
        assert!(!intersects(&apart, shape, 0.0));
    }

    #[test]
    fn the_threshold_and_unknown_cells_follow_the_rule() {
        let data = [252, 253, 254, 255];
        let count = |rule| cells(&map(4, 1, &data), &rule).expect("cells").len();
        assert_eq!(count(CostRule::default()), 3);
        let lethal_only = CostRule {
            threshold: 254,
            unknown_is_obstacle: false,
        };
        assert_eq!(count(lethal_only), 1);
    }

    #[test]
    fn the_origins_heading_turns_the_grid() {
        // A quarter turn about z: the grid's x axis is the frame's y.
        let half = std::f64::consts::FRAC_1_SQRT_2;
        let data = [0, 254];
        let turned = Costmap {
            origin: [0.0, 0.0],
            orientation: [0.0, 0.0, half, half],
            ..map(2, 1, &data)
        };
        let found = cells(&turned, &CostRule::default()).expect("cells");
        let aabb = found[0].1.aabb();
        let near = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(near(aabb.min.x, -0.5) && near(aabb.max.x, 0.0), "{aabb:?}");
        assert!(near(aabb.min.y, 0.5) && near(aabb.max.y, 1.0), "{aabb:?}");
    }

    #[test]
    fn nav2s_points_are_inside_the_squares() {
        // Every centre nav2 would take is inside (or on) the square taken
        // here: this source sees all nav2 sees, and the cells' areas more.
        let data: Vec<u8> = (0..64u32)
            .map(|i| if i % 3 == 0 { 254 } else { 0 })
            .collect();
        let turned = Costmap {
            orientation: [0.0, 0.0, 0.3f64.sin(), 0.3f64.cos()],
            ..map(8, 8, &data)
        };
        for (index, shape) in cells(&turned, &CostRule::default()).expect("cells") {
            let (i, j) = ((index % 8) as f64 + 0.5, (index / 8) as f64 + 0.5);
            let (sin, cos) = 0.6f64.sin_cos();
            let centre = Point::new(
                1.0 + 0.5 * (i * cos - j * sin),
                2.0 + 0.5 * (i * sin + j * cos),
            );
            assert!(contains_point(&shape, centre), "cell {index}");
        }
    }

    #[test]
    fn malformed_maps_are_refused_and_leave_out_as_it_was() {
        let rule = CostRule::default();
        let data = [254u8; 4];
        let cases: [(Costmap<'_>, CostmapError); 9] = [
            (map(3, 1, &data), CostmapError::SizeMismatch),
            (
                Costmap {
                    resolution: 0.0,
                    ..map(2, 2, &data)
                },
                CostmapError::InvalidResolution,
            ),
            (
                Costmap {
                    resolution: f32::NAN,
                    ..map(2, 2, &data)
                },
                CostmapError::InvalidResolution,
            ),
            (
                Costmap {
                    resolution: -0.5,
                    ..map(2, 2, &data)
                },
                CostmapError::InvalidResolution,
            ),
            // A 100,000 x 100,000 header: refused before the data are
            // compared or read.
            (map(100_000, 100_000, &data), CostmapError::TooManyCells),
            (
                Costmap {
                    origin: [f64::NAN, 0.0],
                    ..map(2, 2, &data)
                },
                CostmapError::InvalidOrigin,
            ),
            (
                Costmap {
                    orientation: [0.0; 4],
                    ..map(2, 2, &data)
                },
                CostmapError::InvalidOrigin,
            ),
            (
                Costmap {
                    orientation: [0.0, 0.0, f64::INFINITY, 1.0],
                    ..map(2, 2, &data)
                },
                CostmapError::InvalidOrigin,
            ),
            (
                Costmap {
                    origin: [2.0 * MAX_COORDINATE, 0.0],
                    ..map(2, 2, &data)
                },
                CostmapError::OutOfRange,
            ),
        ];
        for (map, error) in cases {
            let mut out = vec![(7, square([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]))];
            assert_eq!(costmap_cells(&map, &rule, &mut out), Err(error));
            assert_eq!(out.len(), 1, "{error:?}");
        }
        let lethal = vec![254u8; MAX_COSTMAP_OBSTACLE_CELLS + 1];
        let size = u32::try_from(lethal.len()).expect("fits");
        assert_eq!(
            cells(&map(size, 1, &lethal), &rule).err(),
            Some(CostmapError::TooManyObstacleCells)
        );
    }
}
