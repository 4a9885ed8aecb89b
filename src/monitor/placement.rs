//! Frames: where the footprint is in each obstacle frame, and where each
//! obstacle frame is in the global frame.
//!
//! The footprint is moved, not the obstacles: one footprint placed into
//! each obstacle frame costs one small shape per frame, where moving ten
//! thousand obstacles into the global frame would cost ten thousand. Each
//! group of obstacles (one frame, one stamp) is checked in its own frame
//! against the footprint placed there, and its results (MTV, axes, closest
//! points) are then turned into the global frame.
//!
//! # Which transform, at which time
//! With `G` the global frame, `P` the footprint's frame and `t_f` its
//! stamp, `F` an obstacle group's frame and `t_o` its stamp, the footprint
//! in `F` is `T(F ← G, t_o) · T(G ← P, t_f)`: the footprint where it was
//! at `t_f`, seen from the obstacle frame as it was at `t_o`, through the
//! global frame, which must be fixed in the world (`map`, `odom`): tf2's
//! lookup with a fixed frame. A stamp of 0 asks for the latest transform.
//! A group in the footprint's own frame needs no transform when the global
//! frame is that frame too, or when both stamps agree.
//!
//! # A source in the robot's frame
//! With `base_frame` and a robot shape, the footprint is set in
//! `base_frame` at every cycle, stamped 0; with `global_frame` empty (the
//! default, and nav2's configuration) the global frame is the footprint's,
//! `base_frame`. A source whose points are in `base_frame` (a scan in it,
//! a cloud moved into it) is then a group with `F = P = G`: its
//! `to_global` and the footprint's pose are both the identity by the rule
//! above, and nothing is looked up, whatever the stamps (the same as the
//! velocity gate's rule, `regions`: no `odom` is needed). With a
//! `global_frame` set (`odom`), `T(G ← F, t_o)` is needed anyway (the
//! report, the markers and `check_footprint` are written in `G`), so
//! asking for it requires nothing the answer does not need.

use crate::frames::{FrameTree, LookupFault};
use crate::geometry::Shape;
use crate::model::Cause;
use nalgebra::Isometry2;

/// Where the monitor gets its transforms: the node's TF buffer
/// ([`FrameTree`]), or [`NoTransforms`].
pub trait Transforms {
    /// `T` with `p_target = T · p_source`, at `time` (s; 0: the latest),
    /// judged at `now` with `tolerance` (s); a failure as the [`Cause`]
    /// the answer reports.
    fn lookup(
        &self,
        target: &str,
        source: &str,
        time: f64,
        now: f64,
        tolerance: f64,
    ) -> Result<Isometry2<f64>, Cause>;
}

/// No TF at all: only a frame to itself. Inputs in different frames are a
/// [`Cause::FrameMismatch`], the answer before TF.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTransforms;

impl Transforms for NoTransforms {
    fn lookup(
        &self,
        target: &str,
        source: &str,
        _time: f64,
        _now: f64,
        _tolerance: f64,
    ) -> Result<Isometry2<f64>, Cause> {
        if target == source {
            Ok(Isometry2::identity())
        } else {
            Err(Cause::FrameMismatch)
        }
    }
}

impl Transforms for FrameTree {
    /// A tree that never received a transform answers as [`NoTransforms`].
    fn lookup(
        &self,
        target: &str,
        source: &str,
        time: f64,
        now: f64,
        tolerance: f64,
    ) -> Result<Isometry2<f64>, Cause> {
        if self.is_empty() {
            return NoTransforms.lookup(target, source, time, now, tolerance);
        }
        FrameTree::lookup(self, target, source, time, now, tolerance).map_err(|fault| match fault {
            LookupFault::Unavailable => Cause::TransformUnavailable,
            LookupFault::TooManyFrames => Cause::TooManyFrames,
            LookupFault::Stale => Cause::StaleTransform,
            LookupFault::Invalid(_) => Cause::InvalidTransform,
            LookupFault::Conflict => Cause::TransformConflict,
        })
    }
}

/// One obstacle group placed: the footprint in its frame and its frame in
/// the global one. `None` stands for the identity (nothing to move).
#[derive(Clone, Debug, Default)]
pub(super) struct Placement {
    pub(super) footprint: Option<Shape>,
    /// The footprint's frame into the group's (`None`: identity): how
    /// `footprint` was placed.
    pub(super) pose: Option<Isometry2<f64>>,
    pub(super) to_global: Option<Isometry2<f64>>,
}

impl Placement {
    /// The footprint as placed in the group's frame.
    pub(super) fn footprint<'a>(&'a self, own: &'a Shape) -> &'a Shape {
        self.footprint.as_ref().unwrap_or(own)
    }
}

/// The placements of every group, for one state of the monitor.
#[derive(Clone, Debug, Default)]
pub(super) struct Placements {
    /// Aligned with the obstacle set's groups.
    pub(super) groups: Vec<Result<Placement, Cause>>,
    /// The footprint in the global frame (`None`: identity), when there is
    /// a valid footprint.
    pub(super) footprint: Option<Result<Option<Isometry2<f64>>, Cause>>,
    /// Aligned with the monitor's sources: each enabled point source's
    /// latest message placed (a source without usable data: the identity,
    /// never used).
    pub(super) sources: Vec<Result<Placement, Cause>>,
}

impl Placements {
    /// The first cause found: the footprint's own transform first, then
    /// the groups' in order.
    pub(super) fn cause(&self) -> Option<Cause> {
        if let Some(Err(cause)) = self.footprint {
            return Some(cause);
        }
        self.groups_cause()
    }

    /// The first group that could not be placed, as its cause: what a
    /// planner query (whose footprint comes with it) depends on.
    pub(super) fn groups_cause(&self) -> Option<Cause> {
        self.groups.iter().find_map(|g| g.as_ref().err().copied())
    }
}

/// `Some(pose)` unless it is exactly the identity.
pub(super) fn non_identity(pose: Isometry2<f64>) -> Option<Isometry2<f64>> {
    (pose != Isometry2::identity()).then_some(pose)
}

/// What one placement is computed from.
pub(super) struct Frames<'a> {
    pub(super) global: &'a str,
    /// The footprint's frame and stamp, when there is a valid footprint.
    pub(super) footprint: Option<(&'a str, f64)>,
    pub(super) now: f64,
    pub(super) tolerance: f64,
}

impl Frames<'_> {
    /// `T(G ← P, t_f)` (`None`: identity).
    pub(super) fn footprint_to_global(
        &self,
        tf: &(impl Transforms + ?Sized),
    ) -> Option<Result<Option<Isometry2<f64>>, Cause>> {
        let (frame, stamp) = self.footprint?;
        if frame == self.global {
            return Some(Ok(None));
        }
        Some(
            tf.lookup(self.global, frame, stamp, self.now, self.tolerance)
                .map(non_identity),
        )
    }

    /// A group in `frame` stamped `stamp`: its frame into the global one,
    /// and the footprint (`shape`, in G through `footprint_to_global`)
    /// into it.
    pub(super) fn group(
        &self,
        tf: &(impl Transforms + ?Sized),
        frame: &str,
        stamp: f64,
        shape: Option<&Shape>,
        footprint_to_global: Option<&Result<Option<Isometry2<f64>>, Cause>>,
    ) -> Result<Placement, Cause> {
        let to_global = if frame == self.global {
            None
        } else {
            non_identity(tf.lookup(self.global, frame, stamp, self.now, self.tolerance)?)
        };
        let (Some(shape), Some((fp_frame, fp_stamp))) = (shape, self.footprint) else {
            return Ok(Placement {
                footprint: None,
                pose: None,
                to_global,
            });
        };
        if frame == fp_frame && (fp_frame == self.global || stamp == fp_stamp) {
            return Ok(Placement {
                footprint: None,
                pose: None,
                to_global,
            });
        }
        let fp_to_global = match footprint_to_global {
            Some(Ok(pose)) => *pose,
            Some(Err(cause)) => return Err(*cause),
            None => None,
        };
        let from_global = to_global.map(|t| t.inverse());
        let pose = match (from_global, fp_to_global) {
            (Some(a), Some(b)) => Some(a * b),
            (a, b) => a.or(b),
        }
        .and_then(non_identity);
        Ok(Placement {
            footprint: pose.map(|p| shape.transformed(&p)),
            pose,
            to_global,
        })
    }
}
