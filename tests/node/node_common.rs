//! Harness of the node-over-ROS-2 tests (`topics`, `markers`,
//! `service`, `flag`, `failsafe`): starts the real
//! `sat_collision_node` binary as a child process in a namespace of its own
//! and drives it with an r2r peer node in the test process. Built on the
//! shared test support (`sat_collision_testkit`: message builders, the peer
//! helpers and the child-process guard, re-exported here).
//!
//! * [`NodeProcess`] owns the child: SIGTERM then SIGKILL on drop, and the
//!   kernel kills it too (`PR_SET_PDEATHSIG`) if the test thread dies
//!   without dropping it, so no run leaves an orphan behind.
//! * [`Harness`] is one test's world: the node in `/t_<name>`, a peer node in
//!   the same namespace whose spinning thread stops on drop, recorders that
//!   drain the node's outputs into unbounded queues (r2r's own queues hold 10
//!   messages and drop the rest: a busy test would lose the one array that
//!   carries the DELETE markers), and a feeder that re-publishes the current
//!   scene at 10 Hz like a real footprint/obstacle source, so inputs stay
//!   fresh and discovery races cannot lose a one-off message.
//! * Every wait is "until this condition holds, at most this long"; a
//!   timeout panics with the last message seen and the node's log.
//!
//! The whole run uses `ROS_DOMAIN_ID` as exported by `scripts/test.sh`; when
//! it is unset, one is derived from the process id so that separate runs do
//! not hear each other.
#![allow(dead_code)]

pub use sat_collision_testkit::ros::msg::*;
pub use sat_collision_testkit::ros::peer::*;

use r2r::geometry_msgs::msg::{PolygonInstanceStamped, PolygonStamped};
use r2r::rcl_interfaces::msg::{Parameter, ParameterValue, SetParametersResult};
use r2r::rcl_interfaces::srv::SetParameters;
use r2r::sat_collision_msgs::msg::{CollisionReport, ObstacleArray};
use r2r::sat_collision_msgs::srv::CheckFootprint;
use r2r::std_msgs::msg::Bool;
use r2r::visualization_msgs::msg::MarkerArray;
use r2r::QosProfile;
use sat_collision_testkit::process::{proc_status_kb, ChildGuard};
use sat_collision_testkit::ros::node_command;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::sync::Notify;

pub const NODE_BIN: &str = env!("CARGO_BIN_EXE_sat_collision_node");

/// The node binary the tests start: `SAT_COLLISION_NODE_BIN` when set (to
/// run the same tests against another build, e.g. to show that a test
/// fails there), else this build's.
pub fn node_bin() -> String {
    std::env::var("SAT_COLLISION_NODE_BIN")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| NODE_BIN.to_owned())
}

/// Deadline for things that only depend on discovery and scheduling
/// (first report, a service becoming available): generous, the machine
/// may be busy with a parallel test.
pub const STARTUP: Duration = Duration::from_secs(30);
/// Deadline for a state the node should reach after an input change.
pub const SETTLE: Duration = Duration::from_secs(10);

/// Absolute tolerance of lengths computed from float32 inputs that are
/// exactly representable (every coordinate in these tests is).
pub const EPS: f64 = 1e-9;

pub fn assert_close(actual: f64, expected: f64, what: &str) {
    assert!(
        (actual - expected).abs() <= EPS,
        "{what}: {actual} != {expected} (±{EPS})"
    );
}

// ---------------------------------------------------------------------------
// Environment

/// The ROS_DOMAIN_ID of this run: the exported one, else one derived from
/// the process id (set once, before any ROS context exists).
pub fn domain_id() -> &'static str {
    static ID: OnceLock<String> = OnceLock::new();
    ID.get_or_init(|| match std::env::var("ROS_DOMAIN_ID") {
        Ok(v) if !v.trim().is_empty() => v,
        _ => {
            let id = (1 + std::process::id() % 100).to_string();
            // Before any context: rcl reads it when the context is created.
            std::env::set_var("ROS_DOMAIN_ID", &id);
            id
        }
    })
}

/// The process-wide r2r context (r2r keeps one per process).
pub fn context() -> r2r::Context {
    domain_id();
    r2r::Context::create().expect("ROS context (source scripts/env.sh first)")
}

// ---------------------------------------------------------------------------
// The node process

/// A running `sat_collision_node`, its output collected line by line;
/// stopped (SIGTERM, then SIGKILL) on drop.
pub struct NodeProcess {
    child: ChildGuard,
    pub log: Arc<Mutex<Vec<String>>>,
    readers: Vec<JoinHandle<()>>,
}

/// The node in namespace `ns` with `-p name:=value` parameters, then
/// `extra` arguments (inside the `--ros-args` section).
fn command(ns: &str, params: &[(&str, &str)], extra: &[&str]) -> Command {
    let params = params
        .iter()
        .map(|(name, value)| format!("{name}:={value}"));
    let mut cmd = node_command(node_bin(), ns, params);
    cmd.args(extra)
        .env("ROS_DOMAIN_ID", domain_id())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

fn collect_lines(
    stream: impl Read + Send + 'static,
    log: Arc<Mutex<Vec<String>>>,
) -> JoinHandle<()> {
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            log.lock().unwrap().push(line);
        }
    })
}

impl NodeProcess {
    /// Starts the node in namespace `ns` with `-p name:=value` parameters.
    pub fn spawn(ns: &str, params: &[(&str, &str)]) -> NodeProcess {
        NodeProcess::spawn_with_args(ns, params, &[])
    }

    /// Starts the node like [`spawn`](Self::spawn), with `extra` arguments
    /// after the parameters (inside the `--ros-args` section), e.g.
    /// `["--params-file", path]`.
    pub fn spawn_with_args(ns: &str, params: &[(&str, &str)], extra: &[&str]) -> NodeProcess {
        let mut child = ChildGuard::spawn(&mut command(ns, params, extra))
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", node_bin()));
        let log = Arc::new(Mutex::new(Vec::new()));
        let (stdout, stderr) = (
            child.child_mut().stdout.take(),
            child.child_mut().stderr.take(),
        );
        let readers = vec![
            collect_lines(stdout.expect("piped stdout"), log.clone()),
            collect_lines(stderr.expect("piped stderr"), log.clone()),
        ];
        NodeProcess {
            child,
            log,
            readers,
        }
    }

    /// Runs the node until it exits by itself (at most `timeout`; killed
    /// and reported as a failure after that): exit status and output.
    pub fn run_to_exit(
        ns: &str,
        params: &[(&str, &str)],
        timeout: Duration,
    ) -> (ExitStatus, String) {
        NodeProcess::spawn(ns, params).wait_exit(timeout, || format!("node with {params:?}"))
    }

    /// Like [`run_to_exit`](Self::run_to_exit), with `extra` arguments.
    pub fn run_with_args_to_exit(
        ns: &str,
        params: &[(&str, &str)],
        extra: &[&str],
        timeout: Duration,
    ) -> (ExitStatus, String) {
        NodeProcess::spawn_with_args(ns, params, extra)
            .wait_exit(timeout, || format!("node with {params:?} {extra:?}"))
    }

    /// Waits until the node exits (exit status and output); panics after
    /// `timeout`, naming the node with `what()`.
    fn wait_exit(mut self, timeout: Duration, what: impl Fn() -> String) -> (ExitStatus, String) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for the node") {
                for reader in self.readers.drain(..) {
                    let _ = reader.join();
                }
                return (status, self.log_text());
            }
            if start.elapsed() > timeout {
                panic!(
                    "{} still running after {timeout:?}; output:\n{}",
                    what(),
                    self.log_text()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends SIGTERM and waits at most `timeout` for the node to exit:
    /// its exit status and how long it took, or `None` if it still runs.
    pub fn terminate_within(&mut self, timeout: Duration) -> Option<(ExitStatus, Duration)> {
        let pid = libc::pid_t::try_from(self.pid()).expect("a pid");
        let sent = Instant::now();
        // SAFETY: kill(2) on our own child, not yet reaped (the guard
        // reaps it only in try_wait or on drop).
        assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0, "SIGTERM sent");
        while sent.elapsed() < timeout {
            if let Some(status) = self.child.try_wait().expect("wait for the node") {
                return Some((status, sent.elapsed()));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }

    pub fn log_text(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }

    /// Whether the node is still running (it must keep serving after bad
    /// input).
    pub fn is_running(&mut self) -> bool {
        self.child.is_running()
    }

    /// The child's process id (for /proc/<pid>/status).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Resident set size of the node (VmRSS, kB), if it can be read.
    pub fn rss_kb(&self) -> Option<u64> {
        proc_status_kb(self.pid(), "VmRSS:")
    }
}

impl Drop for NodeProcess {
    fn drop(&mut self) {
        // The readers end when the child's pipes close.
        self.child.stop();
        for reader in self.readers.drain(..) {
            let _ = reader.join();
        }
    }
}

// ---------------------------------------------------------------------------
// The scene feeder

/// What the feeder re-publishes: `None` = that source is silent.
#[derive(Default)]
pub struct Scene {
    pub footprint: Option<PolygonStamped>,
    pub obstacles: Option<ObstacleArray>,
    pub instances: BTreeMap<i64, PolygonInstanceStamped>,
}

/// Period at which the feeder re-publishes the scene.
pub const FEED_PERIOD: Duration = Duration::from_millis(100);

// ---------------------------------------------------------------------------
// The harness

/// One test's world. Must be created inside a tokio runtime, on the test's
/// own thread (the child's death signal is tied to the thread that starts
/// it).
pub struct Harness {
    pub ns: String,
    pub node: NodeProcess,
    peer: Spinner,
    pub reports: UnboundedReceiver<CollisionReport>,
    pub flags: UnboundedReceiver<Bool>,
    scene: Arc<Mutex<Scene>>,
    changed: Arc<Notify>,
    feeder: tokio::task::JoinHandle<()>,
}

impl Harness {
    /// Starts the node in `/t_<name>` with `params` and a peer, and waits
    /// for the node's first report.
    pub async fn start(name: &str, params: &[(&str, &str)]) -> Harness {
        Harness::start_with_args(name, params, &[]).await
    }

    /// Like [`start`](Self::start), with `extra` node arguments (inside
    /// `--ros-args`, e.g. remappings).
    pub async fn start_with_args(name: &str, params: &[(&str, &str)], extra: &[&str]) -> Harness {
        let ns = format!("/t_{name}");
        let ctx = context();
        let mut peer = r2r::Node::create(ctx, "peer", &ns).expect("peer node");
        let reports = record(
            peer.subscribe::<CollisionReport>("collision_report", QosProfile::default())
                .expect("subscribe collision_report"),
        );
        let flags = record(
            peer.subscribe::<Bool>("collision", QosProfile::default())
                .expect("subscribe collision"),
        );
        let footprints = peer
            .create_publisher::<PolygonStamped>("footprint", QosProfile::default())
            .expect("footprint publisher");
        let arrays = peer
            .create_publisher::<ObstacleArray>("obstacles", QosProfile::default())
            .expect("obstacles publisher");
        let instances = peer
            .create_publisher::<PolygonInstanceStamped>("obstacle_instances", QosProfile::default())
            .expect("obstacle_instances publisher");

        let peer = Spinner::start(peer);

        let scene = Arc::new(Mutex::new(Scene::default()));
        let changed = Arc::new(Notify::new());
        let feeder = {
            let scene = scene.clone();
            let changed = changed.clone();
            tokio::spawn(async move {
                loop {
                    {
                        let scene = scene.lock().unwrap();
                        if let Some(msg) = &scene.footprint {
                            let _ = footprints.publish(msg);
                        }
                        if let Some(msg) = &scene.obstacles {
                            let _ = arrays.publish(msg);
                        }
                        for msg in scene.instances.values() {
                            let _ = instances.publish(msg);
                        }
                    }
                    let _ = tokio::time::timeout(FEED_PERIOD, changed.notified()).await;
                }
            })
        };

        let node = NodeProcess::spawn_with_args(&ns, params, extra);
        let mut harness = Harness {
            ns,
            node,
            peer,
            reports,
            flags,
            scene,
            changed,
            feeder,
        };
        harness
            .report_where("(the node's first)", STARTUP, |_| true)
            .await;
        harness
    }

    /// Changes what the feeder publishes, and publishes it at once.
    pub fn scene(&self, change: impl FnOnce(&mut Scene)) {
        change(&mut self.scene.lock().unwrap());
        self.changed.notify_one();
    }

    pub fn set_footprint(&self, msg: Option<PolygonStamped>) {
        self.scene(|s| s.footprint = msg);
    }

    pub fn set_obstacles(&self, msg: Option<ObstacleArray>) {
        self.scene(|s| s.obstacles = msg);
    }

    /// Node log and context for failure messages.
    pub fn context_text(&self) -> String {
        self.context_text_lazy()()
    }

    /// Waits until a report satisfies `pred` (at most `timeout`).
    pub async fn report_where(
        &mut self,
        what: &str,
        timeout: Duration,
        pred: impl FnMut(&CollisionReport) -> bool,
    ) -> CollisionReport {
        let context = self.context_text_lazy();
        wait_for(&mut self.reports, "report", what, timeout, pred, context).await
    }

    /// Waits until a report with `status` arrives (at most [`SETTLE`]).
    pub async fn report_with_status(&mut self, status: &str) -> CollisionReport {
        self.report_where(&format!("with status {status}"), SETTLE, |r| {
            r.status == status
        })
        .await
    }

    /// Waits until the flag reads `expected` (at most `timeout`).
    pub async fn flag_within(&mut self, expected: bool, timeout: Duration) {
        let context = self.context_text_lazy();
        let what = format!("== {expected}");
        wait_for(
            &mut self.flags,
            "collision flag",
            &what,
            timeout,
            |b| b.data == expected,
            context,
        )
        .await;
    }

    /// Call after a report showed the state: drops the flags received
    /// before (they may predate the state), waits until the flag reads
    /// `expected`, then checks that it stays so for the next three messages
    /// (the scene is static by then).
    ///
    /// Flags and reports travel on different topics, so a flag published
    /// before the state changed can still arrive after the report that shows
    /// the change. Two more periodic reports (the node publishes both at
    /// `publish_rate`) give such stragglers time to land before the drop.
    pub async fn flag_settles(&mut self, expected: bool) {
        let context = self.context_text_lazy();
        for _ in 0..2 {
            self.report_where("(next)", SETTLE, |_| true).await;
        }
        while self.flags.try_recv().is_ok() {}
        wait_for(
            &mut self.flags,
            "collision flag",
            &format!("== {expected}"),
            SETTLE,
            |b| b.data == expected,
            context.clone(),
        )
        .await;
        for _ in 0..3 {
            let next = wait_for(
                &mut self.flags,
                "collision flag",
                "(next)",
                SETTLE,
                |_| true,
                context.clone(),
            )
            .await;
            assert_eq!(
                next.data,
                expected,
                "collision flag changed in a static scene; {}",
                context()
            );
        }
    }

    fn context_text_lazy(&self) -> impl Fn() -> String + Clone {
        let log = self.node.log.clone();
        let ns = self.ns.clone();
        move || {
            let log = log.lock().unwrap();
            let tail = log.len().saturating_sub(40);
            format!(
                "namespace {ns}, ROS_DOMAIN_ID {}; node log (last {} lines):\n{}",
                domain_id(),
                log.len() - tail,
                log[tail..].join("\n")
            )
        }
    }

    /// Subscribes to `collision_markers` now (markers are only built while
    /// somebody subscribes).
    pub fn subscribe_markers(&self) -> UnboundedReceiver<MarkerArray> {
        let stream = self
            .peer
            .node
            .lock()
            .unwrap()
            .subscribe::<MarkerArray>("collision_markers", QosProfile::default())
            .expect("subscribe collision_markers");
        record(stream)
    }

    /// Waits until a marker array satisfies `pred`.
    pub async fn markers_where(
        &self,
        rx: &mut UnboundedReceiver<MarkerArray>,
        what: &str,
        timeout: Duration,
        pred: impl FnMut(&MarkerArray) -> bool,
    ) -> MarkerArray {
        wait_for(
            rx,
            "marker array",
            what,
            timeout,
            pred,
            self.context_text_lazy(),
        )
        .await
    }

    /// A `check_footprint` client of the peer, once the node's service is
    /// available.
    async fn check_footprint_client(&self) -> r2r::Client<CheckFootprint::Service> {
        self.client("check_footprint").await
    }

    /// A client of the node's service `name` (any type with the service's
    /// type support), once the service is available.
    pub async fn client<S: r2r::WrappedServiceTypeSupport + 'static>(
        &self,
        name: &str,
    ) -> r2r::Client<S> {
        let client = self
            .peer
            .node
            .lock()
            .unwrap()
            .create_client::<S>(name, QosProfile::default())
            .unwrap_or_else(|e| panic!("{name} client: {e}"));
        let available = r2r::Node::is_available(&client).expect("poll service");
        tokio::time::timeout(STARTUP, available)
            .await
            .unwrap_or_else(|_| panic!("{name} not available; {}", self.context_text()))
            .expect("service availability");
        client
    }

    /// Calls `check_footprint` (waits for the service; retries a request
    /// whose answer does not come, as a service call right after discovery
    /// can be lost).
    pub async fn check_footprint(
        &self,
        request: CheckFootprint::Request,
    ) -> CheckFootprint::Response {
        let client = self.check_footprint_client().await;
        for _ in 0..3 {
            let answer = client.request(&request).expect("send request");
            if let Ok(response) = tokio::time::timeout(Duration::from_secs(5), answer).await {
                return response.expect("check_footprint response");
            }
        }
        panic!(
            "check_footprint did not answer 3 requests; {}",
            self.context_text()
        );
    }

    /// Sets one parameter through the node's `set_parameters` service.
    pub async fn set_parameter(&self, name: &str, value: ParameterValue) -> SetParametersResult {
        let service = format!("{}/sat_collision_node/set_parameters", self.ns);
        let client = self
            .peer
            .node
            .lock()
            .unwrap()
            .create_client::<SetParameters::Service>(&service, QosProfile::default())
            .expect("set_parameters client");
        let available = r2r::Node::is_available(&client).expect("poll service");
        tokio::time::timeout(STARTUP, available)
            .await
            .unwrap_or_else(|_| panic!("{service} not available; {}", self.context_text()))
            .expect("service availability");
        let request = SetParameters::Request {
            parameters: vec![Parameter {
                name: name.to_owned(),
                value,
            }],
        };
        for _ in 0..3 {
            let answer = client.request(&request).expect("send request");
            if let Ok(response) = tokio::time::timeout(Duration::from_secs(5), answer).await {
                let mut response = response.expect("set_parameters response");
                assert_eq!(response.results.len(), 1, "one result per parameter");
                return response.results.remove(0);
            }
        }
        panic!(
            "{service} did not answer 3 requests; {}",
            self.context_text()
        );
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        self.feeder.abort();
        if std::thread::panicking() {
            eprintln!("---- {}", self.context_text());
        }
    }
}

impl Harness {
    /// The peer node (to create more publishers, subscriptions, clients).
    pub fn peer_node(&self) -> Arc<Mutex<r2r::Node>> {
        self.peer.node.clone()
    }

    /// Subscribes to `collision` now, every flag stamped on receipt.
    pub fn subscribe_stamped_flags(&self) -> UnboundedReceiver<(Instant, Bool)> {
        let stream = self
            .peer
            .node
            .lock()
            .unwrap()
            .subscribe::<Bool>("collision", QosProfile::default())
            .expect("subscribe collision");
        record_stamped(stream)
    }

    /// Subscribes to `collision_report` now, every report stamped on
    /// receipt.
    pub fn subscribe_stamped_reports(&self) -> UnboundedReceiver<(Instant, CollisionReport)> {
        let stream = self
            .peer
            .node
            .lock()
            .unwrap()
            .subscribe::<CollisionReport>("collision_report", QosProfile::default())
            .expect("subscribe collision_report");
        record_stamped(stream)
    }

    /// A publisher of the peer on `topic` (relative to the namespace),
    /// once the node's subscription is matched (at most [`STARTUP`]).
    pub async fn matched_publisher<T: r2r::WrappedTypesupport + 'static>(
        &self,
        topic: &str,
    ) -> r2r::Publisher<T> {
        let publisher = self
            .peer
            .node
            .lock()
            .unwrap()
            .create_publisher::<T>(topic, QosProfile::default())
            .unwrap_or_else(|e| panic!("{topic} publisher: {e}"));
        let matched = publisher
            .wait_for_inter_process_subscribers()
            .expect("wait for subscribers");
        tokio::time::timeout(STARTUP, matched)
            .await
            .unwrap_or_else(|_| panic!("nobody subscribes {topic}; {}", self.context_text()))
            .expect("subscriber match");
        publisher
    }

    /// Sends one `check_footprint` request once the service is available
    /// and waits for its answer at most `timeout` (no retry: a long
    /// request must not be sent twice). The time from sending to the
    /// answer comes with it.
    pub async fn check_footprint_once(
        &self,
        request: CheckFootprint::Request,
        timeout: Duration,
    ) -> (CheckFootprint::Response, Duration) {
        let client = self.check_footprint_client().await;
        // Right after discovery a request can be lost (the client's reply
        // reader not matched yet): give matching a moment, as the request
        // is sent only once.
        tokio::time::sleep(Duration::from_secs(1)).await;
        let sent = Instant::now();
        let answer = client.request(&request).expect("send request");
        match tokio::time::timeout(timeout, answer).await {
            Ok(response) => (response.expect("check_footprint response"), sent.elapsed()),
            Err(_) => panic!(
                "check_footprint did not answer within {timeout:?}; {}",
                self.context_text()
            ),
        }
    }
}
