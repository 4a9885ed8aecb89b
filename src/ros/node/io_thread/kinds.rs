//! The node's inputs as a list of registered kinds, as nav2's collision
//! monitor holds its `sources_`: each kind is one type behind one trait,
//! [`InputKind`], which owns its subscription (topic, QoS, message type,
//! leased from the pool) and what its messages become (read natively,
//! stamped with their arrival, put in the slot the decision loop takes
//! the core's event from).
//!
//! [`register`] is the list: the order is the order messages are taken
//! after a spin (TF first, so what came with it is placed with it; the
//! gate's command next, it is what a robot waits for). Adding an input
//! kind is one file in `kinds/` and one line there.

mod footprint;
mod obstacles;
mod sources;
mod tf;
mod velocity;

use super::Sinks;
use super::Subscriber;
use crate::ros::node::ros_time::RosTime;
use crate::ros::tf::TfBuffer;
use std::sync::Mutex;

/// What every kind reads with: the clock that stamps arrivals, the TF
/// buffer (a cloud's transform), and whether a message was large.
pub(crate) struct Intake<'a> {
    pub(crate) time: &'a RosTime,
    pub(crate) tf: &'a Mutex<TfBuffer>,
    /// Set when a message above [`LARGE_MESSAGE_BYTES`] was read: memory
    /// is trimmed once it is freed.
    pub(crate) large: bool,
}

/// Messages above this many bytes (native form: strings and points) are
/// large.
pub(crate) const LARGE_MESSAGE_BYTES: usize = 1 << 20;

/// One input kind on the I/O thread.
pub(crate) trait InputKind {
    /// Takes every message that is ready, stamps and reads it, and puts it
    /// in its slot. Called after every spin: r2r's channels (10 deep,
    /// dropping the newest when full) never fill.
    fn take(&mut self, intake: &mut Intake<'_>);
}

/// The inputs' kinds, subscribed for `sinks`, in the order they are
/// taken.
pub(crate) fn register(
    subscriber: &mut Subscriber<'_>,
    sinks: &mut Sinks,
) -> Result<Vec<Box<dyn InputKind>>, String> {
    let mut kinds: Vec<Box<dyn InputKind>> = Vec::new();
    let mut add = |kind: r2r::Result<Option<Box<dyn InputKind>>>| -> Result<(), String> {
        kinds.extend(kind.map_err(|e| format!("cannot subscribe: {e}"))?);
        Ok(())
    };
    add(tf::Tf::subscribe(subscriber, sinks, true))?;
    add(tf::Tf::subscribe(subscriber, sinks, false))?;
    if let Some(gate) = sinks.gate.take() {
        let gate = crate::ros::node::gate::GateSubs::subscribe(subscriber, gate)
            .map_err(|e| format!("cannot subscribe the gate's topics: {e}"))?;
        add(Ok(Some(Box::new(gate))))?;
    }
    add(velocity::Velocity::subscribe(subscriber, sinks))?;
    add(footprint::Footprint::subscribe(subscriber, sinks))?;
    add(obstacles::Array::subscribe(subscriber, sinks))?;
    add(obstacles::Instances::subscribe(subscriber, sinks))?;
    for reader in std::mem::take(&mut sinks.sources) {
        add(sources::Source::subscribe(subscriber, sinks, reader))?;
    }
    Ok(kinds)
}
