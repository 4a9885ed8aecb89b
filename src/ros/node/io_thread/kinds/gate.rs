//! The velocity gate's topics (`cmd_vel_in_topic`, the dynamic zones'
//! shapes) into their slots: [`GateSubs`], the gate's own reading.

use super::kind::{InputKind, Intake};
use crate::ros::node::gate::GateSubs;
use crate::ros::node::io_thread::pool::Subscriber;
use crate::ros::node::io_thread::sinks::Sinks;

/// The gate's subscriptions.
pub(crate) struct Gate(GateSubs);

impl Gate {
    pub(crate) fn subscribe(
        subscriber: &mut Subscriber<'_>,
        sinks: &mut Sinks,
    ) -> Result<Option<Box<dyn InputKind>>, String> {
        let Some(gate) = sinks.gate.take() else {
            return Ok(None);
        };
        let subs = GateSubs::subscribe(subscriber, gate)
            .map_err(|e| format!("cannot subscribe the gate's topics: {e}"))?;
        Ok(Some(Box::new(Gate(subs))))
    }
}

impl InputKind for Gate {
    fn take(&mut self, intake: &mut Intake<'_>) {
        // The command first: it is what a robot waits for.
        self.0.take_commands(intake.time);
        self.0.take_shapes();
    }
}
