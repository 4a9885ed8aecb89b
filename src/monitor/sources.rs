//! Sensor sources: laser scans, point clouds and range sensors as point
//! obstacles, and polygon sources, configured as nav2's collision monitor
//! configures them (`observation_sources`, `<name>.type`, ...).
//!
//! A point source is an input kind like the others ([`SourcePoints`], see
//! ARCHITECTURE.md, "Adding an input kind"): stamped on arrival, judged by
//! the one freshness rule with its own `source_timeout`, and its points are
//! obstacles of zero size in the engine ([`PointSet`]), placed by TF like
//! every obstacle group (one frame, one stamp). A polygon source's
//! polygons are obstacle instances with the source's timeout.


/// What a source reads: nav2's `<name>.type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// `scan`: `sensor_msgs/LaserScan`.
    Scan,
    /// `pointcloud`: `sensor_msgs/PointCloud2`.
    PointCloud,
    /// `range`: `sensor_msgs/Range`.
    Range,
    /// `polygon`: `geometry_msgs/PolygonInstanceStamped`, each polygon kept
    /// exactly and expiring on its own.
    Polygon,
}

impl SourceKind {
    /// Every kind, in the order of the parameter's documentation.
    pub const ALL: [SourceKind; 4] = [
        SourceKind::Scan,
        SourceKind::PointCloud,
        SourceKind::Range,
        SourceKind::Polygon,
    ];

    /// nav2's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::Scan => "scan",
            SourceKind::PointCloud => "pointcloud",
            SourceKind::Range => "range",
            SourceKind::Polygon => "polygon",
        }
    }

    /// Reads nav2's spelling; the error is the message a user sees.
    pub fn parse(text: &str) -> Result<Self, String> {
        SourceKind::ALL
            .into_iter()
            .find(|k| k.as_str() == text)
            .ok_or_else(|| "must be scan, pointcloud, range or polygon".to_owned())
    }

    /// Its data are points (scan, pointcloud, range), not polygons.
    pub fn is_points(self) -> bool {
        self != SourceKind::Polygon
    }
}

impl std::fmt::Display for SourceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One source as the monitor needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceSpec {
    /// Its name in `observation_sources`: the report's id for its entry.
    pub name: String,
    /// What it reads.
    pub kind: SourceKind,
    /// `<name>.source_timeout` (s): its data are stale after it, by arrival
    /// or by stamp; 0 = never.
    pub timeout: f64,
    /// `<name>.enabled`: a disabled source counts for nothing (no cause, no
    /// points, no report entry).
    pub enabled: bool,
}
