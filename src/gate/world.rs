//! The gate's questions answered by the monitor: its sources, placed by TF
//! in the robot's base frame now ([`Monitor::place_base`]).

use super::checks::ZoneChecks;
use super::command::Command;
use crate::geometry::{Point, Shape, Vector};
use crate::monitor::{BasePlacement, Monitor, SourceFault};

/// The monitor's sources as the gate sees them for one check: the monitor
/// and where the base frame is in each source's frame.
#[derive(Clone, Copy, Debug)]
pub struct MonitorChecks<'a> {
    /// The monitor holding the sources.
    pub monitor: &'a Monitor,
    /// [`Monitor::place_base`]'s answer for this check.
    pub placed: &'a BasePlacement,
}

fn twist(command: &Command) -> (Vector, f64) {
    (Vector::new(command.x, command.y), command.w)
}

impl ZoneChecks for MonitorChecks<'_> {
    fn invalid_source(&self) -> Option<SourceFault> {
        self.placed.fault()
    }

    fn points_inside(&self, zone: &Shape, sources: &[usize], enough: usize) -> usize {
        self.monitor
            .region_points_inside(self.placed, zone, sources, enough)
    }

    fn polygons_touch(&self, zone: &Shape, sources: &[usize]) -> bool {
        self.monitor
            .region_polygons_touch(self.placed, zone, sources)
    }

    fn contact_time(
        &self,
        zone: &Shape,
        sources: &[usize],
        command: &Command,
        horizon: f64,
        min_points: usize,
    ) -> Option<f64> {
        let (linear, angular) = twist(command);
        self.monitor.region_contact(
            self.placed,
            zone,
            sources,
            linear,
            angular,
            horizon,
            min_points,
        )
    }

    fn escapes(&self, zone: &Shape, sources: &[usize], command: &Command, horizon: f64) -> bool {
        let (linear, angular) = twist(command);
        self.monitor
            .region_escapes(self.placed, zone, sources, linear, angular, horizon)
    }

    fn points_in(&self, zone: &Shape, sources: &[usize], limit: usize, out: &mut Vec<Point>) {
        self.monitor
            .region_points(self.placed, zone, sources, limit, out);
    }
}
