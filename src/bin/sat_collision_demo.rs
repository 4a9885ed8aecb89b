//! `sat_collision_demo`: drives a robot around an ellipse through the
//! obstacles of a scene file by TF, publishes the obstacles to
//! `sat_collision_node`, prints every change of the node's collision flag
//! and writes an SVG snapshot of the current scene now and then.
//!
//! TF, as a robot has it: `/tf_static` `map -> odom` (odometry drifted
//! from the map: a small offset and rotation, [`ODOM_IN_MAP`]), published
//! once, transient local; `/tf` `odom -> base_link` at 50 Hz, the robot's
//! motion, stamped with ROS time now. `map` is the scene's frame
//! (`frame_id`, `map` in `config/demo_scene.yaml`): the obstacles are
//! published in it as the scene gives them. The footprint topic is not
//! published: the node places the robot's shape in `base_link` itself,
//! given the arguments `--node-args` prints (`base_frame`, `global_frame`,
//! `robot_footprint` or `robot_radius`), which `scripts/demo.sh` passes.
//!
//! ```text
//! sat_collision_demo [--scene config/demo_scene.yaml] [--svg demo_snapshot.svg]
//!                    [--snapshot-period 2.0] [--duration SECONDS] [--loop-period 20.0]
//!                    [--ros-args ...]
//! sat_collision_demo --node-args [--scene config/demo_scene.yaml]
//! sat_collision_demo --help | --version
//! ```
//!
//! Exit codes: 0 stopped (end of `--duration`, SIGINT or SIGTERM), 1 error
//! (scene file, ROS), 64 usage error.

use clap::builder::{OsStringValueParser, TypedValueParser};
use clap::Parser;
use futures::StreamExt;
use nalgebra::{Isometry2, Vector2};
use r2r::builtin_interfaces::msg::Time;
use r2r::geometry_msgs::msg::{Point32, Polygon, Quaternion, Transform, TransformStamped, Vector3};
use r2r::sat_collision_msgs::msg::{CollisionReport, Obstacle, ObstacleArray};
use r2r::std_msgs::msg::Header;
use r2r::tf2_msgs::msg::TFMessage;
use r2r::QosProfile;
use sat_collision::config::parse_footprint;
use sat_collision::geometry::Point;
use sat_collision::ros::convert;
use sat_collision::ros::spin::{ShutdownSignals, Spinner};
use sat_collision::scene::{CircleSpec, ObstacleSpec, Scene, ShapeSpec};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The loop the robot follows (map frame: the scene's frame).
const CENTRE: (f64, f64) = (2.0, 1.0);
const RADII: (f64, f64) = (2.4, 1.3);
/// `odom -> base_link` on `/tf`, as often as a robot's odometry.
const TF_RATE_HZ: f64 = 50.0;
const OBSTACLES_PERIOD: Duration = Duration::from_millis(200);

/// The robot's odometry frame and its own frame (the footprint's).
const ODOM_FRAME: &str = "odom";
const BASE_FRAME: &str = "base_link";
/// Where `odom` is in `map` (x m, y m, yaw rad): a real robot's odometry
/// drifts from the map, so the two are not the same frame.
const ODOM_IN_MAP: (f64, f64, f64) = (0.5, -0.3, 0.1);

/// Drives a robot around a loop through the obstacles of a scene by TF, for sat_collision_node
// Help text is not wrapped to the terminal (no `wrap_help`): lines are kept
// short here. Every option takes the next argument as its value, whatever it
// looks like.
#[derive(Parser)]
#[command(
    name = "sat_collision_demo",
    version,
    after_help = concat!(
        "Publishes TF (/tf_static map -> odom, /tf odom -> base_link at 50 Hz: the robot's\n",
        "motion) and the obstacles in map (topic `obstacles`), and prints every change of the\n",
        "node's collision flag (topic `collision_report`). The node places the robot's\n",
        "footprint itself from TF, given the arguments --node-args prints, one a line\n",
        "(scripts/demo.sh passes them):\n",
        "  mapfile -t args < <(sat_collision_demo --node-args)\n",
        "  sat_collision_node --ros-args \"${args[@]}\"\n\n",
        "exit codes: 0 stopped (--duration, SIGINT, SIGTERM), 1 error, 64 usage error"
    ),
    // A repeated option counts once (the last one wins).
    args_override_self = true
)]
struct Args {
    /// Scene file: footprint (robot frame) and obstacles (map frame: the scene's frame_id)
    #[arg(
        long,
        value_name = "FILE",
        default_value = "config/demo_scene.yaml",
        value_parser = path(),
        allow_hyphen_values = true
    )]
    scene: PathBuf,
    /// Write a picture of the scene (SVG) to FILE now and then
    #[arg(long, value_name = "FILE", value_parser = path(), allow_hyphen_values = true)]
    svg: Option<PathBuf>,
    /// Seconds between two pictures
    #[arg(
        long,
        value_name = "SECONDS",
        default_value = "2.0",
        value_parser = positive,
        allow_hyphen_values = true
    )]
    snapshot_period: f64,
    /// Stop after SECONDS (default: run until SIGINT or SIGTERM)
    #[arg(long, value_name = "SECONDS", value_parser = positive, allow_hyphen_values = true)]
    duration: Option<f64>,
    /// Seconds for one round of the loop
    #[arg(
        long,
        value_name = "SECONDS",
        default_value = "20.0",
        value_parser = positive,
        allow_hyphen_values = true
    )]
    loop_period: f64,
    /// Print the ROS arguments sat_collision_node needs for this demo (frames, the
    /// robot's footprint from --scene), one a line, and exit
    #[arg(long)]
    node_args: bool,
    /// ROS 2 arguments (e.g. -r __ns:=/demo): the rest is for rcl
    // rcl reads them itself, from the process's arguments: they are taken
    // here only so that none of them is mistaken for one of the options above.
    #[arg(
        long = "ros-args",
        value_name = "ARGS",
        num_args = 0..,
        allow_hyphen_values = true
    )]
    ros_args: Vec<OsString>,
}

/// A path taken as given (an empty one fails when the file is opened).
fn path() -> impl TypedValueParser<Value = PathBuf> {
    OsStringValueParser::new().map(PathBuf::from)
}

/// A finite number of seconds above zero.
fn positive(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && *x > 0.0)
        .ok_or_else(|| "needs a positive number".to_owned())
}

/// Pose on the ellipse at time `t`, facing along the path.
fn pose_at(t: f64, period: f64) -> Isometry2<f64> {
    let phase = std::f64::consts::TAU * t / period;
    let position = Vector2::new(
        CENTRE.0 + RADII.0 * phase.cos(),
        CENTRE.1 + RADII.1 * phase.sin(),
    );
    let heading = (RADII.1 * phase.cos()).atan2(-RADII.0 * phase.sin());
    Isometry2::new(position, heading)
}

/// `odom` in the map frame.
fn odom_in_map() -> Isometry2<f64> {
    Isometry2::new(Vector2::new(ODOM_IN_MAP.0, ODOM_IN_MAP.1), ODOM_IN_MAP.2)
}

/// `child`'s pose in `parent` (planar: z 0, a rotation about z) as TF
/// carries it.
fn transform(parent: &str, child: &str, pose: &Isometry2<f64>, stamp: Time) -> TFMessage {
    let half_yaw = pose.rotation.angle() / 2.0;
    TFMessage {
        transforms: vec![TransformStamped {
            header: Header {
                stamp,
                frame_id: parent.to_owned(),
            },
            child_frame_id: child.to_owned(),
            transform: Transform {
                translation: Vector3 {
                    x: pose.translation.vector.x,
                    y: pose.translation.vector.y,
                    z: 0.0,
                },
                rotation: Quaternion {
                    x: 0.0,
                    y: 0.0,
                    z: half_yaw.sin(),
                    w: half_yaw.cos(),
                },
            },
        }],
    }
}

/// The ROS arguments that make sat_collision_node follow this demo: the
/// robot's shape placed in `base_link` from TF, results in `map_frame`.
/// A footprint the node would refuse is refused here already.
fn node_args(robot: &ShapeSpec, map_frame: &str) -> Result<Vec<String>, String> {
    let shape = match robot {
        // nav2's robot_radius: a circle about the robot frame's origin.
        ShapeSpec::Circle { circle } if circle.center == [0.0, 0.0] => {
            format!("robot_radius:={:?}", circle.radius)
        }
        _ => {
            let points = footprint_points(robot)
                .iter()
                .map(|p| format!("[{:?}, {:?}]", p.x, p.y))
                .collect::<Vec<_>>()
                .join(", ");
            let text = format!("[{points}]");
            parse_footprint(&text).map_err(|e| format!("the footprint: {e}"))?;
            // Quoted: rcl reads a -p value as YAML, and the footprint must
            // arrive as a string.
            format!("robot_footprint:=\"{text}\"")
        }
    };
    Ok([
        format!("base_frame:={BASE_FRAME}"),
        format!("global_frame:={map_frame}"),
        shape,
    ]
    .into_iter()
    .flat_map(|arg| ["-p".to_owned(), arg])
    .collect())
}

/// What a report says about how the node was started, once: a node not
/// started with `--node-args`' arguments waits for a footprint topic the
/// demo does not publish, or reports in another frame.
fn hint(report: &CollisionReport, map_frame: &str) -> Option<String> {
    if report.status == "no_footprint" {
        Some(format!(
            "demo: the node waits for a footprint topic; start it with the arguments of \
             `sat_collision_demo --node-args` (base_frame:={BASE_FRAME}, robot_footprint)"
        ))
    } else if report.valid && report.header.frame_id != map_frame {
        Some(format!(
            "demo: the node reports in frame {:?}, not {map_frame:?}: start it with \
             global_frame:={map_frame} (sat_collision_demo --node-args)",
            report.header.frame_id
        ))
    } else {
        None
    }
}

fn polygon(points: &[Point]) -> Polygon {
    Polygon {
        points: points
            .iter()
            .map(|p| Point32 {
                x: p.x as f32,
                y: p.y as f32,
                z: 0.0,
            })
            .collect(),
    }
}

fn obstacle_msg(spec: &ObstacleSpec) -> Obstacle {
    match (&spec.polygon, &spec.circle) {
        (_, Some(c)) => Obstacle {
            id: spec.id.clone(),
            polygon: polygon(&[Point::new(c.center[0], c.center[1])]),
            radius: c.radius,
        },
        (Some(p), None) => Obstacle {
            id: spec.id.clone(),
            polygon: polygon(&p.iter().map(|q| Point::new(q[0], q[1])).collect::<Vec<_>>()),
            radius: 0.0,
        },
        (None, None) => Obstacle {
            id: spec.id.clone(),
            ..Default::default()
        },
    }
}

/// The footprint of the scene, in the robot frame, placed at `pose` (for
/// the snapshot: the node places it itself, from TF).
fn placed_footprint(spec: &ShapeSpec, pose: &Isometry2<f64>) -> ShapeSpec {
    match spec {
        ShapeSpec::Polygon(points) => ShapeSpec::Polygon(
            points
                .iter()
                .map(|p| {
                    let q = pose * Point::new(p[0], p[1]);
                    [q.x, q.y]
                })
                .collect(),
        ),
        ShapeSpec::Circle { circle } => {
            let c = pose * Point::new(circle.center[0], circle.center[1]);
            ShapeSpec::Circle {
                circle: CircleSpec {
                    center: [c.x, c.y],
                    radius: circle.radius,
                },
            }
        }
    }
}

fn footprint_points(spec: &ShapeSpec) -> Vec<Point> {
    match spec {
        ShapeSpec::Polygon(points) => points.iter().map(|p| Point::new(p[0], p[1])).collect(),
        // A round robot published as a polygon, the way nav2 publishes
        // robot_radius footprints.
        ShapeSpec::Circle { circle } => (0..16)
            .map(|k| {
                let a = k as f64 * std::f64::consts::TAU / 16.0;
                Point::new(
                    circle.center[0] + circle.radius * a.cos(),
                    circle.center[1] + circle.radius * a.sin(),
                )
            })
            .collect(),
    }
}

/// What identifies a state worth printing: validity, flag, status and which
/// obstacles collide (not the depths, which change every message).
fn state_key(report: &CollisionReport) -> String {
    let colliding: Vec<&str> = report
        .results
        .iter()
        .filter(|r| r.colliding)
        .map(|r| r.id.as_str())
        .collect();
    format!(
        "{} {} {} {}",
        report.valid,
        report.colliding,
        report.status,
        colliding.join(",")
    )
}

/// The node's report in words, for the console. Not the node's own log
/// line (`ros::node`'s `describe`, from its in-memory report): each has its
/// own wording, quoted by its own tests and the README.
fn describe(report: &CollisionReport) -> String {
    if !report.valid {
        return format!("NOT VALID ({}): treated as collision", report.status);
    }
    if report.colliding {
        let depth = report
            .results
            .iter()
            .filter(|r| r.colliding)
            .map(|r| format!("{} depth {:.3} m", r.id, r.penetration_depth))
            .collect::<Vec<_>>()
            .join(", ");
        format!("COLLISION: {depth}")
    } else {
        format!(
            "clear: nearest {} at {:.3} m",
            report.nearest_obstacle_id, report.min_distance
        )
    }
}

/// A line on stdout, flushed (the demo's output is read as it comes); an
/// error, not a panic, when stdout is gone (a closed pipe).
fn say(line: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")?;
    out.flush()
}

/// The scene's frame, which the demo takes as the map frame: not one of
/// the robot's own frames.
fn map_frame(scene: &Scene, path: &std::path::Path) -> Result<String, String> {
    let frame = scene.frame_id.as_str();
    if frame.is_empty() || frame.starts_with('/') || frame == ODOM_FRAME || frame == BASE_FRAME {
        return Err(format!(
            "{}: the demo needs the scene in a map frame (frame_id, e.g. map), not {frame:?}",
            path.display()
        ));
    }
    Ok(frame.to_owned())
}

async fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    let scene = Scene::load(&args.scene)?;
    let robot = scene
        .footprint
        .clone()
        .ok_or_else(|| format!("{}: the demo needs a footprint", args.scene.display()))?;
    let map = map_frame(&scene, &args.scene)?;
    if args.node_args {
        let lines =
            node_args(&robot, &map).map_err(|e| format!("{}: {e}", args.scene.display()))?;
        for line in lines {
            say(&line)?;
        }
        return Ok(());
    }
    let ctx = r2r::Context::create()?;
    let mut node = r2r::Node::create(ctx, "sat_collision_demo", "")?;
    // tf2's QoS: /tf_static reliable and transient local (a node that starts
    // later still gets it), both keep the last 100.
    let tf_static_pub = node.create_publisher::<TFMessage>(
        "/tf_static",
        QosProfile::default()
            .reliable()
            .transient_local()
            .keep_last(100),
    )?;
    let tf_pub = node.create_publisher::<TFMessage>("/tf", QosProfile::default().keep_last(100))?;
    let obstacles_pub =
        node.create_publisher::<ObstacleArray>("obstacles", QosProfile::default())?;
    let mut reports =
        node.subscribe::<CollisionReport>("collision_report", QosProfile::default())?;
    let clock = node.get_ros_clock();
    let now = move || {
        clock
            .lock()
            .ok()
            .and_then(|mut c| c.get_now().ok())
            .unwrap_or_default()
    };
    let obstacles: Vec<Obstacle> = scene.obstacles.iter().map(obstacle_msg).collect();
    let odom = odom_in_map();
    tf_static_pub.publish(&transform(&map, ODOM_FRAME, &odom, convert::time(now())))?;

    let spinner = Spinner::start(node);

    // Signal handlers first (registered once, so a Ctrl-C or SIGTERM that arrives at any
    // moment from here on is seen), then the line that says the demo runs.
    let mut signals = ShutdownSignals::register()?;
    say(&format!(
        "demo: driving the footprint of {} around {} obstacles by TF \
         ({map} -> {ODOM_FRAME} -> {BASE_FRAME}), loop of {} s{}",
        args.scene.display(),
        obstacles.len(),
        args.loop_period,
        args.svg
            .as_ref()
            .map(|p| format!(", snapshots in {}", p.display()))
            .unwrap_or_default()
    ))?;
    let start = Instant::now();
    let mut tf_tick = tokio::time::interval(Duration::from_secs_f64(1.0 / TF_RATE_HZ));
    let mut obstacles_tick = tokio::time::interval(OBSTACLES_PERIOD);
    let mut snapshot_tick = tokio::time::interval(Duration::from_secs_f64(args.snapshot_period));
    let mut last_state = String::new();
    let mut last_hint = None;
    let deadline = args.duration.map(Duration::from_secs_f64);
    loop {
        if deadline.is_some_and(|d| start.elapsed() >= d) {
            break;
        }
        tokio::select! {
            _ = tf_tick.tick() => {
                // The robot's pose in map, seen through odom as odometry
                // would report it.
                let pose = pose_at(start.elapsed().as_secs_f64(), args.loop_period);
                let in_odom = odom.inverse() * pose;
                tf_pub.publish(&transform(ODOM_FRAME, BASE_FRAME, &in_odom, convert::time(now())))?;
            }
            _ = obstacles_tick.tick() => {
                obstacles_pub.publish(&ObstacleArray {
                    header: convert::header(&map, now()),
                    obstacles: obstacles.clone(),
                })?;
            }
            _ = snapshot_tick.tick() => {
                if let Some(path) = &args.svg {
                    let pose = pose_at(start.elapsed().as_secs_f64(), args.loop_period);
                    let mut current = scene.clone();
                    current.footprint = Some(placed_footprint(&robot, &pose));
                    let report = current.evaluate();
                    // Write then rename, so a viewer never reads a half-written file.
                    let partial = path.with_extension("svg.partial");
                    std::fs::write(&partial, sat_collision::svg::render(&current, &report))?;
                    std::fs::rename(&partial, path)?;
                }
            }
            Some(report) = reports.next() => {
                if let Some(advice) = hint(&report, &map) {
                    if last_hint.as_ref() != Some(&advice) {
                        say(&advice)?;
                        last_hint = Some(advice);
                    }
                }
                let state = state_key(&report);
                if state != last_state {
                    let at = start.elapsed().as_secs_f64();
                    say(&format!("[{at:6.2} s] {}", describe(&report)))?;
                    last_state = state;
                }
            }
            () = signals.recv() => break,
        }
    }
    spinner.stop().await?;
    Ok(())
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match sat_collision::cli::parse::<Args>() {
        Ok(args) => args,
        Err(code) => return code,
    };
    match run(args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sat_collision_demo: {e}");
            ExitCode::FAILURE
        }
    }
}
