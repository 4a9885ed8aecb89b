//! `sat_collision_node`: the ROS 2 collision monitor. See the README for
//! topics, parameters and the fail-safe rule.

use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    match sat_collision::ros::node::run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sat_collision_node: {e}");
            ExitCode::FAILURE
        }
    }
}
