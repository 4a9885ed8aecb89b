//! The ROS 2 messages the node reads and publishes, as plain structs with
//! the ROS field names (Jazzy's layouts), each with its CDR, its JSON and
//! its schema text from one field list (the `ros_message!` macro).
//!
//! | package | messages |
//! | --- | --- |
//! | `builtin_interfaces`, `std_msgs`, `rosgraph_msgs` | [`Time`], [`Duration`], [`Header`], [`Bool`], [`Float32`], [`ColorRGBA`], [`Clock`] |
//! | `geometry_msgs`, `tf2_msgs` | [`Vector3`], [`Point`], [`Point32`], [`Quaternion`], [`Pose`], [`PoseWithCovariance`], [`Twist`], [`TwistWithCovariance`], [`TwistStamped`], [`Transform`], [`TransformStamped`], [`Polygon`], [`PolygonStamped`], [`PolygonInstance`], [`PolygonInstanceStamped`], [`TFMessage`] |
//! | `sensor_msgs`, `nav_msgs` | [`LaserScan`], [`PointField`], [`PointCloud2`], [`Range`], [`CompressedImage`], [`Odometry`] |
//! | `sat_collision_msgs`, `nav2_msgs` | [`Obstacle`], [`ObstacleArray`], [`ObstacleResult`], [`CollisionReport`], [`CollisionMonitorState`], [`Costmap`], [`CostmapMetaData`] |
//! | `visualization_msgs`, `diagnostic_msgs`, `lifecycle_msgs`, `bond` | [`Marker`], [`MarkerArray`], [`UVCoordinate`], [`MeshFile`], [`KeyValue`], [`DiagnosticStatus`], [`DiagnosticArray`], [`State`], [`Transition`], [`TransitionEvent`], [`BondStatus`] |

/// Defines messages: the struct (public fields, ROS names), its [`Cdr`]
/// (fields read and written in order, a field's `[limit]` on its
/// sequence), its JSON (an object of the fields in order) and its
/// [`RosMessage`] (type name, definition).
///
/// [`Cdr`]: super::cdr::Cdr
/// [`RosMessage`]: super::cdr::RosMessage
macro_rules! ros_message {
    ($(
        $(#[$meta:meta])*
        $name:ident = $ros:literal {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty $([$limit:expr])? ),* $(,)?
        }
        $def:expr;
    )*) => {$(
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                Self { $( $field: <$ty as $crate::bag::cdr::Cdr>::zero(), )* }
            }
        }

        impl $crate::bag::cdr::Cdr for $name {
            const MIN_SIZE: usize = 0 $( + <$ty as $crate::bag::cdr::Cdr>::MIN_SIZE )*;

            fn zero() -> Self {
                Self::default()
            }

            #[allow(unused_variables)]
            fn read(r: &mut $crate::bag::cdr::CdrReader<'_>) -> Result<Self, $crate::bag::cdr::CdrError> {
                Ok(Self {
                    $( $field: $crate::bag::cdr::read_field::<$ty>(
                        r,
                        $crate::bag::cdr::ros_name(stringify!($field)),
                        None $( .or(Some($limit)) )?,
                    )?, )*
                })
            }

            #[allow(unused_variables)]
            fn write(&self, w: &mut $crate::bag::cdr::CdrWriter) {
                $( $crate::bag::cdr::Cdr::write(&self.$field, w); )*
            }

            fn json<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeStruct;
                let fields = [$( stringify!($field) ),*].len();
                #[allow(unused_mut)]
                let mut st = s.serialize_struct(stringify!($name), fields)?;
                $( st.serialize_field(
                    $crate::bag::cdr::ros_name(stringify!($field)),
                    &$crate::bag::cdr::Json(&self.$field),
                )?; )*
                st.end()
            }

            fn definitions(out: &mut Vec<(&'static str, &'static str)>) {
                if out.iter().any(|(n, _)| *n == $ros) {
                    return;
                }
                out.push(($ros, $def));
                $( <$ty as $crate::bag::cdr::Cdr>::definitions(out); )*
            }
        }

        impl $crate::bag::cdr::RosMessage for $name {
            const TYPE_NAME: &'static str = $ros;
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                $crate::bag::cdr::Cdr::json(self, s)
            }
        }
    )*};
}

mod common;
mod node;
mod sensor;

pub use common::*;
pub use node::*;
pub use sensor::*;

#[cfg(test)]
mod tests;
