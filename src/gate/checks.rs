//! What the gate asks of the world about one zone: the questions, not how
//! they are answered. [`Monitor`](crate::monitor::Monitor) answers them
//! for the node (`super::world`); tests answer them with a brute force.

use super::command::Command;
use crate::geometry::{Point, Shape};
use crate::monitor::SourceFault;

/// Questions about a zone (a shape in the robot's base frame, now) and
/// the sources it is checked against (indices into the monitor's
/// configured sources). Every answer is exact, or errs on the side of
/// acting: never fewer points, never a later contact, never an escape
/// that is not one.
pub trait ZoneChecks {
    /// Why the sources cannot be judged now, if they cannot: the clock,
    /// or the first enabled source (point or polygon) that cannot be used
    /// by the rule the collision flag uses, or whose frame cannot be
    /// placed ([`BasePlacement::fault`](crate::monitor::BasePlacement::fault)).
    /// The gate stops the robot ("invalid source").
    fn invalid_source(&self) -> Option<SourceFault>;

    /// Points of `sources` inside or touching `zone`, counting stops at
    /// `enough`.
    fn points_inside(&self, zone: &Shape, sources: &[usize], enough: usize) -> usize;

    /// Whether a polygon of the polygon sources among `sources` touches
    /// or overlaps `zone`.
    fn polygons_touch(&self, zone: &Shape, sources: &[usize]) -> bool;

    /// Moving `zone` by the body twist `command` from now: the first time
    /// in `[0, horizon]` at which it holds `min_points` points of
    /// `sources` (the `min_points`-th point's first contact: never later)
    /// or touches a polygon of them; `None` when neither happens.
    fn contact_time(
        &self,
        zone: &Shape,
        sources: &[usize],
        command: &Command,
        horizon: f64,
        min_points: usize,
    ) -> Option<f64>;

    /// Whether moving `zone` by `command` over `[0, horizon]` lets nothing
    /// of `sources` new into it and takes nothing already in it deeper.
    fn escapes(&self, zone: &Shape, sources: &[usize], command: &Command, horizon: f64) -> bool;

    /// The points of `sources` inside or touching `zone`, in the base
    /// frame, at most `limit` of them, appended to `out`: what the markers
    /// show.
    fn points_in(&self, zone: &Shape, sources: &[usize], limit: usize, out: &mut Vec<Point>);
}
