//! A costmap source (issue 34, item 1; nav2 main's `costmap.cpp`,
//! navigation2 #5642): a cell at or above `cost_threshold`, or unknown
//! with `treat_unknown_as_obstacle`, is an obstacle, and here it is the
//! square it covers, not its centre: a lethal cell whose centre is outside
//! a zone but whose square reaches into it (touching counts) stops the
//! robot, where nav2's centre point misses it. Each cell counts one toward
//! `min_points`. A malformed or stale costmap is an invalid source: zeros,
//! never a silent pass. The flag sees the cells as well.

use super::{config_of, goes, published, Rig, BASE, NODE, PERIOD, SOURCE_TIMEOUT};
use sat_collision::broadphase::PointSet;
use sat_collision::config::NodeConfig;
use sat_collision::frames::FrameTree;
use sat_collision::gate::{Command, Reason};
use sat_collision::node::TfBuffer;
use sat_collision::node::{Outputs, SourceReader};
use sat_collision::sensors::Costmap;
use std::sync::{Arc, MutexGuard};

/// The core's TF buffer locked for a reader's lookups: its tree.
struct Tree<'a>(MutexGuard<'a, TfBuffer>);

impl std::ops::Deref for Tree<'_> {
    type Target = FrameTree;

    fn deref(&self) -> &FrameTree {
        &self.0.tree
    }
}

const CMD: (f64, f64, f64) = (0.3, 0.0, 0.0);

/// 0.125 m cells (exact in `f32`, as the message holds it), 16 x 16, the
/// grid's corner at (0, -1) in `BASE`: it covers x in [0, 2], y in [-1, 1].
const RESOLUTION: f32 = 0.125;
const SIZE: u32 = 16;
const ORIGIN: [f64; 2] = [0.0, -1.0];

/// A stop zone in front of the robot (x in [0.375, 0.625], y in [-0.25,
/// 0.25]), a costmap source, the robot a 0.5 m square. `extra`: more lines of the
/// costmap source's parameters (`costmap.<name>`) and the zone's.
fn yaml(source: &str, min_points: u32) -> String {
    yaml_with(source, min_points, "")
}

/// [`yaml`] with `extra` lines of `ros__parameters` (4 spaces indented).
fn yaml_with(source: &str, min_points: u32, extra: &str) -> String {
    let front = "[[0.625, 0.25], [0.625, -0.25], [0.375, -0.25], [0.375, 0.25]]";
    let robot = "[[0.25, 0.25], [0.25, -0.25], [-0.25, -0.25], [-0.25, 0.25]]";
    format!(
        "{NODE}:
  ros__parameters:
    base_frame_id: {BASE}
    robot_footprint: \"{robot}\"
    publish_rate: 16.0
    base_shift_correction: false
    source_timeout: {SOURCE_TIMEOUT}
    observation_sources: [costmap]
    costmap: {{type: costmap, topic: local_costmap/costmap_raw{source}}}
    polygons: [stop]
    stop: {{type: polygon, points: \"{front}\", action_type: stop, min_points: {min_points}}}
{extra}"
    )
}

/// A core of [`yaml`] and its costmap reader, activated.
struct Scene {
    rig: Rig,
    reader: SourceReader,
}

impl Scene {
    fn new(source: &str, min_points: u32) -> Scene {
        Scene::with(source, min_points, "")
    }

    fn with(source: &str, min_points: u32, extra: &str) -> Scene {
        let config: NodeConfig = config_of(&yaml_with(source, min_points, extra));
        let reader = SourceReader::all(&config).remove(0);
        let mut rig = Rig::new(config, 0);
        let reader = reader.with_zones(rig.core.exclusion_zones());
        rig.set_active(true);
        Scene { rig, reader }
    }

    /// A costmap arrives now, stamped now: every cell `free` but the cells
    /// `(x, y, cost)`.
    fn costmap(&mut self, cells: &[(u32, u32, u8)]) -> Outputs {
        let mut data = vec![0u8; (SIZE * SIZE) as usize];
        for &(x, y, cost) in cells {
            data[(y * SIZE + x) as usize] = cost;
        }
        self.send(Costmap {
            resolution: RESOLUTION,
            size_x: SIZE,
            size_y: SIZE,
            origin: ORIGIN,
            orientation: [0.0, 0.0, 0.0, 1.0],
            data: &data,
        })
    }

    fn send(&mut self, map: Costmap<'_>) -> Outputs {
        let t = self.rig.t;
        let tf = Arc::clone(self.rig.core.tf());
        let tree = || Tree(tf.lock().expect("the TF buffer"));
        let input = self.reader.costmap(BASE, t, &map, tree, t, PointSet::new());
        let arrival = self.rig.arrival();
        self.rig.sources(vec![(input, arrival)])
    }

    /// A period passes with the same costmap sent again, then a command:
    /// whether it went out moving.
    fn period(&mut self, cells: &[(u32, u32, u8)]) -> bool {
        self.rig.advance(PERIOD);
        self.costmap(cells);
        self.rig.tick();
        goes(&self.rig.command(CMD.0, CMD.1, CMD.2))
    }
}

/// Cell (x, y) covers [x / 8, (x + 1) / 8] x [y / 8 - 1, (y + 1) / 8 - 1].
/// (5, 8) is [0.625, 0.75] x [0, 0.125]: its edge x = 0.625 is the zone's,
/// its centre (0.6875, 0.0625) outside the zone.
const TOUCHING: (u32, u32) = (5, 8);
/// (6, 8) is [0.75, 0.875] x [0, 0.125]: 0.125 m beyond the zone.
const BEYOND: (u32, u32) = (6, 8);
/// (3, 8) is [0.375, 0.5] x [0, 0.125]: inside the zone.
const INSIDE: (u32, u32) = (3, 8);

#[test]
fn a_lethal_cell_reaching_into_a_zone_stops_where_its_centre_would_not() {
    let mut scene = Scene::new("", 1);
    let beyond = [(BEYOND.0, BEYOND.1, 254)];
    assert!(scene.period(&beyond), "{:?}", scene.rig.log.last());
    // nav2 takes (0.6875, 0.0625), outside the zone, and lets this pass; the
    // cell's square touches the zone's edge: a stop.
    let touching = [(TOUCHING.0, TOUCHING.1, 254)];
    assert!(!scene.period(&touching));
    let out = scene.rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(published(&out), Some(Command::ZERO));
    assert!(scene.period(&beyond), "clear again");
}

#[test]
fn the_cost_threshold_and_unknown_cells_follow_the_parameters() {
    let inside = |cost| [(INSIDE.0, INSIDE.1, cost)];
    // nav2's defaults: 253 and above, and unknown (255), are obstacles.
    let mut scene = Scene::new("", 1);
    assert!(scene.period(&inside(252)));
    assert!(!scene.period(&inside(253)));
    assert!(!scene.period(&inside(255)));
    let mut scene = Scene::new(", cost_threshold: 100, treat_unknown_as_obstacle: false", 1);
    assert!(scene.period(&inside(99)));
    assert!(!scene.period(&inside(100)));
    assert!(scene.period(&inside(255)), "unknown is free here");
}

#[test]
fn each_cell_counts_one_toward_min_points() {
    let mut scene = Scene::new("", 2);
    assert!(scene.period(&[(INSIDE.0, INSIDE.1, 254)]));
    let two = [(INSIDE.0, INSIDE.1, 254), (TOUCHING.0, TOUCHING.1, 254)];
    assert!(!scene.period(&two));
}

#[test]
fn a_malformed_costmap_stops_the_gate_until_a_good_one() {
    let mut scene = Scene::new("", 1);
    assert!(scene.period(&[]));
    let data = vec![0u8; 10];
    let bad = [
        // The data's length is not size_x * size_y.
        Costmap {
            resolution: RESOLUTION,
            size_x: SIZE,
            size_y: SIZE,
            origin: ORIGIN,
            orientation: [0.0, 0.0, 0.0, 1.0],
            data: &data,
        },
        // A resolution of 0, then NaN, then a 100,000 x 100,000 header.
        Costmap {
            resolution: 0.0,
            size_x: 5,
            size_y: 2,
            origin: ORIGIN,
            orientation: [0.0, 0.0, 0.0, 1.0],
            data: &data,
        },
        Costmap {
            resolution: f32::NAN,
            size_x: 5,
            size_y: 2,
            origin: ORIGIN,
            orientation: [0.0, 0.0, 0.0, 1.0],
            data: &data,
        },
        Costmap {
            resolution: RESOLUTION,
            size_x: 100_000,
            size_y: 100_000,
            origin: ORIGIN,
            orientation: [0.0, 0.0, 0.0, 1.0],
            data: &data,
        },
    ];
    for map in bad {
        scene.rig.advance(PERIOD);
        let out = scene.send(map);
        let refused = out.notices.iter().any(|n| n.text.contains("refused"));
        assert!(refused, "{:?}", out.notices);
        let out = scene.rig.command(CMD.0, CMD.1, CMD.2);
        assert_eq!(published(&out), Some(Command::ZERO));
        let reason = scene.rig.core.gate().map(|g| g.state().reason);
        assert!(
            matches!(reason, Some(Reason::InvalidSource(_))),
            "{reason:?}"
        );
    }
    assert!(scene.period(&[]), "a good costmap: judged again");
}

#[test]
fn a_stale_costmap_stops_the_gate() {
    let mut scene = Scene::new("", 1);
    assert!(scene.period(&[]));
    // Silent past source_timeout.
    scene.rig.advance(SOURCE_TIMEOUT + PERIOD);
    scene.rig.tick();
    assert!(!goes(&scene.rig.command(CMD.0, CMD.1, CMD.2)));
    assert!(scene.period(&[]));
}

#[test]
fn the_flag_sees_a_cell_touching_the_footprint() {
    let mut scene = Scene::new("", 1);
    // The robot's square is x in [-0.25, 0.25]: cell (2, 8) is [0.25,
    // 0.375] x [0, 0.125], touching its front edge; (3, 8) is 0.125 m
    // ahead.
    scene.rig.advance(PERIOD);
    scene.costmap(&[(3, 8, 254)]);
    let flag = scene.rig.tick().flag.expect("the flag");
    assert!(flag.valid && !flag.colliding, "{flag:?}");
    scene.rig.advance(PERIOD);
    scene.costmap(&[(2, 8, 254)]);
    let flag = scene.rig.tick().flag.expect("the flag");
    assert!(flag.valid && flag.colliding, "{flag:?}");
}

/// nav2 main's `sources_test.cpp` (`publishCostmap`, `testGetData`): a
/// 10 x 10 costmap of 0.1 m cells at the origin with cells 44, 45, 54 and
/// 55 lethal, nav2's four centres (0.45 and 0.55 on each axis). Here the
/// four squares, which cover [0.4, 0.6]², each holding nav2's centre.
#[test]
fn nav2s_test_costmap_is_four_squares_holding_its_centres() {
    use sat_collision::geometry::contains_point;
    use sat_collision::geometry::Point;

    let config = config_of(&yaml("", 1));
    let mut reader = SourceReader::all(&config).remove(0);
    let mut data = vec![0u8; 100];
    for i in [44, 45, 54, 55] {
        data[i] = 254;
    }
    let map = Costmap {
        resolution: 0.1,
        size_x: 10,
        size_y: 10,
        origin: [0.0, 0.0],
        orientation: [0.0, 0.0, 0.0, 1.0],
        data: &data,
    };
    let tree = FrameTree::new();
    let input = reader.costmap(BASE, 1.0, &map, || &tree, 1.0, PointSet::new());
    let cells = input.cells.expect("cells");
    let ids: Vec<&str> = cells.obstacles().iter().map(|o| o.id.as_str()).collect();
    assert_eq!(ids, ["44", "45", "54", "55"]);
    let centres = [(0.45, 0.45), (0.55, 0.45), (0.45, 0.55), (0.55, 0.55)];
    for (cell, (x, y)) in cells.obstacles().iter().zip(centres) {
        let shape = cell.shape.as_ref().expect("a square");
        assert!(contains_point(shape, Point::new(x, y)), "{}", cell.id);
        let aabb = shape.aabb();
        // 0.1 is a float32 in the message: the squares' edges are its
        // multiples, within its rounding.
        let near = |a: f64, b: f64| (a - b).abs() < 1e-6;
        assert!(near(aabb.min.x, x - 0.05) && near(aabb.max.x, x + 0.05));
        assert!(near(aabb.min.y, y - 0.05) && near(aabb.max.y, y + 0.05));
    }
}

/// nav2 main's `testCostmapTransformFailure`: a costmap in a frame with no
/// transform to the base frame gives no data, and nav2's monitor stops
/// for a source that gives none. Here too: zeros, the gate's reason the
/// source, the flag not valid; a costmap in the base frame again clears.
#[test]
fn a_costmap_in_a_frame_without_a_transform_stops_the_gate() {
    let mut scene = Scene::new("", 1);
    assert!(scene.period(&[]));
    scene.rig.advance(PERIOD);
    let data = vec![0u8; (SIZE * SIZE) as usize];
    let t = scene.rig.t;
    let map = Costmap {
        resolution: RESOLUTION,
        size_x: SIZE,
        size_y: SIZE,
        origin: ORIGIN,
        orientation: [0.0, 0.0, 0.0, 1.0],
        data: &data,
    };
    let tree = FrameTree::new();
    let input = scene
        .reader
        .costmap("nowhere", t, &map, || &tree, t, PointSet::new());
    let arrival = scene.rig.arrival();
    scene.rig.sources(vec![(input, arrival)]);
    let flag = scene.rig.tick().flag.expect("the flag");
    assert!(!flag.valid && flag.colliding, "{flag:?}");
    let out = scene.rig.command(CMD.0, CMD.1, CMD.2);
    assert_eq!(published(&out), Some(Command::ZERO));
    let reason = scene.rig.core.gate().map(|g| g.state().reason);
    assert!(
        matches!(reason, Some(Reason::InvalidSource(_))),
        "{reason:?}"
    );
    assert!(scene.period(&[]), "in the base frame again: judged");
}

/// Exclusion zones on a costmap source (nav2 main masks the cells whose
/// centre is in a zone): a cell is masked when its whole square is in the
/// zone, boundary included; one reaching out of it stays an obstacle even
/// when its centre is inside (the safe side); a zone that cannot be placed
/// masks nothing.
#[test]
fn an_exclusion_zone_masks_the_cells_wholly_inside_it() {
    let zone = |points: &str, frame: &str| {
        format!(
            "    dock: {{type: polygon, points: \"{points}\", frame_id: {frame}, enabled: true}}\n"
        )
    };
    let masked = ", exclusion_zones: [dock]";
    // Cell (4, 8) is [0.5, 0.625] x [0, 0.125], inside the stop zone.
    let cell = [(4, 8, 254)];
    let exact = "[[0.5, 0.0], [0.625, 0.0], [0.625, 0.125], [0.5, 0.125]]";
    let mut scene = Scene::with(masked, 1, &zone(exact, BASE));
    assert!(scene.period(&cell), "the square is the zone: masked");
    assert!(!scene.period(&[(3, 8, 254)]), "another cell: a stop");
    // The zone holds the cell's centre (0.5625, 0.0625) but not its whole
    // square: nav2 masks it, here it stays an obstacle.
    let centre = "[[0.55, 0.0], [0.7, 0.0], [0.7, 0.125], [0.55, 0.125]]";
    let mut scene = Scene::with(masked, 1, &zone(centre, BASE));
    assert!(!scene.period(&cell));
    // A zone in a frame TF does not know masks nothing.
    let mut scene = Scene::with(masked, 1, &zone(exact, "dock_frame"));
    assert!(!scene.period(&cell));
    // Without exclusion_zones the same zone is not the source's.
    let mut scene = Scene::with("", 1, &zone(exact, BASE));
    assert!(!scene.period(&cell));
}
