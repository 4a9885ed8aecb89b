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

mod fleet;
mod footprint;
mod gate;
mod kind;
mod obstacles;
mod sources;
mod tf;
mod velocity;

use super::pool::Subscriber;
use super::sinks::Sinks;
pub(crate) use kind::{InputKind, Intake};

/// The inputs' kinds, subscribed for `sinks`, in the order they are
/// taken.
pub(crate) fn register(
    subscriber: &mut Subscriber<'_>,
    sinks: &mut Sinks,
) -> Result<Vec<Box<dyn InputKind>>, String> {
    let mut kinds: Vec<Box<dyn InputKind>> = Vec::new();
    let mut add = |kind: Result<Option<Box<dyn InputKind>>, String>| -> Result<(), String> {
        kinds.extend(kind?);
        Ok(())
    };
    add(plain(tf::Tf::subscribe(subscriber, sinks, true)))?;
    add(plain(tf::Tf::subscribe(subscriber, sinks, false)))?;
    add(gate::Gate::subscribe(subscriber, sinks))?;
    add(plain(velocity::Velocity::subscribe(subscriber, sinks)))?;
    add(plain(fleet::Fleet::subscribe(subscriber, sinks)))?;
    add(plain(footprint::Footprint::subscribe(subscriber, sinks)))?;
    add(plain(obstacles::Array::subscribe(subscriber, sinks)))?;
    add(plain(obstacles::Instances::subscribe(subscriber, sinks)))?;
    for reader in std::mem::take(&mut sinks.sources) {
        add(plain(sources::Source::subscribe(subscriber, sinks, reader)))?;
    }
    Ok(kinds)
}

/// r2r's refusal to subscribe, as configure reports it.
fn plain(
    kind: r2r::Result<Option<Box<dyn InputKind>>>,
) -> Result<Option<Box<dyn InputKind>>, String> {
    kind.map_err(|e| format!("cannot subscribe: {e}"))
}
