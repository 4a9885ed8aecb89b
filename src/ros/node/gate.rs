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
//! * **Decision loop** ([`GateNode`], where the monitor and its sources
//!   live): a command is gated and published at once
//!   ([`Gate::on_command`]: the base frame placed by TF in each source's
//!   frame, then the zones checked), the state on `state_topic` when it
//!   changes with a log line as nav2's; at `publish_rate` the re-check
//!   ([`Gate::on_timer`]), the zones' `PolygonStamped` and, while somebody
//!   subscribes, `~/collision_points_marker`. A dynamic zone's shape is
//!   moved into `base_frame_id` with the latest transform when it arrives
//!   (retried at `publish_rate` while TF cannot place it). `~/toggle`
//!   (`nav2_msgs/srv/Toggle`) and the run-time parameters `enabled` and
//!   `<zone>.enabled` reach the gate here too.
//!
//! Nothing on the command's path waits for the report worker, the
//! markers or the obstacle worker.

use super::logging::{shown, Warnings};
use super::threads::lock;
use crate::config::NodeConfig;
use crate::gate::{
    Action, Command, Gate, GateConfig, GateState, MonitorChecks, Output, Reason, ZoneChecks,
};
use crate::geometry::{Point, Shape};
use crate::monitor::{BaseFrames, BasePlacement, Monitor, Transforms};
use crate::ros::markers::MAX_DRAWN_SOURCE_POINTS;
use crate::ros::native;
use crate::ros::params::Params;
use crate::ros::tf::TfBuffer;
use futures::StreamExt;
use r2r::builtin_interfaces::msg::Time as RosTimeMsg;
use r2r::geometry_msgs::msg::{
    Point as RosPoint, Point32, Polygon, PolygonStamped, Pose, Quaternion, Twist, TwistStamped,
    Vector3,
};
use r2r::nav2_msgs::msg::CollisionMonitorState;
use r2r::nav2_msgs::srv::Toggle;
use r2r::std_msgs::msg::{ColorRGBA, Header};
use r2r::visualization_msgs::msg::{Marker, MarkerArray};
use r2r::{NativeMsg, Publisher, QosProfile, ServiceRequest};
use std::sync::{Arc, Mutex};

mod inputs;

use inputs::{CommandIn, ShapeInput};
pub(super) use inputs::{CommandSlot, GateSinks, GateSubs, ZoneShapes, COMMAND_QOS};

/// Points drawn per zone on `~/collision_points_marker` at most.
pub(super) const MAX_DRAWN_ZONE_POINTS: usize = MAX_DRAWN_SOURCE_POINTS;

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

/// The gate on the decision loop.
pub(super) struct GateNode {
    gate: Gate,
    commands: Arc<CommandSlot>,
    shapes: Arc<ZoneShapes>,
    /// The last command taken, and a scratch for the next.
    command: CommandIn,
    placed: BasePlacement,
    /// Shapes received and not yet moved into the base frame (TF could not
    /// place them yet), aligned with the zones.
    pending: Vec<Option<ShapeInput>>,
    out: CommandOut,
    state_pub: Option<Publisher<CollisionMonitorState>>,
    points_pub: Publisher<MarkerArray>,
    /// `(zone index, publisher)` of each `visualize` zone.
    polygon_pubs: Vec<(usize, Publisher<PolygonStamped>)>,
    /// Scratch for the markers' points.
    marker_points: Vec<Point>,
    /// `transform_tolerance` (s): for a dynamic zone's shape.
    transform_tolerance: f64,
    logger: String,
    /// The configured sources' names (`observation_sources`), for the log.
    source_names: Vec<String>,
    warnings: Warnings,
    /// Lifecycle: outputs only while active.
    active: bool,
}

/// The gate's parts, made at configure.
pub(super) struct GateParts {
    pub(super) node: GateNode,
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
        let points_pub = node.create_publisher("~/collision_points_marker", qos)?;
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
            polygon_pubs,
            toggle,
        })
    }
}

impl GateNode {
    /// The gate of `config` (which has zones) on its `endpoints`.
    pub(super) fn create(
        endpoints: GateEndpoints,
        config: &NodeConfig,
        logger: &str,
    ) -> Result<GateParts, Box<dyn std::error::Error>> {
        let gate_config = &config.gate;
        let gate = Gate::new(gate_config.clone())?;
        let GateEndpoints {
            out,
            state_pub,
            points_pub,
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
        let node = GateNode {
            gate,
            commands,
            shapes,
            command: CommandIn::default(),
            placed: BasePlacement::default(),
            pending: Vec::new(),
            out,
            state_pub,
            points_pub,
            polygon_pubs,
            marker_points: Vec::new(),
            transform_tolerance: config.monitor.transform_tolerance,
            logger: logger.to_owned(),
            source_names: config.sources.iter().map(|s| s.name.clone()).collect(),
            warnings: Warnings::new(logger),
            active: false,
        };
        Ok(GateParts {
            node,
            sinks,
            toggle: toggle.boxed_local(),
        })
    }

    /// The gate's publishers, to destroy at cleanup.
    pub(super) fn release(self) -> Vec<super::threads::Release> {
        let mut all = vec![match self.out {
            CommandOut::Stamped(p, _) => super::threads::release(p),
            CommandOut::Twist(p, _) => super::threads::release(p),
        }];
        all.extend(self.state_pub.map(super::threads::release));
        all.push(super::threads::release(self.points_pub));
        all.extend(
            self.polygon_pubs
                .into_iter()
                .map(|(_, p)| super::threads::release(p)),
        );
        all
    }

    /// Activate (true) or deactivate: while inactive nothing is published,
    /// and commands are taken and dropped (nav2's `process_active_`).
    pub(super) fn set_active(&mut self, active: bool) {
        self.active = active;
    }

    /// The gate (its state and configuration, for `/diagnostics`).
    pub(super) fn gate(&self) -> &Gate {
        &self.gate
    }

    /// The slot commands arrive in.
    pub(super) fn commands(&self) -> Arc<CommandSlot> {
        Arc::clone(&self.commands)
    }

    /// The slot dynamic zones' shapes arrive in.
    pub(super) fn shapes(&self) -> Arc<ZoneShapes> {
        Arc::clone(&self.shapes)
    }

    /// Takes the newest command; false when none came.
    pub(super) fn take_command(&mut self) -> bool {
        self.commands.take_into(&mut self.command).is_some()
    }

    /// Places the base frame in every source's frame for one check.
    fn place(&mut self, monitor: &Monitor, tf: &Mutex<TfBuffer>, now: f64) {
        let config = self.gate.config();
        let frames = BaseFrames {
            base: &config.base_frame,
            fixed: config
                .base_shift_correction
                .then_some(config.odom_frame.as_str()),
        };
        let tree = lock(tf);
        monitor.place_base(&tree.tree, frames, now, &mut self.placed);
    }

    /// Gates the command taken by [`take_command`](Self::take_command) and
    /// publishes what the gate says, at `now` (ROS time, s).
    pub(super) fn on_command(&mut self, monitor: &Monitor, tf: &Mutex<TfBuffer>, now: f64) {
        if !self.active {
            return;
        }
        self.place(monitor, tf, now);
        let checks = MonitorChecks {
            monitor,
            placed: &self.placed,
        };
        let out = self.gate.on_command(&checks, self.command.command, now);
        self.emit(&out, None);
    }

    /// The re-check at `publish_rate`: publishes what is more restrictive
    /// (and the zeros of a stop run), the state on change, the zones'
    /// polygons and, while subscribed, the points the zones act on.
    pub(super) fn on_timer(&mut self, monitor: &Monitor, tf: &Mutex<TfBuffer>, now: f64) {
        self.apply_pending(tf, now);
        if !self.active {
            return;
        }
        let enabled = self.gate.config().enabled;
        if let Some(index) = self.gate.zone_without_shape().filter(|_| enabled) {
            let name = self.gate.config().zones[index].name.clone();
            self.warnings.warn("gate_zone_shape", || {
                format!(
                    "Polygon shape is not set yet: zone {} stops the robot until its shape \
                     arrives",
                    shown(&name)
                )
            });
        }
        self.place(monitor, tf, now);
        let checks = MonitorChecks {
            monitor,
            placed: &self.placed,
        };
        let out = self.gate.on_timer(&checks, now);
        self.emit(&out, Some(now));
        self.publish_polygons(None, now);
        self.publish_points(monitor, now);
    }

    /// Publishes the output and the state of one check; `restamp`: the
    /// stamped output carries this time (a re-check) rather than the
    /// command's.
    fn emit(&mut self, out: &Output, restamp: Option<f64>) {
        if let Some(command) = out.publish {
            self.publish_command(&command, restamp);
        }
        if out.state_changed {
            self.notify_state(&out.state);
        }
    }

    fn publish_command(&mut self, command: &Command, restamp: Option<f64>) {
        let result = match &mut self.out {
            CommandOut::Twist(publisher, msg) => {
                write_twist(msg, command);
                publisher.publish_native(msg)
            }
            CommandOut::Stamped(publisher, msg) => {
                write_twist(&mut msg.twist, command);
                let (sec, nanosec) = match restamp {
                    Some(now) => split_seconds(now),
                    None => (self.command.sec, self.command.nanosec),
                };
                msg.header.stamp.sec = sec;
                msg.header.stamp.nanosec = nanosec;
                if native::set_string(&mut msg.header.frame_id, &self.command.frame_id).is_err() {
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

    /// The log line nav2's `notifyActionState` writes, and the state
    /// message.
    fn notify_state(&mut self, state: &GateState) {
        let name = self.gate.state_name(state).to_owned();
        let zone = match state.reason {
            Reason::Zone(i) | Reason::NoZoneShape(i) => self.gate.config().zones.get(i),
            _ => None,
        };
        let logger = self.logger.as_str();
        match (state.action, state.reason) {
            (Action::Stop, Reason::InvalidSource(fault)) => {
                let status = crate::model::Status::from(fault.cause);
                match fault.source.and_then(|i| self.source_names.get(i)) {
                    Some(source) => r2r::log_warn!(
                        logger,
                        "Robot to stop due to invalid source (source {}: {status}). Either due \
                         to data not published yet, or to lack of new data received within the \
                         sensor timeout, or if impossible to transform data to base frame",
                        shown(source)
                    ),
                    None => r2r::log_warn!(
                        logger,
                        "Robot to stop due to invalid source (clock: {status}): ROS time cannot \
                         judge any source's freshness"
                    ),
                }
            }
            (Action::Stop, Reason::NoZoneShape(_)) => r2r::log_warn!(
                logger,
                "Robot to stop: polygon shape of {} is not set yet (nothing received on its \
                 topic, or not placed in the base frame)",
                shown(zone.map_or("", |z| z.name.as_str()))
            ),
            (Action::Stop, Reason::InvalidCommand) => r2r::log_warn!(
                logger,
                "Robot to stop due to an invalid command (NaN or infinite velocity)"
            ),
            (Action::Stop, _) => {
                r2r::log_info!(logger, "Robot to stop due to {} polygon", shown(&name))
            }
            (Action::Slowdown, _) => r2r::log_info!(
                logger,
                "Robot to slowdown for {} percents due to {} polygon",
                zone.map_or(0.0, |z| z.slowdown_ratio * 100.0),
                shown(&name)
            ),
            (Action::Limit, _) => r2r::log_info!(
                logger,
                "Robot to limit speed due to {} polygon",
                shown(&name)
            ),
            (Action::Approach, _) => r2r::log_info!(
                logger,
                "Robot to approach for {} seconds away from collision ({} polygon)",
                zone.map_or(0.0, |z| z.time_before_collision),
                shown(&name)
            ),
            (Action::DoNothing, Reason::Disabled) => {
                r2r::log_info!(logger, "Collision monitor disabled: commands pass")
            }
            (Action::DoNothing, _) => r2r::log_info!(logger, "Robot to continue normal operation"),
        }
        if let Some(publisher) = &self.state_pub {
            let msg = CollisionMonitorState {
                action_type: state.action.code(),
                polygon_name: name,
            };
            if let Err(e) = publisher.publish(&msg) {
                self.warnings.warn("gate_publish", || {
                    format!("could not publish the state: {e}")
                });
            }
        }
    }

    /// Takes the dynamic zones' new shapes and sets those TF can place.
    pub(super) fn on_shapes(&mut self, tf: &Mutex<TfBuffer>, now: f64) {
        self.shapes.take_into(&mut self.pending);
        self.apply_pending(tf, now);
    }

    /// Moves each pending shape into the base frame and sets it; one TF
    /// cannot place yet stays pending; a bad one is refused with a
    /// warning (the zone keeps its previous shape).
    fn apply_pending(&mut self, tf: &Mutex<TfBuffer>, now: f64) {
        if self.pending.iter().all(Option::is_none) {
            return;
        }
        let base = self.gate.config().base_frame.clone();
        let tolerance = self.transform_tolerance;
        let mut changed = Vec::new();
        for index in 0..self.pending.len() {
            let Some(input) = self.pending[index].take() else {
                continue;
            };
            let name = self
                .gate
                .config()
                .zones
                .get(index)
                .map_or(String::new(), |z| z.name.clone());
            let shape = match &input {
                ShapeInput::Radius(radius) => Shape::circle(Point::origin(), *radius)
                    .map_err(|e| format!("radius {radius}: {e:?}")),
                ShapeInput::Polygon(polygon) => {
                    if let Some(rejection) = polygon.rejected {
                        Err(format!("{rejection}"))
                    } else {
                        let pose = {
                            let tree = lock(tf);
                            Transforms::lookup(
                                &tree.tree,
                                &base,
                                &polygon.frame_id,
                                0.0,
                                now,
                                tolerance,
                            )
                        };
                        match pose {
                            Ok(pose) => {
                                let points: Vec<Point> =
                                    polygon.points.iter().map(|p| pose * p).collect();
                                Shape::polygon(&points)
                                    .map_err(|e| format!("{} points: {e:?}", polygon.points.len()))
                            }
                            Err(cause) => {
                                let frame = shown(&polygon.frame_id);
                                self.warnings.warn("gate_zone_tf", || {
                                    format!(
                                        "zone {}: cannot move its shape from {frame} into {}: {} \
                                         (retried at publish_rate)",
                                        shown(&name),
                                        shown(&base),
                                        crate::model::Status::from(cause)
                                    )
                                });
                                self.pending[index] = Some(input);
                                continue;
                            }
                        }
                    }
                }
            };
            match shape {
                Ok(shape) => {
                    if self.gate.set_zone_shape(index, shape) {
                        changed.push(index);
                    }
                }
                Err(why) => self.warnings.warn("gate_zone", || {
                    format!(
                        "zone {} refused a shape ({why}): it keeps its previous one",
                        shown(&name)
                    )
                }),
            }
        }
        for index in changed {
            self.publish_polygons(Some(index), now);
        }
    }

    /// Publishes the `visualize` zones' shapes (only zone `only` when
    /// given) in the base frame.
    fn publish_polygons(&mut self, only: Option<usize>, now: f64) {
        let frame = &self.gate.config().base_frame;
        for (index, publisher) in &self.polygon_pubs {
            if only.is_some_and(|o| o != *index) {
                continue;
            }
            let points = self
                .gate
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
    fn publish_points(&mut self, monitor: &Monitor, now: f64) {
        if !self
            .points_pub
            .get_inter_process_subscription_count()
            .is_ok_and(|n| n > 0)
        {
            return;
        }
        let checks = MonitorChecks {
            monitor,
            placed: &self.placed,
        };
        let config = self.gate.config();
        let mut markers = Vec::with_capacity(config.zones.len());
        for (index, zone) in config.zones.iter().enumerate() {
            self.marker_points.clear();
            if let (true, Some(shape)) = (zone.enabled, self.gate.zone_shape(index)) {
                checks.points_in(
                    shape,
                    &zone.sources,
                    MAX_DRAWN_ZONE_POINTS,
                    &mut self.marker_points,
                );
            }
            markers.push(Marker {
                header: header(&config.base_frame, now),
                ns: zone.name.clone(),
                id: 0,
                type_: 8, // POINTS
                action: 0,
                pose: Pose {
                    orientation: Quaternion {
                        x: 0.0,
                        y: 0.0,
                        z: 0.0,
                        w: 1.0,
                    },
                    ..Default::default()
                },
                scale: Vector3 {
                    x: 0.03,
                    y: 0.03,
                    z: 0.0,
                },
                color: action_color(zone.action),
                frame_locked: true,
                points: self
                    .marker_points
                    .iter()
                    .map(|p| RosPoint {
                        x: p.x,
                        y: p.y,
                        z: 0.0,
                    })
                    .collect(),
                ..Default::default()
            });
        }
        if let Err(e) = self.points_pub.publish(&MarkerArray { markers }) {
            self.warnings.warn("gate_publish", || {
                format!("could not publish collision_points_marker: {e}")
            });
        }
    }

    /// `~/toggle`: enables or disables the gate, as nav2, by setting the
    /// `enabled` parameter (in `params` and `config`, then followed): the
    /// gate's state is always the parameters'.
    pub(super) fn toggle(
        &mut self,
        request: ServiceRequest<Toggle::Service>,
        params: &Mutex<Params>,
        config: &mut NodeConfig,
    ) {
        let enable = request.message.enable;
        lock(params).set_gate_enabled(enable);
        config.gate.enabled = enable;
        self.follow(config);
        let message = format!(
            "Collision monitor toggled {} successfully",
            if enable { "on" } else { "off" }
        );
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

    /// Follows the run-time parameters as they are (`enabled`,
    /// `<zone>.enabled`): after every change and every period, whichever
    /// change events reached the node.
    pub(super) fn follow(&mut self, config: &NodeConfig) {
        self.gate.follow(&config.gate);
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

fn header(frame: &str, now: f64) -> Header {
    let (sec, nanosec) = split_seconds(now);
    Header {
        stamp: RosTimeMsg { sec, nanosec },
        frame_id: frame.to_owned(),
    }
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
