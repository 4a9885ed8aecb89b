//! The inputs the monitor holds, and the one freshness rule that judges
//! them (see [Freshness](super#freshness)).

use crate::geometry::{Shape, ShapeError};
use crate::model::Rejection;

#[derive(Clone, Debug)]
pub(super) struct Footprint {
    pub(super) frame_id: String,
    /// Header stamp (s): the time its transform is looked up at; 0: the
    /// latest.
    pub(super) stamp: f64,
    pub(super) shape: Result<Shape, FootprintFault>,
    pub(super) received: f64,
    pub(super) generation: u32,
}

/// Why the latest footprint cannot be used.
#[derive(Clone, Debug)]
pub(super) enum FootprintFault {
    /// Its points are not a valid polygon.
    Shape(ShapeError),
    /// The message was refused before its points were read.
    Rejected(Rejection),
}

/// The freshness rule (see [Freshness](super#freshness)): whether an input
/// that arrived at `received`, stamped `stamp` (0: not stamped), is stale
/// at `now` with `timeout` (s; 0: never).
pub fn is_stale(timeout: f64, now: f64, received: f64, stamp: f64) -> bool {
    timeout > 0.0
        && (now - age_origin(received, stamp) > timeout || (stamp != 0.0 && stamp - now > timeout))
}

/// What an input's age counts from: its arrival, or its stamp when that is
/// earlier and not 0. With a timeout, it is stale past this plus the
/// timeout ([`is_stale`]).
pub(super) fn age_origin(received: f64, stamp: f64) -> f64 {
    match stamp == 0.0 {
        true => received,
        false => received.min(stamp),
    }
}
