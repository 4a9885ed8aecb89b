//! The engine's point queries against the same questions asked point by
//! point (`point_contact`, `point_time_of_impact` on every point, in index
//! order): the pruning must not change an answer, bit for bit, ties
//! included (the geometry itself is checked against an independent
//! reference in `tests/geometry/points.rs`).

use super::set::{BLOCK, LANES};
use super::*;
use crate::geometry::{
    point_contact, point_escapes, point_time_of_impact, Impact, Motion, Point, Shape, Vector,
};
use nalgebra::Isometry2;
use sat_collision_testkit::shapes::{ellipse_ring, random_star};
use sat_collision_testkit::SplitMix64 as Rng;
use std::f64::consts::TAU;

fn footprint(rng: &mut Rng) -> Shape {
    match rng.below(4) {
        0 => Shape::circle(Point::new(rng.range(-0.2, 0.2), 0.0), rng.range(0.1, 0.6)).unwrap(),
        1 => {
            let ring: Vec<Point> = random_star(rng, 8).iter().map(|p| p * 0.7).collect();
            Shape::polygon(&ring).unwrap()
        }
        _ => {
            let n = rng.int(3, 9) as usize;
            let mut angles: Vec<f64> = (0..n).map(|_| rng.range(0.0, TAU)).collect();
            angles.sort_by(f64::total_cmp);
            let ring = ellipse_ring(Point::origin(), 0.6, 0.4, rng.range(0.0, TAU), angles);
            Shape::polygon(&ring).unwrap_or_else(|_| Shape::circle(Point::origin(), 0.3).unwrap())
        }
    }
}

/// Points on a coarse grid (many equal clearances and depths: ties), some
/// repeated, some far; or, one time in four, a random walk (consecutive
/// points close together, as a sensor gives them: most blocks skipped).
fn points(rng: &mut Rng, n: usize) -> PointSet {
    let mut set = PointSet::new();
    if rng.chance(0.25) {
        let mut p = Point::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
        while set.len() < n {
            p += Vector::new(rng.range(-0.1, 0.1), rng.range(-0.1, 0.1));
            assert!(set.push(p));
        }
        return set;
    }
    while set.len() < n {
        let p = match rng.below(4) {
            0 if !set.is_empty() => set.point(rng.below_usize(set.len())),
            1 => Point::new(rng.range(-20.0, 20.0), rng.range(-20.0, 20.0)),
            _ => Point::new(
                rng.int(-12, 12) as f64 * 0.125,
                rng.int(-12, 12) as f64 * 0.125,
            ),
        };
        assert!(set.push(p));
    }
    set
}

fn brute_report(set: &PointSet, fp: &Shape, padding: f64) -> PointsReport {
    let mut report = PointsReport {
        inside: 0,
        deepest: None,
        nearest: None,
    };
    for i in 0..set.len() {
        let c = point_contact(fp, set.point(i), padding);
        if c.colliding() {
            report.inside += 1;
            if report.deepest.is_none_or(|(_, d)| c.depth() > d.depth()) {
                report.deepest = Some((i, c));
            }
        } else if report
            .nearest
            .is_none_or(|(_, n)| c.distance() < n.distance())
        {
            report.nearest = Some((i, c));
        }
    }
    if report.deepest.is_some() {
        report.nearest = report.deepest;
    }
    report
}

#[test]
fn queries_agree_with_point_by_point_answers() {
    let mut rng = Rng::new(5);
    for case in 0..3_000 {
        let fp = footprint(&mut rng);
        let padding = match rng.below(3) {
            0 => 0.0,
            _ => rng.range(0.0, 0.3),
        };
        let n = match rng.chance(0.2) {
            true => rng.int(46, 400) as usize,
            false => rng.int(0, 45) as usize,
        };
        let set = points(&mut rng, n);
        let brute: Vec<bool> = (0..set.len())
            .map(|i| point_contact(&fp, set.point(i), padding).colliding())
            .collect();
        let count = brute.iter().filter(|&&c| c).count();
        assert_eq!(
            set.count_inside(&fp, padding, usize::MAX),
            count,
            "case {case}"
        );
        for enough in 0..4 {
            assert_eq!(set.count_inside(&fp, padding, enough), count.min(enough));
        }
        let mut inside = vec![usize::MAX];
        set.inside(&fp, padding, &mut inside);
        let expected: Vec<usize> = std::iter::once(usize::MAX)
            .chain((0..set.len()).filter(|&i| brute[i]))
            .collect();
        assert_eq!(inside, expected, "case {case}: appended");
        assert_eq!(
            set.report(&fp, padding),
            brute_report(&set, &fp, padding),
            "case {case}"
        );
    }
}

#[test]
fn near_points_agree_with_the_set() {
    let mut rng = Rng::new(6);
    for case in 0..1_000 {
        let fp = footprint(&mut rng);
        let padding = rng.range(0.0, 0.2);
        let n = match rng.chance(0.2) {
            true => rng.int(46, 400) as usize,
            false => rng.int(0, 45) as usize,
        };
        let set = points(&mut rng, n);
        let start = Isometry2::new(Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)), 0.3);
        let angular = if rng.chance(0.5) {
            0.0
        } else {
            rng.range(-1.0, 1.0)
        };
        let motion = Motion::twist(&start, Vector::new(rng.range(-1.0, 1.0), 0.4), angular);
        let swept = motion.swept_aabb(&fp, padding, 1.5);
        let mut near = set.near(&swept.inflated(0.5));
        assert_eq!(near.len(), set.len());
        for t in [0.0, 0.7, 1.5] {
            let placed = fp.transformed(&motion.pose_at(t));
            let got = near.nearest(&placed, padding);
            let report = brute_report(&set, &placed, padding);
            match report.nearest {
                None => assert_eq!(got.index, None, "case {case}"),
                Some((i, c)) => {
                    assert_eq!(got.colliding, c.colliding(), "case {case}");
                    assert_eq!(got.distance, c.distance(), "case {case}");
                    match c.colliding() {
                        false => assert_eq!(got.index, Some(i), "case {case}: tie to the first"),
                        true => {
                            let j = got.index.expect("a colliding point");
                            assert!(point_contact(&placed, set.point(j), padding).colliding());
                        }
                    }
                }
            }
        }
        let all = set.first_impact(&fp, &motion, 1.5, padding);
        let walked = near.first_impact(&fp, &motion, 1.5, padding, None);
        let given = near.first_impact(&fp, &motion, 1.5, padding, Some(&swept));
        assert_eq!(walked, given, "case {case}");
        // Each point on its own, in index order: the earliest, the first
        // on a tie (times compared to rounding: a point's tolerance follows
        // the span its search ends at).
        let mut brute: Option<(usize, f64)> = None;
        for i in 0..set.len() {
            if let Some(hit) = point_time_of_impact(&fp, &motion, set.point(i), 1.5, padding) {
                if brute.is_none_or(|(_, t)| hit.time < t - 1e-9) {
                    brute = Some((i, hit.time));
                }
            }
        }
        match (all, walked, brute) {
            (None, None, None) => {}
            (Some((i, a)), Some((j, b)), Some((k, t))) => {
                assert!(
                    (a.time - t).abs() <= 1e-9 && (b.time - t).abs() <= 1e-9,
                    "case {case}"
                );
                assert_eq!((i, j), (k, k), "case {case}");
            }
            other => panic!("case {case}: {other:?}"),
        }
    }
}

#[test]
fn box_pass_sees_every_point_whatever_the_block() {
    // Every length around the block size, every position of a single
    // colliding point.
    let fp = Shape::circle(Point::origin(), 0.5).unwrap();
    let lengths = (0..3 * LANES + 2).chain([BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK + 3]);
    for n in lengths {
        let hits = (0..n).filter(|&hit| n < 3 * LANES + 2 || hit % 7 == 0 || hit + 1 == n);
        for hit in hits {
            let mut set = PointSet::new();
            for i in 0..n {
                let p = match i == hit {
                    true => Point::new(0.1, 0.0),
                    false => Point::new(3.0 + i as f64, -2.0),
                };
                set.push(p);
            }
            assert_eq!(set.count_inside(&fp, 0.0, usize::MAX), 1);
            let mut inside = Vec::new();
            set.inside(&fp, 0.0, &mut inside);
            assert_eq!(inside, vec![hit]);
            assert_eq!(set.report(&fp, 0.0).deepest.map(|(i, _)| i), Some(hit));
            let far = set.report(&fp, 0.0);
            assert_eq!(far.inside, 1);
            assert_eq!(set.nearest_to_box(&fp.aabb()), Some(hit));
        }
    }
}

#[test]
fn clear_keeps_the_arrays_and_forgets_the_box() {
    let mut set = PointSet::with_capacity(16);
    set.push(Point::new(100.0, 100.0));
    set.clear();
    set.push(Point::new(1.0, 2.0));
    assert_eq!(set.len(), 1);
    assert_eq!(set.aabb().map(|b| b.max), Some(Point::new(1.0, 2.0)));
    assert!(set.xs.capacity() >= 16);
}

/// A motion for the set's motion queries: a twist (a third of them pure
/// translations, some pure rotations) or a path segment.
fn motion(rng: &mut Rng) -> Motion {
    let start = Isometry2::new(
        Vector::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)),
        rng.range(-3.0, 3.0),
    );
    let angular = match rng.below(3) {
        0 => 0.0,
        _ => rng.range(-1.5, 1.5),
    };
    let velocity = match rng.below(5) {
        0 => Vector::zeros(),
        _ => Vector::new(rng.range(-1.0, 1.0), rng.range(-0.5, 0.5)),
    };
    match rng.below(6) {
        0 => Motion::segment(
            &start,
            &Isometry2::new(Vector::new(rng.range(-1.0, 1.0), 0.3), angular),
            1.5,
        ),
        _ => Motion::twist(&start, velocity, angular),
    }
}

#[test]
fn kth_impact_is_the_kth_of_the_point_by_point_times() {
    let mut rng = Rng::new(7);
    let mut found = 0;
    for case in 0..1_500 {
        let fp = footprint(&mut rng);
        let padding = match rng.below(3) {
            0 => 0.0,
            _ => rng.range(0.0, 0.3),
        };
        let n = rng.int(0, 60) as usize;
        let set = points(&mut rng, n);
        let m = motion(&mut rng);
        let duration = rng.range(0.0, 2.0);
        let impacts: Vec<Impact> = (0..set.len())
            .filter_map(|i| point_time_of_impact(&fp, &m, set.point(i), duration, padding))
            .collect();
        let mut times: Vec<f64> = impacts.iter().map(|impact| impact.time).collect();
        times.sort_by(f64::total_cmp);
        // A time that is not exact (the step cap) is only a lower bound:
        // the set may prove that point never touched (rule 6) and answer
        // later.
        let exact = impacts.iter().all(|impact| impact.exact);
        // k = 1: first_impact's time, bit for bit (the same searches).
        assert_eq!(
            set.kth_impact(&fp, &m, duration, padding, 1),
            set.first_impact(&fp, &m, duration, padding)
                .map(|(_, impact)| impact.time),
            "case {case}"
        );
        for k in [0, 1, 2, 3, 5, 8, n, n + 1] {
            let got = set.kth_impact(&fp, &m, duration, padding, k);
            let expected = match k {
                0 => Some(0.0),
                _ => times.get(k - 1).copied(),
            };
            // (A point searched only up to the k-th time so far may end
            // its search in other last digits: the tolerance follows the
            // span.)
            match (got, expected) {
                (Some(a), Some(b)) => {
                    match exact {
                        true => assert!((a - b).abs() <= 1e-9, "case {case} k {k}: {a} {b}"),
                        false => assert!(a >= b - 1e-9, "case {case} k {k}: {a} against {b}"),
                    }
                    found += usize::from(k > 1);
                }
                (None, None) => {}
                (None, Some(_)) if !exact => {}
                other => panic!("case {case} k {k}: {other:?}"),
            }
        }
    }
    assert!(found > 1_000, "{found} k-th contacts");
}

#[test]
fn kth_impact_of_unusable_input_fails_safe() {
    let fp = Shape::circle(Point::origin(), 0.5).unwrap();
    let good = Motion::twist(&Isometry2::identity(), Vector::new(1.0, 0.0), 0.0);
    let bad = Motion::twist(&Isometry2::identity(), Vector::new(f64::NAN, 0.0), 0.0);
    let mut set = PointSet::new();
    assert_eq!(set.kth_impact(&fp, &good, 1.0, 0.0, 0), Some(0.0));
    assert_eq!(set.kth_impact(&fp, &good, 1.0, 0.0, 1), None);
    assert_eq!(set.kth_impact(&fp, &bad, 1.0, 0.0, 1), None);
    set.push(Point::new(5.0, 0.0));
    assert_eq!(set.kth_impact(&fp, &bad, 1.0, 0.0, 1), Some(0.0));
    assert_eq!(set.kth_impact(&fp, &good, f64::NAN, 0.0, 3), Some(0.0));
    assert_eq!(set.kth_impact(&fp, &good, 1.0, 0.0, 2), None);
    assert_eq!(set.kth_impact(&fp, &good, 1.0, 0.0, usize::MAX), None);
    let t = set.kth_impact(&fp, &good, 10.0, 0.0, 1).expect("touched");
    assert!((t - 4.5).abs() <= 1e-9, "{t}");
}

#[test]
fn escapes_is_every_point_escaping() {
    let mut rng = Rng::new(8);
    let (mut yes, mut no) = (0, 0);
    for case in 0..1_500 {
        let fp = footprint(&mut rng);
        let n = rng.int(0, 30) as usize;
        let set = points(&mut rng, n);
        let m = motion(&mut rng);
        let duration = rng.range(0.0, 2.0);
        let expected = (0..set.len()).all(|i| point_escapes(&fp, &m, set.point(i), duration));
        // A point whose contact is not exact (the step cap of a grazing
        // turn) may be one the set proves never touched (rule 6).
        let settled = (0..set.len()).all(|i| {
            point_time_of_impact(&fp, &m, set.point(i), duration, 0.0)
                .is_none_or(|impact| impact.exact)
        });
        let got = set.escapes(&fp, &m, duration);
        match settled {
            true => assert_eq!(got, expected, "case {case}"),
            false => assert!(got || !expected, "case {case}"),
        }
        match expected {
            true => yes += 1,
            false => no += 1,
        }
    }
    assert!(yes > 300 && no > 300, "{yes} escape, {no} do not");
    let fp = Shape::circle(Point::origin(), 0.5).unwrap();
    let bad = Motion::twist(&Isometry2::identity(), Vector::new(f64::NAN, 0.0), 0.0);
    let good = Motion::twist(&Isometry2::identity(), Vector::new(1.0, 0.0), 0.0);
    let mut set = PointSet::new();
    assert!(set.escapes(&fp, &good, 1.0));
    assert!(!set.escapes(&fp, &bad, 1.0));
    assert!(!set.escapes(&fp, &good, f64::INFINITY));
    set.push(Point::new(-0.2, 0.0));
    assert!(set.escapes(&fp, &good, 1.0));
    set.push(Point::new(0.9, 0.0));
    assert!(!set.escapes(&fp, &good, 1.0));
}
