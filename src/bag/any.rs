//! Any message this module knows, picked by its type name.

use super::cdr::{CdrError, RosMessage};
use super::msgs::*;
use std::borrow::Cow;

macro_rules! known_messages {
    ($($v:ident),* $(,)?) => {
        /// A decoded message of any type this module knows
        /// ([`KNOWN_TYPES`]). Its JSON (`serde::Serialize`) is the
        /// message's own: its fields, named as ROS names them.
        // A message is built once and moved a few times: its size (an
        // Odometry's two covariances, 736 bytes) costs less than a box each.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug, PartialEq)]
        pub enum Message {
            $(
                #[doc = concat!("`", stringify!($v), "`.")]
                $v($v),
            )*
        }

        /// The type names [`Message::decode`] knows, as rosbag2 writes
        /// them (`sensor_msgs/msg/LaserScan`).
        pub const KNOWN_TYPES: &[&str] = &[$( <$v as RosMessage>::TYPE_NAME ),*];

        impl Message {
            /// Decodes `data` (CDR) as the type `type_name` names
            /// (`sensor_msgs/msg/LaserScan`, or `sensor_msgs/LaserScan`):
            /// `Ok(None)` for a type this module does not know.
            pub fn decode(type_name: &str, data: &[u8]) -> Result<Option<Self>, CdrError> {
                let name = full_type_name(type_name);
                $(
                    if name == <$v as RosMessage>::TYPE_NAME {
                        return <$v as RosMessage>::decode(data).map(|m| Some(Self::$v(m)));
                    }
                )*
                Ok(None)
            }

            /// The message's type name (`sensor_msgs/msg/LaserScan`).
            pub fn type_name(&self) -> &'static str {
                match self {
                    $( Self::$v(_) => <$v as RosMessage>::TYPE_NAME, )*
                }
            }

            /// Its CDR, as rclpy writes it (see [`RosMessage::encode`]).
            pub fn encode(&self) -> Option<Vec<u8>> {
                match self {
                    $( Self::$v(m) => m.encode(), )*
                }
            }

            /// The `ros2msg` schema text of a known type (see
            /// [`RosMessage::schema`]).
            pub fn schema_of(type_name: &str) -> Option<String> {
                let name = full_type_name(type_name);
                $(
                    if name == <$v as RosMessage>::TYPE_NAME {
                        return Some(<$v as RosMessage>::schema());
                    }
                )*
                None
            }
        }

        impl serde::Serialize for Message {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                match self {
                    $( Self::$v(m) => m.serialize(s), )*
                }
            }
        }

        $(
            impl From<$v> for Message {
                fn from(m: $v) -> Self {
                    Self::$v(m)
                }
            }
        )*
    };
}

known_messages!(
    // What the node reads.
    LaserScan,
    PointCloud2,
    Range,
    Costmap,
    PolygonStamped,
    PolygonInstanceStamped,
    Twist,
    TwistStamped,
    Odometry,
    TFMessage,
    Clock,
    Float32,
    ObstacleArray,
    FleetRobot,
    // What it publishes.
    Bool,
    CollisionReport,
    CollisionMonitorState,
    MarkerArray,
    DiagnosticArray,
    TransitionEvent,
    BondStatus,
    // What those are made of.
    Time,
    Duration,
    Header,
    ColorRGBA,
    Vector3,
    Point,
    Point32,
    Quaternion,
    Pose,
    PoseStamped,
    Path,
    PoseWithCovariance,
    TwistWithCovariance,
    Transform,
    TransformStamped,
    Polygon,
    PolygonInstance,
    PointField,
    CostmapMetaData,
    CompressedImage,
    Obstacle,
    ObstacleResult,
    Marker,
    UVCoordinate,
    MeshFile,
    KeyValue,
    DiagnosticStatus,
    State,
    Transition,
);

impl Message {
    /// The message as JSON (see [`super`], "JSON"). A `Value`'s objects
    /// sort their keys: serialize the message itself (`serde_json::to_writer`)
    /// to keep its fields in order.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// One line of `sat_collision bag-dump` (and of a replay's output):
/// `{"log_time_ns": N, "topic": "/scan", "type": "sensor_msgs/msg/LaserScan",
/// "message": {...}}`, `message` null for a type not known.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct JsonLine<'a> {
    /// When it was recorded, ns.
    pub log_time_ns: u64,
    /// The topic.
    pub topic: &'a str,
    /// The type name.
    #[serde(rename = "type")]
    pub type_name: &'a str,
    /// The message, when decoded.
    pub message: Option<&'a Message>,
}

/// `package/msg/Type` from `package/Type` (ROS 1's and some converters'
/// spelling); any other name as it is.
pub fn full_type_name(name: &str) -> Cow<'_, str> {
    match name.split_once('/') {
        Some((package, type_)) if !type_.contains('/') => {
            Cow::Owned(format!("{package}/msg/{type_}"))
        }
        _ => Cow::Borrowed(name),
    }
}
