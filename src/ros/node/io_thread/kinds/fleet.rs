//! `fleet_topic` (`sat_collision_msgs/FleetRobot`), when a fleet source
//! is configured: every message read ([`crate::ros::fleet::read`]) and
//! kept newest per robot in its slot.

use super::kind::{InputKind, Intake};
use crate::ros::fleet::{read, LatestFleet, FLEET_SUBSCRIPTION_QOS};
use crate::ros::node::io_thread::pool::{Lease, Subscriber};
use crate::ros::node::io_thread::sinks::Sinks;
use r2r::sat_collision_msgs::msg::FleetRobot;
use std::sync::Arc;

/// The fleet topic.
pub(crate) struct Fleet {
    sub: Lease<FleetRobot>,
    slot: Arc<LatestFleet>,
}

impl Fleet {
    pub(crate) fn subscribe(
        subscriber: &mut Subscriber<'_>,
        sinks: &Sinks,
    ) -> r2r::Result<Option<Box<dyn InputKind>>> {
        let Some((topic, slot)) = &sinks.fleet else {
            return Ok(None);
        };
        Ok(Some(Box::new(Fleet {
            sub: subscriber.subscribe(topic, FLEET_SUBSCRIPTION_QOS)?,
            slot: Arc::clone(slot),
        })))
    }
}

impl InputKind for Fleet {
    fn take(&mut self, intake: &mut Intake<'_>) {
        let arrival = intake.time.arrival();
        let slot = &self.slot;
        self.sub.each(|msg| slot.put(read(msg), arrival));
    }
}
