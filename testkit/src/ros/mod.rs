//! ROS 2 helpers (feature `ros`) of the node tests and the node benchmark:
//!
//! * [`msg`]: messages the node reads, built from plain coordinates, and
//!   readers of what it publishes (reports, markers);
//! * [`node_command`]: the node's command line;
//! * [`peer`]: an r2r peer node spun on a thread of its own, streams drained
//!   into unbounded queues, and waits with a deadline.

pub mod msg;
pub mod peer;

use std::ffi::OsStr;
use std::process::Command;

/// `bin --ros-args -r __ns:=<ns> -p <param>...`: a ROS 2 node in namespace
/// `ns`, each `param` given as `name:=value`. The caller adds its own
/// environment and standard streams (and more arguments, still inside the
/// `--ros-args` section).
pub fn node_command<S: AsRef<OsStr>>(
    bin: impl AsRef<OsStr>,
    ns: &str,
    params: impl IntoIterator<Item = S>,
) -> Command {
    let mut cmd = Command::new(bin);
    cmd.arg("--ros-args").arg("-r").arg(format!("__ns:={ns}"));
    for param in params {
        cmd.arg("-p").arg(param);
    }
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_command_puts_namespace_and_parameters_in_the_ros_args() {
        let cmd = node_command("/bin/node", "/t_x", ["a:=1", "b:=x y"]);
        assert_eq!(cmd.get_program(), "/bin/node");
        let args: Vec<_> = cmd.get_args().collect();
        assert_eq!(
            args,
            [
                "--ros-args",
                "-r",
                "__ns:=/t_x",
                "-p",
                "a:=1",
                "-p",
                "b:=x y"
            ]
        );
    }
}
