//! One accepted `geometry_msgs/Transform` as the tree keeps it: its full
//! 3-D pose, and beside it the planar projection the collision check uses.
//!
//! The planar pose is [`planar_transform`]'s, computed as it computes it
//! (same checks, same refusals, same numbers); the 3-D pose is the same
//! translation and the accepted quaternion normalised. Heights (a point
//! cloud's points in the robot's base frame) need the 3-D pose; the planar
//! one stays what every planar lookup composes.

use super::planar::{planar_transform, TransformFault};
use nalgebra::{
    Isometry2, Isometry3, Quaternion, Translation2, Translation3, UnitComplex, UnitQuaternion,
    Vector3,
};

/// A transform the tree accepted: its 3-D pose and its planar projection
/// (x, y, yaw).
///
/// Stored as the 3-D pose and the planar heading only (the planar x and y
/// are the 3-D ones): 80 bytes with a sample's stamp, where the planar
/// pose alone took 40.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transform {
    spatial: Isometry3<f64>,
    /// The planar pose's rotation, exactly as [`planar_transform`] made it.
    heading: UnitComplex<f64>,
}

impl Transform {
    /// `translation` (x, y, z) and `rotation` (x, y, z, w, as in
    /// `geometry_msgs/Quaternion`) checked as [`planar_transform`] checks
    /// them, with its refusals ([`TransformFault::NonFinite`],
    /// [`TransformFault::NotARotation`]). The planar pose is
    /// [`planar_transform`]'s; the 3-D rotation is the quaternion
    /// normalised.
    pub fn new(translation: [f64; 3], rotation: [f64; 4]) -> Result<Transform, TransformFault> {
        let planar = planar_transform(translation, rotation)?;
        let [x, y, z, w] = rotation;
        // Accepted: finite, squared norm within 0.01 of 1, so the norm is
        // far from zero and the normalisation well defined.
        let rotation = UnitQuaternion::new_normalize(Quaternion::new(w, x, y, z));
        let [tx, ty, tz] = translation;
        Ok(Transform {
            spatial: Isometry3::from_parts(Translation3::new(tx, ty, tz), rotation),
            heading: planar.rotation,
        })
    }

    /// A planar pose as a transform: z = 0, a rotation about z by its
    /// heading. [`planar`](Self::planar) gives `pose` back exactly.
    pub fn from_planar(pose: Isometry2<f64>) -> Transform {
        let about_z = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), pose.rotation.angle());
        let t = pose.translation.vector;
        Transform {
            spatial: Isometry3::from_parts(Translation3::new(t.x, t.y, 0.0), about_z),
            heading: pose.rotation,
        }
    }

    /// The planar projection (x, y, yaw): [`planar_transform`]'s result.
    pub fn planar(&self) -> Isometry2<f64> {
        let t = self.spatial.translation.vector;
        Isometry2::from_parts(Translation2::new(t.x, t.y), self.heading)
    }

    /// The full 3-D pose: the translation and the normalised quaternion.
    pub fn spatial(&self) -> Isometry3<f64> {
        self.spatial
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Point3;

    #[test]
    fn the_planar_pose_is_planar_transforms_bit_for_bit() {
        let cases = [
            ([1.5, -2.0, 7.0], [0.0, 0.0, 0.3f64.sin(), 0.3f64.cos()]),
            ([0.1, 0.2, 0.3], [0.1, -0.2, 0.3, 0.927]),
            ([-4.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0]),
            ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0, -1.0]),
        ];
        for (t, q) in cases {
            let want = planar_transform(t, q).expect("valid");
            let got = Transform::new(t, q).expect("valid").planar();
            assert_eq!(got, want, "{t:?} {q:?}");
        }
    }

    #[test]
    fn refusals_are_planar_transforms() {
        for (t, q) in [
            ([0.0; 3], [0.0; 4]),
            ([0.0; 3], [0.0, 0.0, 0.0, 1.006]),
            ([f64::NAN, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]),
            ([0.0, 0.0, f64::INFINITY], [0.0, 0.0, 0.0, 1.0]),
            ([0.0; 3], [0.0, f64::NAN, 0.0, 1.0]),
            ([0.0; 3], [1e200, 0.0, 0.0, 0.0]),
        ] {
            let want = planar_transform(t, q).expect_err("refused");
            assert_eq!(Transform::new(t, q), Err(want), "{t:?} {q:?}");
        }
    }

    #[test]
    fn the_3d_pose_keeps_z_and_the_normalised_rotation() {
        // Pitch 20 degrees (about y), slightly unnormalised (squared norm
        // 1.008), 1 m up.
        let half = 10f64.to_radians();
        let s = 1.004;
        let t = Transform::new([0.2, 0.0, 1.0], [0.0, half.sin() * s, 0.0, half.cos() * s])
            .expect("valid");
        let q = t.spatial().rotation;
        assert!((q.norm() - 1.0).abs() < 1e-15);
        assert!((q.angle() - 20f64.to_radians()).abs() < 1e-12);
        // 1 m along the pitched x axis goes down by sin 20 degrees.
        let p = t.spatial() * Point3::new(1.0, 0.0, 0.0);
        let (c, sn) = (20f64.to_radians().cos(), 20f64.to_radians().sin());
        assert!(
            (p - Point3::new(0.2 + c, 0.0, 1.0 - sn)).norm() < 1e-12,
            "{p}"
        );
        // The planar pose drops z and the pitch.
        assert_eq!(
            t.planar(),
            Isometry2::new(nalgebra::Vector2::new(0.2, 0.0), 0.0)
        );
    }

    #[test]
    fn a_planar_pose_round_trips_and_lifts_about_z() {
        let pose = Isometry2::new(nalgebra::Vector2::new(3.0, -1.0), 2.5);
        let t = Transform::from_planar(pose);
        assert_eq!(t.planar(), pose);
        let p = t.spatial() * Point3::new(1.0, 0.0, 2.0);
        let q = pose * nalgebra::Point2::new(1.0, 0.0);
        assert!((p - Point3::new(q.x, q.y, 2.0)).norm() < 1e-12, "{p}");
    }
}
