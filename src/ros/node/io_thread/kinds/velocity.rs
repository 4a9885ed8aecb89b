//! `velocity_topic` (`velocity_type`: odometry, twist, twist_stamped) into
//! its keep-latest slot, for the prediction.

use super::kind::{InputKind, Intake};
use crate::config::VelocityType;
use crate::ros::inputs::{LatestVelocity, VelocityInput};
use crate::ros::node::io_thread::pool::{Lease, Subscriber};
use crate::ros::node::io_thread::sinks::{input_qos, Sinks};
use r2r::geometry_msgs::msg::{Twist, TwistStamped};
use r2r::nav_msgs::msg::Odometry;
use std::sync::Arc;

/// The subscription, of the type `velocity_type` names.
enum Sub {
    Odometry(Lease<Odometry>),
    Twist(Lease<Twist>),
    TwistStamped(Lease<TwistStamped>),
}

/// The velocity.
pub(crate) struct Velocity {
    sub: Sub,
    slot: Arc<LatestVelocity>,
}

impl Velocity {
    pub(crate) fn subscribe(
        subscriber: &mut Subscriber<'_>,
        sinks: &Sinks,
    ) -> r2r::Result<Option<Box<dyn InputKind>>> {
        let Some((topic, kind, slot)) = &sinks.velocity else {
            return Ok(None);
        };
        let qos = input_qos(sinks.reliability);
        let sub = match kind {
            VelocityType::Twist => Sub::Twist(subscriber.subscribe(topic, qos)?),
            VelocityType::TwistStamped => Sub::TwistStamped(subscriber.subscribe(topic, qos)?),
            VelocityType::Odometry => Sub::Odometry(subscriber.subscribe(topic, qos)?),
        };
        Ok(Some(Box::new(Velocity {
            sub,
            slot: Arc::clone(slot),
        })))
    }
}

impl InputKind for Velocity {
    fn take(&mut self, intake: &mut Intake<'_>) {
        let mut latest = None;
        match &mut self.sub {
            Sub::Odometry(sub) => sub.each(|msg| latest = Some(VelocityInput::odometry(msg))),
            Sub::Twist(sub) => sub.each(|msg| latest = Some(VelocityInput::twist(msg))),
            Sub::TwistStamped(sub) => {
                sub.each(|msg| latest = Some(VelocityInput::twist_stamped(msg)));
            }
        }
        if let Some(input) = latest {
            self.slot.put(input, intake.time.arrival());
        }
    }
}
