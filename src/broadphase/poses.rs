//! A footprint at many poses: per pose, whether it collides and its
//! clearance ([`Span::check_poses`]).

use super::cancel::{Cancel, Cancelled};
use super::index::Span;
use crate::geometry::{Motion, Shape};
use nalgebra::Isometry2;

/// Outcome per pose.
#[derive(Clone, Debug, PartialEq)]
pub struct PoseCheck {
    /// Per pose: the footprint at that pose touches or overlaps a valid
    /// obstacle.
    pub colliding: Vec<bool>,
    /// Per pose: clearance to the nearest valid obstacle (m); 0 when
    /// colliding, infinite when there is no obstacle.
    pub distance: Vec<f64>,
    /// Index of the first colliding pose.
    pub first_collision: Option<usize>,
    /// Obstacles that could not be checked because they are invalid.
    pub invalid_obstacles: usize,
}

impl Span<'_> {
    /// Places the robot-frame `footprint` at each of `poses` (in the
    /// obstacles' frame) and checks it against every valid obstacle of the
    /// span, with `padding` metres around the footprint: per pose, whether
    /// it touches or overlaps one (touching counts) and its exact clearance
    /// (0 when colliding, infinite without valid obstacles). Invalid
    /// obstacles are counted, not guessed at: the caller decides (the node
    /// fails safe). Stops when `cancel` is set, looked at before every
    /// pose.
    ///
    /// The span's obstacles near the box of every placed footprint are
    /// measured once ([`Span::near`]); each pose then walks them nearest
    /// first and stops at the first one farther than its clearance so far
    /// ([`Near::nearest`](super::Near::nearest)).
    pub fn check_poses(
        &self,
        footprint: &Shape,
        poses: &[Isometry2<f64>],
        padding: f64,
        cancel: &Cancel,
    ) -> Result<PoseCheck, Cancelled> {
        let mut colliding = Vec::with_capacity(poses.len());
        let mut distance = Vec::with_capacity(poses.len());
        // The box of the footprint at every pose, padded (a pose that is
        // not finite: everywhere).
        // O(poses × vertices) too: it watches `cancel` as the loop below does.
        let mut region: Option<_> = None;
        for pose in poses {
            cancel.check()?;
            let aabb = Motion::segment(pose, pose, 0.0).swept_aabb(footprint, padding, 0.0);
            region = Some(match region {
                Some(so_far) => aabb.union(&so_far),
                None => aabb,
            });
        }
        if let Some(region) = region {
            let mut near = self.near(&region);
            for pose in poses {
                cancel.check()?;
                let placed = footprint.transformed(pose);
                let nearest = near.nearest(&placed, padding);
                colliding.push(nearest.colliding);
                distance.push(nearest.distance);
            }
        }
        Ok(PoseCheck {
            first_collision: colliding.iter().position(|&c| c),
            colliding,
            distance,
            invalid_obstacles: self.invalid_count(),
        })
    }
}
