//! `footprint` (`geometry_msgs/PolygonStamped`) into its keep-latest slot;
//! not subscribed when the footprint comes from TF.

use super::kind::{InputKind, Intake, LARGE_MESSAGE_BYTES};
use crate::ros::inputs::{self, LatestFootprint};
use crate::ros::node::io_thread::pool::{Lease, Subscriber};
use crate::ros::node::io_thread::sinks::{input_qos, Sinks};
use r2r::geometry_msgs::msg::PolygonStamped;
use std::sync::Arc;

/// The footprint.
pub(crate) struct Footprint {
    sub: Lease<PolygonStamped>,
    slot: Arc<LatestFootprint>,
}

impl Footprint {
    pub(crate) fn subscribe(
        subscriber: &mut Subscriber<'_>,
        sinks: &Sinks,
    ) -> r2r::Result<Option<Box<dyn InputKind>>> {
        let Some(slot) = &sinks.footprints else {
            return Ok(None);
        };
        let sub =
            subscriber.subscribe::<PolygonStamped>("footprint", input_qos(sinks.reliability))?;
        Ok(Some(Box::new(Footprint {
            sub,
            slot: Arc::clone(slot),
        })))
    }
}

impl InputKind for Footprint {
    fn take(&mut self, intake: &mut Intake<'_>) {
        let (time, slot) = (intake.time, &self.slot);
        let mut large = false;
        self.sub.each(|msg| {
            large |= inputs::footprint_bytes(msg) > LARGE_MESSAGE_BYTES;
            slot.put(msg, time.arrival());
        });
        intake.large |= large;
    }
}
