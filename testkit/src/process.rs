//! Child processes of the tests and benchmarks (the node, echo processes):
//! none outlives the test or benchmark that started it.
//!
//! * [`ChildGuard`] stops its child when dropped: SIGTERM first (the node
//!   handles it and lets DDS clean up), SIGKILL after [`TERM_GRACE`];
//! * [`kill_with_parent`] (applied by [`ChildGuard::spawn`]) makes the
//!   kernel kill the child when the thread that started it dies without
//!   dropping the guard (a test binary killed by a timeout, an abort), so no
//!   orphan keeps publishing into later runs.
//!
//! Linux only (`prctl(PR_SET_PDEATHSIG)`, `/proc`), like the node tests.

use std::io;
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

/// How long a child has to exit after SIGTERM before it gets SIGKILL.
pub const TERM_GRACE: Duration = Duration::from_secs(5);

/// Poll period while waiting for a child to exit.
const POLL: Duration = Duration::from_millis(20);

/// Makes the kernel send SIGKILL to the child when the thread that spawns
/// it ends (`PR_SET_PDEATHSIG`).
pub fn kill_with_parent(cmd: &mut Command) -> &mut Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs between fork and exec; it only calls
    // prctl(2), which is async-signal-safe, and allocates nothing.
    unsafe {
        cmd.pre_exec(|| {
            let signal = libc::SIGKILL as libc::c_ulong;
            if libc::prctl(libc::PR_SET_PDEATHSIG, signal) == -1 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        })
    }
}

/// A running child process, stopped (SIGTERM, then SIGKILL) on drop.
pub struct ChildGuard {
    child: Child,
}

impl ChildGuard {
    /// Spawns `cmd` with [`kill_with_parent`].
    pub fn spawn(cmd: &mut Command) -> io::Result<ChildGuard> {
        let child = kill_with_parent(cmd).spawn()?;
        Ok(ChildGuard { child })
    }

    /// The child's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The child itself (to take its pipes).
    pub fn child_mut(&mut self) -> &mut Child {
        &mut self.child
    }

    /// The exit status, if the child has exited.
    pub fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        self.child.try_wait()
    }

    /// Whether the child is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// SIGTERM, then SIGKILL if the child is still running after
    /// [`TERM_GRACE`]; nothing once it has exited.
    pub fn stop(&mut self) {
        if !self.is_running() {
            return;
        }
        if let Ok(pid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: kill(2) on our own, not yet reaped, child.
            unsafe {
                libc::kill(pid, libc::SIGTERM);
            }
            let deadline = Instant::now() + TERM_GRACE;
            while Instant::now() < deadline {
                if !self.is_running() {
                    return;
                }
                std::thread::sleep(POLL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A `kB` field of `/proc/<pid>/status` (`field` with its colon, e.g.
/// `"VmRSS:"`), if it can be read.
pub fn proc_status_kb(pid: u32, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    text.lines()
        .find(|l| l.starts_with(field))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_guard_stops_its_child() {
        let mut guard = ChildGuard::spawn(Command::new("sleep").arg("30")).expect("start sleep");
        let pid = guard.id();
        assert!(guard.is_running());
        assert!(proc_status_kb(pid, "VmRSS:").is_some());
        let start = Instant::now();
        drop(guard);
        // sleep dies of SIGTERM at once, long before the grace period ends.
        assert!(start.elapsed() < TERM_GRACE);
        assert!(proc_status_kb(pid, "VmRSS:").is_none());
    }

    #[test]
    fn a_child_ignoring_sigterm_is_killed_after_the_grace_period() {
        use std::io::{BufRead, BufReader};
        use std::process::Stdio;
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "trap '' TERM; echo ready; exec sleep 30"])
            .stdout(Stdio::piped());
        let mut guard = ChildGuard::spawn(&mut cmd).expect("start sh");
        // SIGTERM is ignored once the child says so.
        let stdout = guard.child_mut().stdout.take().expect("piped stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the child's output");
        assert_eq!(line, "ready\n");
        let start = Instant::now();
        guard.stop();
        assert!(start.elapsed() >= TERM_GRACE);
        assert!(!guard.is_running());
    }

    #[test]
    fn proc_status_reads_kb_fields() {
        let pid = std::process::id();
        assert!(proc_status_kb(pid, "VmRSS:").is_some_and(|kb| kb > 0));
        assert_eq!(proc_status_kb(pid, "NoSuchField:"), None);
    }
}
