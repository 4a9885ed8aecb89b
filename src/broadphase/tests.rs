use super::*;
use crate::geometry::{query, time_of_impact, Impact, Motion, Point, Shape, Vector};
use crate::model::{summarize, Obstacle, ObstacleGeometry, ObstacleOutcome, Status};
use nalgebra::Isometry2;
use sat_collision_testkit::SplitMix64 as Rng;

/// The reference report, independent of the index: `query` on every
/// obstacle in order, its shape error for an invalid one.
fn brute_force(footprint: &Shape, padding: f64, obstacles: &[Obstacle]) -> Vec<ObstacleOutcome> {
    obstacles
        .iter()
        .map(|obstacle| match &obstacle.shape {
            Ok(shape) => ObstacleOutcome {
                status: Status::Ok,
                contact: Some(query(footprint, shape, padding)),
                exact: true,
            },
            Err(e) => ObstacleOutcome {
                status: Status::from(e),
                contact: None,
                exact: true,
            },
        })
        .collect()
}

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

/// Exact fields match the brute-force report; far ones are honest bounds;
/// the summary matches `summarize` over both reports.
#[test]
fn agrees_with_exact_report() {
    let mut rng = Rng(7);
    let mut index = ObstacleIndex::default();
    let mut fast = Vec::new();
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
        let exact_out = brute_force(&footprint, padding, &obstacles);
        index.update(|held| *held = obstacles);
        fast.clear();
        let summary = index
            .all()
            .report(&footprint, padding, range, None, &mut fast);
        assert_eq!(summary, summarize(&exact_out), "scene {scene}");
        assert_eq!(
            index.all().any_collision(&footprint, padding),
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
    let index = ObstacleIndex::new(obstacles);
    let mut out = Vec::new();
    let summary = index.all().report(&footprint, 0.0, 0.0, None, &mut out);
    assert_eq!(summary.nearest, Some(4));
    assert!((summary.min_distance - 0.25).abs() < 1e-12);
    let axes: Vec<Vector> = out[..4].iter().map(|o| o.contact.unwrap().axis()).collect();
    assert_eq!(axes, [Vector::x(), -Vector::x(), Vector::y(), -Vector::y()]);
    assert!(out[..4].iter().all(|o| !o.exact));
    assert!(out[4].exact);
    assert!((out[0].contact.unwrap().distance() - 3.75).abs() < 1e-9);
}

/// A circle or a rectangle near the origin.
fn random_footprint(rng: &mut Rng, k: usize) -> Shape {
    if k % 5 == 0 {
        Shape::circle(Point::new(rng.range(-0.2, 0.2), 0.0), rng.range(0.2, 0.5)).unwrap()
    } else {
        let (w, h) = (rng.range(0.2, 0.8), rng.range(0.2, 0.5));
        Shape::polygon(&[
            Point::new(-w, -h),
            Point::new(w, -h),
            Point::new(w, h),
            Point::new(-w, h),
        ])
        .unwrap()
    }
}

/// `obstacle` moved by `by` (its rejected points stay: they are not
/// checked).
fn shifted(obstacle: Obstacle, by: Vector) -> Obstacle {
    let pose = Isometry2::new(by, 0.0);
    Obstacle {
        shape: obstacle.shape.map(|shape| shape.transformed(&pose)),
        ..obstacle
    }
}

/// A run of an index reports as an index of that run alone would, its
/// obstacles named by their position in the whole index: with the run's
/// own tolerance scale, even beside a run far from the origin.
#[test]
fn spans_report_in_index_positions_with_their_own_tolerance() {
    let mut rng = Rng(21);
    let near: Vec<Obstacle> = (0..40).map(|k| random_obstacle(&mut rng, k, 4.0)).collect();
    let offset = Vector::new(1.0e5, -2.0e5);
    let far: Vec<Obstacle> = (0..30)
        .map(|k| shifted(random_obstacle(&mut rng, k + 1, 4.0), offset))
        .collect();
    assert!(near.iter().any(|o| o.shape.is_err()), "an invalid one too");
    let mut index = ObstacleIndex::new(near.iter().chain(&far).cloned().collect());
    index.split([near.len(), far.len()]);
    let (alone_near, alone_far) = (
        ObstacleIndex::new(near.clone()),
        ObstacleIndex::new(far.clone()),
    );
    let pose = Isometry2::new(offset, 0.0);
    for k in 0..20 {
        let footprint = random_footprint(&mut rng, k);
        let far_footprint = footprint.transformed(&pose);
        let (padding, range) = ([0.0, 0.1][k % 2], [0.0, 0.5, 2.0][k % 3]);
        let mut out = Vec::new();
        let first = index
            .span(0..40)
            .report(&footprint, padding, range, None, &mut out);
        let second = index
            .span(40..70)
            .report(&far_footprint, padding, range, None, &mut out);
        let mut want = Vec::new();
        let want_first = alone_near
            .all()
            .report(&footprint, padding, range, None, &mut want);
        let want_second = alone_far
            .all()
            .report(&far_footprint, padding, range, None, &mut want);
        assert_eq!(out, want, "footprint {k}");
        assert_eq!(first, want_first, "footprint {k}");
        assert_eq!(second.nearest, want_second.nearest.map(|i| i + 40));
        assert_eq!(second.min_distance, want_second.min_distance);
        assert_eq!(
            index.span(0..40).any_collision(&footprint, padding),
            want_first.any_colliding
        );
        assert_eq!(
            index.span(40..70).any_collision(&far_footprint, padding),
            want_second.any_colliding
        );
        // A span that is no run: its scale found from its own boxes.
        let mut across = Vec::new();
        index
            .span(10..50)
            .report(&footprint, padding, range, None, &mut across);
        let mut alone = Vec::new();
        ObstacleIndex::new(index.obstacles()[10..50].to_vec())
            .all()
            .report(&footprint, padding, range, None, &mut alone);
        assert_eq!(across, alone, "footprint {k}");
    }
    let invalid = |o: &[Obstacle]| o.iter().filter(|o| o.shape.is_err()).count();
    assert_eq!(index.span(0..40).invalid_count(), invalid(&near));
    assert_eq!(index.span(40..70).invalid_count(), invalid(&far));
    assert_eq!(index.span(40..70).any_invalid(), invalid(&far) > 0);
    assert!(index.any_invalid());
}

/// Per pose, colliding (touching counts) and the clearance are those of
/// the pair queries against every valid obstacle; the first colliding
/// pose and the invalid obstacles are counted as such.
#[test]
fn check_poses_agrees_with_every_pair() {
    let mut rng = Rng(5);
    for scene in 0..60 {
        // Up to 86 obstacles: past the first sorted stretch of `Near`.
        let count = (scene % 3) * 40 + scene % 7;
        let obstacles: Vec<Obstacle> = (0..count)
            .map(|k| random_obstacle(&mut rng, k + scene, 6.0))
            .collect();
        let footprint = random_footprint(&mut rng, scene);
        let padding = [0.0, 0.05][scene % 2];
        let poses: Vec<Isometry2<f64>> = (0..20)
            .map(|_| {
                let at = Vector::new(rng.range(-6.0, 6.0), rng.range(-6.0, 6.0));
                Isometry2::new(at, rng.range(-3.0, 3.0))
            })
            .collect();
        let index = ObstacleIndex::new(obstacles);
        let check = index
            .all()
            .check_poses(&footprint, &poses, padding, &Cancel::new())
            .unwrap();
        for (k, pose) in poses.iter().enumerate() {
            let placed = footprint.transformed(pose);
            let contacts: Vec<_> = index
                .obstacles()
                .iter()
                .filter_map(|o| o.shape.as_ref().ok())
                .map(|shape| query(&placed, shape, padding))
                .collect();
            let colliding = contacts.iter().any(|c| c.colliding());
            let distance = contacts
                .iter()
                .map(|c| c.distance())
                .fold(f64::INFINITY, f64::min);
            assert_eq!(check.colliding[k], colliding, "scene {scene} pose {k}");
            assert_eq!(check.distance[k], distance, "scene {scene} pose {k}");
        }
        assert_eq!(
            check.first_collision,
            check.colliding.iter().position(|&c| c)
        );
        let invalid = index
            .obstacles()
            .iter()
            .filter(|o| o.shape.is_err())
            .count();
        assert_eq!(check.invalid_obstacles, invalid, "scene {scene}");
    }
}

/// Touching is colliding; invalid obstacles are counted and never hit;
/// no pose, no answer to give; a cancelled check has no answer.
#[test]
fn check_poses_edges() {
    let square = |cx: f64, half: f64| {
        vec![
            Point::new(cx - half, -half),
            Point::new(cx + half, -half),
            Point::new(cx + half, half),
            Point::new(cx - half, half),
        ]
    };
    let robot = Shape::polygon(&square(0.0, 0.5)).unwrap();
    let touching = Obstacle::new("t", &ObstacleGeometry::Polygon(square(1.0, 0.5)));
    let bow_tie = Obstacle::new(
        "bad",
        &ObstacleGeometry::Polygon(vec![
            Point::new(0.0, 0.0),
            Point::new(1.0, 1.0),
            Point::new(1.0, 0.0),
            Point::new(0.0, 1.0),
        ]),
    );
    let poses = [
        Isometry2::identity(),
        Isometry2::new(Vector::new(-1.0, 0.0), 0.0),
    ];
    let cancel = Cancel::new();
    let index = ObstacleIndex::new(vec![bow_tie.clone(), touching]);
    let check = index
        .all()
        .check_poses(&robot, &poses, 0.0, &cancel)
        .unwrap();
    assert_eq!(check.colliding, [true, false]);
    assert_eq!(check.distance, [0.0, 1.0]);
    assert_eq!(check.first_collision, Some(0));
    assert_eq!(check.invalid_obstacles, 1);
    // Only an invalid obstacle: nothing to hit, nothing near.
    let invalid = ObstacleIndex::new(vec![bow_tie]);
    let check = invalid
        .all()
        .check_poses(&robot, &poses, 0.0, &cancel)
        .unwrap();
    assert_eq!(check.colliding, [false, false]);
    assert_eq!(check.distance, [f64::INFINITY; 2]);
    assert_eq!((check.first_collision, check.invalid_obstacles), (None, 1));
    // No obstacle; no pose.
    let none = ObstacleIndex::default();
    let check = none
        .all()
        .check_poses(&robot, &poses, 0.0, &cancel)
        .unwrap();
    assert_eq!(check.distance, [f64::INFINITY; 2]);
    let check = index.all().check_poses(&robot, &[], 0.0, &cancel).unwrap();
    assert!(check.colliding.is_empty() && check.distance.is_empty());
    // Cancelled: no answer, but a check of no pose is done already.
    cancel.cancel();
    assert_eq!(
        index.all().check_poses(&robot, &poses, 0.0, &cancel),
        Err(Cancelled)
    );
    assert!(index.all().check_poses(&robot, &[], 0.0, &cancel).is_ok());
}

/// Each obstacle's contact is the pair's time of impact; the first one
/// over a span, or inside a region, is the earliest of them (the first
/// obstacle on a tie), in index positions.
#[test]
fn impacts_agree_with_every_pair() {
    let mut rng = Rng(9);
    let duration = 3.0;
    for scene in 0..40 {
        let obstacles: Vec<Obstacle> = (0..30)
            .map(|k| random_obstacle(&mut rng, k + scene, 5.0))
            .collect();
        let footprint = random_footprint(&mut rng, scene);
        let padding = [0.0, 0.05][scene % 2];
        let start = Isometry2::new(
            Vector::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)),
            rng.range(-3.0, 3.0),
        );
        let velocity = Vector::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
        let angular = [0.0, rng.range(-1.5, 1.5)][scene % 2];
        let motion = Motion::twist(&start, velocity, angular);
        let each: Vec<Option<Impact>> = obstacles
            .iter()
            .map(|o| {
                let shape = o.shape.as_ref().ok()?;
                time_of_impact(&footprint, &motion, duration, shape, padding)
                    .filter(|hit| hit.time <= duration)
            })
            .collect();
        // Behind a run of five others: positions in the whole index.
        let mut all: Vec<Obstacle> = (0..5).map(|k| random_obstacle(&mut rng, k, 5.0)).collect();
        all.extend(obstacles);
        let mut index = ObstacleIndex::new(all);
        index.split([5]);
        let span = index.span(5..35);
        assert_eq!(
            span.impacts(&footprint, &motion, duration, padding),
            each,
            "scene {scene}"
        );
        let earliest = each
            .iter()
            .enumerate()
            .filter_map(|(i, hit)| hit.map(|hit| (i + 5, hit.time)))
            .fold(None, |best: Option<(usize, f64)>, (i, t)| match best {
                Some((_, b)) if b <= t => best,
                _ => Some((i, t)),
            });
        // The k earliest, each tried only up to the k-th so far: the k
        // smallest of every pair's times (a time found with a shorter
        // horizon is the same contact, to the solver's tolerance).
        let mut sorted: Vec<f64> = each.iter().flatten().map(|hit| hit.time).collect();
        sorted.sort_by(f64::total_cmp);
        let mut buffers = ImpactBuffers::default();
        for k in [1, 3, 6, 40] {
            let mut times = vec![-1.0];
            span.first_impacts(
                &footprint,
                &motion,
                duration,
                padding,
                k,
                &mut buffers,
                &mut times,
            );
            let want = &sorted[..k.min(sorted.len())];
            assert_eq!(times.len(), 1 + want.len(), "scene {scene}, k {k}");
            for (got, want) in times[1..].iter().zip(want) {
                assert!(
                    (got - want).abs() <= 1e-9,
                    "scene {scene}, k {k}: {times:?}"
                );
            }
        }
        let first = span.first_impact(&footprint, &motion, duration, padding);
        let region = motion.swept_aabb(&footprint, padding, duration);
        let inside = span
            .near(&region)
            .first_impact(&footprint, &motion, duration, padding, None);
        for got in [first, inside] {
            match (got, earliest) {
                (Some((i, hit)), Some((j, time))) => {
                    assert!((hit.time - time).abs() <= 1e-9, "scene {scene}");
                    assert!(i == j || (each[i - 5].unwrap().time - time).abs() <= 1e-9);
                }
                (got, want) => assert_eq!(got.map(|g| g.0), want.map(|w| w.0), "scene {scene}"),
            }
        }
    }
}

/// The walk of `Near` meets obstacles nearest first whatever it was
/// asked before: clearances from places along a region (dense obstacles,
/// so the walks go past several sorted stretches) agree with the pair
/// queries, asked in either order.
#[test]
fn near_answers_do_not_depend_on_the_order_asked() {
    let mut rng = Rng(3);
    let obstacles: Vec<Obstacle> = (0..600)
        .map(|k| random_obstacle(&mut rng, k, 10.0))
        .collect();
    let index = ObstacleIndex::new(obstacles);
    let footprint = random_footprint(&mut rng, 1);
    let places: Vec<Shape> = (0..40)
        .map(|_| {
            let at = Vector::new(rng.range(-8.0, 8.0), rng.range(-0.5, 0.5));
            footprint.transformed(&Isometry2::new(at, rng.range(-3.0, 3.0)))
        })
        .collect();
    let region = places
        .iter()
        .map(|placed| placed.aabb())
        .reduce(|a, b| a.union(&b))
        .unwrap();
    let valid = index.obstacles().iter().filter(|o| o.shape.is_ok()).count();
    let mut forward = index.all().near(&region);
    let mut backward = index.all().near(&region);
    assert_eq!((forward.len(), forward.is_empty()), (valid, false));
    let answers: Vec<f64> = places
        .iter()
        .map(|placed| forward.nearest(placed, 0.0).distance)
        .collect();
    for (k, placed) in places.iter().enumerate().rev() {
        let want = index
            .obstacles()
            .iter()
            .filter_map(|o| o.shape.as_ref().ok())
            .map(|shape| query(placed, shape, 0.0).distance())
            .fold(f64::INFINITY, f64::min);
        assert_eq!(backward.nearest(placed, 0.0).distance, want, "place {k}");
        assert_eq!(answers[k], want, "place {k}");
    }
}
