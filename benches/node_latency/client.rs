//! The client: one r2r node of this process that drives every target
//! (publishes footprints, takes the flags) in paced round trips.

use crate::cli::Options;
use crate::process::{cpu_time, work_dir, ChildProcess};
use crate::scenario::{header, probes, scene, Probe};
use crate::Res;
use futures::{FutureExt, Stream, StreamExt};
use r2r::geometry_msgs::msg::PolygonStamped;
use r2r::sat_collision_msgs::msg::{CollisionReport, ObstacleArray};
use r2r::std_msgs::msg::Bool;
use r2r::{Publisher, QosProfile};
use std::path::PathBuf;
use std::time::{Duration, Instant};

type BoolStream = Box<dyn Stream<Item = Bool> + Unpin>;

/// Answer deadline of one message; later = lost.
const TIMEOUT: Duration = Duration::from_secs(1);

/// One process answering footprints with `Bool`s.
pub struct Target {
    pub label: String,
    pub ns: String,
    pub footprint: Publisher<PolygonStamped>,
    pub flags: BoolStream,
    pub process: ChildProcess,
    pub samples: Vec<f64>,
    pub lost: usize,
    pub skipped: usize,
    pub cpu: Duration,
    pub counter: Option<PathBuf>,
}

pub struct Client {
    pub node: r2r::Node,
    pub probes: Vec<Probe>,
    pub scene: ObstacleArray,
    pub sent: usize,
    pub dir: PathBuf,
}

/// Alternating bit carried in the echo's message: `expected` as parity.
fn stamp_for(expected: bool) -> u32 {
    u32::from(expected)
}

impl Client {
    pub fn message(&self, k: usize) -> (PolygonStamped, bool) {
        let probe = &self.probes[k % self.probes.len()];
        let msg = PolygonStamped {
            header: header(stamp_for(probe.colliding)),
            polygon: probe.polygon.clone(),
        };
        (msg, probe.colliding)
    }

    pub fn target(&mut self, label: &str, ns: String, process: ChildProcess) -> Res<Target> {
        let footprint = self.node.create_publisher::<PolygonStamped>(
            &format!("{ns}/footprint"),
            QosProfile::default(),
        )?;
        let flags = Box::new(
            self.node
                .subscribe::<Bool>(&format!("{ns}/collision"), QosProfile::default())?,
        );
        Ok(Target {
            label: label.to_owned(),
            ns,
            footprint,
            flags,
            process,
            samples: Vec::new(),
            lost: 0,
            skipped: 0,
            cpu: Duration::ZERO,
            counter: None,
        })
    }

    /// Spins for `d`, dropping what arrives on `targets`' flag streams.
    pub fn idle(&mut self, d: Duration, targets: &mut [Target]) {
        let end = Instant::now() + d;
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            self.node.spin_once(left.min(Duration::from_millis(5)));
            for t in targets.iter_mut() {
                while let Some(Some(_)) = t.flags.next().now_or_never() {}
            }
        }
    }

    /// Publishes the scene and a footprint until the node's report is valid
    /// and covers every obstacle.
    pub fn setup_node(&mut self, t: &mut Target) -> Res<()> {
        let mut reports = self.node.subscribe::<CollisionReport>(
            &format!("{}/collision_report", t.ns),
            QosProfile::default(),
        )?;
        let obstacles = self.node.create_publisher::<ObstacleArray>(
            &format!("{}/obstacles", t.ns),
            QosProfile::default(),
        )?;
        let (msg, _) = self.message(1);
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut last = String::from("no report");
        loop {
            t.process.check_running()?;
            if Instant::now() > deadline {
                return Err(format!("{}: no valid report within 60 s ({last})", t.label).into());
            }
            obstacles.publish(&self.scene)?;
            t.footprint.publish(&msg)?;
            let until = Instant::now() + Duration::from_millis(300);
            while Instant::now() < until {
                self.node.spin_once(Duration::from_millis(10));
                while let Some(Some(r)) = reports.next().now_or_never() {
                    if r.status == "ok" && r.results.len() == self.scene.obstacles.len() {
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
            let (msg, _) = self.message(0);
            t.footprint.publish(&msg)?;
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
        let (msg, expected) = self.message(self.sent);
        self.sent += 1;
        while let Some(Some(_)) = t.flags.next().now_or_never() {}
        let t0 = Instant::now();
        if t.footprint.publish(&msg).is_err() {
            return None;
        }
        loop {
            while let Some(Some(b)) = t.flags.next().now_or_never() {
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
        let mut next = Instant::now();
        for _ in 0..count {
            while let Some(left) = next.checked_duration_since(Instant::now()) {
                self.node.spin_once(left);
            }
            next = Instant::now() + period;
            match self.round_trip(t) {
                Some(d) if record => t.samples.push(d.as_secs_f64() * 1e6),
                Some(_) => {}
                None => {
                    t.lost += 1;
                    // Let a late answer arrive and be dropped.
                    self.idle(Duration::from_millis(50), std::slice::from_mut(t));
                }
            }
        }
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
    })
}
