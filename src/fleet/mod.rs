//! The fleet: other robots on the fleet topic, each kept as a moving
//! obstacle with the fail-safe rules every other input has. Pure: time is
//! injected; no ROS.
//!
//! Each robot's node publishes its own state ([`PeerMessage`]: its id, a
//! session drawn at start, a sequence number, its footprint in its body
//! frame, its pose and body twist in the shared frame at the stamp, and
//! bounds on its speed). A node's [`Fleet`] keeps the latest state of every
//! other publisher and turns them, at each decision time, into obstacles
//! of the fleet source ([`Fleet::obstacles_at`]).
//!
//! # The rules
//!
//! * **One rule for where a peer can be.** A peer's footprint (its convex
//!   hull: a superset of the footprint, so never less safe) was at its
//!   stamped pose at its *age origin*: the earlier of its stamp and its
//!   arrival (stale by arrival or by stamp, as every input here). Every point of the
//!   footprint moves at most at `v_max + ω_max·R` (its bounds, `R` the
//!   footprint's largest distance from the robot's origin), so after
//!   `age` seconds the peer lies inside its footprint grown by
//!   `(v_max + ω_max·R)·age`: that grown shape is the obstacle the flag,
//!   the report and the velocity gate's zones see. The bound holds
//!   whatever the peer did since, so the answer is never late; a fresh
//!   peer at 10 Hz is grown by a few centimetres.
//! * **Stale peers are kept, never forgotten.** Past `fleet_timeout` (by
//!   arrival or by stamp), and when its publisher's liveliness is lost,
//!   the same rule goes on: the peer's shape keeps growing with its age,
//!   and its entry reads [`PeerStatus::StalePeer`]. A peer that vanished
//!   may still be where it was; only the growth says how far it may have
//!   gone, so a vanished robot near this one stops it, one across the
//!   warehouse does not (until its reachable set arrives). Why not make
//!   the whole answer not valid instead: one robot's lost link would then
//!   stop every robot of the fleet, wherever it is. A peer leaves the
//!   table only when the node's own configuration is cleaned up.
//! * **Motion.** For the prediction (`collision_ahead`, the gate's
//!   `approach`), a fresh peer moves from its stamped pose by its twist
//!   (both robots' relative motion, rotation included:
//!   [`moving_time_of_impact`](crate::geometry::moving_time_of_impact)),
//!   padded by the same growth (which covers the time it moved since its
//!   stamp, as its twist is within its bounds); a stale peer stands still,
//!   padded by its growth at the end of the horizon.
//! * **Clocks.** A stamp later than its arrival by more than
//!   `clock_tolerance` means the two hosts' clocks disagree: the peer's
//!   entry reads [`PeerStatus::ClockSkew`] and its age counts from its
//!   arrival. A stamp earlier than its arrival by more counts from the
//!   stamp (older, so grown more: the safe side), and reads `clock_skew`
//!   too.
//! * **One id, two publishers.** Each publisher draws a session at
//!   start. Two sessions of one robot id both publishing within
//!   `fleet_timeout` are a conflict: both are kept (both are somewhere)
//!   and both read [`PeerStatus::IdConflict`]. A new session whose old one
//!   went quiet is a restart: it replaces the old one. A session claiming
//!   this node's own id is a conflict too.
//! * **Bounded.** At most [`MAX_PEERS`] entries; a new id beyond it is
//!   refused ([`Refusal::TooManyPeers`]) and the fleet reads not valid for
//!   `fleet_timeout` after ([`Fleet::refusing`]): a robot this node cannot
//!   keep is one it cannot judge. Footprints of more than
//!   [`MAX_PEER_VERTICES`] vertices and ids over [`MAX_ROBOT_ID_BYTES`]
//!   bytes are refused before they are read (by the edge too).

#[cfg(test)]
mod tests;

use std::collections::{BTreeMap, HashMap};

use nalgebra::Isometry2;

use crate::geometry::{
    convex_hull, grown_convex, ConvexPolygon, Motion, Point, PolygonError, Shape, ShapeError,
    Vector,
};
use crate::model::Obstacle;
pub use crate::model::PeerStatus;
use crate::monitor::MovingObstacle;

pub use crate::limits::{MAX_PEERS, MAX_PEER_VERTICES, MAX_PLAN_POSES, MAX_ROBOT_ID_BYTES};

/// How the fleet judges its peers (the node's `fleet_*` parameters).
#[derive(Clone, Debug, PartialEq)]
pub struct FleetConfig {
    /// This robot's id (`robot_id`); empty: it does not publish, and no
    /// peer can conflict with it.
    pub robot_id: String,
    /// This node's session (drawn at start): its own messages, heard back,
    /// are not a peer.
    pub session: u64,
    /// The shared frame every fleet message is in (`fleet_frame`).
    pub frame: String,
    /// Seconds after which a peer is stale (`fleet_timeout`, > 0).
    pub timeout: f64,
    /// Seconds of disagreement between a stamp and its arrival tolerated
    /// before the peer reads `clock_skew` (`fleet_clock_tolerance`).
    pub clock_tolerance: f64,
}

impl Default for FleetConfig {
    fn default() -> Self {
        FleetConfig {
            robot_id: String::new(),
            session: 0,
            frame: "map".to_owned(),
            timeout: 0.5,
            clock_tolerance: 0.25,
        }
    }
}

/// One robot's state as its node published it (the fleet message, read).
#[derive(Clone, Debug, PartialEq)]
pub struct PeerMessage {
    /// The robot's id.
    pub robot_id: String,
    /// Its publisher's session, drawn at its start.
    pub session: u64,
    /// Increases by one per message of a session.
    pub sequence: u64,
    /// The frame of `pose` (the shared frame).
    pub frame_id: String,
    /// When `pose` and the twist held (s).
    pub stamp: f64,
    /// The footprint in the robot's body frame.
    pub footprint: Vec<Point>,
    /// The body frame's pose in `frame_id` at `stamp`.
    pub pose: Isometry2<f64>,
    /// Body-frame linear velocity (m/s).
    pub linear: Vector,
    /// Angular velocity (rad/s).
    pub angular: f64,
    /// Bound on the body origin's speed (m/s).
    pub max_linear_speed: f64,
    /// Bound on the turning rate (rad/s).
    pub max_angular_speed: f64,
    /// The next seconds of its plan: its body frame's pose in `frame_id`
    /// at each time (s, strictly increasing); empty: none.
    pub plan: Vec<(f64, Isometry2<f64>)>,
}

/// Why a fleet message was not taken.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// The id is empty, too long, or not text.
    #[error("robot id empty, over {MAX_ROBOT_ID_BYTES} bytes, or not text")]
    BadId,
    /// The message is not in the shared frame.
    #[error("frame '{0}' is not the fleet frame")]
    WrongFrame(String),
    /// A pose, twist, bound or stamp is NaN or infinite, the pose is
    /// beyond [`MAX_PEER_DISTANCE`], a bound is negative, or the twist
    /// exceeds the bounds.
    #[error("pose, twist, speed bounds or stamp not finite, or the twist beyond the bounds")]
    NotFinite,
    /// More than [`MAX_PEER_VERTICES`] vertices.
    #[error("footprint of {0} vertices (at most {MAX_PEER_VERTICES})")]
    TooManyVertices(usize),
    /// The footprint's hull is not a shape.
    #[error("footprint: {0}")]
    Footprint(ShapeError),
    /// An older or repeated sequence number of a known session.
    #[error("sequence {got} not after {last}")]
    OutOfOrder {
        /// The message's.
        got: u64,
        /// The last taken.
        last: u64,
    },
    /// The plan's times are not finite and strictly increasing, a pose is
    /// not finite, or it has more than [`MAX_PLAN_POSES`] poses.
    #[error("plan not finite, not in time order, or over {MAX_PLAN_POSES} poses")]
    BadPlan,
    /// [`MAX_PEERS`] peers are kept already.
    #[error("{MAX_PEERS} peers kept already")]
    TooManyPeers,
}

impl Refusal {
    /// A short key, the same for every message refused for one reason
    /// (for throttled logs).
    pub fn key(&self) -> &'static str {
        match self {
            Refusal::BadId => "fleet_bad_id",
            Refusal::WrongFrame(_) => "fleet_wrong_frame",
            Refusal::NotFinite => "fleet_not_finite",
            Refusal::TooManyVertices(_) => "fleet_too_many_vertices",
            Refusal::Footprint(_) => "fleet_footprint",
            Refusal::OutOfOrder { .. } => "fleet_out_of_order",
            Refusal::TooManyPeers => "fleet_too_many_peers",
            Refusal::BadPlan => "fleet_bad_plan",
        }
    }
}

/// What a fleet message became.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taken {
    /// A peer's state, kept.
    Peer,
    /// This node's own message, heard back: nothing kept.
    Own,
}

/// A peer as kept.
#[derive(Clone, Debug)]
struct Peer {
    message: PeerMessage,
    /// The footprint's convex hull, body frame.
    hull: Shape,
    /// The hull placed at its stamped pose, in the shared frame.
    placed: ConvexPolygon,
    /// The hull's largest distance from the body origin.
    reach: f64,
    /// Arrival of the latest message (s).
    received: f64,
    /// When the liveliness of its publisher was last lost (s), if after
    /// `received`.
    lost: Option<f64>,
}

impl Peer {
    /// Where its age counts from (see the module's rules), and whether
    /// the clocks disagree.
    fn origin(&self, tolerance: f64) -> (f64, bool) {
        let (stamp, received) = (self.message.stamp, self.received);
        if stamp > received + tolerance {
            (received, true)
        } else {
            (stamp.min(received), received - stamp > tolerance)
        }
    }

    /// The growth rate: the fastest any point of its hull moves (m/s).
    fn spread(&self) -> f64 {
        self.message.max_linear_speed + self.message.max_angular_speed * self.reach
    }
}

/// One peer at a decision time (see [`Fleet::obstacles_at`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeerEntry<'a> {
    /// Its robot id.
    pub robot_id: &'a str,
    /// Its status.
    pub status: PeerStatus,
    /// Its age at the decision time (s).
    pub age: f64,
    /// How far its footprint was grown (m).
    pub growth: f64,
}

/// The peers this node keeps (see the module's rules).
#[derive(Clone, Debug, Default)]
pub struct Fleet {
    config: FleetConfig,
    /// Keyed by (robot id, session).
    /// Keyed by (robot id, session), in that order: the same peers are
    /// always given in the same order.
    peers: BTreeMap<(String, u64), Peer>,
    /// The latest refusal for lack of room (s).
    refused_full: Option<f64>,
}

impl Fleet {
    /// An empty fleet judged by `config`.
    pub fn new(config: FleetConfig) -> Self {
        Fleet {
            config,
            peers: BTreeMap::new(),
            refused_full: None,
        }
    }

    /// The rules in use.
    pub fn config(&self) -> &FleetConfig {
        &self.config
    }

    /// Peers kept.
    pub fn len(&self) -> usize {
        self.peers.len()
    }

    /// No peer kept.
    pub fn is_empty(&self) -> bool {
        self.peers.is_empty()
    }

    /// Forgets every peer (the node's cleanup).
    pub fn clear(&mut self) {
        self.peers.clear();
        self.refused_full = None;
    }

    /// Takes one fleet message arriving at `now`.
    pub fn receive(&mut self, message: PeerMessage, now: f64) -> Result<Taken, Refusal> {
        let id = &message.robot_id;
        if id.is_empty() || id.len() > MAX_ROBOT_ID_BYTES || id.contains('\0') {
            return Err(Refusal::BadId);
        }
        if message.frame_id != self.config.frame {
            return Err(Refusal::WrongFrame(
                crate::text::escape_for_log(&message.frame_id, 64).into_owned(),
            ));
        }
        if *id == self.config.robot_id && message.session == self.config.session {
            return Ok(Taken::Own);
        }
        check_motion(&message)?;
        if message.footprint.len() > MAX_PEER_VERTICES {
            return Err(Refusal::TooManyVertices(message.footprint.len()));
        }
        let key = (message.robot_id.clone(), message.session);
        if let Some(peer) = self.peers.get(&key) {
            if message.sequence <= peer.message.sequence {
                return Err(Refusal::OutOfOrder {
                    got: message.sequence,
                    last: peer.message.sequence,
                });
            }
        }
        let hull = convex_hull(&message.footprint);
        let shape = Shape::polygon(&hull).map_err(Refusal::Footprint)?;
        let reach = hull.iter().map(|p| p.coords.norm()).fold(0.0, f64::max);
        // Placed once, where it was at its stamp; grown at each decision.
        let placed = match shape.transformed(&message.pose) {
            Shape::Convex(placed) => placed,
            _ => {
                return Err(Refusal::Footprint(ShapeError::Polygon(
                    PolygonError::NotConvex,
                )))
            }
        };
        if !self.peers.contains_key(&key) {
            // A restart: the same id's sessions that went quiet are
            // replaced by the new one.
            let timeout = self.config.timeout;
            self.peers
                .retain(|(other, _), p| *other != key.0 || now - p.received <= timeout);
            if self.peers.len() >= MAX_PEERS {
                self.note_full(now);
                return Err(Refusal::TooManyPeers);
            }
        }
        self.peers.insert(
            key,
            Peer {
                message,
                hull: shape,
                placed,
                reach,
                received: now,
                lost: None,
            },
        );
        Ok(Taken::Peer)
    }

    /// The liveliness of `robot_id`'s publisher was lost at `now` (DDS's
    /// liveliness changed event, where the edge has it): the peer reads
    /// stale from now on, whatever its age. Its shape is unchanged: it
    /// grows with its age as always.
    pub fn liveliness_lost(&mut self, robot_id: &str, now: f64) {
        for ((id, _), peer) in self.peers.iter_mut() {
            if id == robot_id {
                peer.lost = Some(now);
            }
        }
    }

    /// A robot was refused for lack of room at `now` before it reached
    /// this table (the edge's slot was full): as
    /// [`Refusal::TooManyPeers`] here.
    pub fn note_full(&mut self, now: f64) {
        self.refused_full = Some(self.refused_full.map_or(now, |t| t.max(now)));
    }

    /// Whether a robot was refused for lack of room within
    /// `fleet_timeout` of `now`: the fleet cannot be judged.
    pub fn refusing(&self, now: f64) -> bool {
        self.refused_full
            .is_some_and(|t| now - t <= self.config.timeout)
    }

    /// Every peer at `now` as an obstacle of the fleet source, in the
    /// shared frame: `obstacles` (its hull at its stamped pose, grown by
    /// its spread times its age; id: its robot id), `moving` (its hull
    /// moving for the prediction over `horizon` s, see the module's
    /// rules) and `entries` (its status), the three in one order (by id,
    /// then session: the same peers give the same order). Clears the
    /// three first.
    pub fn obstacles_at<'a>(
        &'a self,
        now: f64,
        horizon: f64,
        obstacles: &mut Vec<Obstacle>,
        moving: &mut Vec<MovingObstacle>,
        entries: &mut Vec<PeerEntry<'a>>,
    ) {
        obstacles.clear();
        moving.clear();
        entries.clear();
        let horizon = if horizon.is_finite() && horizon > 0.0 {
            horizon
        } else {
            0.0
        };
        // The sessions of each id heard within the timeout (one pass: a
        // conflict is two of them, or one claiming this node's id).
        let timeout = self.config.timeout;
        let mut live: HashMap<&str, usize> = HashMap::new();
        for ((id, _), peer) in &self.peers {
            if now - peer.received <= timeout {
                *live.entry(id.as_str()).or_default() += 1;
            }
        }
        for ((id, _), peer) in &self.peers {
            let (origin, skew) = peer.origin(self.config.clock_tolerance);
            let age = (now - origin).max(0.0);
            let stale = age > self.config.timeout
                || now - peer.received > self.config.timeout
                || peer.lost.is_some_and(|t| t >= peer.received);
            let conflict = now - peer.received <= timeout
                && (*id == self.config.robot_id || live.get(id.as_str()).is_some_and(|n| *n > 1));
            let status = if conflict {
                PeerStatus::IdConflict
            } else if stale {
                PeerStatus::StalePeer
            } else if skew {
                PeerStatus::ClockSkew
            } else {
                PeerStatus::Ok
            };
            let spread = peer.spread();
            let growth = spread * age;
            let message = &peer.message;
            obstacles.push(Obstacle {
                id: message.robot_id.clone(),
                shape: Ok(Shape::Convex(grown_convex(&peer.placed, growth))),
                rejected_points: Vec::new(),
            });
            let (motion, padding) = if stale {
                (
                    Motion::twist(&message.pose, Vector::zeros(), 0.0),
                    spread * (age + horizon),
                )
            } else {
                (
                    Motion::twist(&message.pose, message.linear, message.angular),
                    growth,
                )
            };
            // Its plan from its stamped pose on (stale: it stands, grown).
            let plan: std::sync::Arc<[(f64, Isometry2<f64>)]> = if stale || message.plan.is_empty()
            {
                std::sync::Arc::default()
            } else {
                std::iter::once((message.stamp, message.pose))
                    .chain(
                        message
                            .plan
                            .iter()
                            .copied()
                            .filter(|(t, _)| *t > message.stamp),
                    )
                    .collect()
            };
            moving.push(MovingObstacle {
                shape: peer.hull.clone(),
                motion,
                padding,
                plan,
                since: now,
                growth: stale.then_some((origin, spread)),
            });
            entries.push(PeerEntry {
                robot_id: &message.robot_id,
                status,
                age,
                growth,
            });
        }
    }
}

/// The yaw of a quaternion `(x, y, z, w)` that is a rotation about z
/// (unit within 1e-6, no tilt beyond 1e-6); `None` otherwise (not finite,
/// not unit, tilted): a fleet message's pose and plan are planar.
pub fn planar_yaw(x: f64, y: f64, z: f64, w: f64) -> Option<f64> {
    let norm = (x * x + y * y + z * z + w * w).sqrt();
    let planar = x.abs() <= 1e-6 && y.abs() <= 1e-6;
    (norm.is_finite() && (norm - 1.0).abs() <= 1e-6 && planar)
        .then(|| (2.0 * w * z).atan2(1.0 - 2.0 * z * z))
}

/// How far from the shared frame's origin a peer may be (m).
pub const MAX_PEER_DISTANCE: f64 = 1e9;

/// The message's numbers are finite, its pose within
/// [`MAX_PEER_DISTANCE`], its bounds not negative, and its
/// twist within them.
fn check_motion(m: &PeerMessage) -> Result<(), Refusal> {
    let pose = &m.pose;
    let finite = [
        m.stamp,
        pose.translation.x,
        pose.translation.y,
        pose.rotation.re,
        pose.rotation.im,
        m.linear.x,
        m.linear.y,
        m.angular,
        m.max_linear_speed,
        m.max_angular_speed,
    ]
    .iter()
    .all(|v| v.is_finite());
    // Within a world of robots: products of coordinates stay far from
    // overflow in every query.
    let placed = m.pose.translation.vector.norm() <= MAX_PEER_DISTANCE;
    let within = placed
        && m.max_linear_speed >= 0.0
        && m.max_angular_speed >= 0.0
        && m.linear.norm() <= m.max_linear_speed * (1.0 + 1e-9)
        && m.angular.abs() <= m.max_angular_speed * (1.0 + 1e-9);
    if !(finite && within) {
        return Err(Refusal::NotFinite);
    }
    let poses_finite = m.plan.iter().all(|(t, p)| {
        t.is_finite()
            && p.translation.x.is_finite()
            && p.translation.y.is_finite()
            && p.rotation.re.is_finite()
            && p.rotation.im.is_finite()
    });
    let ordered = m.plan.windows(2).all(|w| w[0].0 < w[1].0);
    if m.plan.len() > MAX_PLAN_POSES || !poses_finite || !ordered {
        return Err(Refusal::BadPlan);
    }
    Ok(())
}
