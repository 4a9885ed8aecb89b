//! `/tf` and `/tf_static` (tf2_msgs/TFMessage), read in native form into the
//! core's [`TfBuffer`] (its rules: [`crate::node::tf`]).
//!
//! Frame ids are checked like every other frame id (the crate's `text`)
//! before anything is stored, and a message with more transforms than
//! [`MAX_TRANSFORMS_PER_MESSAGE`] is refused unread. A transform whose
//! frame ids cannot be read cannot be attached to a frame: it is dropped
//! and counted. Each transform is kept in 3-D with its planar projection
//! (`frames::Transform`). One with a NaN or a quaternion that is not a rotation is
//! stored as its frame's fault ([`crate::frames`]): lookups through that
//! frame, planar or 3-D, then fail until a good transform arrives. What the tree refused
//! (and the frames it evicted at its limit) is counted in a [`TfIntake`]
//! for the node's throttled warnings. The native reading is
//! `ros::native`'s.

#![forbid(unsafe_code)]

use super::inputs::Arrival;
use super::native;
use crate::node::TfSample;
pub use crate::node::{TfBuffer, TfIntake, MAX_TRANSFORMS_PER_MESSAGE};
use r2r_msg_gen::tf2_msgs__msg__TFMessage as NativeTfMessage;

/// Takes one native TF message received at `arrival` into `buffer`;
/// `is_static` for `/tf_static`.
pub fn take(buffer: &mut TfBuffer, msg: &NativeTfMessage, is_static: bool, arrival: Arrival) {
    let Some(transforms) = native::items_within(&msg.transforms, MAX_TRANSFORMS_PER_MESSAGE) else {
        buffer.oversized(arrival);
        return;
    };
    let samples = transforms.iter().map(|t| {
        let (tr, q) = (&t.transform.translation, &t.transform.rotation);
        TfSample {
            parent: native::frame_id(&t.header.frame_id).ok(),
            child: native::frame_id(&t.child_frame_id).ok(),
            stamp: native::seconds(&t.header.stamp),
            translation: [tr.x, tr.y, tr.z],
            rotation: [q.x, q.y, q.z, q.w],
        }
    });
    buffer.take(samples, is_static, arrival);
}
