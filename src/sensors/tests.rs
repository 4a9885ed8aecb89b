//! Unit tests of the sensor readers: the rules point by point, every error,
//! the edges (limits included, NaN, infinities), `out` unchanged on error.
//! The random comparisons against an independent decoder are in
//! `tests/monitor/sensors.rs`.

use super::cloud::range_threshold;
use super::*;
use crate::geometry::Point;
use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use std::f64::consts::{FRAC_PI_2, PI};

fn close(a: Point, b: Point) -> bool {
    (a - b).norm() <= 1e-12 * (1.0 + b.coords.norm())
}

// ---------------------------------------------------------------- scan

/// One degree per range from -90°, `angle_max` at the last range.
fn scan(ranges: &[f32]) -> LaserScan<'_> {
    let (angle_min, increment) = (-FRAC_PI_2 as f32, (PI / 180.0) as f32);
    let last = ranges.len().saturating_sub(1) as f64;
    LaserScan {
        angle_min,
        angle_max: (f64::from(angle_min) + last * f64::from(increment)) as f32,
        angle_increment: increment,
        range_min: 0.1,
        range_max: 10.0,
        ranges,
    }
}

/// `ranges` at the given angles (limits 0.1 to 10 m).
fn angled(angle_min: f32, angle_max: f32, angle_increment: f32, ranges: &[f32]) -> LaserScan<'_> {
    LaserScan {
        angle_min,
        angle_max,
        angle_increment,
        ..scan(ranges)
    }
}

/// What `scan_points` makes of `s`: the count, or the error.
fn read(s: &LaserScan<'_>) -> Result<usize, ScanError> {
    scan_points(s, &mut Vec::new())
}

#[test]
fn scan_ranges_within_the_limits_are_points_at_their_angles() {
    let ranges = [
        1.0,
        0.1,
        10.0,
        0.099,
        10.01,
        f32::NAN,
        f32::INFINITY,
        -f32::INFINITY,
        2.0,
    ];
    let s = scan(&ranges);
    let mut out = vec![Point::new(7.0, 7.0)];
    assert_eq!(scan_points(&s, &mut out), Ok(5));
    assert_eq!(out[0], Point::new(7.0, 7.0), "appended, not replaced");
    let expect = |i: usize, r: f32| {
        let a = f64::from(s.angle_min) + i as f64 * f64::from(s.angle_increment);
        Point::new(f64::from(r) * a.cos(), f64::from(r) * a.sin())
    };
    for (got, (i, r)) in out[1..]
        .iter()
        .zip([(0, 1.0), (1, 0.1), (2, 10.0), (7, 0.1), (8, 2.0)])
    {
        assert!(close(*got, expect(i, r)), "{got:?} vs range {i}");
    }
}

#[test]
fn scan_angles_match_sin_cos_over_many_blocks_and_both_directions() {
    let ranges: Vec<f32> = (0..2000).map(|i| 0.5 + (i % 17) as f32).collect();
    for (angle_min, inc) in [(-3.1f32, 0.0031f32), (2.0, -0.0123), (100.0, 0.7)] {
        let s = LaserScan {
            angle_min,
            angle_max: (f64::from(angle_min) + 1999.0 * f64::from(inc)) as f32,
            angle_increment: inc,
            range_min: 0.0,
            range_max: 100.0,
            ranges: &ranges,
        };
        let mut out = Vec::new();
        assert_eq!(scan_points(&s, &mut out), Ok(ranges.len()));
        for (i, (p, &r)) in out.iter().zip(&ranges).enumerate() {
            let a = f64::from(angle_min) + i as f64 * f64::from(inc);
            let want = Point::new(f64::from(r) * a.cos(), f64::from(r) * a.sin());
            assert!(close(*p, want), "range {i}: {p:?} vs {want:?}");
        }
    }
}

#[test]
fn scan_errors_leave_out_unchanged() {
    let ranges = [1.0f32; 4];
    let base = scan(&ranges);
    let cases: [(LaserScan<'_>, ScanError); 11] = [
        (
            LaserScan {
                angle_min: f32::NAN,
                ..base
            },
            ScanError::InvalidAngle,
        ),
        (
            LaserScan {
                angle_increment: f32::INFINITY,
                ..base
            },
            ScanError::InvalidAngle,
        ),
        (
            LaserScan {
                angle_max: f32::NEG_INFINITY,
                ..base
            },
            ScanError::InvalidAngle,
        ),
        (
            LaserScan {
                angle_increment: 0.0,
                ..base
            },
            ScanError::InconsistentAngles,
        ),
        (
            LaserScan {
                angle_max: f32::NAN,
                range_max: f32::NAN,
                ..base
            },
            ScanError::InvalidAngle,
        ),
        (
            LaserScan {
                range_min: f32::NAN,
                ..base
            },
            ScanError::InvalidLimits,
        ),
        (
            LaserScan {
                range_max: f32::INFINITY,
                ..base
            },
            ScanError::InvalidLimits,
        ),
        (
            LaserScan {
                range_min: -0.1,
                ..base
            },
            ScanError::InvalidLimits,
        ),
        (
            LaserScan {
                range_min: 5.0,
                range_max: 4.0,
                ..base
            },
            ScanError::InvalidLimits,
        ),
        (
            LaserScan {
                range_max: f32::NAN,
                ..base
            },
            ScanError::InvalidLimits,
        ),
        (
            LaserScan {
                angle_min: -f32::INFINITY,
                range_min: f32::NAN,
                ..base
            },
            ScanError::InvalidAngle,
        ),
    ];
    for (s, e) in cases {
        let mut out = vec![Point::origin()];
        assert_eq!(scan_points(&s, &mut out), Err(e));
        assert_eq!(out, vec![Point::origin()]);
    }
    let many = vec![1.0f32; MAX_SENSOR_POINTS + 1];
    let mut out = Vec::new();
    assert_eq!(
        scan_points(&scan(&many), &mut out),
        Err(ScanError::TooManyPoints)
    );
    assert!(out.is_empty());
    let at_limit = &many[..MAX_SENSOR_POINTS];
    assert_eq!(
        scan_points(&scan(at_limit), &mut out),
        Ok(MAX_SENSOR_POINTS)
    );
    assert_eq!(ScanError::TooManyPoints.as_str(), "too_many_points");
    assert_eq!(ScanError::InvalidAngle.as_str(), "invalid_angle");
    assert_eq!(ScanError::InvalidLimits.as_str(), "invalid_limits");
    assert_eq!(
        ScanError::InconsistentAngles.as_str(),
        "inconsistent_angles"
    );
}

#[test]
fn an_empty_scan_is_no_points() {
    let mut out = Vec::new();
    assert_eq!(scan_points(&scan(&[]), &mut out), Ok(0));
    assert!(out.is_empty());
    // No range: no angle to disagree with (finite ones still required).
    assert_eq!(read(&angled(0.0, -5.0, 0.0, &[])), Ok(0));
    assert_eq!(
        read(&angled(0.0, f32::NAN, 0.0, &[])),
        Err(ScanError::InvalidAngle)
    );
}

#[test]
fn scan_negative_infinity_is_the_range_min_point_on_its_ray() {
    // One -inf among 40 ranges, alone in its block of 16: the block is
    // read, and the point is at range_min on range 20's ray.
    let mut ranges = [f32::NAN; 40];
    ranges[3] = f32::INFINITY;
    ranges[20] = f32::NEG_INFINITY;
    ranges[33] = f32::INFINITY;
    let s = scan(&ranges);
    let mut out = vec![Point::new(7.0, 7.0)];
    assert_eq!(scan_points(&s, &mut out), Ok(1));
    let a = f64::from(s.angle_min) + 20.0 * f64::from(s.angle_increment);
    let r = f64::from(s.range_min);
    assert!(close(out[1], Point::new(r * a.cos(), r * a.sin())));
    assert!((out[1].coords.norm() - r).abs() < 1e-12);
    // Both directions, and a range_min of 0: the sensor itself.
    let ranges = [f32::NEG_INFINITY, 3.0, f32::NEG_INFINITY];
    for (inc, range_min) in [(0.5f32, 0.25f32), (-0.5, 0.25), (0.5, 0.0)] {
        let s = LaserScan {
            range_min,
            ..angled(1.0, 1.0 + 2.0 * inc, inc, &ranges)
        };
        let mut out = Vec::new();
        assert_eq!(scan_points(&s, &mut out), Ok(3));
        for (p, (i, r)) in out.iter().zip([(0, range_min), (1, 3.0), (2, range_min)]) {
            let a = 1.0 + f64::from(i) * f64::from(inc);
            let r = f64::from(r);
            assert!(close(*p, Point::new(r * a.cos(), r * a.sin())), "{p:?}");
        }
    }
}

#[test]
fn scan_positive_infinity_and_nan_are_no_points() {
    let ranges = [f32::INFINITY, f32::NAN, -f32::NAN, f32::INFINITY];
    let mut out = Vec::new();
    assert_eq!(scan_points(&scan(&ranges), &mut out), Ok(0));
    assert!(out.is_empty());
}

#[test]
fn scan_with_a_zero_increment_is_refused() {
    // 360 ranges over a full turn on one ray.
    let ranges = [1.0f32; 360];
    let (lo, hi) = (-std::f32::consts::PI, std::f32::consts::PI);
    for inc in [0.0, -0.0] {
        assert_eq!(
            read(&angled(lo, hi, inc, &ranges)),
            Err(ScanError::InconsistentAngles)
        );
        assert_eq!(
            read(&angled(0.0, 0.0, inc, &ranges)),
            Err(ScanError::InconsistentAngles)
        );
        // Two ranges at one angle too; one range is only its angle.
        assert_eq!(
            read(&angled(0.0, 0.0, inc, &ranges[..2])),
            Err(ScanError::InconsistentAngles)
        );
        assert_eq!(read(&angled(0.3, -2.0, inc, &ranges[..1])), Ok(1));
    }
}

#[test]
fn scan_with_more_or_fewer_ranges_than_its_angles_is_refused() {
    // -90° to 90° at 1°: 181 ranges (180 with angle_max one past).
    let (lo, hi, inc) = (-FRAC_PI_2 as f32, FRAC_PI_2 as f32, (PI / 180.0) as f32);
    let ranges = [1.0f32; 361];
    assert_eq!(
        read(&angled(lo, hi, inc, &ranges)),
        Err(ScanError::InconsistentAngles)
    );
    for n in [179, 183, 2, 90, 270] {
        assert_eq!(
            read(&angled(lo, hi, inc, &ranges[..n])),
            Err(ScanError::InconsistentAngles),
            "{n} ranges"
        );
    }
    for n in [180, 181] {
        assert_eq!(read(&angled(lo, hi, inc, &ranges[..n])), Ok(n));
    }
    // Just past one increment off: refused (the rounding allowance is
    // far below 1 % of an increment).
    let one_past = f64::from(lo) + 360.0 * f64::from(inc);
    for extra in [0.01, -2.01] {
        let hi = (one_past + extra * f64::from(inc)) as f32;
        assert_eq!(
            read(&angled(lo, hi, inc, &ranges[..360])),
            Err(ScanError::InconsistentAngles),
            "{extra}"
        );
    }
}

#[test]
fn scan_angle_max_at_the_last_range_or_one_past_is_accepted_both_ways() {
    let ranges = [1.0f32; 360];
    let inc = (PI / 180.0) as f32;
    for (lo, inc) in [
        (-PI as f32, inc),
        (PI as f32, -inc),
        (0.0, inc),
        (0.0, -inc),
    ] {
        for past in [359.0, 360.0] {
            let hi = (f64::from(lo) + past * f64::from(inc)) as f32;
            assert_eq!(
                read(&angled(lo, hi, inc, &ranges)),
                Ok(360),
                "{lo} {inc} {past}"
            );
        }
    }
}

#[test]
fn scan_clockwise_with_angle_max_below_angle_min_is_accepted() {
    let ranges = [1.0f32; 181];
    let (lo, hi, inc) = (FRAC_PI_2 as f32, -FRAC_PI_2 as f32, -(PI / 180.0) as f32);
    let mut out = Vec::new();
    assert_eq!(
        scan_points(&angled(lo, hi, inc, &ranges), &mut out),
        Ok(181)
    );
    // From +90° (y) clockwise to -90°.
    let at = |a: f64| Point::new(a.cos(), a.sin());
    assert!(close(out[0], at(f64::from(lo))));
    let last = f64::from(lo) + 180.0 * f64::from(inc);
    assert!(close(out[180], at(last)));
    assert!((last - f64::from(hi)).abs() < 1e-6);
    // The increment against the angles' direction: refused, either way,
    // and with two ranges even when the last is within one increment.
    assert_eq!(
        read(&angled(0.0, -1e-9, 0.1, &ranges[..2])),
        Err(ScanError::InconsistentAngles)
    );
    assert_eq!(read(&angled(0.0, 1e-9, 0.1, &ranges[..2])), Ok(2));
    for (lo, hi, inc) in [(lo, hi, -inc), (hi, lo, inc)] {
        let s = angled(lo, hi, inc, &ranges);
        assert_eq!(
            read(&s),
            Err(ScanError::InconsistentAngles),
            "{lo} {hi} {inc}"
        );
    }
}

// 6.28 and 3.1415 are drivers' configured angles, not π written short.
#[allow(clippy::approx_constant)]
#[test]
fn scan_f32_rounded_increments_of_real_drivers_are_accepted() {
    use std::f32::consts::{PI as PI32, TAU as TAU32};
    let ranges = [1.0f32; 1081];
    let f = |x: f64| x as f32;
    let cases: [(&str, f32, f32, f32, usize); 9] = [
        // 720 ranges over a full turn, all in f32: one past, and last.
        ("720 one past", -PI32, PI32, TAU32 / 720.0, 720),
        (
            "720 last",
            -PI32,
            -PI32 + 719.0 * (TAU32 / 720.0),
            TAU32 / 720.0,
            720,
        ),
        // A Hokuyo's 1081 ranges of 0.25° over 270°, from f64 and in f32.
        (
            "hokuyo",
            f(-135f64.to_radians()),
            f(135f64.to_radians()),
            f(0.25f64.to_radians()),
            1081,
        ),
        (
            "hokuyo f32",
            -135f32.to_radians(),
            135f32.to_radians(),
            (135f32.to_radians() - -135f32.to_radians()) / 1080.0,
            1081,
        ),
        // TurtleBot3's LDS-01: 0 to 2π in 360 ranges of 1° (one past);
        // chronological order: clockwise to -359°.
        ("lds-01", 0.0, f(2.0 * PI), f(2.0 * PI / 360.0), 360),
        (
            "lds-01 clockwise",
            0.0,
            f(-359.0 * PI / 180.0),
            f(-PI / 180.0),
            360,
        ),
        // Gazebo: 360 samples from 0 to 6.28, (max - min) / (count - 1).
        ("gazebo", 0.0, 6.28, f(6.28 / 359.0), 360),
        // A scan from a cloud: ceil((max - min) / increment) ranges.
        ("from a cloud", -3.1415, 3.1415, 0.02617, 241),
        // -π to π with both ends ranges: (max - min) / (n - 1) in f32.
        ("both ends", -PI32, PI32, (PI32 - -PI32) / 359.0, 360),
    ];
    for (name, lo, hi, inc, n) in cases {
        assert_eq!(read(&angled(lo, hi, inc, &ranges[..n])), Ok(n), "{name}");
    }
    assert_eq!(
        241,
        ((3.1415f32 - -3.1415f32) / 0.02617f32).ceil() as usize,
        "the cloud's count"
    );
}

mod scan_properties {
    use super::*;
    use proptest::prelude::*;

    /// A scan a driver would build in `f32`: `n` ranges from `angle_min`
    /// every `increment`, `angle_max` at the last range or one past it;
    /// or `angle_max` given and the increment `(max - min) / (n - 1)`.
    fn consistent() -> impl Strategy<Value = (f32, f32, f32, usize)> {
        (
            -10.0f32..10.0,
            2usize..4000,
            1e-4f32..0.1,
            any::<bool>(),
            0u8..3,
        )
            .prop_map(|(angle_min, n, step, clockwise, how)| {
                let inc = if clockwise { -step } else { step };
                match how {
                    0 => (angle_min, angle_min + (n - 1) as f32 * inc, inc, n),
                    1 => (angle_min, angle_min + n as f32 * inc, inc, n),
                    _ => {
                        let angle_max = angle_min + (n - 1) as f32 * inc;
                        let inc = (angle_max - angle_min) / (n - 1) as f32;
                        (angle_min, angle_max, inc, n)
                    }
                }
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn consistent_f32_scans_are_accepted((lo, hi, inc, n) in consistent()) {
            let ranges = vec![1.0f32; n];
            prop_assert_eq!(read(&angled(lo, hi, inc, &ranges)), Ok(n));
        }

        #[test]
        fn three_ranges_more_are_refused((lo, hi, inc, n) in consistent()) {
            // Off by three increments from the last range, two from one
            // past it.
            let ranges = vec![1.0f32; n + 3];
            prop_assert_eq!(
                read(&angled(lo, hi, inc, &ranges)),
                Err(ScanError::InconsistentAngles)
            );
        }
    }
}

// ---------------------------------------------------------------- range

fn reading(range: f32) -> RangeReading {
    RangeReading {
        field_of_view: 0.5,
        min_range: 0.2,
        max_range: 4.0,
        range,
    }
}

/// nav2's arc, written out: the angles `-h + k * step` below `h`, then `h`.
fn arc_angles(fov: f64, step: f64) -> Vec<f64> {
    let h = fov / 2.0;
    let mut angles: Vec<f64> = (0..)
        .map(|k| -h + f64::from(k) * step)
        .take_while(|&a| a < h)
        .collect();
    angles.push(h);
    angles
}

#[test]
fn a_range_within_the_limits_is_an_arc_with_both_ends() {
    for r in [0.2f32, 1.5, 4.0] {
        let mut out = Vec::new();
        let n = range_points(&reading(r), DEFAULT_OBSTACLES_ANGLE, &mut out).expect("valid");
        let angles = arc_angles(0.5, DEFAULT_OBSTACLES_ANGLE);
        // 0.5 rad at one degree: 28.6 steps -> 29 below the end, then the end.
        assert_eq!((n, out.len(), angles.len()), (30, 30, 30));
        for (p, a) in out.iter().zip(&angles) {
            let want = Point::new(f64::from(r) * a.cos(), f64::from(r) * a.sin());
            assert!(close(*p, want));
            assert!(((p.coords.norm()) - f64::from(r)).abs() < 1e-12);
        }
        let (first, last) = (out[0], out[29]);
        assert!(close(
            first,
            Point::new(f64::from(r) * 0.25f64.cos(), -f64::from(r) * 0.25f64.sin())
        ));
        assert!(close(
            last,
            Point::new(f64::from(r) * 0.25f64.cos(), f64::from(r) * 0.25f64.sin())
        ));
    }
}

#[test]
fn rep_117_infinities_and_edge_cases() {
    let mut out = vec![Point::new(9.0, 9.0)];
    // +inf: nothing detected, valid.
    assert_eq!(range_points(&reading(f32::INFINITY), 0.01, &mut out), Ok(0));
    assert_eq!(out.len(), 1);
    // -inf: something closer than min_range: the arc at min_range.
    let n = range_points(&reading(f32::NEG_INFINITY), 0.1, &mut out).expect("valid");
    assert_eq!(n, arc_angles(0.5, 0.1).len());
    for p in &out[1..] {
        assert!((p.coords.norm() - f64::from(0.2f32)).abs() < 1e-12);
    }
    // A step wider than the field of view: both ends only.
    let mut one = Vec::new();
    assert_eq!(range_points(&reading(1.0), 10.0, &mut one), Ok(2));
    assert_eq!(range_points(&reading(1.0), f64::INFINITY, &mut one), Ok(2));
    // A step dividing the field of view exactly: the end is not repeated.
    one.clear();
    let quarter = RangeReading {
        field_of_view: 1.0,
        ..reading(1.0)
    };
    assert_eq!(range_points(&quarter, 0.25, &mut one), Ok(5));
}

#[test]
fn range_errors_leave_out_unchanged() {
    let base = reading(1.0);
    let cases = [
        (reading(f32::NAN), 0.01, RangeError::NanRange),
        (reading(0.19), 0.01, RangeError::OutOfLimits),
        (reading(4.01), 0.01, RangeError::OutOfLimits),
        (reading(-1.0), 0.01, RangeError::OutOfLimits),
        (
            RangeReading {
                field_of_view: f32::NAN,
                ..base
            },
            0.01,
            RangeError::InvalidFieldOfView,
        ),
        (
            RangeReading {
                field_of_view: -0.1,
                ..base
            },
            0.01,
            RangeError::InvalidFieldOfView,
        ),
        (
            RangeReading {
                field_of_view: f32::INFINITY,
                ..base
            },
            0.01,
            RangeError::InvalidFieldOfView,
        ),
        (
            RangeReading {
                min_range: -0.1,
                ..base
            },
            0.01,
            RangeError::InvalidLimits,
        ),
        (
            RangeReading {
                max_range: f32::INFINITY,
                ..base
            },
            0.01,
            RangeError::InvalidLimits,
        ),
        (
            RangeReading {
                min_range: 5.0,
                ..base
            },
            0.01,
            RangeError::InvalidLimits,
        ),
        (
            RangeReading {
                max_range: f32::NAN,
                ..base
            },
            0.01,
            RangeError::InvalidLimits,
        ),
        (base, 0.0, RangeError::InvalidObstaclesAngle),
        (base, -0.1, RangeError::InvalidObstaclesAngle),
        (base, f64::NAN, RangeError::InvalidObstaclesAngle),
        (base, 1e-9, RangeError::TooManyPoints),
        (
            RangeReading {
                field_of_view: 3.0,
                ..base
            },
            3.0 / 4094.5,
            RangeError::TooManyPoints,
        ),
        // nav2's checks (#6231): a field of view of zero or above pi (the
        // f32 nearest pi is above it), equal limits.
        (
            RangeReading {
                field_of_view: 0.0,
                ..base
            },
            0.01,
            RangeError::InvalidFieldOfView,
        ),
        (
            RangeReading {
                field_of_view: std::f32::consts::PI,
                ..base
            },
            0.01,
            RangeError::WideFieldOfView,
        ),
        (
            RangeReading {
                field_of_view: 7.0,
                ..base
            },
            7.0 / 4094.5,
            RangeError::WideFieldOfView,
        ),
        (
            RangeReading {
                min_range: 4.0,
                ..base
            },
            0.01,
            RangeError::InvalidLimits,
        ),
    ];
    for (r, step, e) in cases {
        let mut out = vec![Point::origin()];
        assert_eq!(range_points(&r, step, &mut out), Err(e), "{r:?} {step}");
        assert_eq!(out, vec![Point::origin()]);
        assert!(!e.as_str().is_empty() && !e.to_string().is_empty());
    }
}

#[test]
fn the_arc_cap_is_reached_but_not_passed() {
    // The widest field of view nav2 takes (the f32 just below pi) at a step
    // that gives the cap minus one and a half below the end.
    let fov = std::f32::consts::PI.next_down();
    let step = f64::from(fov) / (MAX_RANGE_ARC_POINTS as f64 - 2.5);
    let r = RangeReading {
        field_of_view: fov,
        ..reading(1.0)
    };
    let mut out = Vec::new();
    let n = range_points(&r, step, &mut out).expect("within the cap");
    assert_eq!(n, arc_angles(f64::from(fov), step).len());
    assert!(n <= MAX_RANGE_ARC_POINTS);
    // A half turn at nav2's default: 181 points.
    out.clear();
    let half_turn = RangeReading {
        field_of_view: fov,
        ..reading(1.0)
    };
    let n = range_points(&half_turn, DEFAULT_OBSTACLES_ANGLE, &mut out).expect("valid");
    assert_eq!(n, arc_angles(f64::from(fov), DEFAULT_OBSTACLES_ANGLE).len());
    assert!((180..=182).contains(&n));
}

// ---------------------------------------------------------------- cloud

fn field(name: &str, offset: u32, datatype: u8) -> PointField<'_> {
    PointField {
        name: name.as_bytes(),
        offset,
        datatype,
        count: 1,
    }
}

/// x, y, z float32 little endian at 0, 4, 8; point_step 16, dense.
fn xyz_cloud(points: &[[f32; 3]]) -> (Vec<PointField<'static>>, Vec<u8>) {
    let fields = vec![field("x", 0, 7), field("y", 4, 7), field("z", 8, 7)];
    let mut data = Vec::new();
    for p in points {
        for v in p {
            data.extend_from_slice(&v.to_le_bytes());
        }
        data.extend_from_slice(&[0xAB; 4]);
    }
    (fields, data)
}

fn cloud<'a>(fields: &'a [PointField<'a>], data: &'a [u8], width: u32) -> PointCloud<'a> {
    PointCloud {
        height: 1,
        width,
        fields,
        is_bigendian: false,
        point_step: 16,
        row_step: 16 * width,
        data,
    }
}

fn open_filter() -> CloudFilter {
    CloudFilter {
        min_height: f64::NEG_INFINITY,
        max_height: f64::INFINITY,
        ..CloudFilter::default()
    }
}

#[test]
fn cloud_points_are_moved_into_the_base_frame_and_filtered() {
    let pts = [
        [1.0, 2.0, 0.3],
        [f32::NAN, 0.0, 0.0],
        [0.0, f32::INFINITY, 0.0],
        [3.0, -1.0, 0.04], // below min_height (identity)
        [3.0, -1.0, 0.05], // on it: kept
        [3.0, -1.0, 0.5],  // on max_height: kept
        [3.0, -1.0, 0.51],
    ];
    let (fields, data) = xyz_cloud(&pts);
    let c = cloud(&fields, &data, pts.len() as u32);
    let mut out = vec![Point::new(5.0, 5.0)];
    let stats = cloud_points(&c, &CloudFilter::default(), &mut out).expect("valid");
    assert_eq!(
        stats,
        CloudStats {
            read: 7,
            kept: 3,
            non_finite: 2
        }
    );
    assert_eq!(
        out[1..],
        [
            Point::new(1.0, 2.0),
            Point::new(3.0, -1.0),
            Point::new(3.0, -1.0)
        ]
    );

    // Down by 0.5 m: every height falls below min_height.
    let down = CloudFilter {
        to_base: Isometry3::translation(0.5, 0.0, -0.5),
        ..CloudFilter::default()
    };
    out.clear();
    let stats = cloud_points(&c, &down, &mut out).expect("valid");
    assert_eq!((stats.kept, stats.non_finite), (0, 2));
    let rotated = CloudFilter {
        to_base: Isometry3::from_parts(
            Translation3::new(1.0, 0.0, 0.0),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), FRAC_PI_2),
        ),
        ..open_filter()
    };
    out.clear();
    let stats = cloud_points(&c, &rotated, &mut out).expect("valid");
    assert_eq!((stats.kept, stats.non_finite), (5, 2));
    assert!(close(out[0], Point::new(1.0 - 2.0, 1.0)));
}

#[test]
fn min_range_is_the_distance_from_the_sensor_before_the_transform() {
    // 3-4-0 is 5 m from the sensor; 0-0-5 too (straight up).
    let pts = [[3.0, 4.0, 0.0], [0.0, 0.0, 5.0], [3.0, 3.9, 0.0]];
    let (fields, data) = xyz_cloud(&pts);
    let c = cloud(&fields, &data, 3);
    let filter = CloudFilter {
        min_range: 5.0,
        // A transform far away changes nothing about the range.
        to_base: Isometry3::translation(100.0, 100.0, 0.0),
        ..open_filter()
    };
    let mut out = Vec::new();
    let stats = cloud_points(&c, &filter, &mut out).expect("valid");
    assert_eq!(stats.kept, 2);
    assert_eq!(
        out,
        vec![Point::new(103.0, 104.0), Point::new(100.0, 100.0)]
    );
}

#[test]
fn the_range_threshold_is_exactly_nav2s_square_root_compare() {
    let mut rng = sat_collision_testkit::SplitMix64::new(11);
    for _ in 0..20_000 {
        let m = 10f64.powf(rng.range(-160.0, 160.0));
        let t = range_threshold(m);
        // nav2 keeps r2 when !(sqrt(r2) < m): at the threshold and above,
        // not just below it.
        assert!(t.sqrt() >= m, "{m} {t}");
        let below = f64::from_bits(t.to_bits() - 1);
        assert!(below.sqrt() < m, "{m} {t}");
        let r2 = m * m * rng.range(0.999_999_999, 1.000_000_001);
        assert_eq!(r2 >= t, r2.sqrt() >= m, "{m} {r2}");
    }
    assert_eq!(range_threshold(0.0), f64::NEG_INFINITY);
    assert_eq!(range_threshold(-1.0), f64::NEG_INFINITY);
    assert_eq!(range_threshold(f64::INFINITY), f64::INFINITY);
    assert_eq!(range_threshold(f64::MAX), f64::INFINITY);
    let tiny = range_threshold(f64::MIN_POSITIVE);
    assert!(
        tiny.sqrt() >= f64::MIN_POSITIVE
            && f64::from_bits(tiny.to_bits() - 1).sqrt() < f64::MIN_POSITIVE
    );
}

#[test]
fn use_global_height_reads_the_height_field_untransformed() {
    // x y z height, float32; the z says nothing, the height field decides.
    let fields = vec![
        field("x", 0, 7),
        field("y", 4, 7),
        field("z", 8, 7),
        field("height", 12, 7),
    ];
    let mut data = Vec::new();
    for p in [
        [1.0f32, 0.0, 9.0, 0.2],
        [2.0, 0.0, 0.2, 9.0],
        [3.0, 0.0, 0.2, f32::NAN],
    ] {
        for v in p {
            data.extend_from_slice(&v.to_le_bytes());
        }
    }
    let c = cloud(&fields, &data, 3);
    let filter = CloudFilter {
        use_global_height: true,
        to_base: Isometry3::translation(0.0, 0.0, 5.0),
        ..CloudFilter::default()
    };
    let mut out = Vec::new();
    let stats = cloud_points(&c, &filter, &mut out).expect("valid");
    assert_eq!(
        stats,
        CloudStats {
            read: 3,
            kept: 1,
            non_finite: 1
        }
    );
    assert_eq!(out, vec![Point::new(1.0, 0.0)]);
    // Without the field: refused (nav2: the source is invalid).
    let (fields, data) = xyz_cloud(&[[1.0, 0.0, 0.2]]);
    let c = cloud(&fields, &data, 1);
    assert_eq!(
        cloud_points(&c, &filter, &mut out),
        Err(CloudError::MissingField(CloudField::Height))
    );
}

#[test]
fn big_endian_float64_padded_rows() {
    // Two rows of two points: z, y, x float64 big endian at 16, 8, 0 of a
    // 28-byte point; rows padded to 64 bytes.
    let fields = vec![field("z", 16, 8), field("y", 8, 8), field("x", 0, 8)];
    let mut data = vec![0xEEu8; 128];
    let pts = [
        [1.0, 2.0, 0.1],
        [3.0, 4.0, 0.2],
        [5.0, 6.0, 0.3],
        [7.0, 8.0, 0.6],
    ];
    for (i, p) in pts.iter().enumerate() {
        let base = (i / 2) * 64 + (i % 2) * 28;
        for (j, v) in p.iter().enumerate() {
            data[base + 8 * j..base + 8 * j + 8].copy_from_slice(&f64::to_be_bytes(*v));
        }
    }
    let c = PointCloud {
        height: 2,
        width: 2,
        fields: &fields,
        is_bigendian: true,
        point_step: 28,
        row_step: 64,
        data: &data,
    };
    let mut out = Vec::new();
    let stats = cloud_points(&c, &CloudFilter::default(), &mut out).expect("valid");
    assert_eq!(
        stats,
        CloudStats {
            read: 4,
            kept: 3,
            non_finite: 0
        }
    );
    assert_eq!(
        out,
        vec![
            Point::new(1.0, 2.0),
            Point::new(3.0, 4.0),
            Point::new(5.0, 6.0)
        ]
    );
}

#[test]
fn malformed_clouds_are_typed_errors_and_leave_out_unchanged() {
    let (fields, data) = xyz_cloud(&[[1.0, 0.0, 0.2], [2.0, 0.0, 0.2]]);
    let good = cloud(&fields, &data, 2);
    let no_y = [fields[0], fields[2]];
    let mut bad_type = fields.clone();
    bad_type[2].datatype = 6;
    let mut bad_count = fields.clone();
    bad_count[1].count = 3;
    let mut outside = fields.clone();
    outside[2].offset = 13;
    let mut wide = fields.clone();
    wide[0].datatype = 8;
    wide[0].offset = 9;
    let mut huge_offset = fields.clone();
    huge_offset[0].offset = u32::MAX;
    let cases: Vec<(PointCloud<'_>, CloudError, &str)> = vec![
        (
            PointCloud {
                fields: &fields[1..],
                ..good
            },
            CloudError::MissingField(CloudField::X),
            "missing_field_x",
        ),
        (
            PointCloud {
                fields: &no_y,
                ..good
            },
            CloudError::MissingField(CloudField::Y),
            "missing_field_y",
        ),
        (
            PointCloud {
                fields: &fields[..2],
                ..good
            },
            CloudError::MissingField(CloudField::Z),
            "missing_field_z",
        ),
        (
            PointCloud {
                fields: &bad_type,
                ..good
            },
            CloudError::UnsupportedDatatype {
                field: CloudField::Z,
                datatype: 6,
            },
            "unsupported_datatype",
        ),
        (
            PointCloud {
                fields: &bad_count,
                ..good
            },
            CloudError::UnsupportedCount {
                field: CloudField::Y,
                count: 3,
            },
            "unsupported_count",
        ),
        (
            PointCloud {
                fields: &outside,
                ..good
            },
            CloudError::FieldOutsidePointStep(CloudField::Z),
            "field_outside_point_step",
        ),
        (
            PointCloud {
                fields: &wide,
                ..good
            },
            CloudError::FieldOutsidePointStep(CloudField::X),
            "field_outside_point_step",
        ),
        (
            PointCloud {
                fields: &huge_offset,
                ..good
            },
            CloudError::FieldOutsidePointStep(CloudField::X),
            "field_outside_point_step",
        ),
        (
            PointCloud {
                point_step: 0,
                row_step: 0,
                ..good
            },
            CloudError::FieldOutsidePointStep(CloudField::X),
            "field_outside_point_step",
        ),
        (
            PointCloud {
                row_step: 31,
                ..good
            },
            CloudError::RowStepTooShort,
            "row_step_too_short",
        ),
        (
            PointCloud {
                data: &data[..31],
                ..good
            },
            CloudError::DataTooShort,
            "data_too_short",
        ),
        (
            PointCloud { height: 2, ..good },
            CloudError::DataTooShort,
            "data_too_short",
        ),
        (
            PointCloud {
                width: u32::MAX,
                height: u32::MAX,
                ..good
            },
            CloudError::TooManyPoints,
            "too_many_points",
        ),
        (
            PointCloud {
                width: 1 << 11,
                height: (1 << 10) + 1,
                ..good
            },
            CloudError::TooManyPoints,
            "too_many_points",
        ),
        (
            PointCloud {
                width: u32::MAX,
                row_step: u32::MAX,
                ..good
            },
            CloudError::TooManyPoints,
            "too_many_points",
        ),
        (
            PointCloud {
                width: 1 << 20,
                row_step: (1 << 24) - 1,
                height: 2,
                ..good
            },
            CloudError::RowStepTooShort,
            "row_step_too_short",
        ),
        (
            PointCloud {
                width: 1 << 20,
                row_step: 1 << 24,
                height: 2,
                ..good
            },
            CloudError::DataTooShort,
            "data_too_short",
        ),
    ];
    for (c, e, spelling) in cases {
        let mut out = vec![Point::origin()];
        assert_eq!(cloud_points(&c, &CloudFilter::default(), &mut out), Err(e));
        assert_eq!(e.as_str(), spelling);
        assert!(!e.to_string().is_empty());
        assert_eq!(out, vec![Point::origin()]);
    }
    for filter in [
        CloudFilter {
            min_height: f64::NAN,
            ..CloudFilter::default()
        },
        CloudFilter {
            max_height: f64::NAN,
            ..CloudFilter::default()
        },
        CloudFilter {
            min_range: f64::NAN,
            ..CloudFilter::default()
        },
        CloudFilter {
            to_base: Isometry3::translation(f64::INFINITY, 0.0, 0.0),
            ..CloudFilter::default()
        },
    ] {
        let mut out = Vec::new();
        assert_eq!(
            cloud_points(&good, &filter, &mut out),
            Err(CloudError::InvalidFilter)
        );
        assert_eq!(CloudError::InvalidFilter.as_str(), "invalid_filter");
    }
    assert_eq!(
        CloudError::MissingField(CloudField::Height).as_str(),
        "missing_field_height"
    );
    assert_eq!(CloudError::SizeOverflow.as_str(), "size_overflow");
    // The limit itself is allowed, and an empty cloud is no points.
    let mut out = Vec::new();
    let empty = PointCloud {
        width: 0,
        row_step: 0,
        data: &[],
        ..good
    };
    assert_eq!(
        cloud_points(&empty, &CloudFilter::default(), &mut out),
        Ok(CloudStats::default())
    );
}

#[test]
fn the_first_field_of_a_name_is_read_and_extra_data_is_ignored() {
    let (mut fields, mut data) = xyz_cloud(&[[1.0, 2.0, 0.2]]);
    fields.push(field("x", 12, 7)); // the padding bytes: not read
    data.extend_from_slice(&[1, 2, 3]);
    let c = cloud(&fields, &data, 1);
    let mut out = Vec::new();
    assert_eq!(
        cloud_points(&c, &CloudFilter::default(), &mut out).map(|s| s.kept),
        Ok(1)
    );
    assert_eq!(out, vec![Point::new(1.0, 2.0)]);
}

#[test]
fn huge_float64_coordinates_are_skipped_not_kept() {
    let fields = vec![field("x", 0, 8), field("y", 8, 8), field("z", 16, 8)];
    let mut data = Vec::new();
    for p in [[1e200, 0.0, 0.2], [1.0, f64::MAX, 0.2], [1.0, 1.0, 0.2]] {
        for v in p {
            data.extend_from_slice(&f64::to_le_bytes(v));
        }
    }
    let c = PointCloud {
        point_step: 24,
        row_step: 72,
        ..cloud(&fields, &data, 3)
    };
    let mut out = Vec::new();
    let stats = cloud_points(&c, &CloudFilter::default(), &mut out).expect("valid");
    assert_eq!(
        stats,
        CloudStats {
            read: 3,
            kept: 1,
            non_finite: 2
        }
    );
}

#[test]
fn more_points_than_a_buffer_all_arrive_in_order() {
    let pts: Vec<[f32; 3]> = (0..1000)
        .map(|i| [i as f32, -(i as f32), if i % 3 == 0 { 0.2 } else { 1.0 }])
        .collect();
    let (fields, data) = xyz_cloud(&pts);
    let c = cloud(&fields, &data, 1000);
    let mut out = Vec::new();
    let stats = cloud_points(&c, &CloudFilter::default(), &mut out).expect("valid");
    assert_eq!(stats.kept, 334);
    let want: Vec<Point> = (0..1000)
        .step_by(3)
        .map(|i| Point::new(f64::from(i), -f64::from(i)))
        .collect();
    assert_eq!(out, want);
}
