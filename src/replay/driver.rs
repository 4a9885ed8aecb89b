//! The replay's loop: each record routed to the core's event for its
//! topic, the ticks in between, the outputs written and counted.

use super::config::{node_config, resolve, ReplayConfig};
use super::inputs::{self, Tree};
use super::outputs::{diagnostics, OutTopics, Sink};
use super::summary::{Summary, Tracker};
use super::timeline::Timeline;
use crate::bag::{self, Message, Record};
use crate::broadphase::PointSet;
use crate::config::VelocityType;
use crate::diagnostics::{Level, Publication};
use crate::gate::{Action, ZoneShape};
use crate::model::Report;
use crate::monitor::clock::ClockWatch;
use crate::monitor::SourceKind;
use crate::node::{
    Arrival, Core, Now, ObstacleBatch, Outputs, ShapeInput, SourceInput, SourceReader,
    StatusContext, TfBuffer,
};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

/// What to replay, and where its outputs go.
#[derive(Clone, Debug)]
pub struct Options {
    /// The bag: a rosbag2 directory, an `.mcap` or an `.mcap.zstd`.
    pub bag: PathBuf,
    /// The node's parameters file.
    pub params: PathBuf,
    /// The node's name: its entry in the parameters file, its `~`.
    pub node_name: String,
    /// One JSON line per output message.
    pub jsonl: Option<PathBuf>,
    /// An MCAP of the inputs (as recorded) and the outputs.
    pub out: Option<PathBuf>,
    /// The timeline.
    pub svg: Option<PathBuf>,
}

/// Why a replay could not start or could not write its outputs (an error
/// in the bag itself ends the replay early and is in
/// [`Summary::bag_error`]).
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The parameters file cannot be read or the node not configured.
    #[error("{0}")]
    Params(String),
    /// The bag cannot be opened.
    #[error("{0}")]
    Bag(String),
    /// An output file cannot be written.
    #[error("{0}")]
    Output(String),
}

/// Most ticks run to catch up with one message's time; beyond (a clock
/// leaping ahead), the ticks in between are skipped and counted.
const MAX_CATCH_UP_TICKS: u64 = 100_000;

/// Reasons and topics of skips counted apart at most.
const MAX_SKIP_KEYS: usize = 256;

/// Point buffers kept for reuse.
const MAX_SPARE: usize = 8;

/// One input of the node: what a topic's messages are fed to.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Route {
    Footprint,
    Obstacles,
    Instances,
    Tf { is_static: bool },
    Clock,
    Velocity(VelocityType),
    Source(usize, SourceKind),
    Fleet,
    Command { stamped: bool },
    ZoneShape { zone: usize, circle: bool },
}

impl Route {
    /// The type the node subscribes the topic with.
    fn type_name(self) -> &'static str {
        match self {
            Route::Footprint | Route::ZoneShape { circle: false, .. } => {
                "geometry_msgs/msg/PolygonStamped"
            }
            Route::ZoneShape { circle: true, .. } => "std_msgs/msg/Float32",
            Route::Obstacles => "sat_collision_msgs/msg/ObstacleArray",
            Route::Instances | Route::Source(_, SourceKind::Polygon) => {
                "geometry_msgs/msg/PolygonInstanceStamped"
            }
            Route::Tf { .. } => "tf2_msgs/msg/TFMessage",
            Route::Clock => "rosgraph_msgs/msg/Clock",
            Route::Velocity(VelocityType::Odometry) => "nav_msgs/msg/Odometry",
            Route::Velocity(VelocityType::Twist) | Route::Command { stamped: false } => {
                "geometry_msgs/msg/Twist"
            }
            Route::Velocity(VelocityType::TwistStamped) | Route::Command { stamped: true } => {
                "geometry_msgs/msg/TwistStamped"
            }
            Route::Source(_, SourceKind::Scan) => "sensor_msgs/msg/LaserScan",
            Route::Source(_, SourceKind::PointCloud) => "sensor_msgs/msg/PointCloud2",
            Route::Source(_, SourceKind::Range) => "sensor_msgs/msg/Range",
            Route::Source(_, SourceKind::Costmap) => "nav2_msgs/msg/Costmap",
            Route::Source(_, SourceKind::Fleet) | Route::Fleet => {
                "sat_collision_msgs/msg/FleetRobot"
            }
        }
    }
}

/// The topics the node subscribes, resolved, and what each feeds.
fn routes(replay: &ReplayConfig, from_tf: bool) -> BTreeMap<String, Vec<Route>> {
    let (config, node) = (&replay.config, replay.node_name.as_str());
    let mut routes: BTreeMap<String, Vec<Route>> = BTreeMap::new();
    let mut add = |topic: &str, route| routes.entry(resolve(node, topic)).or_default().push(route);
    if !from_tf {
        add("footprint", Route::Footprint);
    }
    add("obstacles", Route::Obstacles);
    add("obstacle_instances", Route::Instances);
    add("/tf", Route::Tf { is_static: false });
    add("/tf_static", Route::Tf { is_static: true });
    if replay.use_sim_time {
        add("/clock", Route::Clock);
    }
    if !config.velocity_topic.is_empty() {
        add(
            &config.velocity_topic,
            Route::Velocity(config.velocity_type),
        );
    }
    for (index, source) in config.sources.iter().enumerate() {
        match source.kind {
            // The fleet topic, once, whatever the fleet sources' topics.
            SourceKind::Fleet => {}
            kind => add(&source.topic, Route::Source(index, kind)),
        }
    }
    if config.sources.iter().any(|s| s.kind == SourceKind::Fleet) {
        add(&config.fleet_topic, Route::Fleet);
    }
    if !config.gate.zones.is_empty() {
        let stamped = config.gate.stamped;
        add(&config.gate.cmd_vel_in_topic, Route::Command { stamped });
        for (zone, z) in config.gate.zones.iter().enumerate() {
            let ZoneShape::Dynamic { circle } = z.shape else {
                continue;
            };
            let route = Route::ZoneShape { zone, circle };
            if !circle && z.action == Action::Approach {
                add(&z.footprint_topic, route);
            } else if !z.polygon_sub_topic.is_empty() {
                add(&z.polygon_sub_topic, route);
            }
        }
    }
    routes
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The replay's state between records.
struct Driver {
    core: Core,
    readers: Vec<SourceReader>,
    spare: Vec<PointSet>,
    clock: ClockWatch,
    sim: bool,
    /// The last `/clock` (s).
    sim_time: f64,
    saw_clock: bool,
    period: f64,
    /// The next tick is at `next_tick * period` (ROS time); `None` until
    /// ROS time is set.
    next_tick: Option<u64>,
    /// When `/diagnostics` is due.
    publication: Publication,
    out: Outputs,
    messages: Vec<(String, Message)>,
    sink: Sink,
    topics: OutTopics,
    diagnostics_topic: String,
    node_name: String,
    hardware_id: String,
    summary: Summary,
    tracker: Tracker,
    timeline: Timeline,
    zones: usize,
    /// ROS time of the first event, and of the last.
    first: Option<f64>,
    last: f64,
    skipped_ticks: u64,
    tf_refusals: u64,
    /// The ticks' report, its buffers reused.
    report: Option<Report>,
    /// The log time of the last output (outputs never go back in time).
    last_log_ns: u64,
}

impl Driver {
    /// Counts a record skipped, by reason and topic (at most
    /// [`MAX_SKIP_KEYS`] of them; the rest together).
    fn skip(&mut self, why: &str, topic: &str) {
        let key = format!("{why}: {}", crate::node::shown(topic));
        let skipped = &mut self.summary.skipped;
        let key = match skipped.len() < MAX_SKIP_KEYS || skipped.contains_key(&key) {
            true => key,
            false => "other reasons and topics".to_owned(),
        };
        *skipped.entry(key).or_default() += 1;
    }

    fn now(&mut self, ros: f64, steady: f64) -> Now {
        let reading = self.clock.observe(ros, steady, self.core.stall_limit());
        Now::of(reading)
    }

    /// Writes and counts the outputs of one event at ROS time `t`;
    /// `checked`: the zones' contents are to be looked at again.
    fn emit(&mut self, t: f64, log_ns: u64, checked: bool) -> Result<(), ReplayError> {
        // ROS time 0 is no time (use_sim_time before the first /clock).
        if t > 0.0 {
            self.first.get_or_insert(t);
        }
        self.last = self.last.max(t);
        let log_ns = log_ns.max(self.last_log_ns);
        self.last_log_ns = log_ns;
        self.messages.clear();
        self.topics
            .messages(&self.core, &self.out, t, &mut self.messages);
        for (topic, message) in &self.messages {
            self.sink
                .output(topic, log_ns, message)
                .map_err(ReplayError::Output)?;
        }
        if checked && self.core.has_gate() {
            for zone in 0..self.zones {
                let occupied = self.core.zone_occupied(zone);
                self.tracker.occupancy(zone, occupied, t);
            }
        }
        if let Some(gated) = &self.out.command {
            self.summary.commands_out += 1;
            if gated.command.is_zero() {
                self.summary.zeros_out += 1;
            }
            let speed = gated.command.x.hypot(gated.command.y);
            self.timeline.speed_out(t, speed);
        }
        if let (Some(state), Some(gate)) = (&self.out.state, self.core.gate()) {
            let name = gate.state_name(state).to_owned();
            self.tracker.state(&mut self.summary, state, &name, t);
            self.timeline.action(t, state.action);
        }
        if let Some(flag) = &self.out.flag {
            self.tracker.flag(&mut self.summary, flag, t);
            self.timeline.flag(t, flag.colliding, flag.valid);
        }
        for notice in &self.out.notices {
            let key = notice.key.unwrap_or("state");
            *self.summary.notices.entry(key.to_owned()).or_default() += 1;
        }
        self.out.clear();
        Ok(())
    }

    /// Ticks due up to ROS time `ros` (`steady`, `log_ns`: the record's
    /// under `use_sim_time`).
    fn ticks_until(&mut self, ros: f64, steady: f64, log_ns: u64) -> Result<(), ReplayError> {
        if !(ros.is_finite() && ros > 0.0) {
            return Ok(());
        }
        let floor = (ros / self.period).floor() as u64;
        let next = match self.next_tick {
            // A clock that jumped back, or leapt far ahead: start again.
            Some(k) if (k as f64 - 1.0) * self.period > ros + self.period => floor + 1,
            Some(k) if floor.saturating_sub(k) > MAX_CATCH_UP_TICKS => {
                self.skipped_ticks += floor - k;
                floor
            }
            Some(k) => k,
            None => floor + 1,
        };
        let mut k = next;
        while (k as f64) * self.period <= ros {
            let t = k as f64 * self.period;
            let (steady, log_ns) = match self.sim {
                true => (steady, log_ns),
                false => (t, (t * 1e9).round() as u64),
            };
            let now = self.now(t, steady);
            self.core.tick(now, &mut self.out);
            self.summary.ticks += 1;
            self.emit(t, log_ns, true)?;
            self.clearance(t);
            self.diagnostics(t, log_ns)?;
            k += 1;
        }
        self.next_tick = Some(k);
        Ok(())
    }

    /// `/diagnostics` at a tick when due: a second of ROS time since the
    /// last, or a status's level changed (the node's rule,
    /// [`Publication`]).
    fn diagnostics(&mut self, t: f64, log_ns: u64) -> Result<(), ReplayError> {
        let context = StatusContext {
            node_name: &self.node_name,
            hardware_id: &self.hardware_id,
            lifecycle_state: "active",
            reports_skipped: 0,
        };
        let statuses = self.core.statuses(&context, t);
        let levels: Vec<Level> = statuses.iter().map(|s| s.level).collect();
        if !self.publication.due(t, &levels) {
            return Ok(());
        }
        self.publication.published(t, &levels);
        let message = diagnostics(&statuses, t);
        let log_ns = log_ns.max(self.last_log_ns);
        self.last_log_ns = log_ns;
        self.sink
            .output(&self.diagnostics_topic, log_ns, &message)
            .map_err(ReplayError::Output)
    }

    /// The least clearance of the monitor's report now (a tick's: what the
    /// node's report worker computes at every decision).
    fn clearance(&mut self, t: f64) {
        let report = match &mut self.report {
            Some(report) => {
                self.core.monitor().evaluate_into(t, report);
                report
            }
            None => self.report.insert(self.core.monitor().evaluate(t)),
        };
        if !report.valid {
            return;
        }
        let mut least = (report.min_distance, report.nearest_obstacle_id.as_str());
        for source in &report.sources {
            if source.distance() < least.0 {
                least = (source.distance(), source.name.as_str());
            }
        }
        if least.0.is_finite() {
            self.timeline.clearance(t, least.0);
            Tracker::clearance(&mut self.summary, least.0, least.1, t);
        }
    }

    /// Time passes to the record logged at `log_ns`: the core activated at
    /// the first (autostart), the ticks due before it run. ROS time: the
    /// last `/clock` under `use_sim_time`, else the log time (every
    /// record's, used or skipped: the node's timer runs whatever comes).
    fn advance(&mut self, log_ns: u64) -> Result<f64, ReplayError> {
        let log_s = log_ns as f64 * 1e-9;
        let ros = if self.sim { self.sim_time } else { log_s };
        if !self.core.is_active() {
            let now = self.now(ros, log_s);
            self.core.set_active(true, now, &mut self.out);
            self.emit(ros, log_ns, true)?;
        }
        self.ticks_until(ros, log_s, log_ns)?;
        Ok(ros)
    }

    /// One record, decoded, fed to each of its routes.
    fn record(
        &mut self,
        record: &Record,
        message: &Message,
        routes: &[Route],
    ) -> Result<(), ReplayError> {
        let log_s = record.log_time_ns as f64 * 1e-9;
        let type_name = message.type_name();
        let fitting: Vec<Route> = routes
            .iter()
            .copied()
            .filter(|r| r.type_name() == type_name)
            .collect();
        if fitting.is_empty() {
            let wanted = routes.first().map_or("", |r| r.type_name());
            self.skip(
                &format!("type {type_name} where the node takes {wanted}"),
                &record.topic,
            );
            return Ok(());
        }
        self.summary.used += 1;
        if let (Some(Route::Clock), Message::Clock(clock)) = (fitting.first(), message) {
            self.sim_time = inputs::seconds(&clock.clock);
            self.saw_clock = true;
        }
        let ros = self.advance(record.log_time_ns)?;
        let now = self.now(ros, log_s);
        let arrival = Arrival {
            time: now.reading.ros,
            generation: now.reading.generation,
        };
        for route in fitting {
            let checked = self.feed(route, message, arrival, now);
            self.emit(ros, record.log_time_ns, checked)?;
        }
        Ok(())
    }

    /// Feeds `message` to `route`'s event; whether the zones' contents
    /// may have changed (a gate check, a source's new points).
    fn feed(&mut self, route: Route, message: &Message, arrival: Arrival, now: Now) -> bool {
        let out = &mut self.out;
        match (route, message) {
            (Route::Footprint, Message::PolygonStamped(m)) => {
                self.core
                    .on_footprint(&inputs::footprint(m), arrival, now, out);
            }
            (Route::Obstacles, Message::ObstacleArray(m)) => {
                let batch = ObstacleBatch {
                    array: Some((inputs::array(m), arrival)),
                    instances: Vec::new(),
                };
                self.core.on_obstacles(batch, now, out);
            }
            (Route::Instances, Message::PolygonInstanceStamped(m)) => {
                let batch = ObstacleBatch {
                    array: None,
                    instances: vec![(inputs::instance(m, None), arrival)],
                };
                self.core.on_obstacles(batch, now, out);
            }
            (Route::Source(index, SourceKind::Polygon), Message::PolygonInstanceStamped(m)) => {
                let batch = ObstacleBatch {
                    array: None,
                    instances: vec![(inputs::instance(m, Some(index)), arrival)],
                };
                self.core.on_obstacles(batch, now, out);
                return true;
            }
            (Route::Tf { is_static }, Message::TFMessage(m)) => {
                {
                    let mut buffer = lock(self.core.tf());
                    match inputs::tf_samples(m) {
                        Some(samples) => buffer.take(samples, is_static, arrival),
                        None => buffer.oversized(arrival),
                    }
                    if !buffer.take_intake().is_clean() {
                        self.tf_refusals += 1;
                        *self.summary.notices.entry("tf".to_owned()).or_default() += 1;
                    }
                }
                if !is_static && self.core.footprint_from_tf() {
                    self.core.tick(now, out);
                    return true;
                }
            }
            (Route::Velocity(kind), message) => {
                let input = match (kind, message) {
                    (VelocityType::Odometry, Message::Odometry(m)) => inputs::odometry(m),
                    (VelocityType::Twist, Message::Twist(m)) => inputs::twist(m),
                    (VelocityType::TwistStamped, Message::TwistStamped(m)) => {
                        inputs::twist_stamped(m)
                    }
                    _ => return false,
                };
                self.core.on_velocity(&input, arrival, now, out);
            }
            (Route::Fleet, Message::FleetRobot(m)) => {
                let mut messages = vec![(inputs::fleet_robot(m), arrival.time)];
                self.core.on_fleet(&mut messages, now, out);
                return true;
            }
            (Route::Source(index, _), message) => {
                let Some(input) = self.read_source(index, message, now) else {
                    return false;
                };
                let mut batch = vec![(input, arrival)];
                self.core
                    .on_sources(&mut batch, &mut self.spare, now, &mut self.out);
                self.spare.truncate(MAX_SPARE);
                // Points may lie in a zone from now: the stop's latency
                // counts from here.
                return true;
            }
            (Route::Command { .. }, message) => {
                let command = match message {
                    Message::Twist(m) => inputs::command(m, None),
                    Message::TwistStamped(m) => inputs::command(&m.twist, Some(&m.header)),
                    _ => return false,
                };
                self.summary.commands_in += 1;
                let speed = command.command.x.hypot(command.command.y);
                self.timeline.speed_in(now.ros(), speed);
                self.core.on_command(&command, arrival, now, out);
                return true;
            }
            (Route::ZoneShape { zone, .. }, message) => {
                let shape = match message {
                    Message::Float32(m) => ShapeInput::Radius(f64::from(m.data)),
                    Message::PolygonStamped(m) => ShapeInput::Polygon(inputs::footprint(m)),
                    _ => return false,
                };
                let mut shapes: Vec<Option<ShapeInput>> = (0..self.zones).map(|_| None).collect();
                if let Some(slot) = shapes.get_mut(zone) {
                    *slot = Some(shape);
                }
                self.core.on_zone_shapes(&mut shapes, now, out);
            }
            _ => {}
        }
        false
    }

    /// A point source's message read by its reader.
    fn read_source(&mut self, index: usize, message: &Message, now: Now) -> Option<SourceInput> {
        let buffer = self.spare.pop().unwrap_or_default();
        let tf = Arc::clone(self.core.tf());
        let reader = self.readers.get_mut(index)?;
        Some(match message {
            Message::LaserScan(m) => inputs::scan(reader, m, || Tree(lock(&tf)), now.ros(), buffer),
            Message::Range(m) => inputs::range(reader, m, || Tree(lock(&tf)), now.ros(), buffer),
            Message::Costmap(m) => {
                inputs::costmap(reader, m, || Tree(lock(&tf)), now.ros(), buffer)
            }
            Message::PointCloud2(m) => {
                inputs::cloud(reader, m, || Tree(lock(&tf)), now.ros(), buffer)
            }
            _ => return None,
        })
    }
}

/// Replays the bag of `options` through the node's core configured from
/// its parameters file: the outputs written where `options` asks, the
/// findings returned. A bag that ends on an error is replayed up to it
/// ([`Summary::bag_error`]).
pub fn replay(options: &Options) -> Result<Summary, ReplayError> {
    let params = options.params.display().to_string();
    let text = crate::scene::read_capped(&options.params)
        .map_err(|e| ReplayError::Params(e.to_string()))?;
    let replay_config =
        node_config(&text, &params, &options.node_name).map_err(ReplayError::Params)?;
    let config = replay_config.config.clone();
    let tf = Arc::new(Mutex::new(TfBuffer::default()));
    let (core, stage, notices) = Core::configure(config.clone(), tf)
        .map_err(|e| ReplayError::Params(format!("{params}: {e}")))?;
    let core = core.with_stage(stage);
    let routes = routes(&replay_config, core.footprint_from_tf());
    let mut messages = bag::open(&options.bag).map_err(|e| ReplayError::Bag(e.to_string()))?;
    let sink = Sink::create(options.jsonl.as_deref(), options.out.as_deref())
        .map_err(ReplayError::Output)?;
    let node = replay_config.node_name.clone();
    let mut summary = Summary {
        node_name: node.clone(),
        use_sim_time: replay_config.use_sim_time,
        notes: replay_config.notes.clone(),
        ..Summary::default()
    };
    for notice in notices {
        *summary
            .notices
            .entry(notice.key.unwrap_or("start").to_owned())
            .or_default() += 1;
    }
    let zones = core.exclusion_zones();
    let readers: Vec<SourceReader> = SourceReader::all(&config)
        .into_iter()
        .map(|reader| reader.with_zones(zones))
        .collect();
    let mut driver = Driver {
        readers,
        spare: Vec::new(),
        clock: ClockWatch::default(),
        sim: replay_config.use_sim_time,
        sim_time: 0.0,
        saw_clock: false,
        period: 1.0 / config.publish_rate,
        next_tick: None,
        publication: Publication::default(),
        out: Outputs::default(),
        messages: Vec::new(),
        sink,
        topics: OutTopics::new(&config, &node),
        diagnostics_topic: "/diagnostics".to_owned(),
        node_name: node,
        hardware_id: config.hardware_id.clone(),
        summary,
        tracker: Tracker::new(config.gate.zones.len()),
        timeline: Timeline::default(),
        zones: config.gate.zones.len(),
        first: None,
        last: 0.0,
        skipped_ticks: 0,
        tf_refusals: 0,
        report: None,
        last_log_ns: 0,
        core,
    };
    let mut last_log: Option<u64> = None;
    for item in messages.by_ref() {
        let record = match item {
            Ok(record) => record,
            Err(e) => {
                driver.summary.bag_error = Some(e.to_string());
                break;
            }
        };
        driver.summary.messages += 1;
        // The inputs as recorded: the topics the node subscribes only (a
        // recording of the node's own outputs would mix with the replay's).
        if routes.contains_key(&*record.topic) {
            driver.sink.input(&record).map_err(ReplayError::Output)?;
        }
        if last_log.is_some_and(|last| record.log_time_ns < last) {
            driver.skip("log time before the previous message's", &record.topic);
            continue;
        }
        last_log = Some(record.log_time_ns);
        driver.advance(record.log_time_ns)?;
        let Some(topic_routes) = routes.get(&*record.topic) else {
            driver.skip("not an input of the node", &record.topic);
            continue;
        };
        let message = match record.decode() {
            Ok(Some(message)) => message,
            Ok(None) => {
                let why = match record.schema_name.is_empty() {
                    true => "a channel without schema".to_owned(),
                    false => format!("type {} unknown to the replay", record.schema_name),
                };
                driver.skip(&why, &record.topic);
                continue;
            }
            Err(e) => {
                driver.skip("does not decode", &record.topic);
                let errors = &mut driver.summary.decode_errors;
                if errors.len() < MAX_SKIP_KEYS {
                    let topic = crate::node::shown(&record.topic);
                    errors.entry(topic).or_insert_with(|| e.to_string());
                }
                continue;
            }
        };
        driver.record(&record, &message, topic_routes)?;
    }
    let Driver {
        mut summary,
        tracker,
        timeline,
        sink,
        first,
        last,
        sim,
        saw_clock,
        skipped_ticks,
        tf_refusals,
        ..
    } = driver;
    let first = first.unwrap_or(last);
    tracker.finish(&mut summary, last);
    summary.span = (summary.used > 0).then_some((first, last));
    summary.no_clock = sim && !saw_clock && summary.used > 0;
    summary.outputs = sink.per_topic.clone();
    if sink.not_copied > 0 {
        summary.notes.push(format!(
            "{} input records of types without a schema here not copied into the output MCAP",
            sink.not_copied
        ));
    }
    if skipped_ticks > 0 {
        summary.notes.push(format!(
            "{skipped_ticks} ticks skipped where ROS time leapt ahead"
        ));
    }
    if tf_refusals > 0 {
        summary.notes.push(format!(
            "{tf_refusals} TF messages had transforms refused (frame ids, values, frame limit)"
        ));
    }
    summary.notes.push(
        "not replayed: ~/collision_points_marker, ~/triggering_points, collision_report, \
         collision_markers, the lifecycle's events and the bond"
            .to_owned(),
    );
    sink.finish().map_err(ReplayError::Output)?;
    if let Some(path) = &options.svg {
        std::fs::write(path, timeline.render(first, last))
            .map_err(|e| ReplayError::Output(format!("{}: {e}", path.display())))?;
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bag::msgs;

    #[test]
    fn each_route_names_the_type_the_node_subscribes() {
        assert_eq!(Route::Clock.type_name(), "rosgraph_msgs/msg/Clock");
        assert_eq!(
            Route::Command { stamped: true }.type_name(),
            <msgs::TwistStamped as bag::RosMessage>::TYPE_NAME
        );
        assert_eq!(
            Route::Source(0, SourceKind::Polygon).type_name(),
            <msgs::PolygonInstanceStamped as bag::RosMessage>::TYPE_NAME
        );
    }
}
