//! `~/triggering_points` (nav2 main's): after every check while active, the
//! points that triggered the current action, by source of the zone acting;
//! none when nothing acts; nothing published while inactive.

use super::{Rig, IN_FRONT, S_APPR, S_LIMIT, S_SLOW, S_STOP};
use sat_collision::gate::Action;
use sat_collision::node::TriggeringPoints;

/// The core's triggering points now, each source's sorted.
fn triggering(rig: &Rig) -> TriggeringPoints {
    let mut got = TriggeringPoints::default();
    rig.core.triggering_points(100, &mut got);
    for (_, points) in &mut got.sources {
        points.sort_by(|a, b| (a.x, a.y).partial_cmp(&(b.x, b.y)).expect("finite"));
    }
    got
}

/// `got`'s sources as `(source, [(x, y)])`.
fn by_source(got: &TriggeringPoints) -> Vec<(usize, Vec<(f64, f64)>)> {
    got.sources
        .iter()
        .map(|(s, points)| (*s, points.iter().map(|p| (p.x, p.y)).collect()))
        .collect()
}

#[test]
fn a_stop_shows_the_points_inside_the_stop_zone_only() {
    let mut rig = Rig::gate("");
    // Two points in the stop zone (x in [0.3, 0.6], |y| <= 0.3), one
    // beyond it, and one in the slowdown zone (its own source).
    rig.scene[S_STOP] = vec![IN_FRONT, (0.5, 0.25), (2.0, 0.0)];
    rig.scene[S_SLOW] = vec![(0.45, -0.1)];
    rig.sense();
    let out = rig.command(0.4, 0.0, 0.0);
    assert!(out.triggering_points, "due after a command");
    let got = triggering(&rig);
    assert_eq!(got.zone, Some((Action::Stop, 0)));
    assert_eq!(
        by_source(&got),
        [(S_STOP, vec![IN_FRONT, (0.5, 0.25)])],
        "the stop wins: the slowdown zone's point is not what triggered it"
    );
    // The re-check publishes them too.
    rig.advance(super::PERIOD);
    assert!(rig.tick().triggering_points, "due after a re-check");
    assert_eq!(triggering(&rig), got);
}

#[test]
fn a_slowdown_and_a_limit_show_their_zone_s_points() {
    let mut rig = Rig::gate("");
    rig.scene[S_SLOW] = vec![IN_FRONT];
    rig.sense();
    rig.command(0.4, 0.0, 0.0);
    let got = triggering(&rig);
    assert_eq!(got.zone, Some((Action::Slowdown, 1)));
    assert_eq!(by_source(&got), [(S_SLOW, vec![IN_FRONT])]);

    rig.scene[S_SLOW].clear();
    rig.scene[S_LIMIT] = vec![(0.35, 0.0)];
    rig.sense();
    rig.command(0.4, 0.0, 0.0);
    let got = triggering(&rig);
    assert_eq!(got.zone, Some((Action::Limit, 2)));
    assert_eq!(by_source(&got), [(S_LIMIT, vec![(0.35, 0.0)])]);
}

#[test]
fn an_approach_shows_the_points_its_zone_meets_at_the_contact() {
    let mut rig = Rig::gate("");
    // The approach zone is the robot's square (x, y in [-0.2, 0.2]). At
    // 1 m/s its front edge meets x = 1.2 at t = 1 s: those two points; the
    // one at x = 1.5 is met 0.3 s later, the one at y = 0.5 never.
    rig.scene[S_APPR] = vec![(1.2, 0.0), (1.2, 0.1), (1.5, 0.0), (1.2, 0.5)];
    rig.sense();
    let out = rig.command(1.0, 0.0, 0.0);
    assert!(out.triggering_points);
    let got = triggering(&rig);
    assert_eq!(got.zone, Some((Action::Approach, 3)));
    assert_eq!(
        by_source(&got),
        [(S_APPR, vec![(1.2, 0.0), (1.2, 0.1)])],
        "the points at the contact, where they are now (base frame)"
    );
    // Slow enough that no contact comes within time_before_collision:
    // nothing acts, nothing is shown.
    rig.command(0.4, 0.0, 0.0);
    assert_eq!(triggering(&rig), TriggeringPoints::default());
}

#[test]
fn nothing_acting_shows_nothing_but_is_still_published() {
    let mut rig = Rig::gate("");
    // In no zone: beside the zones, and behind the robot.
    rig.scene[S_STOP] = vec![(0.45, 0.5), (-1.0, 0.0)];
    rig.sense();
    let out = rig.command(0.4, 0.0, 0.0);
    assert!(
        out.triggering_points,
        "published (the previous markers are deleted)"
    );
    assert_eq!(triggering(&rig), TriggeringPoints::default());
    // Disabled: commands pass, nothing triggers.
    rig.scene[S_STOP] = vec![IN_FRONT];
    rig.sense();
    rig.core.toggle(false);
    let out = rig.command(0.4, 0.0, 0.0);
    assert!(out.triggering_points);
    assert_eq!(triggering(&rig), TriggeringPoints::default());
}

#[test]
fn an_invalid_source_stop_has_no_triggering_points() {
    let mut rig = Rig::gate("");
    rig.scene[S_STOP] = vec![IN_FRONT];
    rig.sense();
    rig.command(0.4, 0.0, 0.0);
    assert_eq!(triggering(&rig).zone, Some((Action::Stop, 0)));
    // Every source goes stale: nav2's "invalid source" stop, no points.
    rig.advance(super::SOURCE_TIMEOUT + 0.125);
    let out = rig.command(0.4, 0.0, 0.0);
    assert!(out.triggering_points);
    let state = rig.core.gate().expect("a gate").state();
    assert!(
        matches!(state.reason, sat_collision::gate::Reason::InvalidSource(_)),
        "{state:?}"
    );
    assert_eq!(triggering(&rig), TriggeringPoints::default());
}

#[test]
fn nothing_is_published_while_inactive() {
    let mut rig = Rig::gate("");
    rig.scene[S_STOP] = vec![IN_FRONT];
    rig.sense();
    rig.set_active(false);
    assert!(!rig.command(0.4, 0.0, 0.0).triggering_points);
    rig.advance(super::PERIOD);
    assert!(!rig.tick().triggering_points);
    // Activation: the re-check it runs publishes them.
    let out = rig.set_active(true);
    assert!(out.triggering_points);
    assert_eq!(triggering(&rig).zone, Some((Action::Stop, 0)));
}
