//! Offline checker: `sat_collision check SCENE.yaml [--json] [--svg OUT.svg]`,
//! `sat_collision replay BAG --params FILE [...]`, `sat_collision --help`,
//! `sat_collision --version`.
//!
//! Exit codes: 0 clear, 1 collision, 2 invalid input (unreadable or
//! malformed file, invalid footprint or obstacle), 64 usage error.
//! `replay`: 0 replayed to the end, no stop for a zone and no collision;
//! 1 the gate stopped the robot for a zone or the flag read a collision; 2 invalid input (the
//! parameters, a bag that cannot be opened or ends on an error,
//! `use_sim_time` without `/clock`); 64 usage error.

use clap::builder::{OsStringValueParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use sat_collision::scene::{pose_xyyaw, ObstacleLine, Scene, SceneReport};
use std::path::PathBuf;
use std::process::ExitCode;

/// Last lines of `--help`, top level and `check`.
macro_rules! exit_codes {
    () => {
        "exit codes: 0 clear, 1 collision, 2 invalid input, 64 usage error"
    };
}

const EXIT_CLEAR: u8 = 0;
const EXIT_COLLISION: u8 = 1;
const EXIT_INVALID: u8 = 2;

/// Offline collision check of a scene file, and replay of recorded bags through
/// the node's decisions (no ROS needed).
#[derive(Parser)]
#[command(
    name = "sat_collision",
    version,
    override_usage = "sat_collision check SCENE.yaml [--json] [--svg OUT.svg]\n       \
        sat_collision replay BAG --params FILE [--node-name NAME] [--jsonl OUT.jsonl] \
        [--out OUT.mcap] [--svg TIMELINE.svg]",
    after_help = exit_codes!(),
    disable_help_subcommand = true,
    // Without a command: an error naming what is missing (exit 64), not the help.
    arg_required_else_help = false
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Checks the scene's footprint against each obstacle with the Separating Axis Theorem
    // Help text is not wrapped to the terminal (no `wrap_help`): lines are
    // kept short here.
    #[command(
        after_help = concat!(
            "Prints, per obstacle: status, collision, penetration depth, minimum\n",
            "translation vector (moves the footprint out) and clearance; with a\n",
            "`velocity` in the scene, the time to collision as well.\n\n",
            exit_codes!()
        ),
        // A repeated option counts once (the last --svg wins).
        args_override_self = true
    )]
    Check(CheckArgs),
    /// Replays a recorded bag through the node's decisions (no ROS needed)
    #[command(
        after_help = concat!(
            "Feeds the bag's messages, at their log times (ROS time: /clock under\n",
            "use_sim_time), to the node configured by its parameters file, ticks at\n",
            "publish_rate, and prints what it did: time per zone and action, the\n",
            "time from points entering a zone to the stop, the least clearance,\n",
            "where the flag was not valid, messages skipped and why, log lines by\n",
            "key. --jsonl writes one line per output message, --out an MCAP of the\n",
            "inputs and the outputs, --svg a timeline. The same inputs give the\n",
            "same bytes.\n\n",
            "exit codes: 0 no stop and no collision, 1 the gate stopped the robot for\n",
            "a zone or the flag read a collision, 2 invalid input (parameters, bag,\n",
            "an error ending the bag early, use_sim_time without /clock), 64 usage\n",
            "error"
        ),
        args_override_self = true
    )]
    Replay(ReplayArgs),
    /// Prints a bag's messages as JSON, one line each (a debugging aid)
    #[command(hide = true)]
    BagDump(BagDumpArgs),
}

#[derive(Args)]
struct BagDumpArgs {
    /// The bag: a rosbag2 directory, an .mcap or an .mcap.zstd file
    #[arg(value_name = "BAG", value_parser = path())]
    bag: PathBuf,
    /// Also write every decoded message, encoded again, into this MCAP
    #[arg(long, value_name = "OUT.mcap", value_parser = path(), allow_hyphen_values = true)]
    rewrite: Option<PathBuf>,
}

#[derive(Args)]
struct ReplayArgs {
    /// The bag: a rosbag2 directory, an .mcap or an .mcap.zstd file
    #[arg(value_name = "BAG", value_parser = path())]
    bag: PathBuf,
    /// The node's parameters file
    #[arg(long, value_name = "FILE", value_parser = path(), allow_hyphen_values = true)]
    params: PathBuf,
    /// The node's name: its entry in the file (collision_monitor for nav2's)
    #[arg(long, value_name = "NAME", default_value = sat_collision::replay::DEFAULT_NODE_NAME)]
    node_name: String,
    /// Write each output message as a JSON line
    #[arg(long, value_name = "OUT.jsonl", value_parser = path(), allow_hyphen_values = true)]
    jsonl: Option<PathBuf>,
    /// Write the inputs and the outputs into an MCAP
    #[arg(long, value_name = "OUT.mcap", value_parser = path(), allow_hyphen_values = true)]
    out: Option<PathBuf>,
    /// Draw the timeline: flag, gate action, speed in and out, clearance
    #[arg(long, value_name = "TIMELINE.svg", value_parser = path(), allow_hyphen_values = true)]
    svg: Option<PathBuf>,
}

/// `replay`: the summary on stdout; its exit status (see the module
/// documentation).
fn replay(args: ReplayArgs) -> Result<u8, String> {
    let options = sat_collision::replay::Options {
        bag: args.bag,
        params: args.params,
        node_name: args.node_name,
        jsonl: args.jsonl,
        out: args.out,
        svg: args.svg,
    };
    let summary = sat_collision::replay::replay(&options).map_err(|e| e.to_string())?;
    print!("{summary}");
    if let Some(e) = &summary.bag_error {
        eprintln!("sat_collision: the bag ended early: {e}");
    }
    if summary.no_clock {
        eprintln!("sat_collision: use_sim_time is true and the bag has no /clock");
    }
    Ok(summary.exit_code())
}

#[derive(Args)]
struct CheckArgs {
    /// The scene: footprint and obstacles (YAML)
    #[arg(value_name = "SCENE.yaml", value_parser = path())]
    scene: PathBuf,
    /// Machine-readable output
    #[arg(long)]
    json: bool,
    /// Also draw the scene: shapes, axes, projections, MTV arrows
    // The next argument is the file name, whatever it looks like.
    #[arg(long, value_name = "OUT.svg", value_parser = path(), allow_hyphen_values = true)]
    svg: Option<PathBuf>,
}

/// A path taken as given: an empty one is refused when it is opened (exit
/// 2), as any other unreadable one, not as a usage error.
fn path() -> impl TypedValueParser<Value = PathBuf> {
    OsStringValueParser::new().map(PathBuf::from)
}

fn print_table(scene: &Scene, report: &SceneReport) {
    // `>=`: a lower bound, the contact not confirmed.
    let ttc = |i: usize, line: &ObstacleLine| {
        let exact = report
            .prediction
            .as_ref()
            .and_then(|p| p.exact.get(i).copied())
            .unwrap_or(true);
        line.time_to_collision.map_or_else(
            || "-".to_owned(),
            |t| format!("{}{t:.3}", if exact { "" } else { ">=" }),
        )
    };
    let moving = scene.velocity.is_some();
    println!(
        "{:<20} {:<18} {:<9} {:>9} {:>21} {:>9}{}",
        "obstacle",
        "status",
        "collides",
        "depth(m)",
        "mtv(m)",
        "clear(m)",
        if moving { "    ttc(s)" } else { "" }
    );
    for (i, line) in report.lines().iter().enumerate() {
        println!(
            "{:<20} {:<18} {:<9} {:>9.4} {:>21} {:>9.4}{}",
            line.id,
            line.status,
            if line.colliding { "YES" } else { "no" },
            line.penetration_depth,
            format!("[{:+.4}, {:+.4}]", line.mtv[0], line.mtv[1]),
            line.distance,
            if moving {
                format!(" {:>9}", ttc(i, line))
            } else {
                String::new()
            }
        );
    }
    let sets = report.point_lines();
    if !sets.is_empty() {
        println!(
            "{:<20} {:>9} {:>9} {:<9} {:>9} {:>21} {:>9}{}",
            "points",
            "count",
            "inside",
            "collides",
            "depth(m)",
            "mtv(m)",
            "clear(m)",
            if moving { "    ttc(s)" } else { "" }
        );
        for (k, line) in sets.iter().enumerate() {
            let exact = report
                .point_outcomes
                .get(k)
                .and_then(|o| o.impact)
                .is_none_or(|(_, exact)| exact);
            let ttc = line.time_to_collision.map_or_else(
                || "-".to_owned(),
                |t| format!("{}{t:.3}", if exact { "" } else { ">=" }),
            );
            println!(
                "{:<20} {:>9} {:>9} {:<9} {:>9.4} {:>21} {:>9}{}",
                line.id,
                line.points,
                line.points_inside,
                if line.colliding { "YES" } else { "no" },
                line.penetration_depth,
                format!("[{:+.4}, {:+.4}]", line.mtv[0], line.mtv[1]),
                line.distance
                    .map_or_else(|| "-".to_owned(), |d| format!("{d:.4}")),
                if moving {
                    format!(" {ttc:>9}")
                } else {
                    String::new()
                }
            );
        }
    }
    if let Some(prediction) = &report.prediction {
        match &prediction.first {
            Some(first) => {
                let [x, y, yaw] = pose_xyyaw(&first.pose);
                let time = if first.exact {
                    format!("{:.3} s", first.time)
                } else {
                    format!("at least {:.3} s, not confirmed", first.time)
                };
                println!(
                    "time to collision: {time} (obstacle {:?}, pose x {x:.3} m, y {y:.3} m, yaw {yaw:.3} rad)",
                    first.id
                );
            }
            None => println!("time to collision: none within {} s", prediction.horizon),
        }
    } else if moving {
        println!("time to collision: unknown (invalid footprint)");
    }
    let verdict = if !report.valid() {
        format!("INVALID ({}): treated as collision", report.status())
    } else if report.colliding() {
        "COLLISION".to_owned()
    } else {
        "clear".to_owned()
    };
    println!("result: {verdict}");
}

fn run(args: CheckArgs) -> Result<u8, String> {
    let scene = Scene::load(&args.scene).map_err(|e| e.to_string())?;
    if scene.footprint.is_none() {
        return Err(format!(
            "{}: the scene has no `footprint`",
            args.scene.display()
        ));
    }
    let report = scene.evaluate();
    if let Some(path) = &args.svg {
        let svg = sat_collision::svg::render(&scene, &report);
        std::fs::write(path, svg).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if args.json {
        let json = serde_json::to_string_pretty(&report.to_json()).map_err(|e| e.to_string())?;
        println!("{json}");
    } else {
        print_table(&scene, &report);
    }
    Ok(if !report.valid() {
        EXIT_INVALID
    } else if report.colliding() {
        EXIT_COLLISION
    } else {
        EXIT_CLEAR
    })
}

/// `bag-dump`: one line per message on stdout, `{"log_time_ns": N,
/// "topic": ..., "type": ..., "message": {...}}` (`message` null for a type
/// not known or a message that does not decode, both counted on stderr).
/// Exit 0 when the bag was read to its end, 2 when an error stopped it
/// (after the messages before it).
fn bag_dump(args: BagDumpArgs) -> Result<u8, String> {
    use sat_collision::bag::{self, BagWriter, JsonLine};
    use std::io::Write;
    let mut messages = bag::open(&args.bag).map_err(|e| e.to_string())?;
    let mut rewrite = match &args.rewrite {
        Some(path) => Some(BagWriter::create(path).map_err(|e| e.to_string())?),
        None => None,
    };
    let stdout = std::io::stdout().lock();
    let mut out = std::io::BufWriter::new(stdout);
    let (mut unknown, mut undecodable, mut failure) = (0u64, 0u64, None);
    for record in messages.by_ref() {
        let record = match record {
            Ok(record) => record,
            Err(e) => {
                failure = Some(e.to_string());
                break;
            }
        };
        let message = match record.decode() {
            Ok(Some(message)) => Some(message),
            Ok(None) => {
                unknown += 1;
                None
            }
            Err(e) => {
                undecodable += 1;
                if undecodable <= 10 {
                    eprintln!(
                        "sat_collision: {} at {} ns: {e}",
                        record.topic, record.log_time_ns
                    );
                }
                None
            }
        };
        let line = JsonLine {
            log_time_ns: record.log_time_ns,
            topic: &record.topic,
            type_name: &record.schema_name,
            message: message.as_ref(),
        };
        serde_json::to_writer(&mut out, &line)
            .map_err(|e| e.to_string())
            .and_then(|()| writeln!(out).map_err(|e| e.to_string()))?;
        if let (Some(writer), Some(message)) = (rewrite.as_mut(), &message) {
            writer
                .write_message(&record.topic, record.log_time_ns, message)
                .map_err(|e| e.to_string())?;
        }
    }
    out.flush().map_err(|e| e.to_string())?;
    if let Some(writer) = rewrite {
        writer.finish().map_err(|e| e.to_string())?;
    }
    let stats = messages.stats();
    eprintln!(
        "sat_collision: {} messages, {unknown} of unknown type, {undecodable} not decoded, \
         {} with a log time before the previous one",
        stats.messages, stats.backwards
    );
    match failure {
        Some(message) => Err(message),
        None => Ok(EXIT_CLEAR),
    }
}

fn main() -> ExitCode {
    let result = match sat_collision::cli::parse::<Cli>() {
        Ok(cli) => match cli.command {
            Command::Check(args) => run(args),
            Command::Replay(args) => replay(args),
            Command::BagDump(args) => bag_dump(args),
        },
        Err(code) => return code,
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("sat_collision: {message}");
            ExitCode::from(EXIT_INVALID)
        }
    }
}
