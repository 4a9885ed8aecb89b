//! `sat_collision_node`: the ROS 2 collision monitor. See `docs/node.md`
//! for topics, parameters and statuses, `docs/failsafe.md` for the
//! fail-safe rule.

use std::process::ExitCode;
use std::time::Duration;

/// How long the end of the process waits for work still on tokio's
/// blocking pool (a service job is cancelled at shutdown and stops within
/// a pose; this bounds the exit whatever it is doing).
const SHUTDOWN_GRACE: Duration = Duration::from_millis(300);

fn main() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("sat_collision_node: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(sat_collision::ros::node::run());
    // Dropping the runtime would wait for every blocking task to finish.
    runtime.shutdown_timeout(SHUTDOWN_GRACE);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sat_collision_node: {e}");
            ExitCode::FAILURE
        }
    }
}
