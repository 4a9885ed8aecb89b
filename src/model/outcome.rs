//! The answer for each obstacle, and the summary over them all.

use super::Status;
use crate::geometry::Contact;

/// The answer for one obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ObstacleOutcome {
    /// [`Status::Ok`] or the obstacle's shape error.
    pub status: Status,
    /// Geometry against the (padded) footprint; `None` for an invalid
    /// obstacle.
    pub contact: Option<Contact>,
    /// True when `contact` is the exact answer. False only for a far
    /// obstacle in a report made with an exact range
    /// (the monitor's exact range): then `colliding` is false (certain),
    /// `distance` is a lower bound of the clearance, `axis` a separating
    /// axis and `closest` `None` (see [`crate::broadphase`]).
    pub exact: bool,
}

impl ObstacleOutcome {
    /// The obstacle touches or overlaps the (padded) footprint.
    pub fn colliding(&self) -> bool {
        self.contact.is_some_and(|c| c.colliding())
    }

    /// The outcome seen from another frame (see [`Contact::transformed`]).
    pub fn transform(&mut self, pose: &nalgebra::Isometry2<f64>) {
        if let Some(contact) = &mut self.contact {
            *contact = contact.transformed(pose);
        }
    }
}

/// Summary over a set of outcomes.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Some valid obstacle touches or overlaps the footprint.
    pub any_colliding: bool,
    /// Some obstacle is invalid.
    pub any_invalid: bool,
    /// Smallest clearance among valid obstacles (0 when one collides);
    /// infinite when there is none.
    pub min_distance: f64,
    /// Index of the nearest obstacle: the deepest colliding one, or else
    /// the one with the least clearance.
    pub nearest: Option<usize>,
    /// Rank of `nearest`: minus the depth when colliding, else the
    /// clearance; lower is nearer.
    nearest_rank: f64,
}

impl Summary {
    /// The summary of no outcome at all.
    pub fn empty() -> Self {
        Summary {
            any_colliding: false,
            any_invalid: false,
            min_distance: f64::INFINITY,
            nearest: None,
            nearest_rank: f64::INFINITY,
        }
    }

    /// The rank of [`nearest`](Self::nearest): minus its depth when it
    /// collides, else its clearance; lower is nearer (infinite: none).
    pub fn nearest_rank(&self) -> f64 {
        self.nearest_rank
    }

    /// Takes in the summary of other obstacles, numbered as in this one
    /// (a report over several frames: each frame's span of one index).
    /// Ties resolve as in [`record`](Self::record): `self`'s nearest stays
    /// when `other` comes later.
    pub fn merge(&mut self, other: &Summary) {
        self.any_colliding |= other.any_colliding;
        self.any_invalid |= other.any_invalid;
        self.min_distance = self.min_distance.min(other.min_distance);
        if let Some(i) = other.nearest {
            if other.nearest_rank < self.nearest_rank || self.nearest.is_none() {
                self.nearest_rank = other.nearest_rank;
                self.nearest = Some(i);
            }
        }
    }

    /// Takes obstacle `index`'s contact into account. On ties the obstacle
    /// recorded first stays the nearest.
    pub fn record(&mut self, index: usize, contact: &Contact) {
        self.any_colliding |= contact.colliding();
        self.min_distance = self.min_distance.min(contact.distance());
        let rank = if contact.colliding() {
            -contact.depth()
        } else {
            contact.distance()
        };
        if rank < self.nearest_rank || self.nearest.is_none() {
            self.nearest_rank = rank;
            self.nearest = Some(index);
        }
    }
}

/// Folds `outcomes` into a [`Summary`] (in order: the first of equals
/// is the nearest).
pub fn summarize(outcomes: &[ObstacleOutcome]) -> Summary {
    let mut summary = Summary::empty();
    for (i, outcome) in outcomes.iter().enumerate() {
        match &outcome.contact {
            Some(contact) => summary.record(i, contact),
            None => summary.any_invalid = true,
        }
    }
    summary
}
