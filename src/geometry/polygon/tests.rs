use super::intersection::*;
use super::*;

/// The sweep [`find_self_intersection`] answers for, kept as the reference
/// of its tests: edges ranked by the smallest x of their boxes, each
/// compared with every later edge that starts (in x) before it ends.
/// Quadratic at worst.
fn find_self_intersection_reference(vertices: &[Point], tol: f64) -> Option<(usize, usize)> {
    let n = vertices.len();
    let edge = |i: usize| (vertices[i], vertices[(i + 1) % n]);
    let boxes = edge_boxes(vertices, tol);
    let order = rank_order(&boxes);
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            if boxes[j].min.x > boxes[i].max.x {
                break;
            }
            let adjacent = (i + 1) % n == j || (j + 1) % n == i;
            if adjacent || !boxes[i].intersects(&boxes[j]) {
                continue;
            }
            let ((a0, a1), (b0, b1)) = (edge(i), edge(j));
            if segments_within(a0, a1, b0, b1, tol) {
                return Some((i.min(j), i.max(j)));
            }
        }
    }
    None
}

fn pts(coords: &[(f64, f64)]) -> Vec<Point> {
    coords.iter().map(|&(x, y)| Point::new(x, y)).collect()
}

#[test]
fn square_counter_clockwise_is_convex() {
    let p = SimplePolygon::new(&pts(&[(0., 0.), (1., 0.), (1., 1.), (0., 1.)])).unwrap();
    assert!(p.is_convex());
    assert_eq!(p.vertices().len(), 4);
    assert!((p.area() - 1.0).abs() < 1e-12);
}

#[test]
fn clockwise_input_is_reordered() {
    let p = SimplePolygon::new(&pts(&[(0., 0.), (0., 1.), (1., 1.), (1., 0.)])).unwrap();
    assert!(p.area() > 0.0);
    assert!(p.is_convex());
}

#[test]
fn repeated_and_closing_points_are_removed() {
    let p = SimplePolygon::new(&pts(&[
        (0., 0.),
        (0., 0.),
        (1., 0.),
        (1., 1.),
        (1., 1.),
        (0., 1.),
        (0., 0.),
    ]))
    .unwrap();
    assert_eq!(p.vertices().len(), 4);
}

#[test]
fn collinear_vertices_are_removed() {
    let p = SimplePolygon::new(&pts(&[
        (0., 0.),
        (0.5, 0.),
        (1., 0.),
        (1., 0.5),
        (1., 1.),
        (0., 1.),
    ]))
    .unwrap();
    assert_eq!(p.vertices().len(), 4);
}

#[test]
fn too_few_points() {
    assert_eq!(
        SimplePolygon::new(&[]),
        Err(PolygonError::TooFewPoints { distinct: 0 })
    );
    assert_eq!(
        SimplePolygon::new(&pts(&[(0., 0.), (1., 1.), (0., 0.)])),
        Err(PolygonError::TooFewPoints { distinct: 2 })
    );
}

#[test]
fn non_finite_coordinates() {
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(
            SimplePolygon::new(&pts(&[(0., 0.), (1., 0.), (bad, 1.)])),
            Err(PolygonError::NonFinite { index: 2 })
        );
    }
}

#[test]
fn collinear_points_have_zero_area() {
    assert_eq!(
        SimplePolygon::new(&pts(&[(0., 0.), (1., 1.), (2., 2.), (3., 3.)])),
        Err(PolygonError::ZeroArea)
    );
}

#[test]
fn pentagram_is_self_intersecting_not_convex() {
    let star: Vec<Point> = (0..5)
        .map(|k| {
            let angle = std::f64::consts::FRAC_PI_2 + (k as f64) * 2.0 * TAU / 5.0;
            Point::new(angle.cos(), angle.sin())
        })
        .collect();
    assert!(matches!(
        SimplePolygon::new(&star),
        Err(PolygonError::SelfIntersecting { .. })
    ));
    assert_eq!(classify(&star), Ok(Convexity::SelfIntersecting));
}

#[test]
fn bow_tie_is_self_intersecting() {
    let bow_tie = pts(&[(0., 0.), (1., 1.), (1., 0.), (0., 1.)]);
    assert!(matches!(
        SimplePolygon::new(&bow_tie),
        Err(PolygonError::SelfIntersecting { .. })
    ));
}

#[test]
fn unbalanced_bow_tie_is_self_intersecting() {
    let bow_tie = pts(&[(0., 0.), (2., 2.), (2., 0.), (0., 1.)]);
    assert!(matches!(
        SimplePolygon::new(&bow_tie),
        Err(PolygonError::SelfIntersecting { .. })
    ));
}

#[test]
fn zero_width_spike_is_self_intersecting() {
    let spike = pts(&[(0., 0.), (2., 0.), (1., 0.), (1., 1.)]);
    assert!(matches!(
        SimplePolygon::new(&spike),
        Err(PolygonError::SelfIntersecting { .. })
    ));
}

#[test]
fn l_shape_is_concave() {
    let l = pts(&[(0., 0.), (2., 0.), (2., 1.), (1., 1.), (1., 2.), (0., 2.)]);
    let p = SimplePolygon::new(&l).unwrap();
    assert!(!p.is_convex());
    assert_eq!(classify(&l), Ok(Convexity::Concave));
}

#[test]
fn vertex_touching_another_edge_is_not_simple() {
    // The reflex vertex (1, 0) touches the bottom edge.
    let pinched = pts(&[(0., 0.), (2., 0.), (2., 2.), (1., 0.), (0., 2.)]);
    assert!(matches!(
        SimplePolygon::new(&pinched),
        Err(PolygonError::SelfIntersecting { .. })
    ));
}

#[test]
fn too_many_vertices() {
    let ring: Vec<Point> = (0..MAX_VERTICES + 1)
        .map(|k| {
            let a = k as f64 * TAU / (MAX_VERTICES + 1) as f64;
            Point::new(a.cos(), a.sin())
        })
        .collect();
    assert!(matches!(
        SimplePolygon::new(&ring),
        Err(PolygonError::TooManyVertices { .. })
    ));
}

#[test]
fn large_convex_polygon_far_from_origin() {
    let ring: Vec<Point> = (0..1000)
        .map(|k| {
            let a = k as f64 * TAU / 1000.0;
            Point::new(1e5 + a.cos(), -1e5 + a.sin())
        })
        .collect();
    let p = SimplePolygon::new(&ring).unwrap();
    assert!(p.is_convex());
    assert_eq!(p.vertices().len(), 1000);
}

mod sweep_matches_reference {
    use super::super::intersection::*;
    use super::super::*;
    use super::find_self_intersection_reference;
    use proptest::prelude::*;

    /// Grid points (exact touches, crossings at vertices, collinear
    /// overlaps are common), scaled, moved, and some coordinates
    /// nudged by a few tolerances (near touches on either side).
    fn ring() -> impl Strategy<Value = Vec<Point>> {
        (
            prop_oneof![
                prop::collection::vec((0i64..7, 0i64..7, -4i64..5, 0u8..4), 3..7),
                prop::collection::vec((0i64..7, 0i64..7, -4i64..5, 0u8..4), 7..48),
            ],
            prop::sample::select(vec![1.0f64, 0.1, 1e-3, 7.3, 1e4]),
            prop::sample::select(vec![0.0f64, 1.0, -250.5, 1e5]),
        )
            .prop_map(|(grid, scale, offset)| {
                let raw: Vec<Point> = grid
                    .iter()
                    .map(|&(x, y, _, _)| Point::new(x as f64 * scale, y as f64 * scale))
                    .collect();
                let tol = match Aabb::from_points(&raw) {
                    Some(b) => length_tolerance(b.magnitude() + offset.abs()),
                    None => 0.0,
                };
                grid.iter()
                    .zip(raw)
                    .map(|(&(_, _, nudge, axis), p)| {
                        let d = nudge as f64 * 0.5 * tol;
                        let p = Point::new(p.x + offset, p.y + offset);
                        match axis {
                            0 => Point::new(p.x + d, p.y),
                            1 => Point::new(p.x, p.y + d),
                            _ => p,
                        }
                    })
                    .collect()
            })
    }

    /// Valid star-shaped rings, sometimes with one vertex pulled onto
    /// (or within a few tolerances of) a non-adjacent edge.
    fn star() -> impl Strategy<Value = Vec<Point>> {
        (
            prop::collection::vec((0.2f64..1.0, 0.0f64..0.9), 4..200),
            any::<prop::sample::Index>(),
            any::<prop::sample::Index>(),
            0.0f64..=1.0,
            -3i64..4,
            any::<bool>(),
        )
            .prop_map(|(radii, from, onto, t, nudge, pull)| {
                let n = radii.len();
                let mut ring: Vec<Point> = radii
                    .iter()
                    .enumerate()
                    .map(|(k, &(r, jitter))| {
                        let a = (k as f64 + jitter) * std::f64::consts::TAU / n as f64;
                        Point::new(r * a.cos(), r * a.sin())
                    })
                    .collect();
                if pull {
                    let (v, e) = (from.index(n), onto.index(n));
                    let (a, b) = (ring[e], ring[(e + 1) % n]);
                    let on = a + (b - a) * t;
                    let tol = length_tolerance(1.0);
                    ring[v] = Point::new(on.x + nudge as f64 * tol, on.y);
                }
                ring
            })
    }

    fn same(ring: &[Point]) -> Result<(), TestCaseError> {
        let tol = Aabb::from_points(ring).map_or(0.0, |b| length_tolerance(b.magnitude()));
        let expected = find_self_intersection_reference(ring, tol);
        prop_assert_eq!(find_self_intersection(ring, tol), expected, "{:?}", ring);
        // Every candidate from the tree (its slab and side pruning).
        prop_assert_eq!(
            find_self_intersection_scanning(ring, tol, 0),
            expected,
            "tree only: {:?}",
            ring
        );
        Ok(())
    }

    /// Both generators give rings with and without a touching pair.
    #[test]
    fn generators_give_both_answers() {
        use proptest::strategy::ValueTree;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        for (name, strategy) in [("grid", ring().boxed()), ("star", star().boxed())] {
            let (mut some, mut none) = (0, 0);
            for _ in 0..1000 {
                let ring = strategy.new_tree(&mut runner).unwrap().current();
                let tol = Aabb::from_points(&ring).map_or(0.0, |b| length_tolerance(b.magnitude()));
                match find_self_intersection(&ring, tol) {
                    Some(_) => some += 1,
                    None => none += 1,
                }
            }
            eprintln!("{name}: {some} touching, {none} not");
            assert!(some >= 50 && none >= 50, "{name}: {some} / {none}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn on_grid_rings(ring in ring()) {
            same(&ring)?;
        }

        #[test]
        fn on_star_rings(ring in star()) {
            same(&ring)?;
        }
    }
}

#[test]
fn thin_sliver_is_valid() {
    let p = SimplePolygon::new(&pts(&[(0., 0.), (1., 0.), (1., 1e-6)])).unwrap();
    assert!(p.is_convex());
}
