//! `/tf` and `/tf_static` in the core: one buffer of the node's
//! [`FrameTree`] and what it refused.
//!
//! An edge reads a TF message's transforms (`ros::tf` from rcl's native
//! messages, `replay` from a bag's CDR): frame ids checked like every other
//! frame id (the crate's `text`) before anything is stored, a message with
//! more transforms than [`MAX_TRANSFORMS_PER_MESSAGE`] refused unread
//! ([`TfBuffer::oversized`]). A transform whose frame ids cannot be read
//! cannot be attached to a frame: it is dropped and counted. Each transform
//! is kept in 3-D with its planar projection ([`Transform`]). One with a
//! NaN or a quaternion that is not a rotation is stored as its frame's
//! fault ([`crate::frames`]): lookups through that frame, planar or 3-D,
//! then fail until a good transform arrives. What the tree refused (and the
//! frames it evicted at its limit) is counted in a [`TfIntake`] for the
//! node's throttled warnings.

use super::inputs::Arrival;
use crate::frames::{FrameTree, InsertError, Transform};

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

/// One transform of a TF message as an edge read it.
#[derive(Clone, Copy, Debug)]
pub struct TfSample<'a> {
    /// The parent frame (`header.frame_id`); `None` when it could not be
    /// read (too long, not UTF-8, a NUL).
    pub parent: Option<&'a str>,
    /// The child frame (`child_frame_id`); `None` when it could not be read.
    pub child: Option<&'a str>,
    /// Header stamp (s).
    pub stamp: f64,
    /// Translation (m).
    pub translation: [f64; 3],
    /// Rotation quaternion (x, y, z, w).
    pub rotation: [f64; 4],
}

impl TfBuffer {
    /// After a backward jump of the clock (a new generation) the dynamic
    /// samples are dropped first, as tf2 does: their arrival times mean
    /// nothing any more.
    fn follow_generation(&mut self, arrival: Arrival) {
        if arrival.generation != self.generation {
            self.tree.forget_dynamic();
            self.generation = arrival.generation;
        }
    }

    /// A message with more than [`MAX_TRANSFORMS_PER_MESSAGE`] transforms,
    /// refused unread at `arrival`.
    pub fn oversized(&mut self, arrival: Arrival) {
        self.follow_generation(arrival);
        self.intake.oversized_messages += 1;
    }

    /// Takes in one TF message's transforms received at `arrival`;
    /// `is_static` for `/tf_static`.
    pub fn take<'a>(
        &mut self,
        transforms: impl IntoIterator<Item = TfSample<'a>>,
        is_static: bool,
        arrival: Arrival,
    ) {
        self.follow_generation(arrival);
        self.tree.begin_message();
        for t in transforms {
            let (Some(parent), Some(child)) = (t.parent, t.child) else {
                self.intake.bad_frame_ids += 1;
                continue;
            };
            // tf2 strips one leading slash ("/map" is "map").
            let parent = parent.strip_prefix('/').unwrap_or(parent);
            let child = child.strip_prefix('/').unwrap_or(child);
            // Planar and 3-D: a refused transform is refused for both.
            let transform = Transform::new(t.translation, t.rotation);
            if transform.is_err() {
                self.intake.faults += 1;
            }
            match self.tree.insert_transform(
                parent,
                child,
                t.stamp,
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

    /// What was refused since the last call.
    pub fn take_intake(&mut self) -> TfIntake {
        std::mem::take(&mut self.intake)
    }
}
