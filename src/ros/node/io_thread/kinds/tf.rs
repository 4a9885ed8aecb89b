//! `/tf` and `/tf_static` into the core's TF buffer.

use super::kind::{InputKind, Intake};
use crate::ros::node::io_thread::pool::{Lease, Subscriber};
use crate::ros::node::io_thread::sinks::{Sinks, TF_QOS, TF_STATIC_QOS};
use crate::ros::node::threads::lock;
use r2r::tf2_msgs::msg::TFMessage;
use std::sync::Arc;

/// `/tf` or `/tf_static`.
pub(crate) struct Tf {
    sub: Lease<TFMessage>,
    is_static: bool,
    /// `/tf` while the footprint comes from TF: the robot moved, decide.
    moved: Option<Arc<tokio::sync::Notify>>,
}

impl Tf {
    pub(crate) fn subscribe(
        subscriber: &mut Subscriber<'_>,
        sinks: &Sinks,
        is_static: bool,
    ) -> r2r::Result<Option<Box<dyn InputKind>>> {
        let sub = match is_static {
            true => subscriber.subscribe::<TFMessage>("/tf_static", TF_STATIC_QOS)?,
            false => subscriber.subscribe::<TFMessage>("/tf", TF_QOS)?,
        };
        let moved = (!is_static).then(|| sinks.tf_moved.clone()).flatten();
        Ok(Some(Box::new(Tf {
            sub,
            is_static,
            moved,
        })))
    }
}

impl InputKind for Tf {
    fn take(&mut self, intake: &mut Intake<'_>) {
        let mut any = false;
        let (time, tf, is_static) = (intake.time, intake.tf, self.is_static);
        self.sub.each(|msg| {
            let arrival = time.arrival();
            crate::ros::tf::take(&mut lock(tf), msg, is_static, arrival);
            any = true;
        });
        if let (true, Some(notify)) = (any, &self.moved) {
            notify.notify_one();
        }
    }
}
