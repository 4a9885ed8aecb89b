//! The peer of the benchmarks: nav2 collision monitor's algorithm (nav2
//! Jazzy), ported line by line from `nav2_collision_monitor`
//! (`polygon.cpp`, `kinematics.cpp`) and `nav2_costmap_2d`
//! (`footprint.cpp`). A faithful port, not a better one: the same types
//! (plain structs of doubles, the points in vectors), the same loops, the
//! same copies, so that the benchmarks time what nav2 does
//! (`benches/points.rs`, `benches/gate.rs`, which add what their own
//! cycle reads: actions, sources, the map of points by source).
//!
//! Nothing here calls `sat_collision`: these are the independent answers
//! the benchmarks check the library's against before timing both.

/// nav2's `Point`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// x (m).
    pub x: f64,
    /// y (m).
    pub y: f64,
}

/// nav2's `Pose`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    /// x (m).
    pub x: f64,
    /// y (m).
    pub y: f64,
    /// Heading (rad).
    pub theta: f64,
}

/// nav2's `Velocity`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Velocity {
    /// Linear x (m/s).
    pub x: f64,
    /// Linear y (m/s).
    pub y: f64,
    /// Angular (rad/s).
    pub tw: f64,
}

impl Velocity {
    /// `operator<`: by the sum of squares, rotations included.
    pub fn less(&self, second: &Velocity) -> bool {
        let first_vel = self.x * self.x + self.y * self.y + self.tw * self.tw;
        let second_vel = second.x * second.x + second.y * second.y + second.tw * second.tw;
        first_vel < second_vel
    }

    /// `operator*`.
    pub fn times(&self, mul: f64) -> Velocity {
        Velocity {
            x: self.x * mul,
            y: self.y * mul,
            tw: self.tw * mul,
        }
    }
}

/// nav2's `Polygon`: the parts its point queries read (the shape, and
/// the approach's parameters). A benchmark's own polygon adds the rest
/// (name, action, sources) around it.
#[derive(Clone, Debug)]
pub struct Polygon {
    /// The vertices, in order (`poly_`).
    pub poly: Vec<Point>,
    /// `min_points`: how many points inside make a hit.
    pub min_points: i32,
    /// `time_before_collision` (s).
    pub time_before_collision: f64,
    /// `simulation_time_step` (s).
    pub simulation_time_step: f64,
}

impl Polygon {
    /// `isShapeSet`.
    pub fn is_shape_set(&self) -> bool {
        !self.poly.is_empty()
    }

    /// `isPointInside`: ray crossings (Shimrat 1962), a ray to +x.
    ///
    /// Panics on an empty polygon, as nav2 reads `poly_[poly_size - 1]`
    /// (its callers check `isShapeSet` first).
    #[inline]
    pub fn is_point_inside(&self, point: &Point) -> bool {
        let poly = &self.poly;
        let poly_size = poly.len();
        let mut res = false;
        let mut i = poly_size - 1;
        for j in 0..poly_size {
            if (point.y <= poly[i].y) == (point.y > poly[j].y) {
                let x_inter = poly[i].x
                    + (point.y - poly[i].y) * (poly[j].x - poly[i].x) / (poly[j].y - poly[i].y);
                if x_inter > point.x {
                    res = !res;
                }
            }
            i = j;
        }
        res
    }

    /// `getPointsInside(points)`.
    #[inline]
    pub fn get_points_inside(&self, points: &[Point]) -> i32 {
        let mut num = 0;
        for point in points {
            if self.is_point_inside(point) {
                num += 1;
            }
        }
        num
    }

    /// `getCollisionTime`, once its points are gathered from the sources:
    /// 0 when `min_points` are inside already, else [`Polygon::simulate`].
    pub fn get_collision_time(&self, collision_points: &[Point], velocity: Velocity) -> f64 {
        if self.get_points_inside(collision_points) >= self.min_points {
            return 0.0;
        }
        self.simulate(collision_points, velocity)
    }

    /// `getCollisionTime`'s robot movement simulation (what follows its
    /// static check): the robot stepped forward by [`project_state`], the
    /// points moved into its frame by [`transform_points`] (a copy of
    /// them per step, as nav2 copies its vector), counted; the step's
    /// time at the first hit, -1 when nothing is hit.
    pub fn simulate(&self, collision_points: &[Point], velocity: Velocity) -> f64 {
        let mut pose = Pose {
            x: 0.0,
            y: 0.0,
            theta: 0.0,
        };
        let mut vel = velocity;
        let mut points_transformed: Vec<Point>;
        let mut time = 0.0;
        while time <= self.time_before_collision {
            project_state(self.simulation_time_step, &mut pose, &mut vel);
            points_transformed = collision_points.to_vec();
            transform_points(&pose, &mut points_transformed);
            if self.get_points_inside(&points_transformed) >= self.min_points {
                return time;
            }
            time += self.simulation_time_step;
        }
        -1.0
    }
}

/// `transformPoints`: `p' = Rᵀ (p − pose)`.
#[inline]
pub fn transform_points(pose: &Pose, points: &mut [Point]) {
    let cos_theta = pose.theta.cos();
    let sin_theta = pose.theta.sin();
    for point in points.iter_mut() {
        let mul_x = point.x - pose.x;
        let mul_y = point.y - pose.y;
        point.x = mul_x * cos_theta + mul_y * sin_theta;
        point.y = -mul_x * sin_theta + mul_y * cos_theta;
    }
}

/// `projectState`: the pose moved by the velocity over `dt`, the velocity
/// turned by the rotation it made.
#[inline]
pub fn project_state(dt: f64, pose: &mut Pose, velocity: &mut Velocity) {
    let theta = velocity.tw * dt;
    let cos_theta = theta.cos();
    let sin_theta = theta.sin();
    pose.x += velocity.x * dt;
    pose.y += velocity.y * dt;
    pose.theta += theta;
    let velocity_upd_x = velocity.x * cos_theta - velocity.y * sin_theta;
    let velocity_upd_y = velocity.x * sin_theta + velocity.y * cos_theta;
    velocity.x = velocity_upd_x;
    velocity.y = velocity_upd_y;
}

/// nav2_costmap_2d's `sign0`: -1, 0 or 1.
pub fn sign0(x: f64) -> f64 {
    if x < 0.0 {
        -1.0
    } else if x > 0.0 {
        1.0
    } else {
        0.0
    }
}

/// nav2_costmap_2d's `padFootprint`: every vertex pushed out by `padding`
/// along x and along y (away from the axes), how nav2 pads a footprint.
pub fn pad_footprint(footprint: &mut [Point], padding: f64) {
    for pt in footprint.iter_mut() {
        pt.x += sign0(pt.x) * padding;
        pt.y += sign0(pt.y) * padding;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square() -> Polygon {
        Polygon {
            poly: vec![
                Point { x: -1.0, y: -1.0 },
                Point { x: 1.0, y: -1.0 },
                Point { x: 1.0, y: 1.0 },
                Point { x: -1.0, y: 1.0 },
            ],
            min_points: 1,
            time_before_collision: 2.0,
            simulation_time_step: 0.1,
        }
    }

    #[test]
    fn counts_the_points_inside() {
        let points = [
            Point { x: 0.0, y: 0.0 },
            Point { x: 0.5, y: -0.5 },
            Point { x: 2.0, y: 0.0 },
            Point { x: 0.0, y: -3.0 },
        ];
        assert_eq!(square().get_points_inside(&points), 2);
    }

    #[test]
    fn collision_time_steps_towards_a_point_ahead() {
        let ahead = [Point { x: 1.55, y: 0.0 }];
        let forward = Velocity {
            x: 1.0,
            y: 0.0,
            tw: 0.0,
        };
        // Five steps of 0.1 m miss; the sixth (0.6 m, past 0.55) hits,
        // stamped 0.5 s (a step is stamped with the time at its start).
        let t = square().get_collision_time(&ahead, forward);
        assert!((t - 0.5).abs() < 0.05, "{t}");
        let behind = [Point { x: -3.5, y: 0.0 }];
        assert_eq!(square().get_collision_time(&behind, forward), -1.0);
        let inside = [Point { x: 0.0, y: 0.0 }];
        assert_eq!(square().get_collision_time(&inside, forward), 0.0);
    }

    #[test]
    fn pads_away_from_the_axes() {
        let mut points = [Point { x: 1.0, y: -2.0 }, Point { x: 0.0, y: 3.0 }];
        pad_footprint(&mut points, 0.5);
        assert_eq!(points[0], Point { x: 1.5, y: -2.5 });
        assert_eq!(points[1], Point { x: 0.0, y: 3.5 });
    }
}
