//! The I/O thread (`ros_io`): spins r2r, takes every input message the
//! moment rcl has it, stamps its arrival and hands it on.

use super::ros_time::RosTime;
use super::threads::trim_heap;
use crate::ros::inputs::{self, ArrayInput, InstanceInput, LatestFootprint, PendingObstacles};
use crate::ros::spin::{spin_until, StopFlag};
use futures::StreamExt;
use r2r::geometry_msgs::msg::{PolygonInstanceStamped, PolygonStamped};
use r2r::sat_collision_msgs::msg::ObstacleArray;
use r2r::QosProfile;
use std::sync::Arc;

/// Messages above this many bytes (native form: strings and points) are
/// large: memory is trimmed once they are freed.
const LARGE_MESSAGE_BYTES: usize = 1 << 20;

/// The next item of `stream` if one is ready now.
fn ready_now<S: futures::Stream + Unpin>(stream: &mut S) -> Option<S::Item> {
    futures::FutureExt::now_or_never(stream.next()).flatten()
}

/// Spins the node on its own thread: subscriptions are created there (r2r's
/// native messages are not Send), every message is stamped and read the
/// moment it is taken, then handed on. Reports set-up errors through
/// `started`.
pub(super) fn io_thread(
    mut node: r2r::Node,
    time: Arc<RosTime>,
    footprints: Arc<LatestFootprint>,
    pending: Arc<PendingObstacles>,
    stop: StopFlag,
    started: std::sync::mpsc::Sender<Result<(), String>>,
) {
    let subscribed = (|| -> r2r::Result<_> {
        Ok((
            node.subscribe_native::<PolygonStamped>("footprint", QosProfile::default())?,
            node.subscribe_native::<ObstacleArray>("obstacles", QosProfile::default())?,
            node.subscribe_native::<PolygonInstanceStamped>(
                "obstacle_instances",
                QosProfile::default(),
            )?,
        ))
    })();
    let (mut footprint_sub, mut array_sub, mut instance_sub) = match subscribed {
        Ok(subs) => {
            let _ = started.send(Ok(()));
            subs
        }
        Err(e) => {
            let _ = started.send(Err(format!("cannot subscribe: {e}")));
            return;
        }
    };
    spin_until(&mut node, &stop, || {
        // Drained after every spin: r2r's channels (10 deep, dropping the
        // newest when full) never fill.
        let mut large = false;
        while let Some(msg) = ready_now(&mut footprint_sub) {
            large |= inputs::footprint_bytes(&msg) > LARGE_MESSAGE_BYTES;
            footprints.put(&msg, time.arrival());
        }
        while let Some(msg) = ready_now(&mut array_sub) {
            let arrival = time.arrival();
            large |= inputs::array_bytes(&msg) > LARGE_MESSAGE_BYTES;
            pending.put_array(ArrayInput::read(&msg), arrival);
        }
        while let Some(msg) = ready_now(&mut instance_sub) {
            let arrival = time.arrival();
            large |= inputs::instance_bytes(&msg) > LARGE_MESSAGE_BYTES;
            pending.put_instance(InstanceInput::read(&msg), arrival);
        }
        if large {
            trim_heap();
        }
    });
}
