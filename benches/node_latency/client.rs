//! The client: one r2r node of this process that drives every target
//! (publishes footprints, or `/tf` transforms with `--tf`, takes the flags)
//! in paced round trips.

use crate::cli::Options;
use crate::process::{cpu_time, work_dir, ChildProcess};
use crate::scenario::{header, probes, scene, tf_message, tf_static, Probe};
use crate::Res;
use futures::{FutureExt, Stream, StreamExt};
use r2r::geometry_msgs::msg::{PolygonStamped, Twist};
use r2r::sat_collision_msgs::msg::{CollisionReport, ObstacleArray};
use r2r::sensor_msgs::msg::PointCloud2;
use r2r::std_msgs::msg::Bool;
use r2r::tf2_msgs::msg::TFMessage;
use r2r::{NativeMsg, Publisher, QosProfile};
use std::path::PathBuf;
use std::time::{Duration, Instant};

type BoolStream = Box<dyn Stream<Item = Bool> + Unpin>;

/// Answer deadline of one message; later = lost.
const TIMEOUT: Duration = Duration::from_secs(1);

/// `/tf` as tf2's broadcaster publishes it (reliable, depth 100).
const TF_QOS: QosProfile = QosProfile::default().keep_last(100);

/// `/tf_static` as tf2's static broadcaster publishes it (reliable,
/// transient local, depth 100).
const TF_STATIC_QOS: QosProfile = QosProfile::default()
    .reliable()
    .transient_local()
    .keep_last(100);

/// What a target is sent.
pub enum Input {
    Footprint(Publisher<PolygonStamped>),
    /// `/tf` (`odom → base_link`), for the footprint from TF.
    Tf(Publisher<TFMessage>),
    /// Point clouds (sensor-data QoS): the colliding and the clear cloud,
    /// built once in native form and stamped in place before each send.
    Cloud(Publisher<PointCloud2>, [NativeMsg<PointCloud2>; 2]),
}

/// One message for a target, built before the round trip is timed.
pub enum Outgoing {
    Footprint(PolygonStamped),
    Tf(TFMessage),
    /// Which of the target's two clouds (0: colliding), and its stamp (ns).
    Cloud(usize, u64),
}

/// One process answering footprints (or transforms) with `Bool`s.
pub struct Target {
    pub label: String,
    pub ns: String,
    pub input: Input,
    pub flags: BoolStream,
    pub process: ChildProcess,
    pub samples: Vec<f64>,
    pub lost: usize,
    pub skipped: usize,
    pub cpu: Duration,
    pub counter: Option<PathBuf>,
    /// With `--cloud`: every `collision` taken while this target is driven.
    pub flow: Flow,
}

/// The `collision` messages a target published while it was driven, one
/// block at a time (only blocks of measured messages count): how many,
/// how many of them were answers, and the longest time between two.
#[derive(Default)]
pub struct Flow {
    pub on: bool,
    pub bools: usize,
    pub answers: usize,
    pub time: Duration,
    pub longest_gap: Duration,
    block: Vec<Instant>,
}

impl Flow {
    fn start(&mut self) {
        self.block.clear();
    }

    fn note(&mut self) {
        if self.on {
            self.block.push(Instant::now());
        }
    }

    fn end(&mut self, started: Instant, answers: usize, record: bool) {
        if !(self.on && record) {
            return;
        }
        let mut previous = started;
        for &t in &self.block {
            self.longest_gap = self.longest_gap.max(t - previous);
            previous = t;
        }
        self.longest_gap = self.longest_gap.max(previous.elapsed());
        self.bools += self.block.len();
        self.answers += answers;
        self.time += started.elapsed();
    }
}

pub struct Client {
    pub node: r2r::Node,
    pub probes: Vec<Probe>,
    pub scene: ObstacleArray,
    pub sent: usize,
    pub dir: PathBuf,
    /// The last `/tf` stamp sent (ns since the epoch): stamps increase.
    tf_stamp_ns: u64,
    /// Kept alive: `/tf_static` is transient local.
    tf_static: Option<Publisher<TFMessage>>,
    /// `--predict`: the nodes get a velocity on `<ns>/cmd_vel` at set-up
    /// and must report a valid prediction.
    predict: bool,
    /// `--cloud`: the colliding and the clear cloud (Rust form).
    pub clouds: Vec<(PointCloud2, bool)>,
    /// The last cloud stamp sent (ns since the epoch): stamps increase.
    cloud_stamp_ns: u64,
    /// `--steady`: with `--cloud`, the clear cloud only.
    steady: bool,
}

/// Alternating bit carried in the echo's message: `expected` as parity.
fn stamp_for(expected: bool) -> u32 {
    u32::from(expected)
}

/// The wall clock (ns since the epoch), later than `last` by at least 2,
/// its parity `bit`.
fn stamp_after(last: u64, bit: bool) -> u64 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    (now & !1).max((last & !1) + 2) | u64::from(stamp_for(bit))
}

impl Target {
    pub fn publish(&mut self, msg: &Outgoing) -> r2r::Result<()> {
        match (&mut self.input, msg) {
            (Input::Footprint(p), Outgoing::Footprint(m)) => p.publish(m),
            (Input::Tf(p), Outgoing::Tf(m)) => p.publish(m),
            (Input::Cloud(p, clouds), &Outgoing::Cloud(k, stamp_ns)) => {
                let cloud = &mut clouds[k];
                cloud.header.stamp.sec = (stamp_ns / 1_000_000_000) as i32;
                cloud.header.stamp.nanosec = (stamp_ns % 1_000_000_000) as u32;
                p.publish_native(cloud)
            }
            _ => unreachable!("a message of the other kind"),
        }
    }

    /// The next `collision` already taken by r2r, if any.
    fn next_flag(&mut self) -> Option<Bool> {
        let b = self.flags.next().now_or_never().flatten()?;
        self.flow.note();
        Some(b)
    }
}

impl Client {
    /// Message `k` for `t` and the flag it must be answered with. A `/tf`
    /// message is stamped now (wall clock, later than the previous one),
    /// its nanoseconds' parity the expected bit for the echo.
    pub fn message(&mut self, t: &Target, k: usize) -> (Outgoing, bool) {
        let probe = &self.probes[k % self.probes.len()];
        let expected = probe.colliding;
        let msg = match t.input {
            Input::Footprint(_) => Outgoing::Footprint(PolygonStamped {
                header: header(stamp_for(expected)),
                polygon: probe.polygon.clone(),
            }),
            Input::Tf(_) => {
                self.tf_stamp_ns = stamp_after(self.tf_stamp_ns, expected);
                Outgoing::Tf(tf_message(probe.pose, self.tf_stamp_ns))
            }
            Input::Cloud(..) => {
                // Alternating: cloud 0 collides, cloud 1 is clear; with
                // --steady, the clear one only.
                let index = if self.steady { 1 } else { k % 2 };
                let expected = index == 0;
                self.cloud_stamp_ns = stamp_after(self.cloud_stamp_ns, expected);
                return (Outgoing::Cloud(index, self.cloud_stamp_ns), expected);
            }
        };
        (msg, expected)
    }

    pub fn target(&mut self, label: &str, ns: String, process: ChildProcess) -> Res<Target> {
        let footprint = self.node.create_publisher::<PolygonStamped>(
            &format!("{ns}/footprint"),
            QosProfile::default(),
        )?;
        self.make_target(label, ns, Input::Footprint(footprint), process)
    }

    /// A target driven with `/tf` messages on `topic` (the node: `/tf`;
    /// an echo: its own, same type and QoS).
    pub fn target_tf(
        &mut self,
        label: &str,
        ns: String,
        topic: &str,
        process: ChildProcess,
    ) -> Res<Target> {
        let tf = self.node.create_publisher::<TFMessage>(topic, TF_QOS)?;
        self.make_target(label, ns, Input::Tf(tf), process)
    }

    /// A target driven with point clouds on `topic` (the node's source
    /// topic, or an echo's), published with sensor-data QoS.
    pub fn target_cloud(
        &mut self,
        label: &str,
        ns: String,
        topic: &str,
        process: ChildProcess,
    ) -> Res<Target> {
        let publisher = self
            .node
            .create_publisher::<PointCloud2>(topic, QosProfile::sensor_data())?;
        let native = |k: usize| NativeMsg::<PointCloud2>::from(&self.clouds[k].0);
        let clouds = [native(0), native(1)];
        let mut t = self.make_target(label, ns, Input::Cloud(publisher, clouds), process)?;
        t.flow.on = true;
        Ok(t)
    }

    fn make_target(
        &mut self,
        label: &str,
        ns: String,
        input: Input,
        process: ChildProcess,
    ) -> Res<Target> {
        let flags = Box::new(
            self.node
                .subscribe::<Bool>(&format!("{ns}/collision"), QosProfile::default())?,
        );
        Ok(Target {
            label: label.to_owned(),
            ns,
            input,
            flags,
            process,
            samples: Vec::new(),
            lost: 0,
            skipped: 0,
            cpu: Duration::ZERO,
            counter: None,
            flow: Flow::default(),
        })
    }

    /// Spins for `d`, dropping what arrives on `targets`' flag streams.
    pub fn idle(&mut self, d: Duration, targets: &mut [Target]) {
        let end = Instant::now() + d;
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            self.node.spin_once(left.min(Duration::from_millis(5)));
            for t in targets.iter_mut() {
                while t.next_flag().is_some() {}
            }
        }
    }

    /// Publishes the scene and a footprint (or, for a node with the
    /// footprint from TF, the static `map → odom` once and a `/tf`
    /// message) until the node's report is valid and covers every
    /// obstacle.
    pub fn setup_node(&mut self, t: &mut Target) -> Res<()> {
        if matches!(t.input, Input::Tf(_)) && self.tf_static.is_none() {
            let publisher = self
                .node
                .create_publisher::<TFMessage>("/tf_static", TF_STATIC_QOS)?;
            publisher.publish(&tf_static())?;
            self.tf_static = Some(publisher);
        }
        let mut reports = self.node.subscribe::<CollisionReport>(
            &format!("{}/collision_report", t.ns),
            QosProfile::default(),
        )?;
        let obstacles = self.node.create_publisher::<ObstacleArray>(
            &format!("{}/obstacles", t.ns),
            QosProfile::default(),
        )?;
        let velocity =
            match self.predict {
                true => Some(self.node.create_publisher::<Twist>(
                    &format!("{}/cmd_vel", t.ns),
                    QosProfile::default(),
                )?),
                false => None,
            };
        let cloud = matches!(t.input, Input::Cloud(..));
        // A cloud node's report: its one source's entry.
        let results = if cloud { 1 } else { self.scene.obstacles.len() };
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut last = String::from("no report");
        loop {
            t.process.check_running()?;
            if let Some(velocity) = &velocity {
                let mut twist = Twist::default();
                (twist.linear.x, twist.angular.z) = (0.5, 0.3);
                velocity.publish(&twist)?;
            }
            if Instant::now() > deadline {
                return Err(format!("{}: no valid report within 60 s ({last})", t.label).into());
            }
            if !cloud {
                obstacles.publish(&self.scene)?;
            }
            let (msg, _) = self.message(t, 1);
            t.publish(&msg)?;
            let until = Instant::now() + Duration::from_millis(300);
            while Instant::now() < until {
                self.node.spin_once(Duration::from_millis(10));
                while let Some(Some(r)) = reports.next().now_or_never() {
                    let predicted = !self.predict || r.prediction_status == "ok";
                    if r.status == "ok" && predicted && r.results.len() == results {
                        drop(reports);
                        // r2r drops the subscription when its next message
                        // finds the stream gone; a timer report does that.
                        self.idle(Duration::from_millis(500), std::slice::from_mut(t));
                        return Ok(());
                    }
                    last = format!("status {}, {} results", r.status, r.results.len());
                }
                while let Some(Some(_)) = t.flags.next().now_or_never() {}
            }
        }
    }

    /// Sends footprints until the echo answers.
    pub fn setup_echo(&mut self, t: &mut Target) -> Res<()> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            t.process.check_running()?;
            if Instant::now() > deadline {
                return Err(format!("{}: no answer within 60 s", t.label).into());
            }
            let (msg, _) = self.message(t, 0);
            t.publish(&msg)?;
            let until = Instant::now() + Duration::from_millis(300);
            while Instant::now() < until {
                self.node.spin_once(Duration::from_millis(10));
                if let Some(Some(_)) = t.flags.next().now_or_never() {
                    self.idle(Duration::from_millis(200), std::slice::from_mut(t));
                    return Ok(());
                }
            }
        }
    }

    /// Sends one message to `t` and waits for its answer: the round trip,
    /// or `None` when it did not come within [`TIMEOUT`].
    pub fn round_trip(&mut self, t: &mut Target) -> Option<Duration> {
        let (msg, expected) = self.message(t, self.sent);
        self.sent += 1;
        while t.next_flag().is_some() {}
        let t0 = Instant::now();
        if t.publish(&msg).is_err() {
            return None;
        }
        loop {
            while let Some(b) = t.next_flag() {
                if b.data == expected {
                    return Some(t0.elapsed());
                }
                t.skipped += 1;
            }
            let left = TIMEOUT.checked_sub(t0.elapsed())?;
            self.node.spin_once(left.min(Duration::from_millis(5)));
        }
    }

    /// `count` paced round trips to `t`; recorded when `record`.
    pub fn drive(&mut self, t: &mut Target, count: usize, period: Duration, record: bool) {
        // What came before this block is not this block's.
        while let Some(Some(_)) = t.flags.next().now_or_never() {}
        t.flow.start();
        let started = Instant::now();
        let mut answers = 0;
        let mut next = Instant::now();
        for _ in 0..count {
            while let Some(left) = next.checked_duration_since(Instant::now()) {
                self.node.spin_once(left);
                while t.next_flag().is_some() {}
            }
            next = Instant::now() + period;
            let trip = self.round_trip(t);
            answers += usize::from(trip.is_some());
            match trip {
                Some(d) if record => t.samples.push(d.as_secs_f64() * 1e6),
                Some(_) => {}
                None => {
                    t.lost += 1;
                    // Let a late answer arrive and be dropped.
                    self.idle(Duration::from_millis(50), std::slice::from_mut(t));
                }
            }
        }
        t.flow.end(started, answers, record);
    }

    /// Interleaved blocks over `targets` until each has `samples` measured
    /// round trips (after `warmup` unmeasured ones each).
    pub fn compare(&mut self, targets: &mut [Target], o: &Options) {
        for record in [false, true] {
            let total = if record { o.samples } else { o.warmup };
            let start: Vec<Duration> = targets.iter().map(|t| cpu_time(t.process.pid())).collect();
            let mut done = 0;
            let mut round = 0;
            while done < total {
                let n = o.block.min(total - done);
                for i in 0..targets.len() {
                    let j = (i + round) % targets.len();
                    self.drive(&mut targets[j], n, o.period, record);
                }
                done += n;
                round += 1;
            }
            if record {
                for (t, s) in targets.iter_mut().zip(start) {
                    t.cpu = cpu_time(t.process.pid()).saturating_sub(s);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Statistics and tables

pub fn make_client(o: &Options) -> Res<Client> {
    let ctx = r2r::Context::create()?;
    let node = r2r::Node::create(ctx, "node_latency_client", "")?;
    let (centres, scene) = scene(o.obstacles);
    let mut probes = probes(&centres, &scene, 100);
    if o.steady || o.soak.is_some() || o.allocs {
        probes.retain(|p| !p.colliding);
    }
    Ok(Client {
        node,
        probes,
        scene,
        sent: 0,
        dir: work_dir()?,
        tf_stamp_ns: 0,
        tf_static: None,
        predict: o.predict,
        clouds: Vec::new(),
        cloud_stamp_ns: 0,
        steady: o.steady,
    })
}
