//! The bond with a lifecycle manager, as `nav2_util::LifecycleNode` keeps
//! it with bondcpp: from activate to deactivate, `bond/msg/Status` on
//! `bond` (relative: in the node's namespace, where nav2's manager looks)
//! every `bond_heartbeat_period`, with `id` the node's name, an instance
//! id new at each activation (as a new `bond::Bond` has), `active: true`
//! and the timeouts (nav2's 4 s heartbeat timeout). Broken on deactivate
//! and on a clean exit: `active: false`, sent [`DEAD_MESSAGES`] times
//! [`DEAD_PUBLISH_PERIOD`] apart (bondcpp's `AwaitSisterDeath`), so the
//! manager sees the exit at once instead of after its timeout.
//! `bond_heartbeat_period: 0` disables the bond, as in nav2.
//!
//! Only this side's heartbeat is kept: nav2's servers do nothing when
//! their manager's heartbeat stops, and neither does this node.

use super::logging::Warnings;
use r2r::bond::msg::Status;
use r2r::{Publisher, QosProfile};
use std::time::Duration;

/// nav2's heartbeat timeout (`LifecycleNode::createBond`), s.
pub(super) const HEARTBEAT_TIMEOUT: f64 = 4.0;
/// bondcpp's period of `active: false` messages once broken
/// (`bond::msg::Constants::DEAD_PUBLISH_PERIOD`), s.
pub(super) const DEAD_PUBLISH_PERIOD: f64 = 0.05;
/// How many `active: false` messages a broken bond sends.
pub(super) const DEAD_MESSAGES: u32 = 5;

/// bondcpp's publisher QoS (reliable, volatile, keep last 5).
const BOND_QOS: QosProfile = QosProfile::default().keep_last(5);

/// The bond's side kept by this node.
pub(super) struct Bond {
    publisher: Publisher<Status>,
    id: String,
    /// `bond_heartbeat_period` (s); 0: no bond.
    period: f64,
    instance_id: String,
    /// Alive: heartbeats; dying: `active: false` messages left to send.
    phase: Phase,
    timer: Option<tokio::time::Interval>,
    logger: String,
    warnings: Warnings,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Off,
    Alive,
    Dying(u32),
}

impl Bond {
    /// The publisher on `node`; nothing is sent before [`start`](Self::start).
    pub(super) fn create(
        node: &mut r2r::Node,
        id: &str,
        period: f64,
        logger: &str,
    ) -> r2r::Result<Self> {
        Ok(Bond {
            publisher: node.create_publisher::<Status>("bond", BOND_QOS)?,
            id: id.to_owned(),
            period,
            instance_id: String::new(),
            phase: Phase::Off,
            timer: None,
            logger: logger.to_owned(),
            warnings: Warnings::new(logger),
        })
    }

    /// Activate: a new instance, a heartbeat now and every period.
    pub(super) fn start(&mut self, now: f64) {
        if !(self.period > 0.0 && self.period.is_finite()) {
            return;
        }
        self.instance_id = instance_id();
        r2r::log_info!(
            &self.logger,
            "bond: heartbeat every {} s on bond (id {}, instance {})",
            self.period,
            self.id,
            self.instance_id
        );
        self.phase = Phase::Alive;
        self.timer = Some(interval(self.period));
        self.send(true, now);
    }

    /// Deactivate: the bond is broken (`active: false`, sent
    /// [`DEAD_MESSAGES`] times by the timer).
    pub(super) fn stop(&mut self, now: f64) {
        if self.phase != Phase::Alive {
            return;
        }
        self.send(false, now);
        self.phase = Phase::Dying(DEAD_MESSAGES - 1);
        self.timer = Some(interval(DEAD_PUBLISH_PERIOD));
    }

    /// A clean exit: broken, all its `active: false` messages sent now
    /// ([`DEAD_PUBLISH_PERIOD`] apart: the process is ending).
    pub(super) fn exit(&mut self, now: impl Fn() -> f64) {
        let left = match self.phase {
            Phase::Off => return,
            Phase::Alive => DEAD_MESSAGES,
            Phase::Dying(left) => left,
        };
        for i in 0..left {
            if i > 0 {
                std::thread::sleep(Duration::from_secs_f64(DEAD_PUBLISH_PERIOD));
            }
            self.send(false, now());
        }
        self.phase = Phase::Off;
        self.timer = None;
    }

    /// Waits for the next message due (never ready while the bond is off).
    pub(super) async fn due(&mut self) {
        match &mut self.timer {
            Some(timer) => {
                timer.tick().await;
            }
            None => futures::future::pending().await,
        }
    }

    /// Sends the message due.
    pub(super) fn on_due(&mut self, now: f64) {
        match self.phase {
            Phase::Off => self.timer = None,
            Phase::Alive => self.send(true, now),
            Phase::Dying(0) => {
                self.phase = Phase::Off;
                self.timer = None;
            }
            Phase::Dying(left) => {
                self.send(false, now);
                self.phase = Phase::Dying(left - 1);
            }
        }
    }

    fn send(&mut self, active: bool, now: f64) {
        let mut msg = Status {
            id: self.id.clone(),
            instance_id: self.instance_id.clone(),
            active,
            heartbeat_timeout: HEARTBEAT_TIMEOUT as f32,
            heartbeat_period: self.period as f32,
            ..Default::default()
        };
        msg.header.stamp = crate::ros::convert::time(super::ros_time::stamp_of(now));
        if let Err(e) = self.publisher.publish(&msg) {
            self.warnings.warn("bond", || {
                format!("could not publish the bond's status: {e}")
            });
        }
    }
}

/// A timer whose first tick is one period from now.
fn interval(period: f64) -> tokio::time::Interval {
    let period = Duration::from_secs_f64(period);
    let mut timer = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    timer.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    timer
}

/// A random (version 4) UUID as bondcpp writes its instance ids
/// (`uuid_unparse`: lower-case hex, 8-4-4-4-12). The randomness is std's
/// per-process hash keys mixed with the time and a counter: unique per
/// activation and per process, which is all a bond needs (no
/// cryptographic use).
fn instance_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let count = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let word = |salt: u64| {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u128(nanos);
        h.write_u64(count);
        h.write_u64(salt);
        h.write_u32(std::process::id());
        h.finish()
    };
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&word(1).to_le_bytes());
    bytes[8..].copy_from_slice(&word(2).to_le_bytes());
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}
