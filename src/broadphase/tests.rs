use super::*;
use crate::model::{check_obstacles, summarize, ObstacleGeometry};
use sat_collision_testkit::SplitMix64 as Rng;

pub(crate) fn random_obstacle(rng: &mut Rng, k: usize, spread: f64) -> Obstacle {
    let c = Point::new(rng.range(-spread, spread), rng.range(-spread, spread));
    let geometry = match k % 7 {
        0 => ObstacleGeometry::Circle {
            center: c,
            radius: rng.range(0.05, 0.6),
        },
        // An L shape: concave, several pieces.
        1 => ObstacleGeometry::Polygon(
            [
                (0.0, 0.0),
                (0.6, 0.0),
                (0.6, 0.2),
                (0.2, 0.2),
                (0.2, 0.6),
                (0.0, 0.6),
            ]
            .iter()
            .map(|&(x, y)| c + Vector::new(x, y))
            .collect(),
        ),
        // Invalid: a bow tie.
        2 if k % 3 == 0 => ObstacleGeometry::Polygon(vec![
            c,
            c + Vector::new(1.0, 1.0),
            c + Vector::new(1.0, 0.0),
            c + Vector::new(0.0, 1.0),
        ]),
        _ => {
            let n = 3 + k % 6;
            let r = rng.range(0.05, 0.8);
            let vertices = (0..n).map(|j| {
                let t = (j as f64 + rng.range(-0.3, 0.3)) * std::f64::consts::TAU / n as f64;
                (t, r)
            });
            ObstacleGeometry::Polygon(sat_collision_testkit::shapes::polar_ring(c, vertices))
        }
    };
    Obstacle::new(format!("o{k}"), &geometry)
}

/// Exact fields match `check_obstacles`; far ones are honest bounds; the
/// summary matches `summarize` over both reports.
#[test]
fn agrees_with_exact_report() {
    let mut rng = Rng(7);
    let mut index = ObstacleIndex::default();
    let mut fast = Vec::new();
    let mut exact_out = Vec::new();
    for scene in 0..300 {
        let count = 1 + scene % 60;
        let spread = if scene % 2 == 0 { 3.0 } else { 12.0 };
        let obstacles: Vec<Obstacle> = (0..count)
            .map(|k| random_obstacle(&mut rng, k + scene, spread))
            .collect();
        let footprint = if scene % 5 == 0 {
            Shape::circle(Point::new(rng.range(-1.0, 1.0), 0.0), 0.4).unwrap()
        } else {
            let (w, h) = (rng.range(0.2, 0.8), rng.range(0.2, 0.5));
            Shape::polygon(&[
                Point::new(-w, -h),
                Point::new(w, -h),
                Point::new(w, h),
                Point::new(-w, h),
            ])
            .unwrap()
        };
        let padding = if scene % 3 == 0 { 0.1 } else { 0.0 };
        let range = [0.0, 0.5, 2.0, f64::INFINITY][scene % 4];
        index.rebuild(&obstacles);
        let summary = index.check(&footprint, padding, &obstacles, range, &mut fast);
        check_obstacles(&footprint, padding, &obstacles, &mut exact_out);
        assert_eq!(summary, summarize(&exact_out), "scene {scene}");
        assert_eq!(
            index.any_collision(&footprint, padding, &obstacles),
            summary.any_colliding,
            "scene {scene}"
        );
        assert_eq!(summary, summarize(&fast), "scene {scene}");
        for (i, (f, e)) in fast.iter().zip(&exact_out).enumerate() {
            if f.exact {
                assert_eq!(f, e, "scene {scene} obstacle {i}");
                continue;
            }
            let (fc, ec) = (f.contact.unwrap(), e.contact.unwrap());
            assert_eq!(f.status, "ok");
            assert!(
                !fc.colliding() && !ec.colliding(),
                "scene {scene} obstacle {i}"
            );
            assert!(fc.distance() <= ec.distance(), "scene {scene} obstacle {i}");
            assert!(fc.distance() > range, "scene {scene} obstacle {i}");
            assert_eq!(
                (fc.depth(), fc.mtv(), fc.closest()),
                (0.0, Vector::zeros(), None)
            );
        }
        if range.is_infinite() {
            assert!(fast.iter().all(|o| o.exact));
        }
    }
}

#[test]
fn far_axis_separates() {
    let footprint = Shape::polygon(&[
        Point::new(-1.0, -1.0),
        Point::new(1.0, -1.0),
        Point::new(1.0, 1.0),
        Point::new(-1.0, 1.0),
    ])
    .unwrap();
    let obstacles: Vec<Obstacle> = [(5.0, 0.5), (-5.0, 0.0), (0.0, 6.0), (0.5, -7.0), (1.5, 0.0)]
        .iter()
        .enumerate()
        .map(|(k, &(x, y))| {
            Obstacle::new(
                format!("{k}"),
                &ObstacleGeometry::Circle {
                    center: Point::new(x, y),
                    radius: 0.25,
                },
            )
        })
        .collect();
    let index = ObstacleIndex::new(&obstacles);
    let mut out = Vec::new();
    let summary = index.check(&footprint, 0.0, &obstacles, 0.0, &mut out);
    assert_eq!(summary.nearest, Some(4));
    assert!((summary.min_distance - 0.25).abs() < 1e-12);
    let axes: Vec<Vector> = out[..4].iter().map(|o| o.contact.unwrap().axis()).collect();
    assert_eq!(axes, [Vector::x(), -Vector::x(), Vector::y(), -Vector::y()]);
    assert!(out[..4].iter().all(|o| !o.exact));
    assert!(out[4].exact);
    assert!((out[0].contact.unwrap().distance() - 3.75).abs() < 1e-9);
}
