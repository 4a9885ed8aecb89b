//! The closed forms of the escape rules against direct computations: the
//! displacement and the waves against `Motion::pose_at` (the poses the rest
//! of the library uses), the first peak against dense sampling.

use super::*;
use nalgebra::Isometry2;
use sat_collision_testkit::SplitMix64 as Rng;

fn random_twist(rng: &mut Rng) -> Twist {
    let w = match rng.below(4) {
        0 => 0.0,
        1 => rng.range(-1e-6, 1e-6),
        _ => rng.range(-3.0, 3.0),
    };
    Twist {
        v: Vector::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)),
        w,
    }
}

fn motion(twist: &Twist) -> Motion {
    Motion::twist(&Isometry2::identity(), twist.v, twist.w)
}

fn point(rng: &mut Rng) -> Point {
    Point::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0))
}

fn unit_vector(rng: &mut Rng) -> Vector {
    let a = rng.range(0.0, TAU);
    Vector::new(a.cos(), a.sin())
}

#[test]
fn displacement_is_the_pose_of_the_motion() {
    let mut rng = Rng::new(1);
    for case in 0..2_000 {
        let twist = random_twist(&mut rng);
        let x = point(&mut rng);
        let t = rng.range(0.0, 4.0);
        let expected = motion(&twist).pose_at(t) * x - x;
        let got = twist.displacement(&x, t);
        assert!((got - expected).norm() <= 1e-12, "case {case}");
    }
}

#[test]
fn waves_are_the_overlap_terms() {
    let mut rng = Rng::new(2);
    for case in 0..2_000 {
        let twist = random_twist(&mut rng);
        let m = motion(&twist);
        let (u, p) = (unit_vector(&mut rng), point(&mut rng));
        let (v, t) = (twist.v, rng.range(0.0, 4.0));
        let pose = m.pose_at(t);
        // Turning with the zone: −u·(M(t)⁻¹p − p).
        let zone = Wave {
            a: u.dot(&p.coords),
            b: -cross(&u, &p.coords),
            s: u.dot(&v),
            c: cross(&u, &v),
            q: 0.0,
        };
        let expected = -u.dot(&(pose.inverse_transform_point(&p) - p));
        assert!(
            (zone.at(&twist, t) - expected).abs() <= 1e-12,
            "case {case}"
        );
        // Fixed: u·(M(t)p − p).
        let fixed = Wave {
            a: -u.dot(&p.coords),
            b: -cross(&u, &p.coords),
            s: u.dot(&v),
            c: -cross(&u, &v),
            q: 0.0,
        };
        let expected = u.dot(&(pose * p - p));
        assert!(
            (fixed.at(&twist, t) - expected).abs() <= 1e-12,
            "case {case}"
        );
        // A disc's centre c and a point q: (|q − c|² − |q − M(t)c|²)/2.
        let (c, q) = (point(&mut rng), point(&mut rng));
        let disc = Wave {
            a: -c.coords.dot(&q.coords),
            b: cross(&c.coords, &q.coords),
            s: v.dot(&(q - c)),
            c: cross(&v, &(q.coords + c.coords)),
            q: -v.norm_squared(),
        };
        let expected = 0.5 * ((q - c).norm_squared() - (q - pose * c).norm_squared());
        assert!(
            (disc.at(&twist, t) - expected).abs() <= 1e-11,
            "case {case}: {} against {expected}",
            disc.at(&twist, t)
        );
    }
}

#[test]
fn first_peak_is_the_highest_point_of_the_wave() {
    let mut rng = Rng::new(3);
    let mut peaks = 0;
    for case in 0..2_000 {
        let mut twist = random_twist(&mut rng);
        if twist.w.abs() < 0.1 && rng.chance(0.5) {
            twist.w = 0.0;
        }
        let wave = Wave {
            a: rng.range(-2.0, 2.0),
            b: rng.range(-2.0, 2.0),
            s: rng.range(-2.0, 2.0),
            c: rng.range(-2.0, 2.0),
            q: match rng.chance(0.5) {
                true => -rng.range(0.0, 4.0),
                false => 0.0,
            },
        };
        // Over a span of one period (or 10 s without rotation), sampled.
        let span = match twist.w.abs() > 1e-3 {
            true => TAU / twist.w.abs(),
            false => 10.0,
        };
        let samples = 20_000;
        let (mut best, mut first_local) = (0.0f64, None);
        let value = |t: f64| wave.at(&twist, t);
        for k in 1..samples {
            let t = span * k as f64 / samples as f64;
            let f = value(t);
            best = best.max(f);
            let h = span / samples as f64;
            if first_local.is_none() && f >= value(t - h) && f >= value(t + h) {
                first_local = Some(t);
            }
        }
        match wave.first_peak(twist.w) {
            Some(t1) if t1 > 0.0 && t1 < span => {
                peaks += 1;
                let f1 = value(t1);
                assert!(f1 >= best - 1e-9, "case {case}: peak {f1} below {best}");
                if let Some(t) = first_local {
                    assert!((t - t1).abs() <= 2.0 * span / samples as f64, "case {case}");
                }
            }
            // No peak inside: the wave only falls after 0, or rises to
            // the end of the span (a parabola or a straight line).
            _ => assert!(
                first_local.is_none() || twist.w == 0.0 && best <= value(span) + 1e-12,
                "case {case}: missed a peak at {first_local:?}"
            ),
        }
    }
    assert!(peaks > 1_000, "{peaks} peaks");
}
