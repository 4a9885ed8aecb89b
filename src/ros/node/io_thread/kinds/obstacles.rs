//! `obstacles` (`sat_collision_msgs/ObstacleArray`) and
//! `obstacle_instances` (`geometry_msgs/PolygonInstanceStamped`) into the
//! obstacle stage's queue.

use super::kind::{InputKind, Intake, LARGE_MESSAGE_BYTES};
use crate::ros::inputs::{self, ArrayInput, InstanceInput, PendingObstacles};
use crate::ros::node::io_thread::pool::{Lease, Subscriber};
use crate::ros::node::io_thread::sinks::{input_qos, Sinks};
use r2r::geometry_msgs::msg::PolygonInstanceStamped;
use r2r::sat_collision_msgs::msg::ObstacleArray;
use std::sync::Arc;

/// The obstacle array.
pub(crate) struct Array {
    sub: Lease<ObstacleArray>,
    pending: Arc<PendingObstacles>,
}

impl Array {
    pub(crate) fn subscribe(
        subscriber: &mut Subscriber<'_>,
        sinks: &Sinks,
    ) -> r2r::Result<Option<Box<dyn InputKind>>> {
        let sub =
            subscriber.subscribe::<ObstacleArray>("obstacles", input_qos(sinks.reliability))?;
        Ok(Some(Box::new(Array {
            sub,
            pending: Arc::clone(&sinks.pending),
        })))
    }
}

impl InputKind for Array {
    fn take(&mut self, intake: &mut Intake<'_>) {
        let (time, pending) = (intake.time, &self.pending);
        let mut large = false;
        self.sub.each(|msg| {
            let arrival = time.arrival();
            large |= inputs::array_bytes(msg) > LARGE_MESSAGE_BYTES;
            pending.put_array(ArrayInput::read(msg), arrival);
        });
        intake.large |= large;
    }
}

/// Obstacle instances.
pub(crate) struct Instances {
    sub: Lease<PolygonInstanceStamped>,
    pending: Arc<PendingObstacles>,
}

impl Instances {
    pub(crate) fn subscribe(
        subscriber: &mut Subscriber<'_>,
        sinks: &Sinks,
    ) -> r2r::Result<Option<Box<dyn InputKind>>> {
        let sub = subscriber.subscribe::<PolygonInstanceStamped>(
            "obstacle_instances",
            input_qos(sinks.reliability),
        )?;
        Ok(Some(Box::new(Instances {
            sub,
            pending: Arc::clone(&sinks.pending),
        })))
    }
}

impl InputKind for Instances {
    fn take(&mut self, intake: &mut Intake<'_>) {
        let (time, pending) = (intake.time, &self.pending);
        let mut large = false;
        self.sub.each(|msg| {
            let arrival = time.arrival();
            large |= inputs::instance_bytes(msg) > LARGE_MESSAGE_BYTES;
            pending.put_instance(InstanceInput::read(msg), arrival);
        });
        intake.large |= large;
    }
}
