//! Limits on what one input message may ask of the node.
//!
//! Each bounds the memory and time one sender can cost the node; a message
//! over a limit is refused as a whole before its contents are copied, and
//! the report names the limit in its status (see the README, "Limits and
//! failure behaviour").

/// Most obstacles in one `obstacles` message (`too_many_obstacles`).
pub const MAX_OBSTACLES_PER_MESSAGE: usize = 10_000;

/// Most vertices, over all obstacles, in one `obstacles` message
/// (`too_many_vertices`). A single polygon has its own limits
/// ([`crate::geometry::polygon::MAX_VERTICES`] and the concave one).
pub const MAX_VERTICES_PER_MESSAGE: usize = 262_144;

/// Most obstacle instances alive at once; an instance with a new id beyond
/// it is refused (`too_many_obstacles`).
pub const MAX_INSTANCES: usize = 1_000;
