//! The fleet topic at the edge (`sat_collision_msgs/FleetRobot`): each
//! message read in native form, its sizes checked before anything is
//! copied ([`read`]), kept newest per robot in a bounded slot
//! ([`LatestFleet`]) between the I/O thread and the decision; this robot's
//! own state as a message ([`message_of`]); the QoS of both ends.
//!
//! # QoS
//!
//! * **Publisher:** best effort (a lost state is superseded by the next one
//!   within 1/`fleet_rate`; a resend would arrive late), keep last 1,
//!   lifespan `fleet_timeout` (a state older than that is never delivered:
//!   a late joiner or a queue does not hand out a stale pose as fresh),
//!   liveliness automatic with a lease of `fleet_timeout`.
//! * **Subscription:** best effort, keep last 100 (a flood is cut at the
//!   reader), and the default liveliness (an infinite lease): a request
//!   stricter than some publisher offers would make DDS refuse to match
//!   it, and a robot never matched is a robot never seen. r2r 0.9.7 gives
//!   no liveliness events, so a publisher that vanishes is seen by its
//!   silence: stale after `fleet_timeout`, kept and growing
//!   ([`crate::fleet`]), never forgotten.
//!
//! ROS 2 topics have no keys, so "keep last 1 per robot" is done here: the
//! slot keeps the newest message of each (robot id, session), at most
//! [`MAX_SLOT_ROBOTS`] of them; a message from one more is counted and
//! handed to the core as [`Refusal::TooManyPeers`], which makes the fleet
//! not judged for `fleet_timeout`.

#![forbid(unsafe_code)]

use super::inputs::Arrival;
use super::native;
use crate::fleet::{
    planar_yaw, PeerMessage, Refusal, MAX_PEERS, MAX_PEER_VERTICES, MAX_PLAN_POSES,
    MAX_ROBOT_ID_BYTES,
};
use crate::geometry::{Point, Vector};
use nalgebra::{Isometry2, UnitComplex};
use r2r::sat_collision_msgs::msg::FleetRobot;
use r2r::{QosProfile, QosProfile as Qos};
use r2r_msg_gen::sat_collision_msgs__msg__FleetRobot as NativeFleetRobot;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Robots the slot keeps between two decisions at most.
pub const MAX_SLOT_ROBOTS: usize = MAX_PEERS + 64;

/// Refusals kept between two decisions (the rest only counted).
const MAX_SLOT_REFUSALS: usize = 16;

/// The fleet subscription's QoS (see the module's documentation).
pub const FLEET_SUBSCRIPTION_QOS: QosProfile = QosProfile::default().best_effort().keep_last(100);

/// The fleet publisher's QoS for `timeout` (`fleet_timeout`, s).
pub fn publisher_qos(timeout: f64) -> QosProfile {
    let lease = Duration::from_secs_f64(timeout.clamp(0.001, 3600.0));
    let mut qos = Qos::default().best_effort().keep_last(1);
    qos.lifespan = lease;
    qos.liveliness = r2r::qos::LivelinessPolicy::Automatic;
    qos.liveliness_lease_duration = lease;
    qos
}

/// A fleet message read: its id checked (at most
/// [`MAX_ROBOT_ID_BYTES`], UTF-8, no NUL) and its footprint's length (at
/// most [`MAX_PEER_VERTICES`]) before anything is copied; the pose's
/// quaternion a rotation about z (unit within 1e-6, no tilt beyond 1e-6),
/// its yaw taken. The rest is judged by [`crate::fleet::Fleet::receive`].
pub fn read(msg: &NativeFleetRobot) -> Result<PeerMessage, Refusal> {
    let id = crate::text::check_name(native::bytes(&msg.robot_id), MAX_ROBOT_ID_BYTES)
        .map_err(|_| Refusal::BadId)?;
    let frame = native::frame_id(&msg.header.frame_id)
        .map_err(|_| Refusal::WrongFrame("(not a frame id)".to_owned()))?;
    let vertices = native::len(&msg.footprint.points);
    if vertices > MAX_PEER_VERTICES {
        return Err(Refusal::TooManyVertices(vertices));
    }
    let footprint = native::items(&msg.footprint.points)
        .iter()
        .map(|p| Point::new(f64::from(p.x), f64::from(p.y)))
        .collect();
    let p = &msg.pose;
    let yaw = planar_yaw(
        p.orientation.x,
        p.orientation.y,
        p.orientation.z,
        p.orientation.w,
    )
    .ok_or(Refusal::NotFinite)?;
    // The nearest MAX_PLAN_POSES poses; the rest is not read.
    let plan = native::items(&msg.plan.poses)
        .iter()
        .take(MAX_PLAN_POSES)
        .map(|p| {
            let q = &p.pose.orientation;
            let yaw = planar_yaw(q.x, q.y, q.z, q.w).ok_or(Refusal::BadPlan)?;
            let at = Vector::new(p.pose.position.x, p.pose.position.y);
            Ok((
                native::seconds(&p.header.stamp),
                Isometry2::from_parts(at.into(), UnitComplex::new(yaw)),
            ))
        })
        .collect::<Result<Vec<_>, Refusal>>()?;
    Ok(PeerMessage {
        robot_id: id.to_owned(),
        session: msg.session,
        sequence: msg.sequence,
        frame_id: frame.to_owned(),
        stamp: native::seconds(&msg.header.stamp),
        footprint,
        pose: Isometry2::from_parts(
            Vector::new(p.position.x, p.position.y).into(),
            UnitComplex::new(yaw),
        ),
        linear: Vector::new(msg.twist.linear.x, msg.twist.linear.y),
        angular: msg.twist.angular.z,
        max_linear_speed: msg.max_linear_speed,
        max_angular_speed: msg.max_angular_speed,
        plan,
    })
}

/// This robot's state as a fleet message.
pub fn message_of(m: &PeerMessage) -> FleetRobot {
    let mut msg = FleetRobot::default();
    msg.header.stamp = stamp_of(m.stamp);
    msg.header.frame_id = m.frame_id.clone();
    msg.robot_id = m.robot_id.clone();
    msg.session = m.session;
    msg.sequence = m.sequence;
    msg.footprint.points = m
        .footprint
        .iter()
        .map(|p| r2r::geometry_msgs::msg::Point32 {
            x: p.x as f32,
            y: p.y as f32,
            z: 0.0,
        })
        .collect();
    msg.pose.position.x = m.pose.translation.x;
    msg.pose.position.y = m.pose.translation.y;
    let half = m.pose.rotation.angle() / 2.0;
    msg.pose.orientation.z = half.sin();
    msg.pose.orientation.w = half.cos();
    msg.twist.linear.x = m.linear.x;
    msg.twist.linear.y = m.linear.y;
    msg.twist.angular.z = m.angular;
    msg.max_linear_speed = m.max_linear_speed;
    msg.max_angular_speed = m.max_angular_speed;
    msg.plan.header.frame_id = m.frame_id.clone();
    msg.plan.poses = m
        .plan
        .iter()
        .map(|(t, pose)| {
            let mut p = r2r::geometry_msgs::msg::PoseStamped::default();
            p.header.stamp = stamp_of(*t);
            p.header.frame_id = m.frame_id.clone();
            p.pose.position.x = pose.translation.x;
            p.pose.position.y = pose.translation.y;
            let half = pose.rotation.angle() / 2.0;
            p.pose.orientation.z = half.sin();
            p.pose.orientation.w = half.cos();
            p
        })
        .collect();
    msg
}

/// A time (s) as a ROS stamp (negative: 0).
fn stamp_of(t: f64) -> r2r::builtin_interfaces::msg::Time {
    let t = t.max(0.0);
    r2r::builtin_interfaces::msg::Time {
        sec: t.floor().min(f64::from(i32::MAX)) as i32,
        nanosec: ((t - t.floor()) * 1e9).min(999_999_999.0) as u32,
    }
}

/// The fleet messages that came since the decision last took them: the
/// newest of each robot (id and session), refusals, and how many robots
/// did not fit.
#[derive(Debug, Default)]
pub struct LatestFleet {
    inner: Mutex<FleetInner>,
    ready: tokio::sync::Notify,
}

#[derive(Debug, Default)]
struct FleetInner {
    latest: HashMap<(String, u64), (PeerMessage, Arrival)>,
    refused: Vec<(Refusal, Arrival)>,
    /// Messages from robots beyond [`MAX_SLOT_ROBOTS`] since the last take.
    overflow: u64,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl LatestFleet {
    /// Keeps `read` (a message read, or why it was refused) arrived at
    /// `arrival`.
    pub fn put(&self, read: Result<PeerMessage, Refusal>, arrival: Arrival) {
        let mut inner = lock(&self.inner);
        match read {
            Ok(message) => {
                let key = (message.robot_id.clone(), message.session);
                let room = inner.latest.len() < MAX_SLOT_ROBOTS;
                match inner.latest.get_mut(&key) {
                    // The newer of the two (sequence), as it arrived.
                    Some(kept) => {
                        if message.sequence > kept.0.sequence {
                            *kept = (message, arrival);
                        }
                    }
                    None if room => {
                        inner.latest.insert(key, (message, arrival));
                    }
                    None => inner.overflow += 1,
                }
            }
            Err(refusal) => {
                if inner.refused.len() < MAX_SLOT_REFUSALS {
                    inner.refused.push((refusal, arrival));
                }
            }
        }
        drop(inner);
        self.ready.notify_one();
    }

    /// Everything kept since the last call, into `out` (refusals first,
    /// then the robots; an overflow as one [`Refusal::TooManyPeers`]).
    pub fn take(&self, out: &mut Vec<(Result<PeerMessage, Refusal>, f64)>) {
        let mut inner = lock(&self.inner);
        for (refusal, arrival) in inner.refused.drain(..) {
            out.push((Err(refusal), arrival.time));
        }
        if inner.overflow > 0 {
            inner.overflow = 0;
            let last = inner
                .latest
                .values()
                .map(|(_, a)| a.time)
                .fold(0.0, f64::max);
            out.push((Err(Refusal::TooManyPeers), last));
        }
        out.extend(inner.latest.drain().map(|(_, (m, a))| (Ok(m), a.time)));
    }

    /// Waits until a message is put.
    pub async fn ready(&self) {
        self.ready.notified().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaw_of_planar_quaternions_only() {
        let half = 0.3_f64;
        let yaw = planar_yaw(0.0, 0.0, half.sin(), half.cos()).expect("planar");
        assert!((yaw - 0.6).abs() < 1e-12);
        assert!(planar_yaw(0.1, 0.0, 0.0, 0.995).is_none(), "tilted");
        assert!(planar_yaw(0.0, 0.0, 0.0, 2.0).is_none(), "not unit");
        assert!(planar_yaw(f64::NAN, 0.0, 0.0, 1.0).is_none());
    }

    fn message(id: &str, sequence: u64) -> PeerMessage {
        PeerMessage {
            robot_id: id.to_owned(),
            session: 1,
            sequence,
            frame_id: "map".to_owned(),
            stamp: 1.0,
            footprint: Vec::new(),
            pose: Isometry2::identity(),
            linear: Vector::zeros(),
            angular: 0.0,
            max_linear_speed: 1.0,
            max_angular_speed: 1.0,
            plan: Vec::new(),
        }
    }

    #[test]
    fn the_slot_keeps_the_newest_per_robot_and_counts_the_robots_beyond_it() {
        let slot = LatestFleet::default();
        let at = |time| Arrival {
            time,
            generation: 0,
        };
        slot.put(Ok(message("a", 2)), at(1.0));
        slot.put(Ok(message("a", 1)), at(1.1));
        slot.put(Ok(message("a", 3)), at(1.2));
        let mut out = Vec::new();
        slot.take(&mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].0.as_ref().map(|m| m.sequence), Ok(3));
        out.clear();
        for i in 0..MAX_SLOT_ROBOTS + 100 {
            slot.put(Ok(message(&format!("r{i}"), 1)), at(2.0));
        }
        for _ in 0..100 {
            slot.put(Err(Refusal::BadId), at(2.0));
        }
        slot.take(&mut out);
        assert_eq!(out.len(), MAX_SLOT_REFUSALS + 1 + MAX_SLOT_ROBOTS);
        assert!(out.iter().any(|(r, _)| r == &Err(Refusal::TooManyPeers)));
    }
}
