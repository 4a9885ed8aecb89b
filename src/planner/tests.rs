use super::*;
use crate::model::ObstacleGeometry;
use nalgebra::Vector2;

fn square(half: f64) -> Vec<Point> {
    vec![
        Point::new(-half, -half),
        Point::new(half, -half),
        Point::new(half, half),
        Point::new(-half, half),
    ]
}

fn pose(x: f64) -> Option<Isometry2<f64>> {
    Some(Isometry2::new(Vector2::new(x, 0.0), 0.0))
}

type Request = PoseRequest<std::vec::IntoIter<Point>, std::vec::IntoIter<Option<Isometry2<f64>>>>;

fn request(footprint: Vec<Point>, poses: Vec<Option<Isometry2<f64>>>, padding: f64) -> Request {
    PoseRequest {
        footprint: footprint.into_iter(),
        poses: poses.into_iter(),
        padding,
    }
}

/// The robot's own footprint: valid, invalid, none configured.
fn robot(kind: &str) -> Option<Result<Shape, String>> {
    match kind {
        "ok" => Some(Ok(Shape::polygon(&square(0.5)).expect("a square"))),
        "bad" => Some(Err("two points".to_owned())),
        _ => None,
    }
}

/// `n` squares (4 vertices, 1 piece each).
fn squares(n: usize) -> Vec<Obstacle> {
    (0..n)
        .map(|k| {
            let points: Vec<Point> = square(0.5)
                .iter()
                .map(|p| Point::new(p.x + 3.0 * k as f64, p.y + 5.0))
                .collect();
            Obstacle::new(format!("o{k}"), &ObstacleGeometry::Polygon(points))
        })
        .collect()
}

fn refusal(
    request: Request,
    robot_kind: &str,
    obstacles: usize,
    max_checks: f64,
) -> Option<Status> {
    request
        .validate(robot(robot_kind).as_ref(), &squares(obstacles), max_checks)
        .err()
}

#[test]
fn a_valid_request_keeps_its_footprint_poses_and_padding() {
    // 2 poses x (4 + 3 x (4 + 4)) = 56 vertex steps.
    let valid = request(square(0.25), vec![pose(0.0), pose(1.0)], 0.1)
        .validate(robot("none").as_ref(), &squares(3), 56.0)
        .expect("valid");
    assert_eq!(
        valid.footprint,
        Shape::polygon(&square(0.25)).expect("a square")
    );
    assert_eq!(valid.poses, vec![pose(0.0).unwrap(), pose(1.0).unwrap()]);
    assert_eq!(valid.padding, 0.1);
    // No footprint given: the robot's own.
    let own = request(vec![], vec![pose(0.0)], 0.0)
        .validate(robot("ok").as_ref(), &[], 4.0)
        .expect("valid");
    assert_eq!(
        own.footprint,
        Shape::polygon(&square(0.5)).expect("a square")
    );
}

#[test]
fn too_much_work_is_refused_before_padding_and_poses() {
    // 3 poses x (4 + 4 x (4 + 4)) = 108 vertex steps.
    let poses = || vec![pose(0.0), None, pose(2.0)];
    assert_eq!(
        refusal(request(square(0.5), poses(), f64::NAN), "none", 4, 107.0),
        Some(Status::RequestTooLarge)
    );
    assert_eq!(
        refusal(request(square(0.5), poses(), 0.0), "ok", 4, 108.0),
        Some(Status::InvalidPose)
    );
    // No obstacle still counts the footprint placed at every pose.
    assert_eq!(
        refusal(request(square(0.5), poses(), 0.0), "ok", 0, 11.0),
        Some(Status::RequestTooLarge)
    );
    // The footprint comes first: its validation is bounded work.
    assert_eq!(
        refusal(request(vec![], poses(), 0.0), "none", 4, 1.0),
        Some(Status::NoRobotFootprint)
    );
}

#[test]
fn the_cost_counts_vertices_and_pieces_not_pairs() {
    let convex = Shape::polygon(&square(0.5)).expect("a square");
    // A ring of 1,000 vertices against one square: 1,000 + 1,000 x 1
    // + 4 x 1 per pose, where pairs counted 1.
    let ring: Vec<Point> = (0..1000)
        .map(|k| {
            let a = k as f64 * std::f64::consts::TAU / 1000.0;
            Point::new(a.cos(), a.sin())
        })
        .collect();
    let ring = Shape::polygon(&ring).expect("a convex ring");
    assert_eq!(request_cost(&ring, 10, &squares(1)), 10.0 * 2004.0);
    assert_eq!(request_cost(&convex, 10, &squares(2)), 10.0 * 20.0);
    // A concave footprint: every piece meets every obstacle piece.
    let l_shape = Shape::polygon(&[
        Point::new(0.0, 0.0),
        Point::new(2.0, 0.0),
        Point::new(2.0, 1.0),
        Point::new(1.0, 1.0),
        Point::new(1.0, 2.0),
        Point::new(0.0, 2.0),
    ])
    .expect("an L");
    let Shape::Compound(c) = &l_shape else {
        panic!("an L is concave")
    };
    let (v, p) = (
        c.pieces().iter().map(|p| p.len()).sum::<usize>() as f64,
        c.pieces().len() as f64,
    );
    assert_eq!(request_cost(&l_shape, 1, &squares(1)), v + v + 4.0 * p);
    // Invalid obstacles are never checked: they cost nothing.
    let bad = Obstacle::new("bad", &ObstacleGeometry::Polygon(vec![]));
    assert_eq!(request_cost(&convex, 1, &[bad]), 4.0);
}

#[test]
fn a_cancelled_check_stops_without_an_answer() {
    let robot = Shape::polygon(&square(0.5)).expect("a square");
    let poses: Vec<_> = (0..100).filter_map(|k| pose(f64::from(k))).collect();
    let cancel = Cancel::new();
    let obstacles = ObstacleIndex::new(squares(2));
    assert!(check_poses_until(&robot, &poses, 0.0, &obstacles, &cancel).is_ok());
    cancel.clone().cancel();
    assert_eq!(
        check_poses_until(&robot, &poses, 0.0, &obstacles, &cancel),
        Err(Cancelled)
    );
}

#[test]
fn the_footprint_is_the_given_one_or_the_robots() {
    let one = || vec![pose(0.0)];
    assert_eq!(
        refusal(request(vec![], one(), 0.0), "none", 1, 100.0),
        Some(Status::NoRobotFootprint)
    );
    assert_eq!(
        refusal(request(vec![], one(), 0.0), "bad", 1, 100.0),
        Some(Status::InvalidFootprint)
    );
    // A footprint given is used even when none is configured, and
    // refused when it is not a polygon, whatever the robot's.
    assert_eq!(
        refusal(request(square(0.5), one(), 0.0), "none", 1, 100.0),
        None
    );
    let line = vec![Point::new(0.0, 0.0), Point::new(1.0, 0.0)];
    assert_eq!(
        refusal(request(line, one(), 0.0), "ok", 1, 100.0),
        Some(Status::InvalidFootprint)
    );
    let ring: Vec<Point> = (0..=MAX_VERTICES)
        .map(|k| {
            let a = k as f64 * std::f64::consts::TAU / (MAX_VERTICES + 1) as f64;
            Point::new(a.cos(), a.sin())
        })
        .collect();
    assert_eq!(
        refusal(request(ring, one(), 0.0), "ok", 1, 100.0),
        Some(Status::InvalidFootprint)
    );
    // An invalid footprint is refused before the padding and the poses.
    assert_eq!(
        refusal(request(vec![], vec![None], -1.0), "bad", 1, 100.0),
        Some(Status::InvalidFootprint)
    );
}

#[test]
fn padding_then_poses() {
    for padding in [-0.1, f64::NAN, f64::INFINITY] {
        assert_eq!(
            refusal(request(square(0.5), vec![None], padding), "none", 1, 100.0),
            Some(Status::InvalidPadding),
            "{padding}"
        );
    }
    assert_eq!(
        refusal(
            request(square(0.5), vec![pose(0.0), None], 0.0),
            "none",
            1,
            100.0
        ),
        Some(Status::InvalidPose)
    );
    assert_eq!(
        refusal(request(square(0.5), vec![], 0.0), "none", 1, 100.0),
        None
    );
}
