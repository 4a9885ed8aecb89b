//! `/tf` and `/tf_static` (tf2_msgs/TFMessage), read in native form into the
//! node's [`FrameTree`].
//!
//! Frame ids are checked like every other frame id (the crate's `text`)
//! before anything is stored, and a message with more transforms than
//! [`MAX_TRANSFORMS_PER_MESSAGE`] is refused unread. A transform whose
//! frame ids cannot be read cannot be attached to a frame: it is dropped
//! and counted. Each transform is kept in 3-D with its planar projection
//! ([`Transform`]). One with a NaN or a quaternion that is not a rotation is
//! stored as its frame's fault ([`crate::frames`]): lookups through that
//! frame, planar or 3-D, then fail until a good transform arrives. What the tree refused
//! (and the frames it evicted at its limit) is counted in a [`TfIntake`]
//! for the node's throttled warnings. The native reading is
//! `ros::native`'s.

#![forbid(unsafe_code)]

use super::inputs::Arrival;
use super::native;
use crate::frames::{FrameTree, InsertError, Transform};
use r2r_msg_gen::tf2_msgs__msg__TFMessage as NativeTfMessage;

/// Most transforms read from one TF message; a larger message is refused
/// as a whole (a robot's whole static tree is a few hundred).
pub const MAX_TRANSFORMS_PER_MESSAGE: usize = 4_096;

/// What reading TF messages refused, since the counts were last taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TfIntake {
    /// Whole messages over [`MAX_TRANSFORMS_PER_MESSAGE`].
    pub oversized_messages: u64,
    /// Transforms whose frame ids are too long, not UTF-8 or hold a NUL.
    pub bad_frame_ids: u64,
    /// Transforms whose values were refused (NaN, not a rotation): stored
    /// as their frame's fault.
    pub faults: u64,
    /// A frame given another parent while its parent is active.
    pub second_parents: u64,
    /// A frame's parent is the frame itself.
    pub self_transforms: u64,
    /// New frames beyond [`crate::frames::MAX_TF_FRAMES`] when no frame
    /// could be evicted.
    pub too_many_frames: u64,
    /// Frames evicted at [`crate::frames::MAX_TF_FRAMES`] for new ones.
    pub evicted_frames: u64,
    /// Dynamic transforms stamped later than their arrival plus
    /// [`crate::frames::FUTURE_TOLERANCE`].
    pub future_stamps: u64,
}

impl TfIntake {
    /// Nothing refused.
    pub fn is_clean(&self) -> bool {
        *self == TfIntake::default()
    }
}

impl std::fmt::Display for TfIntake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts = [
            (self.oversized_messages, "messages over the transform limit"),
            (self.bad_frame_ids, "unreadable frame ids"),
            (self.faults, "non-finite or non-rotation transforms"),
            (self.second_parents, "frames given a second parent"),
            (self.self_transforms, "frames given themselves as parent"),
            (self.too_many_frames, "new frames beyond the frame limit"),
            (self.evicted_frames, "frames evicted at the frame limit"),
            (self.future_stamps, "transforms stamped in the future"),
        ];
        let mut first = true;
        for (count, what) in parts.into_iter().filter(|(c, _)| *c > 0) {
            if !first {
                f.write_str(", ")?;
            }
            write!(f, "{count} {what}")?;
            first = false;
        }
        Ok(())
    }
}

/// The node's TF buffer: the tree, the clock generation its dynamic
/// samples were received under, and what it refused.
#[derive(Debug, Default)]
pub struct TfBuffer {
    /// The transforms received.
    pub tree: FrameTree,
    generation: u32,
    /// What reading TF messages refused, since the counts were last taken.
    pub intake: TfIntake,
    /// The tree's eviction count when last read.
    evicted: u64,
}

impl TfBuffer {
    /// Takes in one TF message received at `arrival`; `is_static` for
    /// `/tf_static`. After a backward jump of the clock (a new generation)
    /// the dynamic samples are dropped first, as tf2 does: their arrival
    /// times mean nothing any more.
    pub fn take(&mut self, msg: &NativeTfMessage, is_static: bool, arrival: Arrival) {
        if arrival.generation != self.generation {
            self.tree.forget_dynamic();
            self.generation = arrival.generation;
        }
        let Some(transforms) = native::items_within(&msg.transforms, MAX_TRANSFORMS_PER_MESSAGE)
        else {
            self.intake.oversized_messages += 1;
            return;
        };
        self.tree.begin_message();
        for t in transforms {
            let (Ok(parent), Ok(child)) = (
                native::frame_id(&t.header.frame_id),
                native::frame_id(&t.child_frame_id),
            ) else {
                self.intake.bad_frame_ids += 1;
                continue;
            };
            // tf2 strips one leading slash ("/map" is "map").
            let parent = parent.strip_prefix('/').unwrap_or(parent);
            let child = child.strip_prefix('/').unwrap_or(child);
            let (tr, q) = (&t.transform.translation, &t.transform.rotation);
            // Planar and 3-D: a refused transform is refused for both.
            let transform = Transform::new([tr.x, tr.y, tr.z], [q.x, q.y, q.z, q.w]);
            if transform.is_err() {
                self.intake.faults += 1;
            }
            let stamp = native::seconds(&t.header.stamp);
            match self.tree.insert_transform(
                parent,
                child,
                stamp,
                transform,
                is_static,
                arrival.time,
            ) {
                Ok(()) => {}
                Err(InsertError::SecondParent) => self.intake.second_parents += 1,
                Err(InsertError::SelfTransform) => self.intake.self_transforms += 1,
                Err(InsertError::TooManyFrames) => self.intake.too_many_frames += 1,
                Err(InsertError::FutureStamp) => self.intake.future_stamps += 1,
            }
        }
        let evicted = self.tree.evicted_frames();
        self.intake.evicted_frames += evicted.saturating_sub(self.evicted);
        self.evicted = evicted;
    }

    /// The refusals counted since the last call.
    pub fn take_intake(&mut self) -> TfIntake {
        std::mem::take(&mut self.intake)
    }
}
