//! The core's [`Outputs`] as the messages the node would publish, and where
//! a replay writes them: JSON lines and an MCAP (with the inputs copied as
//! recorded).

use super::config::resolve;
use crate::bag::{self, msgs, BagWriter, JsonLine, Message, Record};
use crate::config::NodeConfig;
use crate::diagnostics::DiagnosticStatus;
use crate::gate::Command;
use crate::node::{Core, Outputs, ZonePolygons};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Segments of a circle zone's outline (as the node publishes it).
const CIRCLE_SEGMENTS: usize = 32;

/// Seconds as a stamp; 0 for what a stamp cannot hold.
pub(super) fn stamp(seconds: f64) -> msgs::Time {
    if !(seconds.is_finite() && seconds >= 0.0 && seconds < f64::from(i32::MAX)) {
        return msgs::Time::default();
    }
    let sec = seconds.floor();
    let nanosec = ((seconds - sec) * 1e9).min(999_999_999.0) as u32;
    msgs::Time {
        sec: sec as i32,
        nanosec,
    }
}

fn header(frame: &str, now: f64) -> msgs::Header {
    msgs::Header {
        stamp: stamp(now),
        frame_id: frame.to_owned(),
    }
}

fn twist(command: &Command) -> msgs::Twist {
    let mut twist = msgs::Twist::default();
    twist.linear.x = command.x;
    twist.linear.y = command.y;
    twist.angular.z = command.w;
    twist
}

/// The output topics, resolved for the node's name.
#[derive(Clone, Debug)]
pub(super) struct OutTopics {
    command: String,
    stamped: bool,
    state: Option<String>,
    /// `(zone index, polygon_pub_topic)` of each `visualize` zone.
    zones: Vec<(usize, String)>,
    base_frame: String,
    collision: String,
    ahead: String,
    fleet: String,
}

impl OutTopics {
    pub(super) fn new(config: &NodeConfig, node: &str) -> Self {
        let gate = &config.gate;
        OutTopics {
            command: resolve(node, &gate.cmd_vel_out_topic),
            stamped: gate.stamped,
            state: (!gate.state_topic.is_empty()).then(|| resolve(node, &gate.state_topic)),
            zones: gate
                .zones
                .iter()
                .enumerate()
                .filter(|(_, z)| z.visualize)
                .map(|(i, z)| (i, resolve(node, &z.polygon_pub_topic)))
                .collect(),
            base_frame: gate.base_frame.clone(),
            collision: resolve(node, "collision"),
            ahead: resolve(node, "collision_ahead"),
            fleet: resolve(node, &config.fleet_topic),
        }
    }

    /// One event's outputs as `(topic, message)`, in the order the node
    /// publishes them, into `messages`; `now`: ROS time (s).
    pub(super) fn messages(
        &self,
        core: &Core,
        out: &Outputs,
        now: f64,
        messages: &mut Vec<(String, Message)>,
    ) {
        if let Some(gated) = &out.command {
            let message = if self.stamped {
                let last = core.last_command();
                let stamp = match (gated.restamp, last) {
                    (Some(t), _) => stamp(t),
                    (None, Some(c)) => msgs::Time {
                        sec: c.sec,
                        nanosec: c.nanosec,
                    },
                    (None, None) => msgs::Time::default(),
                };
                Message::TwistStamped(msgs::TwistStamped {
                    header: msgs::Header {
                        stamp,
                        frame_id: last.map_or(String::new(), |c| c.frame_id.clone()),
                    },
                    twist: twist(&gated.command),
                })
            } else {
                Message::Twist(twist(&gated.command))
            };
            messages.push((self.command.clone(), message));
        }
        if let (Some(state), Some(topic), Some(gate)) = (&out.state, &self.state, core.gate()) {
            let message = msgs::CollisionMonitorState {
                action_type: state.action.code(),
                polygon_name: gate.state_name(state).to_owned(),
            };
            messages.push((topic.clone(), Message::CollisionMonitorState(message)));
        }
        for (index, topic) in &self.zones {
            let due = match out.zone_polygons {
                ZonePolygons::None => false,
                ZonePolygons::All => true,
                ZonePolygons::Changed => out.changed_zones.contains(index),
            };
            if !due {
                continue;
            }
            let points = core
                .zone_shape(*index)
                .map(|s| s.outline(CIRCLE_SEGMENTS))
                .unwrap_or_default();
            let message = msgs::PolygonStamped {
                header: header(&self.base_frame, now),
                polygon: msgs::Polygon {
                    points: points
                        .iter()
                        .map(|p| msgs::Point32 {
                            x: p.x as f32,
                            y: p.y as f32,
                            z: 0.0,
                        })
                        .collect(),
                },
            };
            messages.push((topic.clone(), Message::PolygonStamped(message)));
        }
        if let Some(flag) = &out.flag {
            let message = msgs::Bool {
                data: flag.colliding,
            };
            messages.push((self.collision.clone(), Message::Bool(message)));
        }
        if let Some(ahead) = out.ahead {
            messages.push((
                self.ahead.clone(),
                Message::Bool(msgs::Bool { data: ahead }),
            ));
        }
        if let Some(robot) = &out.fleet_robot {
            messages.push((self.fleet.clone(), Message::FleetRobot(fleet_robot(robot))));
        }
    }
}

/// This robot's state as a fleet message (as `ros::fleet::message_of`).
fn fleet_robot(m: &crate::fleet::PeerMessage) -> msgs::FleetRobot {
    let pose = |p: &nalgebra::Isometry2<f64>| {
        let half = p.rotation.angle() / 2.0;
        msgs::Pose {
            position: msgs::Point {
                x: p.translation.x,
                y: p.translation.y,
                z: 0.0,
            },
            orientation: msgs::Quaternion {
                x: 0.0,
                y: 0.0,
                z: half.sin(),
                w: half.cos(),
            },
        }
    };
    msgs::FleetRobot {
        header: header(&m.frame_id, m.stamp),
        robot_id: m.robot_id.clone(),
        session: m.session,
        sequence: m.sequence,
        footprint: msgs::Polygon {
            points: m
                .footprint
                .iter()
                .map(|p| msgs::Point32 {
                    x: p.x as f32,
                    y: p.y as f32,
                    z: 0.0,
                })
                .collect(),
        },
        pose: pose(&m.pose),
        twist: msgs::Twist {
            linear: msgs::Vector3 {
                x: m.linear.x,
                y: m.linear.y,
                z: 0.0,
            },
            angular: msgs::Vector3 {
                x: 0.0,
                y: 0.0,
                z: m.angular,
            },
        },
        max_linear_speed: m.max_linear_speed,
        max_angular_speed: m.max_angular_speed,
        plan: msgs::Path {
            header: header(&m.frame_id, m.stamp),
            poses: m
                .plan
                .iter()
                .map(|(t, p)| msgs::PoseStamped {
                    header: header(&m.frame_id, *t),
                    pose: pose(p),
                })
                .collect(),
        },
    }
}

/// `/diagnostics` of `statuses` at `now`.
pub(super) fn diagnostics(statuses: &[DiagnosticStatus], now: f64) -> Message {
    Message::DiagnosticArray(msgs::DiagnosticArray {
        header: header("", now),
        status: statuses
            .iter()
            .map(|s| msgs::DiagnosticStatus {
                level: s.level.as_byte(),
                name: s.name.clone(),
                message: s.message.clone(),
                hardware_id: s.hardware_id.clone(),
                values: s
                    .values
                    .iter()
                    .map(|(key, value)| msgs::KeyValue {
                        key: key.clone(),
                        value: value.clone(),
                    })
                    .collect(),
            })
            .collect(),
    })
}

/// Where the outputs go: JSON lines, an MCAP, and the count per topic.
pub(super) struct Sink {
    jsonl: Option<BufWriter<File>>,
    mcap: Option<BagWriter<BufWriter<File>>>,
    /// Output messages per topic.
    pub(super) per_topic: BTreeMap<String, u64>,
    /// Inputs not copied into the MCAP (a type it has no schema for).
    pub(super) not_copied: u64,
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("{}: {e}", path.display())
}

impl Sink {
    /// Creates the files asked for.
    pub(super) fn create(jsonl: Option<&Path>, mcap: Option<&Path>) -> Result<Self, String> {
        let jsonl = match jsonl {
            Some(path) => Some(BufWriter::new(File::create(path).map_err(io(path))?)),
            None => None,
        };
        let mcap = match mcap {
            Some(path) => Some(BagWriter::create(path).map_err(|e| e.to_string())?),
            None => None,
        };
        Ok(Sink {
            jsonl,
            mcap,
            per_topic: BTreeMap::new(),
            not_copied: 0,
        })
    }

    /// Copies an input record into the MCAP as recorded (a type known to
    /// [`bag`], CDR); other records are counted in `not_copied`. The
    /// caller passes the records of the node's input topics only.
    pub(super) fn input(&mut self, record: &Record) -> Result<(), String> {
        let Some(writer) = &mut self.mcap else {
            return Ok(());
        };
        let name = bag::full_type_name(&record.schema_name);
        match Message::schema_of(&name) {
            Some(schema) if &*record.encoding == "cdr" => writer
                .write_raw(
                    &record.topic,
                    &name,
                    &schema,
                    record.log_time_ns,
                    &record.data,
                )
                .map_err(|e| e.to_string()),
            _ => {
                self.not_copied += 1;
                Ok(())
            }
        }
    }

    /// Writes one output message at `log_time_ns`.
    pub(super) fn output(
        &mut self,
        topic: &str,
        log_time_ns: u64,
        message: &Message,
    ) -> Result<(), String> {
        *self.per_topic.entry(topic.to_owned()).or_default() += 1;
        if let Some(out) = &mut self.jsonl {
            let line = JsonLine {
                log_time_ns,
                topic,
                type_name: message.type_name(),
                message: Some(message),
            };
            serde_json::to_writer(&mut *out, &line).map_err(|e| e.to_string())?;
            out.write_all(b"\n").map_err(|e| e.to_string())?;
        }
        if let Some(writer) = &mut self.mcap {
            writer
                .write_message(topic, log_time_ns, message)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Flushes the JSON lines and ends the MCAP (its summary).
    pub(super) fn finish(self) -> Result<(), String> {
        if let Some(mut out) = self.jsonl {
            out.flush().map_err(|e| e.to_string())?;
        }
        if let Some(writer) = self.mcap {
            let mut file = writer.finish().map_err(|e| e.to_string())?;
            file.flush().map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}
