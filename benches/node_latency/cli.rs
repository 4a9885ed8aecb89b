//! Command line: the client's options, or one of the benchmark's own child
//! processes (echo, sink).

use crate::Res;
use clap::{ArgGroup, Parser};
use std::path::PathBuf;
use std::time::Duration;

/// The node binary that `cargo bench` built with this benchmark.
const NODE_BIN: &str = env!("CARGO_BIN_EXE_sat_collision_node");

/// The Fast DDS profile for big messages (`--cloud`).
const DDS_PROFILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/config/fastdds_large_data.xml");
/// `--gate`'s default period: 200 Hz.
const GATE_PERIOD_US: u64 = 5000;
/// `--fleet`'s default period: 50 Hz.
const FLEET_PERIOD_US: u64 = 20_000;
/// `--cloud`'s default period: 30 Hz.
const CLOUD_PERIOD_US: u64 = 33_333;

const LATENCY: &str = "Latency (default)";
const SOAK: &str = "Soak (always --steady)";
const ALLOCATIONS: &str = "Allocations (always --steady: the steady state the target is about)";
const CLOUD: &str = "Point clouds (instead of footprints)";
const FLEET: &str = "Fleet (instead of footprints)";
const NODE: &str = "Node";
const INTERNAL: &str = "Internal (the benchmark's own child processes)";

/// sat_collision_node latency over ROS 2 against the transport floor
#[derive(Parser)]
#[command(
    name = "node_latency",
    override_usage = "cargo bench --bench node_latency -- [OPTIONS]",
    group(ArgGroup::new("internal").args(["echo", "echo_entities", "echo_st", "echo_tf", "echo_cloud", "echo_twist", "echo_fleet", "fleet_peers", "sink"]))
)]
struct Cli {
    /// Measured messages per target
    #[arg(long, value_name = "N", default_value_t = 2000, help_heading = LATENCY)]
    samples: usize,
    /// Unmeasured messages per target first
    #[arg(long, value_name = "N", default_value_t = 300, help_heading = LATENCY)]
    warmup: usize,
    /// Messages per target before switching
    #[arg(long, value_name = "N", default_value_t = 50, help_heading = LATENCY)]
    block: usize,
    /// Send period, one in flight; 0 = back to back [default: 1000; with
    /// --cloud 33333 (30 Hz, a depth camera's rate), with --gate 5000,
    /// with --fleet 20000]
    #[arg(long, value_name = "US", help_heading = LATENCY)]
    period_us: Option<u64>,
    /// Obstacles in the scene
    #[arg(long, value_name = "N", default_value_t = 1000, help_heading = LATENCY)]
    obstacles: usize,
    /// Also: a node whose report is subscribed, vs the echo
    #[arg(long, help_heading = LATENCY)]
    report: bool,
    /// Also: a node publishing markers to a subscriber, vs the echo
    #[arg(long, help_heading = LATENCY)]
    markers: bool,
    /// Skip the single-threaded echo
    #[arg(long, help_heading = LATENCY)]
    no_echo_st: bool,
    /// Also: an echo that computes for US µs after each answer (what the
    /// node's post-flag work costs the flag's delivery)
    #[arg(long, value_name = "US", help_heading = LATENCY)]
    echo_burn_us: Option<u64>,
    /// Instead: the footprint from TF (node with base_frame base_link,
    /// global_frame map, robot_footprint; static map → odom): each message
    /// one /tf odom → base_link, vs an echo of /tf
    #[arg(long, help_heading = LATENCY, conflicts_with_all = ["report", "markers", "echo_burn_us", "soak", "allocs"])]
    tf: bool,
    /// The node with the predictive monitor on: velocity_topic cmd_vel
    /// (geometry_msgs/Twist: 0.5 m/s, 0.3 rad/s, an arc; never stale),
    /// time_horizon 2 s; collision_ahead published after each flag
    #[arg(long, help_heading = LATENCY, conflicts_with_all = ["tf", "soak", "allocs"])]
    predict: bool,
    /// Only clear footprints, or clear clouds with --cloud (the flag never
    /// changes; a timer re-publication can then pass for an answer: ~0.2 %
    /// of samples at 1 kHz)
    #[arg(long, help_heading = LATENCY)]
    steady: bool,

    /// Instead: each message a sensor_msgs/PointCloud2 of POINTS points (x,
    /// y, z, intensity float32; a room, alternating with and without a few
    /// points inside the robot) to a node with observation_sources
    /// [camera] (pointcloud), vs an echo of the same clouds
    #[arg(long, value_name = "POINTS", num_args = 0..=1, default_missing_value = "24000",
          help_heading = CLOUD,
          conflicts_with_all = ["tf", "predict", "report", "markers", "echo_burn_us", "soak", "allocs"])]
    cloud: Option<usize>,
    /// Instead: the velocity gate, a geometry_msgs/Twist on cmd_vel_in →
    /// cmd_vel_out, while a cloud of POINTS points arrives at 10 Hz on the
    /// node's camera source, vs an echo of the Twist
    #[arg(long, value_name = "POINTS", num_args = 0..=1, default_missing_value = "24000",
          help_heading = CLOUD,
          conflicts_with_all = ["cloud", "tf", "predict", "report", "markers", "echo_burn_us", "soak", "allocs"])]
    gate: Option<usize>,
    /// Instead: the node with a fleet source while PEERS robots publish on
    /// its fleet topic at 10 Hz each (a peer process): its CPU per peer
    /// update, and the latency from the fleet message that moves one more
    /// peer onto the robot (or off it) to `collision`, vs an echo of that
    /// message on the same topic
    #[arg(long, value_name = "PEERS", num_args = 0..=1, default_missing_value = "100",
          help_heading = FLEET,
          conflicts_with_all = ["cloud", "gate", "tf", "predict", "report", "markers", "echo_burn_us", "soak", "allocs"])]
    fleet: Option<usize>,
    /// --fleet: seconds of the peers alone over which CPU is measured
    #[arg(long, value_name = "S", default_value_t = 5.0, help_heading = FLEET)]
    fleet_window: f64,

    /// The Fast DDS profile every process of --cloud runs with
    /// (FASTRTPS_DEFAULT_PROFILES_FILE and FASTDDS_DEFAULT_PROFILES_FILE);
    /// '' = Fast DDS's defaults [default: config/fastdds_large_data.xml]
    #[arg(long, value_name = "PATH", help_heading = CLOUD)]
    dds_profile: Option<PathBuf>,

    /// Drive the node alone for SECONDS
    #[arg(long, value_name = "SECONDS", help_heading = SOAK)]
    soak: Option<f64>,
    /// Soak rate
    #[arg(long, value_name = "HZ", default_value_t = 1000.0, help_heading = SOAK)]
    rate: f64,
    /// RSS sample period in seconds
    #[arg(long, value_name = "S", default_value_t = 5.0, help_heading = SOAK)]
    rss_every: f64,

    /// Count allocation calls per message in the node, the echo and the echo
    /// with the node's entities (with --report: also the node with its
    /// report subscribed)
    #[arg(long, help_heading = ALLOCATIONS)]
    allocs: bool,

    /// The node binary (default: the one cargo built with this bench)
    #[arg(long, value_name = "PATH", default_value = NODE_BIN, hide_default_value = true, help_heading = NODE)]
    node_bin: PathBuf,
    /// Extra `-p P` for the node, e.g. exact_range:=1.0 (repeatable)
    #[arg(long = "node-param", value_name = "P", help_heading = NODE)]
    node_params: Vec<String>,

    /// Run the echo (tokio hand-over, like the node) in namespace NS
    #[arg(long, value_name = "NS", help_heading = INTERNAL)]
    echo: Option<String>,
    /// The same echo with the node's other ROS entities (2 more
    /// subscriptions, 7 services: the same wait set)
    #[arg(long, value_name = "NS", help_heading = INTERNAL)]
    echo_entities: Option<String>,
    /// Run the single-threaded echo in namespace NS
    #[arg(long, value_name = "NS", help_heading = INTERNAL)]
    echo_st: Option<String>,
    /// Run the echo of /tf messages (on NS/tf) in namespace NS
    #[arg(long, value_name = "NS", help_heading = INTERNAL)]
    echo_tf: Option<String>,
    /// Run the echo of point clouds (on NS/cloud, the node's source QoS) in
    /// namespace NS
    #[arg(long, value_name = "NS", help_heading = INTERNAL)]
    echo_cloud: Option<String>,
    /// Run the echo of Twist commands (NS/cmd_in → NS/cmd_out)
    #[arg(long, value_name = "NS", help_heading = INTERNAL)]
    echo_twist: Option<String>,
    /// Run the echo of fleet messages (the fleet topic from the
    /// environment) in namespace NS
    #[arg(long, value_name = "NS", help_heading = INTERNAL)]
    echo_fleet: Option<String>,
    /// Run the fleet's peers (topic and count from the environment); the
    /// value is ignored
    #[arg(long, value_name = "X", help_heading = INTERNAL)]
    fleet_peers: Option<String>,
    /// Subscribe (raw) to NS/collision_markers and NS/collision_report
    #[arg(long, value_name = "NS", help_heading = INTERNAL)]
    sink: Option<String>,

    /// Passed by `cargo bench` to every harness = false benchmark: ignored
    #[arg(long, hide = true)]
    bench: bool,
}

#[derive(Clone)]
pub struct Options {
    pub samples: usize,
    pub warmup: usize,
    pub block: usize,
    pub period: Duration,
    pub obstacles: usize,
    pub markers: bool,
    pub report: bool,
    pub echo_st: bool,
    pub soak: Option<f64>,
    pub rate: f64,
    pub rss_every: f64,
    pub allocs: bool,
    pub steady: bool,
    pub tf: bool,
    pub predict: bool,
    /// `--cloud`: points per cloud.
    pub cloud: Option<usize>,
    /// `--gate`: points per cloud.
    pub gate: Option<usize>,
    /// `--fleet`: peers.
    pub fleet: Option<usize>,
    /// `--fleet-window`: s.
    pub fleet_window: f64,
    /// `--cloud`: the Fast DDS profile (`None`: Fast DDS's defaults).
    pub dds_profile: Option<PathBuf>,
    pub node_bin: PathBuf,
    pub node_params: Vec<String>,
    pub burn: Option<u64>,
}

pub enum Mode {
    Client(Box<Options>),
    /// The echo; `true`: with the node's ROS entities.
    Echo(String, bool),
    EchoSingleThread(String),
    EchoTf(String),
    EchoCloud(String),
    EchoTwist(String),
    EchoFleet(String),
    FleetPeers,
    Sink(String),
}

/// The mode and options of this run; `--help` prints the options and
/// exits.
pub fn parse_args() -> Res<Mode> {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // A usage error: clap's message, exit status 1 like every other
        // failure of this benchmark.
        Err(e) if e.use_stderr() => {
            let _ = e.print();
            std::process::exit(1);
        }
        // --help: on stdout, exit status 0.
        Err(e) => e.exit(),
    };
    if let Some(ns) = cli.echo {
        return Ok(Mode::Echo(ns, false));
    }
    if let Some(ns) = cli.echo_entities {
        return Ok(Mode::Echo(ns, true));
    }
    if let Some(ns) = cli.echo_st {
        return Ok(Mode::EchoSingleThread(ns));
    }
    if let Some(ns) = cli.echo_tf {
        return Ok(Mode::EchoTf(ns));
    }
    if let Some(ns) = cli.echo_cloud {
        return Ok(Mode::EchoCloud(ns));
    }
    if let Some(ns) = cli.echo_twist {
        return Ok(Mode::EchoTwist(ns));
    }
    if let Some(ns) = cli.echo_fleet {
        return Ok(Mode::EchoFleet(ns));
    }
    if cli.fleet_peers.is_some() {
        return Ok(Mode::FleetPeers);
    }
    if let Some(ns) = cli.sink {
        return Ok(Mode::Sink(ns));
    }
    if !(cli.rate > 0.0 && cli.rss_every > 0.0 && cli.fleet_window > 0.0) {
        return Err("--rate, --rss-every and --fleet-window must be > 0".into());
    }
    Ok(Mode::Client(Box::new(Options {
        samples: cli.samples,
        warmup: cli.warmup,
        block: cli.block.max(1),
        period: Duration::from_micros(cli.period_us.unwrap_or(
            match (cli.cloud, cli.gate, cli.fleet) {
                (Some(_), _, _) => CLOUD_PERIOD_US,
                (None, Some(_), _) => GATE_PERIOD_US,
                (None, None, Some(_)) => FLEET_PERIOD_US,
                (None, None, None) => 1000,
            },
        )),
        obstacles: cli.obstacles,
        markers: cli.markers,
        report: cli.report,
        echo_st: !cli.no_echo_st,
        soak: cli.soak,
        rate: cli.rate,
        rss_every: cli.rss_every,
        allocs: cli.allocs,
        steady: cli.steady,
        tf: cli.tf,
        predict: cli.predict,
        cloud: cli.cloud,
        gate: cli.gate,
        fleet: cli.fleet,
        fleet_window: cli.fleet_window,
        dds_profile: match cli.dds_profile {
            None => Some(PathBuf::from(DDS_PROFILE)),
            Some(p) if p.as_os_str().is_empty() => None,
            Some(p) => Some(p),
        },
        node_bin: cli.node_bin,
        node_params: cli.node_params,
        burn: cli.echo_burn_us,
    })))
}
