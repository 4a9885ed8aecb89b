//! The TF tree: planar transforms by frame and time, with their full 3-D
//! poses beside them, lookups with interpolation, and the fail-safe rules
//! for missing, stale, invalid and conflicting transforms (see [`tree`] for
//! the rules).
//!
//! Pure, like the layers it stands with: time is passed in, nothing is
//! read from ROS. The node feeds it `/tf` and `/tf_static` and looks up
//! the transforms between its inputs' frames.

pub mod interpolate;
pub mod planar;
pub mod transform;
pub mod tree;

pub use interpolate::{interpolate, interpolate_3d, wrap_angle};
pub use planar::{planar_transform, TransformFault, QUATERNION_NORMALIZATION_TOLERANCE};
pub use transform::Transform;
pub use tree::{
    FrameTree, InsertError, LookupFault, CONFLICT_WINDOW, FUTURE_TOLERANCE, MAX_TF_FRAMES,
    MAX_TF_SAMPLES, MESSAGE_FRAMES, TF_HISTORY,
};
