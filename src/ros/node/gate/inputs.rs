//! The gate's inputs on the I/O thread: `cmd_vel_in_topic` into a
//! keep-latest [`CommandSlot`], the dynamic zones' topics into
//! [`ZoneShapes`] (see the parent's module documentation).

use super::super::ros_time::RosTime;
use super::super::threads::lock;
use crate::gate::{Action, Command, GateConfig, ZoneShape};
use crate::node::{Arrival, CommandIn, FootprintInput, ShapeInput};
use crate::ros::native;
use futures::{Stream, StreamExt};
use r2r::geometry_msgs::msg::{PolygonStamped, Twist, TwistStamped};
use r2r::std_msgs::msg::Float32;
use r2r::{NativeMsg, QosProfile};
use std::sync::{Arc, Mutex};

/// `cmd_vel_in_topic`'s QoS: nav2's (reliable, volatile, depth 1).
pub(crate) const COMMAND_QOS: QosProfile = QosProfile::default().keep_last(1);

/// The newest command for the decision loop: a newer one replaces one not
/// yet taken (nav2's depth 1). Its buffers are reused: no allocation once
/// a frame id as long has been seen.
#[derive(Debug, Default)]
pub(crate) struct CommandSlot {
    inner: Mutex<(CommandIn, Option<Arrival>)>,
    ready: tokio::sync::Notify,
}

impl CommandSlot {
    /// Makes the command `fill` writes the newest, arrived at `arrival`.
    fn put(&self, arrival: Arrival, fill: impl FnOnce(&mut CommandIn)) {
        let mut inner = lock(&self.inner);
        fill(&mut inner.0);
        inner.1 = Some(arrival);
        drop(inner);
        self.ready.notify_one();
    }

    /// The newest command into `out`, if one came since the last call.
    pub(crate) fn take_into(&self, out: &mut CommandIn) -> Option<Arrival> {
        let mut inner = lock(&self.inner);
        let arrival = inner.1.take()?;
        out.copy_from(&inner.0);
        Some(arrival)
    }

    /// Waits until a command is put.
    pub(crate) async fn ready(&self) {
        self.ready.notified().await;
    }
}

/// The newest shape of each dynamic zone for the decision loop.
#[derive(Debug, Default)]
pub(crate) struct ZoneShapes {
    latest: Mutex<Vec<Option<ShapeInput>>>,
    ready: tokio::sync::Notify,
}

impl ZoneShapes {
    fn put(&self, zone: usize, input: ShapeInput) {
        let mut latest = lock(&self.latest);
        if latest.len() <= zone {
            latest.resize_with(zone + 1, || None);
        }
        latest[zone] = Some(input);
        drop(latest);
        self.ready.notify_one();
    }

    /// Every zone's newest shape that came since the last call, into `out`
    /// (aligned with the zones).
    pub(crate) fn take_into(&self, out: &mut Vec<Option<ShapeInput>>) {
        let mut latest = lock(&self.latest);
        if out.len() < latest.len() {
            out.resize_with(latest.len(), || None);
        }
        for (slot, new) in out.iter_mut().zip(latest.iter_mut()) {
            if let Some(new) = new.take() {
                *slot = Some(new);
            }
        }
    }

    /// Waits until a shape is put.
    pub(crate) async fn ready(&self) {
        self.ready.notified().await;
    }
}

/// What the I/O thread needs to read the gate's topics.
pub(crate) struct GateSinks {
    pub(crate) config: GateConfig,
    pub(crate) commands: Arc<CommandSlot>,
    pub(crate) shapes: Arc<ZoneShapes>,
}

type Sub<T> = Box<dyn Stream<Item = NativeMsg<T>> + Unpin>;

enum CommandSub {
    Twist(Sub<Twist>),
    Stamped(Sub<TwistStamped>),
}

enum ShapeSub {
    Polygon(usize, Sub<PolygonStamped>),
    Radius(usize, Sub<Float32>),
}

/// The gate's subscriptions, on the I/O thread.
pub(crate) struct GateSubs {
    command: CommandSub,
    shapes: Vec<ShapeSub>,
    commands: Arc<CommandSlot>,
    zone_shapes: Arc<ZoneShapes>,
}

fn ready_now<S: Stream + Unpin>(stream: &mut S) -> Option<S::Item> {
    futures::FutureExt::now_or_never(stream.next()).flatten()
}

/// Whether a zone's shape comes from `footprint_topic` (an `approach`
/// polygon without points), as the configuration decides.
fn footprint_zone(shape: &ZoneShape, action: Action) -> bool {
    *shape == (ZoneShape::Dynamic { circle: false }) && action == Action::Approach
}

impl GateSubs {
    /// Subscribes the gate's topics (on the I/O thread, through its pool).
    pub(crate) fn subscribe(
        subscriber: &mut super::super::io_thread::Subscriber<'_>,
        sinks: GateSinks,
    ) -> r2r::Result<Self> {
        let topic = sinks.config.cmd_vel_in_topic.as_str();
        let command = if sinks.config.stamped {
            CommandSub::Stamped(Box::new(
                subscriber.subscribe::<TwistStamped>(topic, COMMAND_QOS)?,
            ))
        } else {
            CommandSub::Twist(Box::new(subscriber.subscribe::<Twist>(topic, COMMAND_QOS)?))
        };
        let mut shapes = Vec::new();
        for (index, zone) in sinks.config.zones.iter().enumerate() {
            let ZoneShape::Dynamic { circle } = zone.shape else {
                continue;
            };
            if footprint_zone(&zone.shape, zone.action) {
                let sub = subscriber
                    .subscribe::<PolygonStamped>(&zone.footprint_topic, QosProfile::default())?;
                shapes.push(ShapeSub::Polygon(index, Box::new(sub)));
                continue;
            }
            let qos = match zone.subscribe_transient_local {
                true => QosProfile::default().transient_local(),
                false => QosProfile::default(),
            };
            let topic = zone.polygon_sub_topic.as_str();
            shapes.push(match circle {
                true => ShapeSub::Radius(
                    index,
                    Box::new(subscriber.subscribe::<Float32>(topic, qos)?),
                ),
                false => ShapeSub::Polygon(
                    index,
                    Box::new(subscriber.subscribe::<PolygonStamped>(topic, qos)?),
                ),
            });
        }
        Ok(GateSubs {
            command,
            shapes,
            commands: sinks.commands,
            zone_shapes: sinks.shapes,
        })
    }

    /// Takes the newest command (stamped with its arrival) into its slot;
    /// after every spin.
    pub(crate) fn take_commands(&mut self, time: &RosTime) {
        match &mut self.command {
            CommandSub::Twist(sub) => {
                let mut latest = None;
                while let Some(msg) = ready_now(sub) {
                    latest = Some(msg);
                }
                if let Some(msg) = latest {
                    self.commands.put(time.arrival(), |c| {
                        c.command = Command::new(msg.linear.x, msg.linear.y, msg.angular.z);
                    });
                }
            }
            CommandSub::Stamped(sub) => {
                let mut latest = None;
                while let Some(msg) = ready_now(sub) {
                    latest = Some(msg);
                }
                if let Some(msg) = latest {
                    self.commands.put(time.arrival(), |c| {
                        let t = &msg.twist;
                        c.command = Command::new(t.linear.x, t.linear.y, t.angular.z);
                        c.sec = msg.header.stamp.sec;
                        c.nanosec = msg.header.stamp.nanosec;
                        c.frame_id.clear();
                        if let Ok(frame) = native::frame_id(&msg.header.frame_id) {
                            c.frame_id.push_str(frame);
                        }
                    });
                }
            }
        }
    }

    /// Takes the dynamic zones' newest shapes into their slot.
    pub(crate) fn take_shapes(&mut self) {
        for sub in &mut self.shapes {
            match sub {
                ShapeSub::Polygon(index, sub) => {
                    while let Some(msg) = ready_now(sub) {
                        let mut input = FootprintInput::default();
                        input.read(&msg);
                        self.zone_shapes.put(*index, ShapeInput::Polygon(input));
                    }
                }
                ShapeSub::Radius(index, sub) => {
                    while let Some(msg) = ready_now(sub) {
                        self.zone_shapes
                            .put(*index, ShapeInput::Radius(f64::from(msg.data)));
                    }
                }
            }
        }
    }
}
