//! Offline checker: `sat_collision check SCENE.yaml [--json] [--svg OUT.svg]`.
//!
//! Exit codes: 0 clear, 1 collision, 2 invalid input (unreadable or
//! malformed file, invalid footprint or obstacle), 64 usage error.

use sat_collision::scene::{Scene, SceneReport};
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "\
usage: sat_collision check SCENE.yaml [--json] [--svg OUT.svg]

Checks the scene's footprint against each obstacle with the Separating Axis
Theorem and prints, per obstacle: status, collision, penetration depth,
minimum translation vector (moves the footprint out) and clearance.

  --json         machine-readable output
  --svg OUT.svg  also draw the scene: shapes, axes, projections, MTV arrows

exit codes: 0 clear, 1 collision, 2 invalid input, 64 usage error";

const EXIT_CLEAR: u8 = 0;
const EXIT_COLLISION: u8 = 1;
const EXIT_INVALID: u8 = 2;
const EXIT_USAGE: u8 = 64;

struct Args {
    scene: PathBuf,
    json: bool,
    svg: Option<PathBuf>,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    match args.next().as_deref() {
        Some("check") => {}
        Some("-h" | "--help") => return Err(String::new()),
        Some(other) => return Err(format!("unknown command `{other}`")),
        None => return Err("missing command".to_owned()),
    }
    let mut scene = None;
    let mut json = false;
    let mut svg = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => json = true,
            "--svg" => svg = Some(PathBuf::from(args.next().ok_or("--svg needs a file name")?)),
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
            path if scene.is_none() => scene = Some(PathBuf::from(path)),
            extra => return Err(format!("unexpected argument `{extra}`")),
        }
    }
    Ok(Args {
        scene: scene.ok_or("missing SCENE.yaml")?,
        json,
        svg,
    })
}

fn print_table(report: &SceneReport) {
    println!(
        "{:<20} {:<18} {:<9} {:>9} {:>21} {:>9}",
        "obstacle", "status", "collides", "depth(m)", "mtv(m)", "clear(m)"
    );
    for line in report.lines() {
        println!(
            "{:<20} {:<18} {:<9} {:>9.4} {:>21} {:>9.4}",
            line.id,
            line.status,
            if line.colliding { "YES" } else { "no" },
            line.penetration_depth,
            format!("[{:+.4}, {:+.4}]", line.mtv[0], line.mtv[1]),
            line.distance
        );
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

fn run(args: Args) -> Result<u8, String> {
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
        print_table(&report);
    }
    Ok(if !report.valid() {
        EXIT_INVALID
    } else if report.colliding() {
        EXIT_COLLISION
    } else {
        EXIT_CLEAR
    })
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) if message.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("sat_collision: {message}\n{USAGE}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    match run(args) {
        Ok(code) => ExitCode::from(code),
        Err(message) => {
            eprintln!("sat_collision: {message}");
            ExitCode::from(EXIT_INVALID)
        }
    }
}
