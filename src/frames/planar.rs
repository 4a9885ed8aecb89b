//! One `geometry_msgs/Transform` made planar: (x, y, yaw), after the
//! checks tf2's `BufferCore::setTransform` makes before it stores a
//! transform.
//!
//! The collision check is planar, so roll, pitch and z are ignored: each
//! transform is projected to (x, y, yaw) *before* transforms are composed
//! along a path of the tree. For a tree whose transforms rotate about z
//! only (a robot on a floor) this is exact; for a tilted link it is the
//! projection of each link, not of the composed 3-D transform.

use nalgebra::{Isometry2, Vector2};

/// tf2's `QUATERNION_NORMALIZATION_TOLERANCE`: a quaternion whose squared
/// norm differs from 1 by this much or more is not taken for a rotation
/// (a sender that fills in garbage, or the zero quaternion of an
/// uninitialised message), rather than silently normalised.
pub const QUATERNION_NORMALIZATION_TOLERANCE: f64 = 0.01;

/// Why a transform cannot be used: the refusals of tf2's `setTransform`,
/// kept so that a lookup through the refused transform says why it fails
/// instead of using an older sample as if nothing happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TransformFault {
    /// A NaN or infinite component (translation, rotation or time).
    #[error("a component is not finite")]
    NonFinite,
    /// A quaternion whose squared norm differs from 1 by
    /// [`QUATERNION_NORMALIZATION_TOLERANCE`] or more (the zero quaternion
    /// included).
    #[error("the rotation is not a unit quaternion")]
    NotARotation,
    /// Parent and child are the same frame (tf2's `TF_SELF_TRANSFORM`): a
    /// frame cannot be placed relative to itself.
    #[error("the parent and child frames are the same")]
    SelfTransform,
}

/// The planar part of a transform: `translation` (x, y, z) and `rotation`
/// (x, y, z, w, as in `geometry_msgs/Quaternion`) become the isometry of
/// (x, y, yaw), z, roll and pitch dropped.
///
/// Any non-finite component is [`TransformFault::NonFinite`]; a quaternion
/// not within [`QUATERNION_NORMALIZATION_TOLERANCE`] of unit norm (squared)
/// is [`TransformFault::NotARotation`]. Otherwise the quaternion is
/// normalised and yaw is its ZYX-Euler yaw,
/// `atan2(2(wz + xy), 1 − 2(y² + z²))`, which is the heading of the rotated
/// x axis projected onto the plane.
pub fn planar_transform(
    translation: [f64; 3],
    rotation: [f64; 4],
) -> Result<Isometry2<f64>, TransformFault> {
    if !translation.iter().chain(&rotation).all(|c| c.is_finite()) {
        return Err(TransformFault::NonFinite);
    }
    let [x, y, z, w] = rotation;
    let norm2 = x * x + y * y + z * z + w * w;
    // Written so that an overflowing norm (inf) is refused too.
    let unit = (norm2 - 1.0).abs() < QUATERNION_NORMALIZATION_TOLERANCE;
    if !unit {
        return Err(TransformFault::NotARotation);
    }
    let n = norm2.sqrt();
    let (x, y, z, w) = (x / n, y / n, z / n, w / n);
    let yaw = (2.0 * (w * z + x * y)).atan2(1.0 - 2.0 * (y * y + z * z));
    Ok(Isometry2::new(
        Vector2::new(translation[0], translation[1]),
        yaw,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, PI};

    fn about_z(yaw: f64) -> [f64; 4] {
        [0.0, 0.0, (yaw / 2.0).sin(), (yaw / 2.0).cos()]
    }

    #[test]
    fn a_rotation_about_z_keeps_x_y_and_yaw_and_drops_z() {
        let t = planar_transform([1.5, -2.0, 7.0], about_z(0.7)).expect("valid");
        assert_eq!(t.translation.vector, Vector2::new(1.5, -2.0));
        assert!((t.rotation.angle() - 0.7).abs() < 1e-12);
        let t = planar_transform([0.0; 3], about_z(-3.0)).expect("valid");
        assert!((t.rotation.angle() + 3.0).abs() < 1e-12);
    }

    #[test]
    fn the_identity_quaternion_is_no_rotation() {
        let t = planar_transform([0.0; 3], [0.0, 0.0, 0.0, 1.0]).expect("valid");
        assert_eq!(t.rotation.angle(), 0.0);
        // w = -1 is the same rotation.
        let t = planar_transform([0.0; 3], [0.0, 0.0, 0.0, -1.0]).expect("valid");
        assert!(t.rotation.angle().abs() < 1e-12);
    }

    #[test]
    fn a_slightly_unnormalised_quaternion_is_normalised() {
        let [x, y, z, w] = about_z(FRAC_PI_2);
        let s = 1.004; // squared norm 1.008 < 1.01
        let t = planar_transform([0.0; 3], [x * s, y * s, z * s, w * s]).expect("valid");
        assert!((t.rotation.angle() - FRAC_PI_2).abs() < 1e-12);
    }

    #[test]
    fn a_quaternion_far_from_unit_norm_is_not_a_rotation() {
        for q in [
            [0.0, 0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 0.99],  // squared norm 0.9801
            [0.0, 0.0, 0.0, 1.006], // squared norm 1.012
            [1.0, 1.0, 0.0, 0.0],
            [1e200, 0.0, 0.0, 0.0], // squared norm overflows to inf
        ] {
            assert_eq!(
                planar_transform([0.0; 3], q),
                Err(TransformFault::NotARotation),
                "{q:?}"
            );
        }
    }

    #[test]
    fn any_non_finite_component_is_refused() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            for i in 0..3 {
                let mut t = [0.0; 3];
                t[i] = bad;
                assert_eq!(
                    planar_transform(t, [0.0, 0.0, 0.0, 1.0]),
                    Err(TransformFault::NonFinite)
                );
            }
            for i in 0..4 {
                let mut q = [0.0, 0.0, 0.0, 1.0];
                q[i] = bad;
                assert_eq!(
                    planar_transform([0.0; 3], q),
                    Err(TransformFault::NonFinite)
                );
            }
        }
    }

    #[test]
    fn roll_and_pitch_are_dropped_keeping_the_zyx_yaw() {
        // A half turn about x (roll = pi) and no yaw: the x axis stays put.
        let t = planar_transform([0.0; 3], [1.0, 0.0, 0.0, 0.0]).expect("valid");
        assert!(t.rotation.angle().abs() < 1e-12);
        // Yaw 1.0 then pitch 0.3 (ZYX): yaw 1.0.
        let (cy, sy) = ((0.5f64).cos(), (0.5f64).sin());
        let (cp, sp) = ((0.15f64).cos(), (0.15f64).sin());
        let q = [-sy * sp, cy * sp, sy * cp, cy * cp];
        let t = planar_transform([0.0; 3], q).expect("valid");
        assert!((t.rotation.angle() - 1.0).abs() < 1e-12);
        // Yaw of pi is +pi or -pi, both the same heading.
        let t = planar_transform([0.0; 3], about_z(PI)).expect("valid");
        assert!((t.rotation.angle().abs() - PI).abs() < 1e-12);
    }
}
