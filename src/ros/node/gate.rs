//! The velocity gate's edge (nav2's collision monitor): its topics, its
//! service and where each of them runs.
//!
//! * **I/O thread** ([`GateSubs`]): `cmd_vel_in_topic` (`Twist`, or
//!   `TwistStamped` with `enable_stamped_cmd_vel`; reliable, depth 1 as
//!   nav2) is read in native form the moment rcl has it, stamped with its
//!   arrival and put in a keep-latest slot ([`CommandSlot`], no allocation
//!   once warm) that wakes the decision loop. The dynamic zones' topics
//!   (`polygon_sub_topic`: a `PolygonStamped`, or a `std_msgs/Float32`
//!   radius for a circle; `footprint_topic`: a `PolygonStamped`) go to
//!   [`ZoneShapes`], newest per zone.
//! * **Decision loop** ([`GateEdge`]): the command is handed to the core
//!   ([`crate::node::Core::on_command`]: the base frame placed by TF in
//!   each source's frame, then the zones checked), and what it answers is
//!   published: the command on `cmd_vel_out_topic`, the state on
//!   `state_topic` when it changes (nav2's log line is the core's notice);
//!   at `publish_rate` the re-check ([`crate::node::Core::tick`]), the
//!   zones' `PolygonStamped` and, while somebody subscribes,
//!   `~/collision_points_marker`; after every check (each command and
//!   each re-check), while somebody subscribes, `~/triggering_points`
//!   (nav2's: the points that triggered the current action). A dynamic zone's shape goes to the core
//!   when it arrives ([`crate::node::Core::on_zone_shapes`]: moved into
//!   `base_frame_id` with the latest transform, retried at `publish_rate`
//!   while TF cannot place it). `~/toggle` (`nav2_msgs/srv/Toggle`) sets
//!   the parameter `enabled`; the run-time parameters `enabled` and
//!   `<zone>.enabled` reach the gate through the core's
//!   [`follow`](crate::node::Core::follow).
//!
//! Nothing on the command's path waits for the report worker, the
//! markers or the obstacle worker.

use super::logging::Warnings;
use super::threads::lock;
use crate::gate::{Action, Command, GateConfig, GateState};
use crate::geometry::Point;
use crate::node::{
    CommandIn, Core, GatedCommand, Outputs, ShapeInput, TriggeringPoints, ZonePolygons,
};
use crate::ros::markers::{points_marker, MAX_DRAWN_SOURCE_POINTS};
use crate::ros::native;
use crate::ros::params::Params;
use futures::StreamExt;
use r2r::builtin_interfaces::msg::Time as RosTimeMsg;
use r2r::geometry_msgs::msg::{Point32, Polygon, PolygonStamped, Twist, TwistStamped};
use r2r::nav2_msgs::msg::CollisionMonitorState;
use r2r::nav2_msgs::srv::Toggle;
use r2r::std_msgs::msg::{ColorRGBA, Header};
use r2r::visualization_msgs::msg::{Marker, MarkerArray};
use r2r::{NativeMsg, Publisher, QosProfile, ServiceRequest};
use std::sync::{Arc, Mutex};

mod inputs;

pub(super) use inputs::{CommandSlot, GateSinks, GateSubs, ZoneShapes, COMMAND_QOS};

/// Points drawn per zone on `~/collision_points_marker` at most.
pub(super) const MAX_DRAWN_ZONE_POINTS: usize = MAX_DRAWN_SOURCE_POINTS;

/// Points drawn per source on `~/triggering_points` at most.
pub(super) const MAX_DRAWN_TRIGGERING_POINTS: usize = MAX_DRAWN_SOURCE_POINTS;

/// Segments of a circle zone's outline (`PolygonStamped`).
const CIRCLE_SEGMENTS: usize = 32;

/// `cmd_vel_out_topic`'s publisher and its message, published in place.
enum CommandOut {
    Twist(Publisher<Twist>, NativeMsg<Twist>),
    Stamped(Publisher<TwistStamped>, NativeMsg<TwistStamped>),
}

/// What the decision loop waits for from the gate, besides its slots'
/// notifications.
pub(super) type ToggleRequests =
    futures::stream::LocalBoxStream<'static, ServiceRequest<Toggle::Service>>;

/// The gate's edge on the decision loop: its slots and publishers.
pub(super) struct GateEdge {
    commands: Arc<CommandSlot>,
    shapes: Arc<ZoneShapes>,
    /// Scratch for the command taken, and the shapes.
    command: CommandIn,
    taken_shapes: Vec<Option<ShapeInput>>,
    out: CommandOut,
    state_pub: Option<Publisher<CollisionMonitorState>>,
    points_pub: Publisher<MarkerArray>,
    triggering_pub: Publisher<MarkerArray>,
    /// `(zone index, publisher)` of each `visualize` zone.
    polygon_pubs: Vec<(usize, Publisher<PolygonStamped>)>,
    /// Scratch for the markers' points.
    marker_points: Vec<Point>,
    /// Scratch for `~/triggering_points`.
    triggering: TriggeringPoints,
    logger: String,
    warnings: Warnings,
}

/// The gate's parts, made at configure.
pub(super) struct GateParts {
    pub(super) edge: GateEdge,
    pub(super) sinks: GateSinks,
    pub(super) toggle: ToggleRequests,
}

/// `cmd_vel_out_topic`'s publisher, of the type `enable_stamped_cmd_vel`
/// names.
enum OutPublisher {
    Twist(Publisher<Twist>),
    Stamped(Publisher<TwistStamped>),
}

/// The gate's publishers and `~/toggle`, made on the I/O thread (which
/// owns the node) at configure.
pub(super) struct GateEndpoints {
    out: OutPublisher,
    state_pub: Option<Publisher<CollisionMonitorState>>,
    points_pub: Publisher<MarkerArray>,
    triggering_pub: Publisher<MarkerArray>,
    polygon_pubs: Vec<(usize, Publisher<PolygonStamped>)>,
    toggle: futures::stream::BoxStream<'static, ServiceRequest<Toggle::Service>>,
}

impl GateEndpoints {
    /// The gate's publishers and service on `node`, for the zones of
    /// `gate_config` (not empty).
    pub(super) fn create(node: &mut r2r::Node, gate_config: &GateConfig) -> r2r::Result<Self> {
        let qos = COMMAND_QOS;
        let topic = gate_config.cmd_vel_out_topic.as_str();
        let out = if gate_config.stamped {
            OutPublisher::Stamped(node.create_publisher(topic, qos.clone())?)
        } else {
            OutPublisher::Twist(node.create_publisher(topic, qos.clone())?)
        };
        let state_pub = match gate_config.state_topic.is_empty() {
            true => None,
            false => Some(node.create_publisher(&gate_config.state_topic, qos.clone())?),
        };
        let points_pub = node.create_publisher("~/collision_points_marker", qos.clone())?;
        let triggering_pub = node.create_publisher("~/triggering_points", qos)?;
        let mut polygon_pubs = Vec::new();
        for (index, zone) in gate_config.zones.iter().enumerate() {
            if zone.visualize {
                let publisher =
                    node.create_publisher(&zone.polygon_pub_topic, QosProfile::default())?;
                polygon_pubs.push((index, publisher));
            }
        }
        let toggle = node
            .create_service::<Toggle::Service>("~/toggle", QosProfile::default())?
            .boxed();
        Ok(GateEndpoints {
            out,
            state_pub,
            points_pub,
            triggering_pub,
            polygon_pubs,
            toggle,
        })
    }
}

impl GateEdge {
    /// The gate's edge of `gate_config` on its `endpoints`.
    pub(super) fn create(
        endpoints: GateEndpoints,
        gate_config: &GateConfig,
        logger: &str,
    ) -> GateParts {
        let GateEndpoints {
            out,
            state_pub,
            points_pub,
            triggering_pub,
            polygon_pubs,
            toggle,
        } = endpoints;
        let out = match out {
            OutPublisher::Stamped(p) => CommandOut::Stamped(p, NativeMsg::new()),
            OutPublisher::Twist(p) => CommandOut::Twist(p, NativeMsg::new()),
        };
        let commands = Arc::new(CommandSlot::default());
        let shapes = Arc::new(ZoneShapes::default());
        let sinks = GateSinks {
            config: gate_config.clone(),
            commands: Arc::clone(&commands),
            shapes: Arc::clone(&shapes),
        };
        let edge = GateEdge {
            commands,
            shapes,
            command: CommandIn::default(),
            taken_shapes: Vec::new(),
            out,
            state_pub,
            points_pub,
            triggering_pub,
            polygon_pubs,
            marker_points: Vec::new(),
            triggering: TriggeringPoints::default(),
            logger: logger.to_owned(),
            warnings: Warnings::new(logger),
        };
        GateParts {
            edge,
            sinks,
            toggle: toggle.boxed_local(),
        }
    }

    /// The gate's publishers, to destroy at cleanup.
    pub(super) fn release(self) -> Vec<super::threads::Release> {
        let mut all = vec![match self.out {
            CommandOut::Stamped(p, _) => super::threads::release(p),
            CommandOut::Twist(p, _) => super::threads::release(p),
        }];
        all.extend(self.state_pub.map(super::threads::release));
        all.push(super::threads::release(self.points_pub));
        all.push(super::threads::release(self.triggering_pub));
        all.extend(
            self.polygon_pubs
                .into_iter()
                .map(|(_, p)| super::threads::release(p)),
        );
        all
    }

    /// The slot commands arrive in.
    pub(super) fn commands(&self) -> Arc<CommandSlot> {
        Arc::clone(&self.commands)
    }

    /// The slot dynamic zones' shapes arrive in.
    pub(super) fn shapes(&self) -> Arc<ZoneShapes> {
        Arc::clone(&self.shapes)
    }

    /// The newest command, when one came since the last call, with its
    /// arrival.
    pub(super) fn take_command(&mut self) -> Option<(&CommandIn, crate::node::Arrival)> {
        let arrival = self.commands.take_into(&mut self.command)?;
        Some((&self.command, arrival))
    }

    /// The dynamic zones' newest shapes (aligned with the zones).
    pub(super) fn take_shapes(&mut self) -> &mut Vec<Option<ShapeInput>> {
        self.shapes.take_into(&mut self.taken_shapes);
        &mut self.taken_shapes
    }

    /// Publishes the gate's part of `out`: the command, the state, the
    /// zones' polygons and, while somebody subscribes, the points the
    /// zones act on.
    pub(super) fn publish(&mut self, core: &Core, out: &Outputs, now: f64) {
        if let Some(command) = &out.command {
            self.publish_command(core, command);
        }
        if let Some(state) = &out.state {
            self.publish_state(core, state);
        }
        match out.zone_polygons {
            ZonePolygons::None => {}
            ZonePolygons::All => self.publish_polygons(core, None, now),
            ZonePolygons::Changed => {
                for &index in &out.changed_zones {
                    self.publish_polygons(core, Some(index), now);
                }
            }
        }
        if out.zone_points {
            self.publish_points(core, now);
        }
        if out.triggering_points {
            self.publish_triggering(core);
        }
    }

    fn publish_command(&mut self, core: &Core, gated: &GatedCommand) {
        let command: &Command = &gated.command;
        let result = match &mut self.out {
            CommandOut::Twist(publisher, msg) => {
                write_twist(msg, command);
                publisher.publish_native(msg)
            }
            CommandOut::Stamped(publisher, msg) => {
                write_twist(&mut msg.twist, command);
                let last = core.last_command();
                let (sec, nanosec) = match (gated.restamp, last) {
                    (Some(now), _) => split_seconds(now),
                    (None, Some(c)) => (c.sec, c.nanosec),
                    (None, None) => (0, 0),
                };
                msg.header.stamp.sec = sec;
                msg.header.stamp.nanosec = nanosec;
                let frame = last.map_or("", |c| c.frame_id.as_str());
                if native::set_string(&mut msg.header.frame_id, frame).is_err() {
                    self.warnings.warn("gate_publish", || {
                        "could not copy the command's frame id".to_owned()
                    });
                }
                publisher.publish_native(msg)
            }
        };
        if let Err(e) = result {
            self.warnings.warn("gate_publish", || {
                format!("could not publish the gated command: {e}")
            });
        }
    }

    /// The state message (nav2's log line is the core's notice).
    fn publish_state(&mut self, core: &Core, state: &GateState) {
        let (Some(publisher), Some(gate)) = (&self.state_pub, core.gate()) else {
            return;
        };
        let msg = CollisionMonitorState {
            action_type: state.action.code(),
            polygon_name: gate.state_name(state).to_owned(),
        };
        if let Err(e) = publisher.publish(&msg) {
            self.warnings.warn("gate_publish", || {
                format!("could not publish the state: {e}")
            });
        }
    }

    /// Publishes the `visualize` zones' shapes (only zone `only` when
    /// given) in the base frame.
    fn publish_polygons(&mut self, core: &Core, only: Option<usize>, now: f64) {
        let Some(gate) = core.gate() else {
            return;
        };
        let frame = &gate.config().base_frame;
        for (index, publisher) in &self.polygon_pubs {
            if only.is_some_and(|o| o != *index) {
                continue;
            }
            let points = core
                .zone_shape(*index)
                .map(|s| s.outline(CIRCLE_SEGMENTS))
                .unwrap_or_default();
            let msg = PolygonStamped {
                header: header(frame, now),
                polygon: Polygon {
                    points: points
                        .iter()
                        .map(|p| Point32 {
                            x: p.x as f32,
                            y: p.y as f32,
                            z: 0.0,
                        })
                        .collect(),
                },
            };
            if let Err(e) = publisher.publish(&msg) {
                self.warnings.warn("gate_publish", || {
                    format!("could not publish a zone's polygon: {e}")
                });
            }
        }
    }

    /// `~/collision_points_marker`, while somebody subscribes: per zone a
    /// `POINTS` marker (ns: the zone's name) of the points inside it,
    /// coloured by its action.
    fn publish_points(&mut self, core: &Core, now: f64) {
        if !self
            .points_pub
            .get_inter_process_subscription_count()
            .is_ok_and(|n| n > 0)
        {
            return;
        }
        let Some(gate) = core.gate() else {
            return;
        };
        let config = gate.config();
        let mut markers = Vec::with_capacity(config.zones.len());
        for (index, zone) in config.zones.iter().enumerate() {
            core.zone_points(index, MAX_DRAWN_ZONE_POINTS, &mut self.marker_points);
            markers.push(points_marker(
                header(&config.base_frame, now),
                zone.name.clone(),
                0.03,
                action_color(zone.action),
                &self.marker_points,
            ));
        }
        if let Err(e) = self.points_pub.publish(&MarkerArray { markers }) {
            self.warnings.warn("gate_publish", || {
                format!("could not publish collision_points_marker: {e}")
            });
        }
    }

    /// `~/triggering_points`, while somebody subscribes, as nav2 main
    /// publishes it: a `DELETEALL` marker (the previous check's markers
    /// go), then per source of the acting zone with points that triggered
    /// it a `POINTS` marker (ns `<zone>/<source>`, frame `base_frame_id`,
    /// stamp 0, scale 0.05, frame locked) coloured by the action (stop red,
    /// slowdown yellow, approach blue, limit orange). Nothing acting: the
    /// `DELETEALL` alone.
    fn publish_triggering(&mut self, core: &Core) {
        if !self
            .triggering_pub
            .get_inter_process_subscription_count()
            .is_ok_and(|n| n > 0)
        {
            return;
        }
        let Some(gate) = core.gate() else {
            return;
        };
        core.triggering_points(MAX_DRAWN_TRIGGERING_POINTS, &mut self.triggering);
        let config = gate.config();
        let sources = &core.config().sources;
        let mut markers = Vec::with_capacity(1 + self.triggering.sources.len());
        markers.push(Marker {
            action: 3, // DELETEALL
            ..Default::default()
        });
        if let Some((action, zone)) = self.triggering.zone {
            let zone_name = config.zones.get(zone).map_or("", |z| z.name.as_str());
            for (source, points) in &self.triggering.sources {
                let source_name = sources.get(*source).map_or("", |s| s.name.as_str());
                // Stamp 0, as nav2 main publishes them.
                let header = Header {
                    stamp: RosTimeMsg { sec: 0, nanosec: 0 },
                    frame_id: config.base_frame.clone(),
                };
                markers.push(points_marker(
                    header,
                    format!("{zone_name}/{source_name}"),
                    0.05,
                    triggering_color(action),
                    points,
                ));
            }
        }
        if let Err(e) = self.triggering_pub.publish(&MarkerArray { markers }) {
            self.warnings.warn("gate_publish", || {
                format!("could not publish triggering_points: {e}")
            });
        }
    }

    /// `~/toggle`: enables or disables the gate, as nav2, by setting the
    /// `enabled` parameter (in `params`, and in the core): the gate's state
    /// is always the parameters'.
    pub(super) fn toggle(
        &mut self,
        request: ServiceRequest<Toggle::Service>,
        params: &Mutex<Params>,
        core: &mut Core,
    ) {
        let enable = request.message.enable;
        lock(params).set_gate_enabled(enable);
        let message = core.toggle(enable);
        r2r::log_info!(&self.logger, "{message}");
        let response = Toggle::Response {
            success: true,
            message,
        };
        if let Err(e) = request.respond(response) {
            self.warnings
                .warn("service", || format!("could not answer toggle: {e}"));
        }
    }
}

/// The command into a native twist: x, y and angular z; nav2 leaves the
/// other three 0.
fn write_twist(twist: &mut r2r_msg_gen::geometry_msgs__msg__Twist, command: &Command) {
    let (linear, angular) = (&mut twist.linear, &mut twist.angular);
    linear.x = command.x;
    linear.y = command.y;
    linear.z = 0.0;
    angular.x = 0.0;
    angular.y = 0.0;
    angular.z = command.w;
}

/// Seconds as a stamp's (sec, nanosec); 0 for what a stamp cannot hold.
fn split_seconds(seconds: f64) -> (i32, u32) {
    if !(seconds.is_finite() && seconds >= 0.0 && seconds < f64::from(i32::MAX)) {
        return (0, 0);
    }
    let sec = seconds.floor();
    let nanosec = ((seconds - sec) * 1e9).min(999_999_999.0) as u32;
    (sec as i32, nanosec)
}

pub(super) fn header(frame: &str, now: f64) -> Header {
    let (sec, nanosec) = split_seconds(now);
    Header {
        stamp: RosTimeMsg { sec, nanosec },
        frame_id: frame.to_owned(),
    }
}

/// `~/triggering_points`' colour of an action, nav2's: stop red, slowdown
/// yellow, approach blue, limit orange (none: black, never drawn).
fn triggering_color(action: Action) -> ColorRGBA {
    let (r, g, b) = match action {
        Action::Stop => (1.0, 0.0, 0.0),
        Action::Slowdown => (1.0, 1.0, 0.0),
        Action::Approach => (0.0, 0.5, 1.0),
        Action::Limit => (1.0, 0.5, 0.0),
        Action::DoNothing => (0.0, 0.0, 0.0),
    };
    ColorRGBA { r, g, b, a: 1.0 }
}

/// The markers' colour of an action: stop red, slowdown orange, limit
/// yellow, approach magenta, none grey.
fn action_color(action: Action) -> ColorRGBA {
    let (r, g, b) = match action {
        Action::Stop => (1.0, 0.0, 0.0),
        Action::Slowdown => (1.0, 0.5, 0.0),
        Action::Limit => (1.0, 1.0, 0.0),
        Action::Approach => (1.0, 0.0, 1.0),
        Action::DoNothing => (0.6, 0.6, 0.6),
    };
    ColorRGBA { r, g, b, a: 1.0 }
}
