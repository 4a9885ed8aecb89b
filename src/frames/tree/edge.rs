//! An edge of the tree: a child frame's link to its parent, with its poses
//! over time, its fault and its rival (rules 4 to 7 and 10 of the
//! [module documentation](super)).

use super::super::interpolate::{interpolate, interpolate_3d};
use super::super::planar::TransformFault;
use super::super::transform::Transform;
use super::bounds::{CONFLICT_WINDOW, TF_HISTORY};
use super::fault::LookupFault;
use crate::limits::MAX_TF_SAMPLES;
use nalgebra::{Isometry2, Isometry3};
use std::collections::VecDeque;
use std::ops::Mul;

/// What a lookup composes along its path: the planar poses
/// (`Isometry2`) or the 3-D ones (`Isometry3`). The walk, its rules and
/// its faults are one code, generic over this; only what is read from a
/// sample and how two samples are interpolated differ.
pub(super) trait PoseKind: Copy + Mul<Output = Self> {
    fn identity() -> Self;
    fn inverse(&self) -> Self;
    /// The pose of this kind a sample holds.
    fn of(transform: &Transform) -> Self;
    /// Between two samples (the caller brackets `t`).
    fn between(ta: f64, a: &Transform, tb: f64, b: &Transform, t: f64) -> Self;
}

impl PoseKind for Isometry2<f64> {
    fn identity() -> Self {
        Isometry2::identity()
    }
    fn inverse(&self) -> Self {
        Isometry2::inverse(self)
    }
    fn of(transform: &Transform) -> Self {
        transform.planar()
    }
    fn between(ta: f64, a: &Transform, tb: f64, b: &Transform, t: f64) -> Self {
        interpolate(ta, &a.planar(), tb, &b.planar(), t)
    }
}

impl PoseKind for Isometry3<f64> {
    fn identity() -> Self {
        Isometry3::identity()
    }
    fn inverse(&self) -> Self {
        Isometry3::inverse(self)
    }
    fn of(transform: &Transform) -> Self {
        transform.spatial()
    }
    fn between(ta: f64, a: &Transform, tb: f64, b: &Transform, t: f64) -> Self {
        interpolate_3d(ta, &a.spatial(), tb, &b.spatial(), t)
    }
}

/// One dynamic sample: the child's pose in the parent at `stamp`, 3-D and
/// planar (80 bytes; 40 before the 3-D pose was kept).
#[derive(Clone, Copy, Debug)]
pub(super) struct Sample {
    pub(super) stamp: f64,
    pose: Transform,
}

/// An edge's poses, by kind.
#[derive(Clone, Debug)]
pub(super) enum Poses {
    /// `None` until the first good sample (an edge created by a fault).
    Static(Option<Transform>),
    /// Sorted by stamp, strictly increasing.
    Dynamic(VecDeque<Sample>),
}

/// A publisher refused because the edge had an active one.
#[derive(Clone, Copy, Debug)]
pub(super) struct Rival {
    pub(super) parent: u32,
    pub(super) arrival: f64,
    /// A static rival is latched (rule 7), with its pose if it was good.
    pub(super) is_static: bool,
    pub(super) pose: Option<Transform>,
}

impl Rival {
    /// Whether it makes lookups through its edge a conflict at `now`.
    fn live_at(&self, now: f64) -> bool {
        let gone = now - self.arrival > CONFLICT_WINDOW;
        self.is_static || !gone
    }
}

/// A child frame's link to its parent.
#[derive(Clone, Debug)]
pub(super) struct Edge {
    pub(super) parent: u32,
    pub(super) poses: Poses,
    /// Arrival of the newest (by stamp) good sample.
    pub(super) arrival: f64,
    /// Last finite arrival of any sample from this parent, good or refused:
    /// the edge is active while it is recent.
    heard: f64,
    pub(super) fault: Option<TransformFault>,
    pub(super) rival: Option<Rival>,
}

impl Edge {
    pub(super) fn new(parent: u32, is_static: bool) -> Edge {
        Edge {
            parent,
            poses: if is_static {
                Poses::Static(None)
            } else {
                Poses::Dynamic(VecDeque::new())
            },
            arrival: f64::NEG_INFINITY,
            heard: f64::NEG_INFINITY,
            fault: None,
            rival: None,
        }
    }

    pub(super) fn is_static(&self) -> bool {
        matches!(self.poses, Poses::Static(_))
    }

    /// Whether a sample arriving at `arrival` from another publisher is a
    /// rival (true) or may take the edge over. Unknown (NaN) is active.
    pub(super) fn active_at(&self, arrival: f64) -> bool {
        let silent = arrival - self.heard > CONFLICT_WINDOW;
        self.is_static() || !silent
    }

    /// Stores a sample from the edge's own publisher (rules 4 to 6).
    pub(super) fn accept(
        &mut self,
        stamp: f64,
        sample: Result<Transform, TransformFault>,
        arrival: f64,
    ) {
        if arrival.is_finite() {
            self.heard = arrival;
        }
        let pose = match sample {
            Ok(pose) => pose,
            Err(fault) => {
                self.fault = Some(fault);
                return;
            }
        };
        match &mut self.poses {
            Poses::Static(kept) => {
                *kept = Some(pose);
                self.arrival = arrival;
            }
            Poses::Dynamic(samples) => {
                let at = samples.partition_point(|s| s.stamp < stamp);
                if samples.get(at).is_some_and(|s| s.stamp == stamp) {
                    // Repeated data: not new (rule 5).
                    return;
                }
                let newest = at == samples.len();
                // At the limit the oldest goes *before* the new sample
                // comes in: the deque never holds more than
                // MAX_TF_SAMPLES, so its buffer (which doubles when full)
                // never grows past the one that first held them. A sample
                // older than every kept one would be that oldest: not kept.
                if samples.len() < MAX_TF_SAMPLES {
                    samples.insert(at, Sample { stamp, pose });
                } else if let Some(at) = at.checked_sub(1) {
                    samples.pop_front();
                    samples.insert(at, Sample { stamp, pose });
                }
                if newest {
                    self.arrival = arrival;
                }
                let oldest_kept = samples.back().map_or(stamp, |s| s.stamp) - TF_HISTORY;
                while samples.len() > MAX_TF_SAMPLES
                    || samples.front().is_some_and(|s| s.stamp < oldest_kept)
                {
                    samples.pop_front();
                }
            }
        }
        self.fault = None;
    }

    /// The fault of the edge that does not depend on the lookup's time:
    /// a recent rival, a refused sample, no sample at all.
    pub(super) fn standing_fault(&self, now: f64) -> Option<LookupFault> {
        if self.rival.is_some_and(|r| r.live_at(now)) {
            return Some(LookupFault::Conflict);
        }
        if let Some(fault) = self.fault {
            return Some(LookupFault::Invalid(fault));
        }
        match &self.poses {
            Poses::Static(None) => Some(LookupFault::Unavailable),
            Poses::Dynamic(samples) if samples.is_empty() => Some(LookupFault::Unavailable),
            _ => None,
        }
    }

    /// The child's pose in the parent at `time` (rule 10), planar or 3-D:
    /// the same samples and the same faults for both.
    pub(super) fn pose_at<P: PoseKind>(&self, time: f64, tolerance: f64) -> Result<P, LookupFault> {
        let samples = match &self.poses {
            Poses::Static(pose) => return pose.as_ref().map(P::of).ok_or(LookupFault::Unavailable),
            Poses::Dynamic(samples) => samples,
        };
        let (Some(oldest), Some(newest)) = (samples.front(), samples.back()) else {
            return Err(LookupFault::Unavailable);
        };
        if time.is_nan() {
            return Err(LookupFault::Unavailable);
        }
        if time > newest.stamp {
            return if time - newest.stamp <= tolerance {
                Ok(P::of(&newest.pose))
            } else {
                Err(LookupFault::Stale)
            };
        }
        if time < oldest.stamp {
            return if oldest.stamp - time <= tolerance {
                Ok(P::of(&oldest.pose))
            } else {
                Err(LookupFault::Unavailable)
            };
        }
        let at = samples.partition_point(|s| s.stamp < time);
        let after = samples.get(at).ok_or(LookupFault::Unavailable)?;
        match at.checked_sub(1).and_then(|i| samples.get(i)) {
            Some(before) if after.stamp != time => Ok(P::between(
                before.stamp,
                &before.pose,
                after.stamp,
                &after.pose,
                time,
            )),
            _ => Ok(P::of(&after.pose)),
        }
    }
}
