use super::*;
use crate::bag::cdr::{CdrErrorKind, RosMessage};
use crate::bag::Message;

fn header(sec: i32, frame: &str) -> Header {
    Header {
        stamp: Time { sec, nanosec: 5 },
        frame_id: frame.into(),
    }
}

#[test]
fn messages_round_trip_through_cdr() {
    let scan = LaserScan {
        header: header(3, "laser"),
        angle_min: -1.5,
        angle_max: 1.5,
        angle_increment: 0.01,
        range_min: 0.1,
        range_max: 30.0,
        ranges: vec![1.0, f32::INFINITY, f32::NEG_INFINITY, 2.5],
        ..LaserScan::default()
    };
    let data = scan.encode().unwrap();
    assert_eq!(LaserScan::decode(&data).unwrap(), scan);

    let odom = Odometry {
        header: header(-1, "odom"),
        child_frame_id: "base_link".into(),
        pose: PoseWithCovariance {
            covariance: std::array::from_fn(|k| k as f64),
            ..Default::default()
        },
        ..Default::default()
    };
    assert_eq!(Odometry::decode(&odom.encode().unwrap()).unwrap(), odom);

    let marker = MarkerArray {
        markers: vec![Marker {
            r#type: Marker::default().r#type + 4,
            points: vec![Point {
                x: 1.0,
                y: 2.0,
                z: 3.0,
            }],
            text: "wall".into(),
            mesh_file: MeshFile {
                filename: "m.stl".into(),
                data: vec![1, 2, 3],
            },
            ..Default::default()
        }],
    };
    let data = marker.encode().unwrap();
    assert_eq!(MarkerArray::decode(&data).unwrap(), marker);
    // The enum by type name gives the same.
    assert_eq!(
        Message::decode("visualization_msgs/msg/MarkerArray", &data).unwrap(),
        Some(Message::MarkerArray(marker.clone()))
    );
    assert_eq!(
        Message::decode("visualization_msgs/MarkerArray", &data).unwrap(),
        Some(Message::MarkerArray(marker))
    );
    assert_eq!(Message::decode("my_msgs/msg/Unknown", &data).unwrap(), None);
}

#[test]
fn a_message_cut_anywhere_is_an_error() {
    let cloud = PointCloud2 {
        header: header(1, "lidar"),
        height: 1,
        width: 2,
        fields: vec![PointField {
            name: "x".into(),
            offset: 0,
            datatype: 7,
            count: 1,
        }],
        point_step: 4,
        row_step: 8,
        data: vec![0, 0, 128, 63, 0, 0, 0, 64],
        ..Default::default()
    };
    let data = cloud.encode().unwrap();
    assert_eq!(PointCloud2::decode(&data).unwrap(), cloud);
    for cut in 0..data.len() {
        assert!(PointCloud2::decode(&data[..cut]).is_err(), "cut at {cut}");
    }
}

#[test]
fn the_node_limits_are_checked_before_allocation() {
    let array = ObstacleArray {
        obstacles: vec![Obstacle::default(); crate::limits::MAX_OBSTACLES_PER_MESSAGE + 1],
        ..Default::default()
    };
    let e = ObstacleArray::decode(&array.encode().unwrap()).unwrap_err();
    assert_eq!(e.field, Some("obstacles"));
    assert!(matches!(
        e.kind,
        CdrErrorKind::TooLong {
            len: 10_001,
            max: 10_000
        }
    ));
}

#[test]
fn json_names_fields_as_ros_does() {
    let marker = Marker {
        r#type: 4,
        color: ColorRGBA {
            r: f32::NAN,
            ..Default::default()
        },
        ..Default::default()
    };
    let json = serde_json::to_value(&marker).unwrap();
    assert_eq!(json["type"], 4);
    assert_eq!(json["color"]["r"], "NaN");
    assert_eq!(json["header"]["stamp"]["nanosec"], 0);
    let twist = Message::Twist(Twist {
        linear: Vector3 {
            x: 0.5,
            y: 0.0,
            z: 0.0,
        },
        ..Default::default()
    });
    // Serialized directly, the fields keep the message's order (a
    // `serde_json::Value` sorts them).
    assert_eq!(
        serde_json::to_string(&twist).unwrap(),
        r#"{"linear":{"x":0.5,"y":0.0,"z":0.0},"angular":{"x":0.0,"y":0.0,"z":0.0}}"#
    );
    assert_eq!(twist.to_json()["linear"]["x"], 0.5);
}

#[test]
fn schemas_list_each_type_once_after_the_message() {
    let schema = TwistStamped::schema();
    let sep = format!("{}\nMSG: ", "=".repeat(80));
    let parts: Vec<&str> = schema.split(&sep).collect();
    assert_eq!(parts[0], "std_msgs/Header header\nTwist twist\n");
    let names: Vec<&str> = parts[1..]
        .iter()
        .map(|p| p.lines().next().unwrap_or(""))
        .collect();
    assert_eq!(
        names,
        [
            "std_msgs/msg/Header",
            "builtin_interfaces/msg/Time",
            "geometry_msgs/msg/Twist",
            "geometry_msgs/msg/Vector3"
        ]
    );
    // Every known type has a schema, and its first definition names each
    // field of the struct.
    for name in crate::bag::KNOWN_TYPES {
        assert!(Message::schema_of(name).is_some(), "{name}");
    }
}
