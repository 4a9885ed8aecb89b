//! `collision_markers` (visualization_msgs/MarkerArray) as a real
//! subscriber sees them: namespaces and marker types, the penetration arrow
//! against the report's MTV, stable ids, deletion of vanished obstacles, and
//! no marker work while nobody subscribes.
#![cfg(feature = "ros")]

use crate::node_common::*;
use r2r::visualization_msgs::msg::{Marker, MarkerArray};
use std::collections::BTreeSet;

const NAMESPACES: [&str; 6] = [
    "footprint",
    "obstacles",
    "separating_axes",
    "projections",
    "penetration",
    "labels",
];

/// Namespaces that an obstacle colliding with depth has markers in.
const PAIR_NAMESPACES: [&str; 5] = [
    "obstacles",
    "separating_axes",
    "projections",
    "penetration",
    "labels",
];

fn robot() -> Vec<(f64, f64)> {
    square(0.0, 0.0, 0.5)
}

fn has_all_namespaces(a: &MarkerArray) -> bool {
    NAMESPACES
        .iter()
        .all(|ns| a.markers.iter().any(|m| m.ns == *ns && m.action == ADD))
}

fn closed_ring(m: &Marker) -> bool {
    m.points.len() >= 4 && {
        let (f, l) = (&m.points[0], &m.points[m.points.len() - 1]);
        f.x == l.x && f.y == l.y
    }
}

/// `p` inside or on the counter-clockwise convex polygon `ring`.
fn inside_convex(ring: &[(f64, f64)], p: (f64, f64)) -> bool {
    (0..ring.len()).all(|i| {
        let a = ring[i];
        let b = ring[(i + 1) % ring.len()];
        (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0) >= -1e-9
    })
}

/// What the node sees of our polygon: float32 coordinates.
fn as_f32(ring: &[(f64, f64)]) -> Vec<(f64, f64)> {
    ring.iter()
        .map(|&(x, y)| (f64::from(x as f32), f64::from(y as f32)))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_namespace_with_its_marker_type() {
    let h = Harness::start("m_types", &[]).await;
    let mut markers = h.subscribe_markers();
    h.set_footprint(Some(footprint("map", &robot())));
    h.set_obstacles(Some(obstacles(
        "map",
        vec![
            obstacle("hit", &rect(0.25, -0.25, 1.25, 0.25)),
            obstacle("far", &rect(2.0, -0.5, 3.0, 0.5)),
            circle("post", 0.0, 2.0, 0.5),
        ],
    )));
    let a = h
        .markers_where(&mut markers, "with all six namespaces", SETTLE, |a| {
            has_all_namespaces(a) && label_ids(a).len() == 3
        })
        .await;
    for m in a.markers.iter().filter(|m| m.action == ADD) {
        assert!(
            NAMESPACES.contains(&m.ns.as_str()),
            "unknown namespace: {m:#?}"
        );
        assert_eq!(m.header.frame_id, "map", "{m:#?}");
    }

    let footprint = markers_in(&a, "footprint");
    assert_eq!(footprint.len(), 1);
    assert_eq!(footprint[0].type_, LINE_STRIP);
    assert!(
        closed_ring(footprint[0]),
        "closed outline: {:?}",
        footprint[0].points
    );
    assert_eq!(footprint[0].points.len(), 5, "4 corners + closing point");

    let ids = label_ids(&a);
    let ids: Vec<i32> = ["hit", "far", "post"].iter().map(|id| ids[*id]).collect();
    assert_eq!(
        ids.iter().collect::<BTreeSet<_>>().len(),
        3,
        "one marker id per obstacle: {ids:?}"
    );
    for &id in &ids {
        let outline = added(&a, "obstacles", id).expect("obstacle outline");
        assert_eq!(outline.type_, LINE_STRIP);
        assert!(closed_ring(outline));
        let axis = added(&a, "separating_axes", id).expect("axis");
        assert_eq!(axis.type_, LINE_STRIP);
        assert_eq!(axis.points.len(), 2);
        let bars = added(&a, "projections", id).expect("projections");
        assert_eq!(bars.type_, LINE_LIST);
        assert_eq!(bars.points.len(), 4, "two intervals, a segment each");
        let label = added(&a, "labels", id).expect("label");
        assert_eq!(label.type_, TEXT_VIEW_FACING);
        assert!(!label.text.is_empty());
    }
    // Circles are drawn as polygons of many segments.
    assert!(added(&a, "obstacles", ids[2]).unwrap().points.len() > 16);
    // Only the colliding pair has a penetration arrow.
    let arrows = markers_in(&a, "penetration");
    assert_eq!(arrows.len(), 1, "{arrows:#?}");
    assert_eq!(arrows[0].type_, ARROW);
    assert_eq!(arrows[0].id, ids[0]);
    assert_eq!(arrows[0].points.len(), 2);
    assert!(added(&a, "labels", ids[0]).unwrap().text.contains("depth"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn penetration_arrow_is_the_reports_mtv_starting_inside_the_overlap() {
    let mut h = Harness::start("m_arrow", &[]).await;
    let mut markers = h.subscribe_markers();
    // A rotated footprint and an obstacle across its corner: the MTV is
    // along no coordinate axis.
    let (c, s) = (0.3f64.cos(), 0.3f64.sin());
    let robot: Vec<(f64, f64)> = robot()
        .iter()
        .map(|&(x, y)| (c * x - s * y, s * x + c * y))
        .collect();
    let wedge = [(0.25, -0.5), (1.5, -0.25), (1.0, 0.75)];
    h.set_footprint(Some(footprint("map", &robot)));
    h.set_obstacles(Some(obstacles("map", vec![obstacle("wedge", &wedge)])));
    let report = h
        .report_where("colliding", SETTLE, |r| {
            r.valid && r.colliding && r.results.len() == 1
        })
        .await;
    let wedge_result = result(&report, "wedge");
    let depth = wedge_result.penetration_depth;
    let mtv = (wedge_result.mtv.x, wedge_result.mtv.y);
    assert!(depth > 0.01, "{report:#?}");
    assert!(
        mtv.0.abs() > 0.01 && mtv.1.abs() > 0.01,
        "a diagonal MTV: {mtv:?}"
    );

    let a = h
        .markers_where(&mut markers, "with a penetration arrow", SETTLE, |a| {
            !markers_in(a, "penetration").is_empty()
        })
        .await;
    let arrow = markers_in(&a, "penetration")[0];
    assert_eq!(arrow.type_, ARROW);
    assert_eq!(arrow.action, ADD);
    assert_eq!(
        arrow.id,
        label_ids(&a)["wedge"],
        "the arrow has the obstacle's id"
    );
    assert_eq!(arrow.points.len(), 2);
    let (start, end) = (&arrow.points[0], &arrow.points[1]);
    assert_close(end.x - start.x, mtv.0, "arrow x == mtv x");
    assert_close(end.y - start.y, mtv.1, "arrow y == mtv y");
    assert_close(
        (end.x - start.x).hypot(end.y - start.y),
        depth,
        "arrow length == depth",
    );
    let p = (start.x, start.y);
    assert!(
        inside_convex(&as_f32(&robot), p),
        "arrow starts inside the footprint: {p:?}"
    );
    assert!(
        inside_convex(&as_f32(&wedge), p),
        "arrow starts inside the obstacle: {p:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn marker_ids_are_stable_per_obstacle_id() {
    let h = Harness::start("m_ids", &[]).await;
    let mut markers = h.subscribe_markers();
    h.set_footprint(Some(footprint("map", &robot())));
    h.set_obstacles(Some(obstacles(
        "map",
        vec![
            obstacle("a", &rect(2.0, -0.5, 3.0, 0.5)),
            obstacle("b", &rect(-0.5, 2.0, 0.5, 3.0)),
        ],
    )));
    let first = h
        .markers_where(&mut markers, "labels a and b", SETTLE, |a| {
            label_ids(a).len() == 2
        })
        .await;
    let ids = label_ids(&first);
    assert_ne!(ids["a"], ids["b"]);
    for _ in 0..3 {
        let next = h
            .markers_where(&mut markers, "(next)", SETTLE, |_| true)
            .await;
        assert_eq!(label_ids(&next), ids, "same ids in every message");
    }

    // Reordered, with a newcomer in front: a and b keep their ids.
    h.set_obstacles(Some(obstacles(
        "map",
        vec![
            obstacle("c", &rect(-3.0, -0.5, -2.0, 0.5)),
            obstacle("b", &rect(-0.5, 2.0, 0.5, 3.0)),
            obstacle("a", &rect(2.0, -0.5, 3.0, 0.5)),
        ],
    )));
    let later = h
        .markers_where(&mut markers, "labels a, b and c", SETTLE, |a| {
            label_ids(a).len() == 3
        })
        .await;
    let new_ids = label_ids(&later);
    assert_eq!(new_ids["a"], ids["a"]);
    assert_eq!(new_ids["b"], ids["b"]);
    assert!(new_ids["c"] != ids["a"] && new_ids["c"] != ids["b"]);
    for (name, id) in &new_ids {
        assert!(
            added(&later, "obstacles", *id).is_some(),
            "{name}'s outline has its id"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn vanished_obstacles_are_deleted_in_every_namespace_they_had() {
    let h = Harness::start("m_ghosts", &[]).await;
    let mut markers = h.subscribe_markers();
    h.set_footprint(Some(footprint("map", &robot())));
    let stay = obstacle("stay", &rect(0.25, -0.25, 1.25, 0.25));
    let go = obstacle("go", &rect(-1.25, -0.25, -0.25, 0.25));
    h.set_obstacles(Some(obstacles("map", vec![stay.clone(), go])));
    let a = h
        .markers_where(&mut markers, "both with penetration arrows", SETTLE, |a| {
            markers_in(a, "penetration").len() == 2
        })
        .await;
    let ids = label_ids(&a);
    let (stay_id, go_id) = (ids["stay"], ids["go"]);
    for ns in PAIR_NAMESPACES {
        assert!(added(&a, ns, go_id).is_some(), "`go` drawn in {ns}");
    }

    h.set_obstacles(Some(obstacles("map", vec![stay])));
    let a = h
        .markers_where(&mut markers, "without `go`", SETTLE, |a| {
            !label_ids(a).contains_key("go") && label_ids(a).contains_key("stay")
        })
        .await;
    for ns in PAIR_NAMESPACES {
        assert!(deleted(&a, ns, go_id), "DELETE ({ns}, {go_id}) in {a:#?}");
        assert!(
            added(&a, ns, stay_id).is_some(),
            "`stay` still drawn in {ns}"
        );
        assert!(!deleted(&a, ns, stay_id), "`stay` not deleted in {ns}");
    }
    assert!(!deleted(&a, "footprint", 0));
    for _ in 0..3 {
        let next = h
            .markers_where(&mut markers, "(next)", SETTLE, |_| true)
            .await;
        assert!(
            next.markers
                .iter()
                .all(|m| m.id != go_id || m.action != ADD),
            "`go` came back: {next:#?}"
        );
    }

    // The collision ends (footprint moved clear): the arrow goes, the axis
    // and projections stay.
    h.set_footprint(Some(footprint("map", &square(-2.0, 0.0, 0.5))));
    let a = h
        .markers_where(&mut markers, "without arrow", SETTLE, |a| {
            added(a, "penetration", stay_id).is_none()
        })
        .await;
    assert!(deleted(&a, "penetration", stay_id), "{a:#?}");
    for ns in ["obstacles", "separating_axes", "projections", "labels"] {
        assert!(
            added(&a, ns, stay_id).is_some(),
            "`stay` still drawn in {ns}"
        );
    }

    // An invalid footprint: its outline and every pair drawing go, the
    // obstacle outlines stay (grey).
    let mut nan = robot();
    nan[0].1 = f64::NAN;
    h.set_footprint(Some(footprint("map", &nan)));
    let a = h
        .markers_where(&mut markers, "without footprint", SETTLE, |a| {
            markers_in(a, "footprint").iter().all(|m| m.action != ADD)
        })
        .await;
    assert!(deleted(&a, "footprint", 0), "{a:#?}");
    for ns in ["separating_axes", "projections"] {
        assert!(
            deleted(&a, ns, stay_id),
            "DELETE ({ns}, {stay_id}) in {a:#?}"
        );
    }
    assert!(added(&a, "obstacles", stay_id).is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_markers_are_built_before_somebody_subscribes() {
    // The marker builder starts every topic's first array with DELETEALL
    // (to clear an earlier run's markers in RViz), once. Had the node built
    // (and published) arrays while nobody listened, a late subscriber's
    // first array would not start with DELETEALL.
    let mut h = Harness::start(
        "m_late",
        &[("markers_rate", "100.0"), ("publish_rate", "50.0")],
    )
    .await;
    h.set_footprint(Some(footprint("map", &robot())));
    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle("hit", &rect(0.25, -0.25, 1.25, 0.25))],
    )));
    // 30 valid reports at 50 Hz: the node has gone through publish() (and
    // its marker step) over half a second with a scene to draw.
    for i in 0..30 {
        h.report_where(&format!("valid #{i}"), SETTLE, |r| r.valid)
            .await;
    }
    let mut markers = h.subscribe_markers();
    let first = h
        .markers_where(&mut markers, "(first)", STARTUP, |_| true)
        .await;
    assert_eq!(
        first.markers.first().map(|m| m.action),
        Some(DELETEALL),
        "the first array a late subscriber gets must be the first ever built: {first:#?}"
    );
    assert!(
        has_all_namespaces(&first),
        "and it draws the scene: {first:#?}"
    );
    for _ in 0..5 {
        let next = h
            .markers_where(&mut markers, "(next)", SETTLE, |_| true)
            .await;
        assert!(
            next.markers.iter().all(|m| m.action != DELETEALL),
            "DELETEALL only once"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn markers_rate_zero_publishes_no_markers() {
    let mut h = Harness::start("m_off", &[("markers_rate", "0.0")]).await;
    let mut markers = h.subscribe_markers();
    h.set_footprint(Some(footprint("map", &robot())));
    h.set_obstacles(Some(obstacles(
        "map",
        vec![obstacle("hit", &rect(0.25, -0.25, 1.25, 0.25))],
    )));
    // Two seconds' worth of reports (10 Hz) with a subscriber listening.
    for i in 0..20 {
        h.report_where(&format!("valid #{i}"), SETTLE, |r| r.valid)
            .await;
    }
    assert!(
        markers.try_recv().is_err(),
        "markers_rate 0 must publish nothing"
    );
}
