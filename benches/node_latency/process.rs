//! Child processes (the node, the echoes, the sink), their command lines,
//! and what `/proc` tells about them.

use crate::cli::Options;
use crate::Res;
use sat_collision_testkit::process::ChildGuard;
use sat_collision_testkit::ros::node_command as ros_node_command;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// A child (node or echo), its output in `<dir>/<name>.log`: SIGTERM, then
/// SIGKILL, on drop; the kernel kills it if this process dies first.
pub struct ChildProcess {
    name: String,
    child: ChildGuard,
    pub log: PathBuf,
}

impl ChildProcess {
    pub fn spawn(name: &str, mut cmd: Command, dir: &Path) -> Res<ChildProcess> {
        let log = dir.join(format!("{name}.log"));
        let file = std::fs::File::create(&log)?;
        cmd.stdin(Stdio::null())
            .stdout(file.try_clone()?)
            .stderr(file);
        let child = ChildGuard::spawn(&mut cmd)
            .map_err(|e| format!("cannot start {name} ({cmd:?}): {e}"))?;
        Ok(ChildProcess {
            name: name.to_owned(),
            child,
            log,
        })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn check_running(&mut self) -> Res<()> {
        if let Some(status) = self.child.try_wait()? {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            return Err(format!("{} exited ({status}); log:\n{log}", self.name).into());
        }
        Ok(())
    }
}

/// The node in namespace `ns`: no input ever goes stale, `markers_rate`,
/// then the `--node-param`s.
pub fn node_command(o: &Options, ns: &str, markers_rate: f64) -> Command {
    let mut params = vec![
        format!("markers_rate:={markers_rate:.1}"),
        "footprint_timeout:=0.0".to_owned(),
        "obstacles_timeout:=0.0".to_owned(),
    ];
    if o.predict {
        // One velocity at set-up, never stale: every flag is followed by a
        // prediction along it.
        params.extend(
            [
                "velocity_topic:=cmd_vel",
                "velocity_type:=twist",
                "velocity_timeout:=0.0",
                "time_horizon:=2.0",
            ]
            .map(str::to_owned),
        );
    }
    ros_node_command(&o.node_bin, ns, params.iter().chain(&o.node_params))
}

/// This binary in one of its internal modes (`--echo`, `--sink`, ...).
pub fn echo_command(flag: &str, ns: &str) -> Res<Command> {
    let mut cmd = Command::new(std::env::current_exe()?);
    cmd.args([flag, ns]);
    Ok(cmd)
}

/// User + system CPU time of a process.
pub fn cpu_time(pid: u32) -> Duration {
    let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return Duration::ZERO;
    };
    // Fields after the command name (which may contain spaces).
    let rest = text.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of stat, i.e. 11 and 12 after `)`.
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
        .sum();
    // USER_HZ is 100 on Linux.
    Duration::from_millis(ticks * 10)
}

pub fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

pub fn work_dir_path() -> PathBuf {
    std::env::temp_dir().join(format!("node_latency_{}", std::process::id()))
}

/// Children's logs and the allocation counter's files.
pub fn work_dir() -> Res<PathBuf> {
    let dir = work_dir_path();
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}
