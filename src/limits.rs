//! Limits on what one input message may ask of the node.
//!
//! Each bounds the memory and time one sender can cost the node; a message
//! over a limit is refused as a whole before its contents are copied, and
//! the report names the limit in its status (see `docs/failsafe.md`,
//! "Limits and failure behaviour").

/// Most obstacles in one `obstacles` message (`too_many_obstacles`).
pub const MAX_OBSTACLES_PER_MESSAGE: usize = 10_000;

/// Most vertices, over all obstacles, in one `obstacles` message
/// (`too_many_vertices`). A single polygon has its own limits
/// ([`crate::geometry::MAX_VERTICES`] and the concave one).
pub const MAX_VERTICES_PER_MESSAGE: usize = 262_144;

/// Most obstacle instances alive at once; an instance with a new id beyond
/// it is refused (`too_many_obstacles`).
pub const MAX_INSTANCES: usize = 1_000;

/// Most vertices held by all live obstacle instances together (as much as
/// one `obstacles` message may carry); an instance that would take them
/// beyond it is refused (`too_many_vertices`). The obstacle worker's queue
/// of instances not yet taken in is bounded by it and by
/// [`MAX_INSTANCES`] in the same way.
pub const MAX_INSTANCE_VERTICES: usize = MAX_VERTICES_PER_MESSAGE;

/// Most TF frames known at once; a transform naming a new frame beyond it
/// evicts a frame no lookup used lately, or is refused when there is none
/// (`frames::InsertError::TooManyFrames`; see `frames::tree`, rule 3).
/// Real trees have tens of frames; the bound keeps a sender that invents
/// names from growing the tree without end.
pub const MAX_TF_FRAMES: usize = 1_024;

/// Most samples kept per dynamic TF frame; the oldest go first. With
/// `frames::TF_HISTORY` (10 s) this is 100 Hz with room to spare, and it
/// bounds the memory of a sender that publishes far faster (or with
/// ever-new stamps) to `MAX_TF_FRAMES * MAX_TF_SAMPLES` samples (80 bytes
/// each, a 3-D pose and its planar heading: 80 MiB).
pub const MAX_TF_SAMPLES: usize = 1_024;

/// Most points in one sensor message: a point cloud's `width * height`, a
/// laser scan's `ranges` (`too_many_points`). Checked before anything is
/// copied. A 128-beam lidar at 2,048 columns is 262,144 points; the bound
/// leaves room for dense depth cameras (1280 x 720 = 921,600) and keeps one
/// message at a few tens of megabytes.
pub const MAX_SENSOR_POINTS: usize = 1 << 21;

/// Most points of the arc a range reading becomes (`sensors::range_points`):
/// nav2's default spacing of one degree makes 181 over the widest field of
/// view (π, `sensors::MAX_FIELD_OF_VIEW`), so the bound allows a spacing
/// twenty times finer there (nav2's own limit, 10,000, is never reached
/// with `obstacles_angle` at its least, 0.001 rad: 3,143).
pub const MAX_RANGE_ARC_POINTS: usize = 4_096;

/// Most cells of one costmap (`size_x * size_y`, `too_many_cells`),
/// checked before a cost is read: 4,000 x 4,000, a 200 m square at 5 cm,
/// 16 MB of costs. nav2's local costmaps are a few metres across.
pub const MAX_COSTMAP_CELLS: usize = 16_000_000;

/// Most obstacle cells of one costmap (`too_many_obstacle_cells`): each is
/// kept as its square (a few hundred bytes), so this bounds a costmap
/// source's memory to tens of megabytes. A 200 x 200 local costmap has
/// 40,000 cells in all.
pub const MAX_COSTMAP_OBSTACLE_CELLS: usize = 100_000;

/// Most exclusion zones of one source: those of `<source>.exclusion_zones`
/// and those added by `~/<source>/add_exclusion_zone` together (an add
/// beyond it is refused). Each is placed by TF once per message and every
/// point of the message inside its box is tested against it; nav2
/// configurations have one or two (a dock, the robot's own body).
pub const MAX_EXCLUSION_ZONES: usize = 16;

/// Most vertices of one exclusion zone's polygon (a parameter's `points`
/// or a service's `points`; more is refused before anything is built). A
/// point inside the zone's box costs up to a test against each edge, for
/// every point of every message: the bound keeps that work at most 256
/// edge tests per point. A dock or a robot part has a handful of
/// vertices; a round zone is a `circle`.
pub const MAX_EXCLUSION_ZONE_VERTICES: usize = 256;

/// Peers one node keeps on the fleet topic (`fleet`): a message from a
/// robot id beyond it is refused (and the fleet source reads not valid
/// while refusals are recent), so a flood of ids cannot grow memory.
pub const MAX_PEERS: usize = 1_024;

/// Vertices of a peer's footprint in a fleet message; more is refused
/// before any is read.
pub const MAX_PEER_VERTICES: usize = 64;

/// Poses of a peer's plan read from a fleet message (the nearest ones;
/// the rest is not read).
pub const MAX_PLAN_POSES: usize = 256;

/// Bytes of a robot id (`robot_id`, a fleet message's id).
pub const MAX_ROBOT_ID_BYTES: usize = 64;
