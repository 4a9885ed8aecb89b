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

mod boxtree;
pub mod convex;
pub mod decompose;
pub mod point_query;
pub mod polygon;
mod primitives;
pub mod query;
pub mod sat;
pub mod shape;
pub mod toi;

pub use convex::ConvexPolygon;
pub use point_query::{contains_point, distance_to_point};
pub use polygon::{Convexity, PolygonError, SimplePolygon};
pub(crate) use primitives::unit;
pub use primitives::{cross, length_tolerance, Aabb, Point, Vector, REL_TOLERANCE};
pub use query::{intersects, query, Contact};
pub use sat::Separation;
pub use shape::{Circle, CompoundPolygon, PolygonBuilder, Shape, ShapeError};
pub use toi::{body_radius, time_of_impact, Impact, Motion, CONVERGED, MAX_ADVANCEMENT_STEPS};
