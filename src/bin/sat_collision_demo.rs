//! `sat_collision_demo`: drives a footprint around an ellipse through the
//! obstacles of a scene file, publishes both to `sat_collision_node`, prints
//! every change of the node's collision flag and writes an SVG snapshot of
//! the current scene now and then.
//!
//! ```text
//! sat_collision_demo [--scene config/demo_scene.yaml] [--svg demo_snapshot.svg]
//!                    [--snapshot-period 2.0] [--duration SECONDS] [--loop-period 20.0]
//!                    [--ros-args ...]
//! sat_collision_demo --help | --version
//! ```
//!
//! Exit codes: 0 stopped (end of `--duration`, SIGINT or SIGTERM), 1 error
//! (scene file, ROS), 64 usage error.

use clap::builder::{OsStringValueParser, TypedValueParser};
use clap::Parser;
use futures::StreamExt;
use nalgebra::{Isometry2, Vector2};
use r2r::geometry_msgs::msg::{Point32, Polygon, PolygonStamped};
use r2r::sat_collision_msgs::msg::{CollisionReport, Obstacle, ObstacleArray};
use r2r::QosProfile;
use sat_collision::geometry::Point;
use sat_collision::ros::convert;
use sat_collision::ros::spin::{ShutdownSignals, Spinner};
use sat_collision::scene::{CircleSpec, ObstacleSpec, Scene, ShapeSpec};
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The loop the footprint follows (map frame).
const CENTRE: (f64, f64) = (2.0, 1.0);
const RADII: (f64, f64) = (2.4, 1.3);
const FOOTPRINT_RATE_HZ: f64 = 20.0;
const OBSTACLES_PERIOD: Duration = Duration::from_millis(200);

/// Drives a footprint around a loop through the obstacles of a scene, for sat_collision_node
// Help text is not wrapped to the terminal (no `wrap_help`): lines are kept
// short here. Every option takes the next argument as its value, whatever it
// looks like.
#[derive(Parser)]
#[command(
    name = "sat_collision_demo",
    version,
    after_help = concat!(
        "Publishes the footprint and the obstacles (topics `footprint`, `obstacles`) and prints\n",
        "every change of the node's collision flag (topic `collision_report`).\n\n",
        "exit codes: 0 stopped (--duration, SIGINT, SIGTERM), 1 error, 64 usage error"
    ),
    // A repeated option counts once (the last one wins).
    args_override_self = true
)]
struct Args {
    /// Scene file: footprint (robot frame) and obstacles
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

/// The footprint of the scene, in the robot frame, placed at `pose`.
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

async fn run(args: Args) -> Result<(), Box<dyn std::error::Error>> {
    let scene = Scene::load(&args.scene)?;
    let robot = scene
        .footprint
        .clone()
        .ok_or_else(|| format!("{}: the demo needs a footprint", args.scene.display()))?;
    let ctx = r2r::Context::create()?;
    let mut node = r2r::Node::create(ctx, "sat_collision_demo", "")?;
    let footprint_pub =
        node.create_publisher::<PolygonStamped>("footprint", QosProfile::default())?;
    let obstacles_pub =
        node.create_publisher::<ObstacleArray>("obstacles", QosProfile::default())?;
    let mut reports =
        node.subscribe::<CollisionReport>("collision_report", QosProfile::default())?;
    let clock = node.get_ros_clock();
    let obstacles: Vec<Obstacle> = scene.obstacles.iter().map(obstacle_msg).collect();

    let spinner = Spinner::start(node);

    // Signal handlers first (registered once, so a Ctrl-C or SIGTERM that arrives at any
    // moment from here on is seen), then the line that says the demo runs.
    let mut signals = ShutdownSignals::register()?;
    println!(
        "demo: driving the footprint of {} around {} obstacles, loop of {} s{}",
        args.scene.display(),
        obstacles.len(),
        args.loop_period,
        args.svg
            .as_ref()
            .map(|p| format!(", snapshots in {}", p.display()))
            .unwrap_or_default()
    );
    let start = Instant::now();
    let mut footprint_tick =
        tokio::time::interval(Duration::from_secs_f64(1.0 / FOOTPRINT_RATE_HZ));
    let mut obstacles_tick = tokio::time::interval(OBSTACLES_PERIOD);
    let mut snapshot_tick = tokio::time::interval(Duration::from_secs_f64(args.snapshot_period));
    let mut last_state = String::new();
    let deadline = args.duration.map(Duration::from_secs_f64);
    loop {
        if deadline.is_some_and(|d| start.elapsed() >= d) {
            break;
        }
        let stamp = clock
            .lock()
            .ok()
            .and_then(|mut c| c.get_now().ok())
            .unwrap_or_default();
        let header = convert::header(&scene.frame_id, stamp);
        tokio::select! {
            _ = footprint_tick.tick() => {
                let pose = pose_at(start.elapsed().as_secs_f64(), args.loop_period);
                let placed = placed_footprint(&robot, &pose);
                footprint_pub.publish(&PolygonStamped {
                    header,
                    polygon: polygon(&footprint_points(&placed)),
                })?;
            }
            _ = obstacles_tick.tick() => {
                obstacles_pub.publish(&ObstacleArray { header, obstacles: obstacles.clone() })?;
            }
            _ = snapshot_tick.tick() => {
                if let Some(path) = &args.svg {
                    let pose = pose_at(start.elapsed().as_secs_f64(), args.loop_period);
                    let mut now = scene.clone();
                    now.footprint = Some(placed_footprint(&robot, &pose));
                    let report = now.evaluate();
                    // Write then rename, so a viewer never reads a half-written file.
                    let partial = path.with_extension("svg.partial");
                    std::fs::write(&partial, sat_collision::svg::render(&now, &report))?;
                    std::fs::rename(&partial, path)?;
                }
            }
            Some(report) = reports.next() => {
                let state = state_key(&report);
                if state != last_state {
                    println!("[{:6.2} s] {}", start.elapsed().as_secs_f64(), describe(&report));
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
