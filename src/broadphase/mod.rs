//! The engine for one footprint against many obstacles: the node's flag
//! and per-message report, a planner's poses and paths, the first contact
//! of a motion, and the offline scene's per-obstacle contacts.
//!
//! [`ObstacleIndex`] owns the obstacles and their boxes, so a query can
//! only be asked about the obstacles it indexed. Every query runs over a
//! [`Span`]: the whole index ([`ObstacleIndex::all`]) or a contiguous run
//! of it ([`ObstacleIndex::span`]: the monitor keeps its obstacles of one
//! frame and stamp together), and names obstacles by their position in the
//! index.
//!
//! | question | query | file |
//! | --- | --- | --- |
//! | does the footprint touch anything? | [`Span::any_collision`] | `report.rs` |
//! | how many obstacles does it touch (up to a limit)? | [`Span::count_colliding`] | `report.rs` |
//! | one outcome per obstacle, and their summary | [`Span::report`] | `report.rs` |
//! | what lies near a region (a path's swept box) | [`Span::near`], then [`Near::nearest`] per pose and [`Near::first_impact`] per segment | `near.rs` |
//! | the first contact along a motion | [`Span::first_impact`] | `impact.rs` |
//! | the `k` earliest contacts of distinct obstacles (a costmap's cells against `min_points`) | [`Span::first_impacts`] with its [`ImpactBuffers`] | `impact.rs` |
//! | each obstacle's contact along a motion | [`Span::impacts`] | `impact.rs` |
//! | a footprint at many poses | [`Span::check_poses`] (stops on a [`Cancel`]) | `poses.rs` |
//! | points as obstacles (scans, clouds): the flag, the report, the first contact, what lies near a path | [`PointSet::count_inside`], [`PointSet::report`], [`PointSet::first_impact`], [`PointSet::near`] | `points.rs` |
//!
//! The boxes (`boxes.rs`) and the index (`index.rs`) are what they share;
//! `cancel.rs` holds [`Cancel`], which the planners' questions watch.
//!
//! # What stays exact
//!
//! [`Span::report`] fills one outcome per obstacle and returns the
//! [`Summary`](crate::model::Summary) that
//! [`summarize`](crate::model::summarize) returns over them. The collision
//! flag, `min_distance` and the nearest obstacle are always **exact**:
//! every obstacle that collides, or that could be the nearest, goes through
//! the exact narrow phase ([`query`](crate::geometry::query())). So does
//! every obstacle whose box is within `exact_range` metres of the padded
//! footprint's box.
//!
//! Any other obstacle is *far*: its outcome has `exact == false` and a
//! cheap answer that is still true, never a guess:
//! * `colliding == false` (certain: its box is farther than the tolerance);
//! * `distance` is a **lower bound** of the clearance: the gap between the
//!   boxes minus the length tolerance;
//! * `axis` is a separating axis (±x or ±y, from the footprint toward the
//!   obstacle), `depth` 0, `mtv` zero, `closest` `None`.
//!
//! With `exact_range = f64::INFINITY` every outcome is exact: `query` on
//! each obstacle, in one pass that does not look at the boxes (the offline
//! scene's report, and the monitor's with its default range).
//! [`Near::nearest`], [`Span::first_impact`] and [`Span::check_poses`]
//! answer exactly too: the boxes only decide which obstacles cannot win.
//!
//! # Why a flat array of boxes (not a grid, a BVH or sort-and-sweep)
//!
//! Obstacles are replaced wholesale by every obstacle message, and the index
//! is queried by one footprint per footprint message. The full report has
//! one entry per obstacle, so each query is Θ(N) whatever the index: a grid
//! or BVH could only shrink the set of obstacles that get the exact
//! narrow phase, and a linear pass over the boxes finds exactly the same set
//! (the threshold is a distance, known after one exact query). What remains
//! is the constant: the boxes live in four contiguous `f64` arrays
//! (structure of arrays), so the pass streams 32 bytes per obstacle with no
//! pointer chasing. Rebuilding is a copy, O(N) with no allocation once the
//! buffers are large enough, against O(N) hashing for a grid (plus choosing a
//! cell size for obstacles of any size) and O(N log N) for a BVH or the sort
//! of sort-and-sweep, which is built for many-against-many pairs. The flag
//! alone ([`Span::any_collision`]) is the same pass without the outcomes.
//! Many poses or a path against one obstacle set measure every box's gap
//! to the region they cover once ([`Span::near`]) and walk the gaps nearest
//! first, sorted only as far as the walks go; a grid would pay off beyond
//! that; see BENCHMARKS.md.
//!
//! # Bounds are honest
//!
//! The padded footprint's box is the footprint's box grown by `padding` on
//! every side, which contains the footprint grown by a disc of that radius,
//! so the gap between boxes never exceeds the true clearance. The length
//! tolerance subtracted from it covers rounding; the threshold that decides
//! which obstacles get the exact query adds it back twice. The tolerance's
//! scale is the span's own (with [`ObstacleIndex::split`], a run's: the
//! monitor's frames), never another frame's coordinates.

mod boxes;
mod cancel;
mod impact;
mod index;
mod near;
mod points;
mod poses;
mod report;

pub(crate) use cancel::uncancelled;
pub use cancel::{Cancel, Cancelled};
pub use impact::ImpactBuffers;
pub use index::{ObstacleIndex, Span};
pub use near::{Near, Nearest};
pub use points::{NearPoints, PointSet, PointsReport};
pub use poses::PoseCheck;

#[cfg(test)]
pub(crate) mod tests;
