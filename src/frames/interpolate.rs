//! A transform between two timed samples, as tf2 does between the two
//! samples that bracket the requested time: translation linear, the
//! rotation along the shorter arc (tf2's quaternion slerp; in the plane,
//! the heading's shorter turn).

use nalgebra::{Isometry2, Isometry3, UnitComplex, UnitQuaternion, Vector2, Vector3};
use std::f64::consts::{PI, TAU};

/// `angle` wrapped to (−π, π]: the same heading, in the range
/// `UnitComplex::angle` returns, so that a difference of two headings is
/// the signed shorter turn between them.
pub fn wrap_angle(angle: f64) -> f64 {
    let r = angle.rem_euclid(TAU);
    // `rem_euclid` may round up to TAU itself; that is heading 0.
    if r > PI {
        r - TAU
    } else {
        r
    }
}

/// Where `t` lies between the samples at `ta` and `tb`.
enum Bracket {
    /// At or before `ta`, or not usable: NaN (0/0, non-finite times) or an
    /// empty span. The first sample.
    A,
    /// At or after `tb`: the second sample.
    B,
    /// Strictly between: the fraction of the span, in (0, 1).
    Between(f64),
}

/// Where `t` lies between `ta` and `tb` (the rule both interpolations
/// clamp by: never an extrapolation).
fn bracket(ta: f64, tb: f64, t: f64) -> Bracket {
    let span = tb - ta;
    let ratio = (t - ta) / span;
    if !(ratio > 0.0 && span > 0.0) {
        Bracket::A
    } else if ratio >= 1.0 {
        Bracket::B
    } else {
        Bracket::Between(ratio)
    }
}

/// The transform at time `t` between `a` (at time `ta`) and `b` (at time
/// `tb`): the translation moves linearly and the heading turns along the
/// shorter arc (a half turn goes counter-clockwise), at constant rates.
/// `t` outside [`ta`, `tb`] is clamped to it, and `ta == tb` (or any
/// non-finite time) gives `a`: the caller brackets, this never
/// extrapolates.
pub fn interpolate(
    ta: f64,
    a: &Isometry2<f64>,
    tb: f64,
    b: &Isometry2<f64>,
    t: f64,
) -> Isometry2<f64> {
    let ratio = match bracket(ta, tb, t) {
        Bracket::A => return *a,
        Bracket::B => return *b,
        Bracket::Between(ratio) => ratio,
    };
    let from = a.rotation.angle();
    let turn = wrap_angle(b.rotation.angle() - from);
    let translation: Vector2<f64> =
        a.translation.vector + (b.translation.vector - a.translation.vector) * ratio;
    Isometry2::from_parts(
        translation.into(),
        UnitComplex::new(wrap_angle(from + turn * ratio)),
    )
}

/// The 3-D transform at time `t` between `a` (at time `ta`) and `b` (at
/// time `tb`), as [`interpolate`] in the plane: the translation moves
/// linearly (the same arithmetic, so x and y are [`interpolate`]'s for the
/// same samples), the rotation is the quaternion slerp along the shorter
/// arc, normalised. `t` outside [`ta`, `tb`] is clamped to it, and
/// `ta == tb` (or any non-finite time) gives `a`.
pub fn interpolate_3d(
    ta: f64,
    a: &Isometry3<f64>,
    tb: f64,
    b: &Isometry3<f64>,
    t: f64,
) -> Isometry3<f64> {
    let ratio = match bracket(ta, tb, t) {
        Bracket::A => return *a,
        Bracket::B => return *b,
        Bracket::Between(ratio) => ratio,
    };
    let translation: Vector3<f64> =
        a.translation.vector + (b.translation.vector - a.translation.vector) * ratio;
    // `try_slerp` takes the shorter arc (it negates `b` when the two
    // quaternions' dot product is negative), then refuses only when the
    // sine of the angle between them is within `EPSILON` of 0 with their
    // cosine below 1. With unit quaternions in the same hemisphere (cosine
    // in [0, 1)) the sine is then at least about 1.5e-8: it does not refuse.
    // Were it to, the two would be one rotation to rounding, and `a`'s is
    // the answer. The slerp of close rotations can leave the quaternion
    // ~1e-10 off unit length (its sine is computed from the cosine), which
    // would scale whatever it rotates: it is normalised.
    let rotation = a
        .rotation
        .try_slerp(&b.rotation, ratio, f64::EPSILON)
        .map_or(a.rotation, |q| {
            UnitQuaternion::new_normalize(q.into_inner())
        });
    Isometry3::from_parts(translation.into(), rotation)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose(x: f64, y: f64, yaw: f64) -> Isometry2<f64> {
        Isometry2::new(Vector2::new(x, y), yaw)
    }

    #[test]
    fn the_midpoint_is_halfway_in_translation_and_heading() {
        let a = pose(0.0, 0.0, 0.0);
        let b = pose(2.0, -4.0, 1.0);
        let m = interpolate(10.0, &a, 12.0, &b, 11.0);
        assert!((m.translation.vector - Vector2::new(1.0, -2.0)).norm() < 1e-12);
        assert!((m.rotation.angle() - 0.5).abs() < 1e-12);
        let q = interpolate(10.0, &a, 12.0, &b, 10.5);
        assert!((q.translation.vector - Vector2::new(0.5, -1.0)).norm() < 1e-12);
        assert!((q.rotation.angle() - 0.25).abs() < 1e-12);
    }

    #[test]
    fn the_heading_takes_the_shorter_arc_across_plus_minus_pi() {
        // From 170° to -170°: through 180°, not through 0°.
        let a = pose(0.0, 0.0, 170f64.to_radians());
        let b = pose(0.0, 0.0, (-170f64).to_radians());
        let m = interpolate(0.0, &a, 1.0, &b, 0.5);
        assert!((m.rotation.angle().abs() - PI).abs() < 1e-12);
        let q = interpolate(0.0, &a, 1.0, &b, 0.25);
        assert!((q.rotation.angle() - 175f64.to_radians()).abs() < 1e-12);
        let r = interpolate(0.0, &a, 1.0, &b, 0.75);
        assert!((r.rotation.angle() + 175f64.to_radians()).abs() < 1e-12);
        // And the other way round.
        let back = interpolate(0.0, &b, 1.0, &a, 0.25);
        assert!((back.rotation.angle() + 175f64.to_radians()).abs() < 1e-12);
    }

    #[test]
    fn the_ends_and_outside_are_the_samples_themselves() {
        let a = pose(1.0, 2.0, 0.3);
        let b = pose(3.0, 4.0, -0.3);
        assert_eq!(interpolate(0.0, &a, 1.0, &b, 0.0), a);
        assert_eq!(interpolate(0.0, &a, 1.0, &b, 1.0), b);
        assert_eq!(interpolate(0.0, &a, 1.0, &b, -5.0), a);
        assert_eq!(interpolate(0.0, &a, 1.0, &b, 5.0), b);
        assert_eq!(interpolate(1.0, &a, 1.0, &b, 1.0), a);
        assert_eq!(interpolate(0.0, &a, 1.0, &b, f64::NAN), a);
        assert_eq!(interpolate(f64::NAN, &a, 1.0, &b, 0.5), a);
    }

    #[test]
    fn wrap_angle_lands_in_minus_pi_exclusive_to_pi_inclusive() {
        assert_eq!(wrap_angle(PI), PI);
        assert!((wrap_angle(-PI) - PI).abs() < 1e-15);
        assert!((wrap_angle(3.0 * PI / 2.0) + PI / 2.0).abs() < 1e-12);
        assert!((wrap_angle(-3.0 * PI / 2.0) - PI / 2.0).abs() < 1e-12);
        assert_eq!(wrap_angle(0.0), 0.0);
        assert!(wrap_angle(-1e-300).abs() < 1e-12);
        assert!(wrap_angle(f64::NAN).is_nan());
    }

    fn pose3(t: [f64; 3], roll: f64, pitch: f64, yaw: f64) -> Isometry3<f64> {
        Isometry3::from_parts(
            Vector3::new(t[0], t[1], t[2]).into(),
            UnitQuaternion::from_euler_angles(roll, pitch, yaw),
        )
    }

    #[test]
    fn in_3d_the_midpoint_is_halfway_in_translation_and_rotation() {
        let a = pose3([0.0, 0.0, 1.0], 0.0, 0.0, 0.0);
        let b = pose3([2.0, -4.0, 3.0], 0.0, 0.4, 0.0);
        let m = interpolate_3d(10.0, &a, 12.0, &b, 11.0);
        assert!((m.translation.vector - Vector3::new(1.0, -2.0, 2.0)).norm() < 1e-12);
        let want = UnitQuaternion::from_euler_angles(0.0, 0.2, 0.0);
        assert!(m.rotation.angle_to(&want) < 1e-12, "{:?}", m.rotation);
        assert!((m.rotation.norm() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn in_3d_the_rotation_takes_the_shorter_arc_whatever_the_quaternions_sign() {
        let a = pose3([0.0; 3], 0.0, 0.0, 170f64.to_radians());
        let b = pose3([0.0; 3], 0.0, 0.0, (-170f64).to_radians());
        // The same rotation as `b`, its quaternion negated.
        let minus_b = Isometry3::from_parts(
            b.translation,
            UnitQuaternion::new_unchecked(-b.rotation.into_inner()),
        );
        for b in [b, minus_b] {
            let q = interpolate_3d(0.0, &a, 1.0, &b, 0.25);
            let want = UnitQuaternion::from_euler_angles(0.0, 0.0, 175f64.to_radians());
            assert!(q.rotation.angle_to(&want) < 1e-12, "{:?}", q.rotation);
        }
    }

    #[test]
    fn in_3d_about_z_it_projects_to_the_planar_interpolation() {
        let (a2, b2) = (pose(1.0, 2.0, 3.0), pose(-1.0, 0.5, -2.9));
        let a = pose3([1.0, 2.0, 0.5], 0.0, 0.0, 3.0);
        let b = pose3([-1.0, 0.5, -7.0], 0.0, 0.0, -2.9);
        for t in [0.1, 0.5, 0.77] {
            let p = interpolate(0.0, &a2, 1.0, &b2, t);
            let s = interpolate_3d(0.0, &a, 1.0, &b, t);
            assert_eq!(s.translation.x, p.translation.x);
            assert_eq!(s.translation.y, p.translation.y);
            let yaw = s.rotation.euler_angles().2;
            assert!(UnitComplex::new(yaw).angle_to(&p.rotation).abs() < 1e-12);
        }
    }

    #[test]
    fn in_3d_close_rotations_interpolate_to_a_unit_quaternion() {
        // Their slerp computes the sine of a tiny angle from its cosine: a
        // quaternion off unit length, which would scale what it rotates.
        let a = pose3([0.0; 3], 0.3, -0.2, 0.1);
        let mut worst: f64 = 0.0;
        for k in 1..=40 {
            let turn = UnitQuaternion::from_euler_angles(1e-7 * f64::from(k), 0.0, 0.0);
            let b = Isometry3::from_parts(a.translation, a.rotation * turn);
            let m = interpolate_3d(0.0, &a, 1.0, &b, 0.3);
            worst = worst.max((m.rotation.norm() - 1.0).abs());
        }
        assert!(worst < 1e-15, "{worst:e}");
    }

    #[test]
    fn in_3d_the_ends_and_outside_are_the_samples_themselves() {
        let a = pose3([1.0, 2.0, 3.0], 0.3, -0.2, 0.1);
        let b = pose3([3.0, 4.0, 5.0], -0.3, 0.2, 2.0);
        assert_eq!(interpolate_3d(0.0, &a, 1.0, &b, 0.0), a);
        assert_eq!(interpolate_3d(0.0, &a, 1.0, &b, 1.0), b);
        assert_eq!(interpolate_3d(0.0, &a, 1.0, &b, -5.0), a);
        assert_eq!(interpolate_3d(0.0, &a, 1.0, &b, 5.0), b);
        assert_eq!(interpolate_3d(1.0, &a, 1.0, &b, 1.0), a);
        assert_eq!(interpolate_3d(0.0, &a, 1.0, &b, f64::NAN), a);
        assert_eq!(interpolate_3d(f64::NAN, &a, 1.0, &b, 0.5), a);
        // One rotation at both ends: no slerp refusal, no drift.
        let c = interpolate_3d(0.0, &a, 1.0, &a, 0.5);
        assert!(c.rotation.angle_to(&a.rotation) < 1e-15);
    }
}
