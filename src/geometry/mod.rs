//! Pure 2-D geometry: polygon validation, convexity, the Separating Axis
//! Theorem with minimum translation vector, exact clearance, circles and
//! convex decomposition of simple concave polygons.
//!
//! No ROS, no I/O. Queries between shapes do not allocate.
//!
//! # Tolerance policy
//!
//! This module feeds a safety check, so every shape is a *closed* set and
//! **touching counts as colliding**. Floating-point noise is absorbed by a
//! length tolerance that scales with the magnitude of the coordinates
//! involved, so results do not change when a scene is moved 1e5 m away from
//! the origin:
//!
//! ```text
//! tol = 1e-12 * max(1 m, largest |coordinate| of the shapes involved)
//! ```
//!
//! * Two shapes whose clearance is `<= tol` are reported as colliding with
//!   depth `0` (and a zero MTV): a gap smaller than the coordinates' own
//!   rounding error is never reported as "clear".
//! * While validating a polygon, consecutive points closer than `tol` are
//!   merged, and a vertex is dropped (collinear) only when it, and every
//!   vertex dropped beside it, lies within `tol` of the edge that replaces
//!   them: the boundary never moves by more than `tol`. A polygon whose area is negligible
//!   at that tolerance is rejected as `zero_area`.
//!
//! Units are metres and radians; angles follow REP-103 (counter-clockwise
//! positive, x forward, y left).

//! # Layout
//!
//! One module per operation, as parry lays out its queries; the public
//! surface is re-exported here:
//!
//! | module | operation | public |
//! | --- | --- | --- |
//! | `primitives` | `Point`, `Vector`, `Aabb`, `cross`, the length tolerance | [`Point`], [`Vector`], [`Aabb`], [`cross`], [`length_tolerance`] |
//! | `predicates` | orientation: exact, and the float ones kept where a tolerance is meant | — |
//! | `polygon/` | validation into a [`SimplePolygon`]; `intersection`: edges within `tol` | [`SimplePolygon`], [`PolygonError`], [`Convexity`], the vertex limits |
//! | `convex`, `shape` | convex polygons, shapes, the allocation-free builder | [`ConvexPolygon`], [`Shape`], [`Circle`], [`CompoundPolygon`], [`PolygonBuilder`], [`ShapeError`] |
//! | `decompose/` | convex decomposition of concave polygons | [`details::convex_decomposition`] |
//! | `sat/` | SAT between convex cores; `faces`: the walk over `A − B` and the support search | — |
//! | `query` | the pair queries and their [`Contact`] | [`intersects`], [`query()`], [`Contact`], [`details::penetration`] |
//! | `point_query` | a point against a shape; a padded footprint against a point (an obstacle of zero size: laser and cloud points) | [`distance_to_point`], [`contains_point`], [`point_contact`] |
//! | `hull`, `grow` | the convex hull of points (exact turns); a convex polygon grown by a distance (its sum with an octagon, edges merged) | [`convex_hull`], [`grown_convex`] |
//! | `motion` | rigid motions and their swept boxes | [`Motion`] |
//! | `toi/` | time of impact; `translation`: two polygons in closed form; `point`: a footprint against a point in closed form (a translation); `twist`: the same for a constant turning twist (the point's circle about the centre); two moving shapes (robot against robot: the relative motion when one is still or both translate, else the advancement with both bodies' bounds) | [`time_of_impact`], [`point_time_of_impact`], [`moving_time_of_impact`], [`Impact`] |
//! | `escape` | a motion that never takes a point or an obstacle deeper into a zone (closed-form sufficient conditions) | [`point_escapes`], [`polygon_escapes`] |
//! | `boxtree` | a box tree over edges, for validation and decomposition | — |
//!
//! [`details`] holds what tests, benchmarks and tuning need and a planner
//! does not.

mod boxtree;
mod convex;
mod decompose;
mod escape;
mod grow;
mod hull;
mod motion;
mod point_query;
mod polygon;
mod predicates;
mod primitives;
mod query;
mod sat;
mod shape;
mod toi;

pub use convex::ConvexPolygon;
pub use escape::{point_escapes, polygon_escapes};
pub use grow::{grown_convex, MAX_GROWTH};
pub use hull::convex_hull;
pub use motion::Motion;
pub(crate) use point_query::PointProbe;
pub use point_query::{contains_point, distance_to_point, point_contact};
pub use polygon::{
    Convexity, PolygonError, SimplePolygon, MAX_CONCAVE_VERTICES, MAX_COORDINATE, MAX_VERTICES,
};
pub(crate) use primitives::unit;
pub use primitives::{cross, length_tolerance, Aabb, Point, Vector};
pub use query::{intersects, query, Contact};
pub use shape::{Circle, CompoundPolygon, PolygonBuilder, Shape, ShapeError};
pub(crate) use toi::closed_form_scale;
pub use toi::{moving_time_of_impact, point_time_of_impact, time_of_impact, Impact};

/// The parts of the geometry a planner does not need: single steps of the
/// queries, the convex decomposition, validation without building, and the
/// constants that tune them. Tests, benchmarks and the fuzz targets use them.
pub mod details {
    pub use super::decompose::convex_decomposition;
    pub use super::polygon::classify;
    pub use super::primitives::REL_TOLERANCE;
    pub use super::query::penetration;
    pub use super::toi::{CONVERGED, MAX_ADVANCEMENT_STEPS};
}
