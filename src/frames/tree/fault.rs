//! Why a lookup or an insert fails, and how serious each lookup fault is
//! (rule 11 of the [module documentation](super)).

use super::super::planar::TransformFault;
use super::bounds::FUTURE_TOLERANCE;
use crate::limits::MAX_TF_FRAMES;

/// Why a lookup has no transform to give. The node turns each into a
/// status and, with `fail_safe`, a collision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LookupFault {
    /// No path between the frames (unknown frame, separate trees), a
    /// dynamic edge without samples, or a time before its history.
    #[error("no transform between the frames at that time")]
    Unavailable,
    /// A frame of the lookup is unknown because it was evicted or refused
    /// at the frame limit ([`MAX_TF_FRAMES`]).
    #[error("a frame was dropped at the limit of {MAX_TF_FRAMES} frames")]
    TooManyFrames,
    /// A dynamic edge's newest sample is too old for the requested time,
    /// or (for a latest lookup) for now, by its stamp or by its arrival.
    #[error("the transform is older than the tolerance")]
    Stale,
    /// An edge of the path last received a refused transform.
    #[error("a transform on the path was refused: {0}")]
    Invalid(TransformFault),
    /// Two publishers disagree on an edge of the path (a frame with two
    /// parents, or static and dynamic publishers), or the parents form a
    /// loop.
    #[error("two publishers disagree on a frame's parent, or the frames form a loop")]
    Conflict,
}

impl LookupFault {
    /// Order of seriousness (rule 11 of the module documentation).
    pub(super) fn rank(self) -> u8 {
        match self {
            LookupFault::Stale => 0,
            LookupFault::Unavailable => 1,
            LookupFault::TooManyFrames => 2,
            LookupFault::Invalid(_) => 3,
            LookupFault::Conflict => 4,
        }
    }
}

/// Why [`FrameTree::insert`] did not store a sample as the edge's pose.
///
/// [`FrameTree::insert`]: super::FrameTree::insert
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InsertError {
    /// The parent is the child (tf2's `TF_SELF_TRANSFORM`); nothing stored.
    #[error("the parent and child frames are the same")]
    SelfTransform,
    /// The transform names a new frame at [`MAX_TF_FRAMES`] and no frame
    /// can be evicted; nothing stored.
    #[error("more than {MAX_TF_FRAMES} frames")]
    TooManyFrames,
    /// A dynamic sample stamped later than its arrival plus
    /// [`FUTURE_TOLERANCE`]; nothing stored.
    #[error("stamped more than {FUTURE_TOLERANCE} s after its arrival")]
    FutureStamp,
    /// The child already has an active parent (another one, or of the other
    /// kind); the sample is recorded as the edge's rival only.
    #[error("the child frame already has an active parent")]
    SecondParent,
}

/// The most serious fault seen so far; the first one among equals.
#[derive(Default)]
pub(super) struct Worst(pub(super) Option<LookupFault>);

impl Worst {
    pub(super) fn note(&mut self, fault: Option<LookupFault>) {
        if let Some(f) = fault {
            if self.0.is_none_or(|w| f.rank() > w.rank()) {
                self.0 = Some(f);
            }
        }
    }
}
