//! The sensor sources' parameters, `<name>.<suffix>` for each name in
//! `observation_sources`: [`SOURCE_PARAMS`], and [`SourceConfig`]'s
//! defaults from it.

use super::settings::{NodeConfig, SourceConfig};
use super::spec::{check_names, check_topic, Kind, ParamSpec};
use crate::limits::MAX_EXCLUSION_ZONES;
use crate::monitor::{SourceKind, SourceSpec};
use crate::sensors::{CostRule, DEFAULT_COST_THRESHOLD};
use std::borrow::Cow;

impl SourceConfig {
    /// A source called `name` of type `kind` with every parameter at its
    /// default in [`SOURCE_PARAMS`] (`source_timeout` the node's).
    pub fn new(name: &str, kind: SourceKind, node: &NodeConfig) -> Self {
        // Each of these but the name and kind is overwritten by the table's
        // default just below.
        let mut source = SourceConfig {
            name: name.to_owned(),
            kind,
            topic: String::new(),
            enabled: true,
            timeout: 0.0,
            exclusion_zones: Vec::new(),
            min_height: 0.0,
            max_height: 0.0,
            min_range: 0.0,
            use_global_height: false,
            obstacles_angle: 0.0,
            cost_threshold: 0,
            treat_unknown_as_obstacle: false,
        };
        for param in SOURCE_PARAMS {
            // `type` has no default: its reset leaves `kind` as given.
            param.spec.reset(&mut source);
            if let Some(value) = param
                .default_from
                .and_then(|node_param| node.get(node_param))
            {
                // The node parameter has this one's type and range (a unit
                // test holds them to it): this cannot be refused.
                let set = param.spec.set(&mut source, &value);
                debug_assert!(set.is_ok(), "{set:?}");
            }
        }
        source
    }

    /// Which of a costmap's cells are obstacles.
    pub fn cost_rule(&self) -> CostRule {
        CostRule {
            threshold: self.cost_threshold,
            unknown_is_obstacle: self.treat_unknown_as_obstacle,
        }
    }

    /// What the monitor needs of it.
    pub fn spec(&self) -> SourceSpec {
        SourceSpec {
            name: self.name.clone(),
            kind: self.kind,
            timeout: self.timeout,
            enabled: self.enabled,
        }
    }
}

/// The source types every source has.
const ALL_TYPES: &[SourceKind] = &SourceKind::ALL;

/// One parameter of every sensor source of some types: `<name>.<suffix>`
/// for each `name` in `observation_sources`. See [`SOURCE_PARAMS`].
#[derive(Clone, Copy, Debug)]
pub struct SourceParam {
    /// The parameter, with the same rules as the node's; its `name` is the
    /// suffix after `<source>.`.
    pub spec: ParamSpec<SourceConfig>,
    /// The source types it applies to. On a source of another type it is
    /// accepted and ignored, with a note (nav2 ignores it too).
    pub kinds: &'static [SourceKind],
    /// The node parameter whose value is its default, if any (the node's
    /// `source_timeout` for `<name>.source_timeout`); else the table's.
    pub default_from: Option<&'static str>,
}

impl SourceParam {
    /// It applies to a source of type `kind`.
    pub fn applies_to(&self, kind: SourceKind) -> bool {
        self.kinds.contains(&kind)
    }
}

/// The parameters of a sensor source, `<name>.<suffix>`, with nav2 Jazzy
/// collision monitor's names, types and defaults (`source.cpp`,
/// `pointcloud.cpp`, `range.cpp`; `transport_type` nav2 main's, refused
/// but for `raw`), in the order they are documented.
///
/// Built with the node's [`ParamSpec`] and [`Kind`], so the checks, the
/// messages, the defaults and the run-time rule are [`PARAMS`](super::PARAMS)'s. `type`
/// has no default: a source without one stops start-up (nav2 takes
/// `scan`). Only `enabled` changes at run time. Other names nav2 reads for
/// a source ([`NAV2_ONLY_SOURCE_PARAMS`]) and a suffix of another source
/// type are accepted and ignored with a note
/// ([`NodeConfig::check_name`]); anything else is an unknown parameter.
pub static SOURCE_PARAMS: &[SourceParam] = &[
    SourceParam {
        spec: ParamSpec {
            name: "type",
            kind: Kind::Text {
                default: "",
                check: |text| SourceKind::parse(text).map(drop),
                get: |s| Cow::Borrowed(s.kind.as_str()),
                // Checked first: `parse` fails only on the empty default,
                // which keeps the type the source was made with.
                set: |s, text| {
                    if let Ok(kind) = SourceKind::parse(&text) {
                        s.kind = kind;
                    }
                },
            },
            runtime: false,
            description: "required: scan (sensor_msgs/LaserScan), pointcloud (sensor_msgs/PointCloud2), range (sensor_msgs/Range), polygon (geometry_msgs/PolygonInstanceStamped) costmap (nav2_msgs/Costmap) or fleet (the other robots on fleet_topic, sat_collision_msgs/FleetRobot; its topic is not used) (start-up only)",
        },
        kinds: ALL_TYPES,
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "topic",
            kind: Kind::Text {
                default: "scan",
                check: check_source_topic,
                get: |s| Cow::Borrowed(&s.topic),
                set: |s, text| s.topic = text,
            },
            runtime: false,
            description: "topic the source reads (start-up only)",
        },
        kinds: ALL_TYPES,
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "enabled",
            kind: Kind::Bool {
                default: true,
                get: |s| s.enabled,
                set: |s, b| s.enabled = b,
            },
            runtime: true,
            description: "false: the source counts for nothing (no points, no stale or missing data, no report entry)",
        },
        kinds: ALL_TYPES,
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "source_timeout",
            kind: Kind::Number {
                default: 2.0,
                min: 0.0,
                max: 3600.0,
                get: |s| s.timeout,
                set: |s, x| s.timeout = x,
            },
            runtime: false,
            description: "s after the source's data arrived, or after their non-zero stamp, before they are stale; default: the node's source_timeout (0 = never; start-up only) [0, 3600]",
        },
        kinds: ALL_TYPES,
        default_from: Some("source_timeout"),
    },
    SourceParam {
        spec: ParamSpec {
            name: "exclusion_zones",
            kind: Kind::TextList {
                default: &[],
                check: |names| check_names(names, "exclusion zone", MAX_EXCLUSION_ZONES),
                get: |s| Cow::Borrowed(&s.exclusion_zones),
                set: |s, names| s.exclusion_zones = names,
            },
            runtime: false,
            description: "the exclusion zones (nav2 main) whose points of this source are masked (a costmap's cells wholly inside one), each with <zone>.type, points or radius, frame_id, ...; at most 16 per source with those added by ~/<name>/add_exclusion_zone (start-up only)",
        },
        kinds: &[
            SourceKind::Scan,
            SourceKind::PointCloud,
            SourceKind::Range,
            SourceKind::Costmap,
        ],
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "min_height",
            kind: Kind::Number {
                default: 0.05,
                min: -100.0,
                max: 100.0,
                get: |s| s.min_height,
                set: |s, x| s.min_height = x,
            },
            runtime: false,
            description: "m, points lower than this (z in the robot's frame, or the cloud's height field with use_global_height) are dropped (start-up only) [-100, 100]",
        },
        kinds: &[SourceKind::PointCloud],
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "max_height",
            kind: Kind::Number {
                default: 0.5,
                min: -100.0,
                max: 100.0,
                get: |s| s.max_height,
                set: |s, x| s.max_height = x,
            },
            runtime: false,
            description: "m, points higher than this are dropped; at least min_height (start-up only) [-100, 100]",
        },
        kinds: &[SourceKind::PointCloud],
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "min_range",
            kind: Kind::Number {
                default: 0.0,
                min: 0.0,
                max: 1000.0,
                get: |s| s.min_range,
                set: |s, x| s.min_range = x,
            },
            runtime: false,
            description: "m, points nearer than this to the sensor's origin are dropped (start-up only) [0, 1000]",
        },
        kinds: &[SourceKind::PointCloud],
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "use_global_height",
            kind: Kind::Bool {
                default: false,
                get: |s| s.use_global_height,
                set: |s, b| s.use_global_height = b,
            },
            runtime: false,
            description: "heights from the cloud's height field (a ground-segmented cloud) instead of z in the robot's frame (start-up only)",
        },
        kinds: &[SourceKind::PointCloud],
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "transport_type",
            kind: Kind::Text {
                default: RAW_TRANSPORT,
                check: check_transport_type,
                // Only `raw` is accepted: there is nothing else to hold.
                get: |_| Cow::Borrowed(RAW_TRANSPORT),
                set: |_, _| {},
            },
            runtime: false,
            description: "the point_cloud_transport the cloud is read with: only raw (sensor_msgs/PointCloud2 as published); zlib, draco, zstd or any other is refused at start-up: this node has no point_cloud_transport (start-up only)",
        },
        kinds: &[SourceKind::PointCloud],
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "obstacles_angle",
            kind: Kind::Number {
                default: std::f64::consts::PI / 180.0,
                min: 0.001,
                max: std::f64::consts::PI,
                get: |s| s.obstacles_angle,
                set: |s, x| s.obstacles_angle = x,
            },
            runtime: false,
            description: "rad between the points put along the arc of a range reading (start-up only) [0.001, 3.141592653589793]",
        },
        kinds: &[SourceKind::Range],
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "cost_threshold",
            kind: Kind::Integer {
                default: DEFAULT_COST_THRESHOLD as i64,
                min: 0,
                max: 255,
                get: |s| i64::from(s.cost_threshold),
                // Only values in [0, 255] reach here.
                set: |s, x| s.cost_threshold = u8::try_from(x).unwrap_or(u8::MAX),
            },
            runtime: false,
            description: "a known cell cost at or above this is an obstacle cell, its whole square (253: inscribed and lethal; start-up only) [0, 255]",
        },
        kinds: &[SourceKind::Costmap],
        default_from: None,
    },
    SourceParam {
        spec: ParamSpec {
            name: "treat_unknown_as_obstacle",
            kind: Kind::Bool {
                default: true,
                get: |s| s.treat_unknown_as_obstacle,
                set: |s, b| s.treat_unknown_as_obstacle = b,
            },
            runtime: false,
            description: "an unknown cell (cost 255, NO_INFORMATION) is an obstacle cell (start-up only)",
        },
        kinds: &[SourceKind::Costmap],
        default_from: None,
    },
];

/// Names nav2's collision monitor reads for a source (Jazzy and later:
/// `polygon.sampling_distance`) that this node does not use: accepted with
/// a note saying they are ignored, so that a nav2 configuration starts
/// unchanged.
pub const NAV2_ONLY_SOURCE_PARAMS: [&str; 1] = ["sampling_distance"];

/// `<pointcloud>.transport_type`'s one accepted value, nav2's default.
const RAW_TRANSPORT: &str = "raw";

/// A pointcloud source's `transport_type` (navigation2 #5264: the cloud
/// read through `point_cloud_transport`, `pointcloud.cpp`): `raw` only.
/// nav2 subscribes through a `point_cloud_transport::PointCloudTransport`
/// with that transport (on Lyrical and later); this node reads the
/// `sensor_msgs/PointCloud2` itself and decodes no compressed transport, so
/// `zlib`, `draco`, `zstd` or any other name is refused, never read as raw.
fn check_transport_type(text: &str) -> Result<(), String> {
    if text == RAW_TRANSPORT {
        return Ok(());
    }
    Err(format!(
        "\"{text}\" is not supported: this node has no point_cloud_transport, it reads \
         sensor_msgs/PointCloud2 raw only and cannot decode a compressed cloud (zlib, draco, \
         zstd); publish the cloud raw (or republish it raw: point_cloud_transport's \
         republisher) and set transport_type: raw"
    ))
}

/// The source parameter with suffix `suffix`, if there is one.
pub fn source_param(suffix: &str) -> Option<&'static SourceParam> {
    SOURCE_PARAMS.iter().find(|param| param.spec.name == suffix)
}

/// A source's topic: as [`check_topic`], and not empty.
fn check_source_topic(text: &str) -> Result<(), String> {
    if text.is_empty() {
        return Err("a source needs a topic".to_owned());
    }
    check_topic(text)
}
