//! What the monitor answers: the whole report, and the decision alone.

use super::{ObstacleOutcome, Status};
use crate::geometry::{Contact, Point};

/// One report, mirroring `sat_collision_msgs/CollisionReport`.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The footprint touches an obstacle, or (with `fail_safe`) the report
    /// is not valid.
    pub colliding: bool,
    /// Every input was usable: the answer can be trusted.
    pub valid: bool,
    /// [`Status::Ok`] or the first [`Cause`](super::Cause) found.
    pub status: Status,
    /// The frame of the report: the monitor's global frame.
    pub frame_id: String,
    /// Smallest clearance to a valid obstacle (m); 0 when colliding,
    /// infinite when there is none.
    pub min_distance: f64,
    /// Id of the nearest obstacle (the deepest colliding one, else the
    /// closest); empty when there is none.
    pub nearest_obstacle_id: String,
    /// Obstacles in the order of the monitor's obstacles (zones, array, instances).
    pub outcomes: Vec<ObstacleOutcome>,
    /// One entry per enabled point source (scan, point cloud, range), in
    /// the order of `observation_sources`.
    pub sources: Vec<SourceOutcome>,
    /// One entry per peer of the fleet sources (`type: fleet`), by id.
    pub peers: Vec<PeerOutcome>,
}

/// A fleet peer's state in a report (see `crate::fleet`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeerStatus {
    /// Fresh, one publisher, clocks agree.
    Ok,
    /// Older than `fleet_timeout` (by arrival or by stamp), or its
    /// publisher's liveliness was lost: kept, grown by its age.
    StalePeer,
    /// Its stamp and its arrival disagree by more than
    /// `fleet_clock_tolerance`.
    ClockSkew,
    /// Its id is claimed by two publishers.
    IdConflict,
}

impl PeerStatus {
    /// The snake_case spelling used in reports and logs.
    pub fn as_str(self) -> &'static str {
        match self {
            PeerStatus::Ok => "ok",
            PeerStatus::StalePeer => "stale_peer",
            PeerStatus::ClockSkew => "clock_skew",
            PeerStatus::IdConflict => "peer_id_conflict",
        }
    }
}

/// A fleet peer in a [`Report`]: its footprint (grown by its age) against
/// the padded footprint.
#[derive(Clone, Debug, PartialEq)]
pub struct PeerOutcome {
    /// `<source>/<robot id>`.
    pub id: String,
    /// Its status.
    pub status: PeerStatus,
    /// It touches or overlaps the padded footprint.
    pub colliding: bool,
    /// The contact, in the report's frame; `None` without a placement.
    pub contact: Option<Contact>,
    /// Its shape's outline (grown by its age), in the report's frame,
    /// for drawing.
    pub outline: Vec<Point>,
    /// Its source's position in `observation_sources` and its position
    /// among the source's peers (a prediction's `source` and `cell`).
    pub index: (usize, usize),
}

/// A point source in a [`Report`]: its points against the padded
/// footprint.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceOutcome {
    /// The source's name (`observation_sources`): the entry's id.
    pub name: String,
    /// [`Status::Ok`], or what the source holds against the answer
    /// (`no_source_data`, `stale_source`, `invalid_source`, a transform's
    /// status).
    pub status: Status,
    /// Some of its points are inside the padded footprint and the points of
    /// all sources together inside it reach `min_points`.
    pub colliding: bool,
    /// Points of its latest message in use.
    pub points: usize,
    /// Its points inside the padded footprint (touching counts).
    pub points_inside: usize,
    /// The contact of its nearest point (the deepest inside, when some
    /// are), in the report's frame: the clearance, or the depth and MTV;
    /// `None` without a point or a placement.
    pub contact: Option<Contact>,
    /// That point, in the report's frame.
    pub point: Option<Point>,
}

impl SourceOutcome {
    /// The clearance to its nearest point (m): 0 when one is inside,
    /// infinite without a point.
    pub fn distance(&self) -> f64 {
        self.contact.map_or(f64::INFINITY, |c| c.distance())
    }

    /// How near its nearest point is, as a report ranks obstacles (see
    /// [`Summary::nearest_rank`](super::Summary::nearest_rank)): minus the
    /// depth when inside, else the clearance.
    pub fn rank(&self) -> f64 {
        match self.contact {
            Some(c) if c.colliding() => -c.depth(),
            Some(c) => c.distance(),
            None => f64::INFINITY,
        }
    }
}

/// The decision alone: what the monitor's `flag` returns, equal to the
/// same fields of the [`Report`] of its `evaluate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    /// As [`Report::colliding`].
    pub colliding: bool,
    /// As [`Report::valid`].
    pub valid: bool,
    /// [`Status::Ok`] or the first [`Cause`](super::Cause) found.
    pub status: Status,
}

impl Default for Report {
    /// An empty report, not valid: nothing has been decided yet.
    fn default() -> Self {
        Report {
            colliding: false,
            valid: false,
            status: Status::NoFootprint,
            frame_id: String::new(),
            min_distance: f64::INFINITY,
            nearest_obstacle_id: String::new(),
            outcomes: Vec::new(),
            sources: Vec::new(),
            peers: Vec::new(),
        }
    }
}
