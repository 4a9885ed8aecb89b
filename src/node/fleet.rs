//! The fleet in the core: other robots' messages taken in
//! ([`Core::on_fleet`](super::Core::on_fleet)), their obstacles given to
//! the monitor's fleet source before every decision and every gate check
//! ([`FleetCore::refresh`]), and this robot's own state, due at
//! `fleet_rate` ([`FleetCore::own_state`]). The rules are
//! [`crate::fleet`]'s.

use nalgebra::Isometry2;

use super::outputs::Notice;
use crate::broadphase::ObstacleIndex;
use crate::config::NodeConfig;
use crate::fleet::{Fleet, PeerEntry, PeerMessage, PeerStatus, Refusal, Taken};
use crate::frames::FrameTree;
use crate::geometry::{Point, Shape, Vector};
use crate::model::{Cause, Obstacle};
use crate::monitor::{Monitor, MonitorConfig, MovingObstacle, SourceKind};

/// Sides of the polygon a round robot is published as (circumscribed).
const CIRCLE_SIDES: u32 = 16;

/// The fleet's part of the core.
#[derive(Debug)]
pub struct FleetCore {
    fleet: Fleet,
    /// The fleet source's name (`type: fleet`), if one is configured.
    source: Option<String>,
    /// This robot's state is published when `robot_id` is set.
    publish: bool,
    period: f64,
    max_linear_speed: f64,
    max_angular_speed: f64,
    /// When this robot was last published (s).
    last_published: Option<f64>,
    sequence: u64,
    /// Each peer's status at the last refresh, by id, for the report
    /// and `/diagnostics`.
    statuses: Vec<(String, PeerStatus)>,
    obstacles: Vec<Obstacle>,
    moving: Vec<MovingObstacle>,
    /// The time the monitor was last given the peers at, while no message
    /// came since: a tick's gate check and its decision share one refresh.
    given_at: Option<f64>,
}

impl FleetCore {
    /// The fleet of `config`, this node's session `session`.
    pub fn new(config: &NodeConfig, session: u64) -> Self {
        let mut fleet_config = config.fleet.clone();
        fleet_config.session = session;
        let source = config
            .monitor
            .sources
            .iter()
            .find(|s| s.kind == SourceKind::Fleet)
            .map(|s| s.name.clone());
        FleetCore {
            fleet: Fleet::new(fleet_config),
            source,
            publish: !config.fleet.robot_id.is_empty(),
            period: 1.0 / config.fleet_rate.max(1e-3),
            max_linear_speed: config.max_linear_speed,
            max_angular_speed: config.max_angular_speed,
            last_published: None,
            sequence: 0,
            statuses: Vec::new(),
            obstacles: Vec::new(),
            moving: Vec::new(),
            given_at: None,
        }
    }

    /// Whether this node reads the fleet topic (a fleet source) or
    /// publishes on it (a `robot_id`).
    pub fn in_use(&self) -> bool {
        self.source.is_some() || self.publish
    }

    /// Whether a fleet source is configured.
    pub fn sees(&self) -> bool {
        self.source.is_some()
    }

    /// The peers kept.
    pub fn fleet(&self) -> &Fleet {
        &self.fleet
    }

    /// Each peer's status at the last refresh (the fleet source's
    /// obstacles' order).
    pub fn statuses(&self) -> &[(String, PeerStatus)] {
        &self.statuses
    }

    /// Takes fleet messages that arrived (each read, or why the edge
    /// refused it, with its arrival time); refusals become throttled
    /// warnings, and a robot the edge had no room for makes the fleet
    /// not judged ([`Fleet::note_full`]).
    pub fn receive(
        &mut self,
        messages: &mut Vec<(Result<PeerMessage, Refusal>, f64)>,
        notices: &mut Vec<Notice>,
    ) {
        self.given_at = None;
        for (message, arrival) in messages.drain(..) {
            let message = match message {
                Ok(message) => message,
                Err(refusal) => {
                    if refusal == Refusal::TooManyPeers {
                        self.fleet.note_full(arrival);
                    }
                    notices.push(Notice::warn(
                        refusal.key(),
                        format!("fleet message refused: {refusal}"),
                    ));
                    continue;
                }
            };
            let id = crate::text::escape_for_log(&message.robot_id, 64).into_owned();
            match self.fleet.receive(message, arrival) {
                Ok(Taken::Peer | Taken::Own) => {}
                // Sequence numbers out of order are transport noise.
                Err(Refusal::OutOfOrder { .. }) => {}
                Err(refusal) => notices.push(Notice::warn(
                    refusal.key(),
                    format!("fleet message from '{id}' refused: {refusal}"),
                )),
            }
        }
    }

    /// The liveliness of `robot_id`'s publisher was lost (where the edge
    /// has the event).
    pub fn liveliness_lost(&mut self, robot_id: &str, now: f64) {
        self.fleet.liveliness_lost(robot_id, now);
        self.given_at = None;
    }

    /// The monitor's configuration was followed: the next refresh gives
    /// the peers again, whatever the time.
    pub fn invalidate(&mut self) {
        self.given_at = None;
    }

    /// Forgets every peer (cleanup).
    pub fn clear(&mut self) {
        self.fleet.clear();
        self.statuses.clear();
        self.given_at = None;
    }

    /// Gives the monitor's fleet source the peers at `now` (prediction
    /// over `horizon` s): their obstacles, or, while peers are refused
    /// for lack of room, the source's fault (`invalid_source`: a robot it
    /// cannot keep is one it cannot judge).
    pub fn refresh(&mut self, monitor: &mut Monitor, now: f64, horizon: f64) {
        let Some(source) = &self.source else {
            return;
        };
        if self.given_at == Some(now) {
            return;
        }
        self.given_at = Some(now);
        let mut entries: Vec<PeerEntry<'_>> = Vec::with_capacity(self.fleet.len());
        self.fleet.obstacles_at(
            now,
            horizon,
            &mut self.obstacles,
            &mut self.moving,
            &mut entries,
        );
        self.statuses.clear();
        self.statuses
            .extend(entries.iter().map(|e| (e.robot_id.to_owned(), e.status)));
        let peer_statuses = entries.iter().map(|e| e.status).collect();
        for obstacle in &mut self.obstacles {
            obstacle.id = crate::monitor::source_polygon_prefix(source) + &obstacle.id;
        }
        if self.fleet.refusing(now) {
            monitor.reject_source(source, Cause::InvalidSource, now);
            return;
        }
        let cells = ObstacleIndex::new(std::mem::take(&mut self.obstacles));
        let moving = std::mem::take(&mut self.moving);
        let frame = self.fleet.config().frame.clone();
        monitor.set_source_peers(source, &frame, cells, moving, peer_statuses, now);
    }

    /// This robot's state at `now` when it is due (`fleet_rate`) and can
    /// be told: its footprint in its base frame, its pose in the fleet
    /// frame by TF, its velocity when a fresh one is held (else still),
    /// its speed bounds (raised to its speed when it is faster). `None`
    /// when not due, or when its pose or footprint is not known (nothing
    /// is published rather than a guess; the others then see it stale).
    pub fn own_state(
        &mut self,
        monitor: &Monitor,
        robot: Option<&Shape>,
        tf: &FrameTree,
        now: f64,
    ) -> Option<PeerMessage> {
        if !self.publish {
            return None;
        }
        if self
            .last_published
            .is_some_and(|t| now - t < self.period * 0.999 && now >= t)
        {
            return None;
        }
        let config: &MonitorConfig = monitor.config();
        let tolerance = config.transform_tolerance;
        let (footprint, base) = match (robot, monitor.footprint_stamped()) {
            (Some(shape), _) if !config.base_frame.is_empty() => {
                (outline(shape), config.base_frame.clone())
            }
            (_, Some((shape, frame, stamp))) => {
                let base = if config.base_frame.is_empty() {
                    frame.to_owned()
                } else {
                    config.base_frame.clone()
                };
                let points = outline(shape);
                if base == frame {
                    (points, base)
                } else {
                    let to_base = tf.lookup(&base, frame, stamp, now, tolerance).ok()?;
                    (points.iter().map(|p| to_base * p).collect(), base)
                }
            }
            _ => return None,
        };
        let fleet = self.fleet.config();
        let pose: Isometry2<f64> = if base == fleet.frame {
            Isometry2::identity()
        } else {
            tf.lookup(&fleet.frame, &base, 0.0, now, tolerance).ok()?
        };
        let (linear, angular) = monitor
            .fresh_velocity(now)
            .unwrap_or((Vector::zeros(), 0.0));
        self.sequence += 1;
        self.last_published = Some(now);
        Some(PeerMessage {
            robot_id: fleet.robot_id.clone(),
            session: fleet.session,
            sequence: self.sequence,
            frame_id: fleet.frame.clone(),
            stamp: now,
            footprint,
            pose,
            linear,
            angular,
            max_linear_speed: self.max_linear_speed.max(linear.norm()),
            max_angular_speed: self.max_angular_speed.max(angular.abs()),
            plan: Vec::new(),
        })
    }
}

/// A shape's outline as a polygon that holds it: a polygon's own outline,
/// a circle's circumscribed [`CIRCLE_SIDES`]-gon.
fn outline(shape: &Shape) -> Vec<Point> {
    match shape {
        Shape::Circle(circle) => {
            let step = std::f64::consts::TAU / f64::from(CIRCLE_SIDES);
            let r = circle.radius() / (step / 2.0).cos() * (1.0 + 1e-9);
            let c = circle.center();
            (0..CIRCLE_SIDES)
                .map(|k| {
                    let a = step * f64::from(k);
                    Point::new(c.x + r * a.cos(), c.y + r * a.sin())
                })
                .collect()
        }
        Shape::Convex(polygon) => polygon.vertices().to_vec(),
        Shape::Compound(compound) => compound.outline().to_vec(),
    }
}
