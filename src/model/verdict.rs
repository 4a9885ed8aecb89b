//! The one verdict: from the causes an answer cannot be trusted, its
//! `valid` and `status`, and what `fail_safe` makes of it.

use super::report::Flag;
use super::status::{Cause, Status};

/// Whether an answer can be trusted, and what it must say when it cannot.
///
/// Every answer the library gives about the monitored inputs is judged
/// here, so the rule cannot drift between them: the collision flag and the
/// report ([`Monitor::flag`](crate::monitor::Monitor::flag),
/// [`evaluate`](crate::monitor::Monitor::evaluate)), the planner queries
/// (`check_trajectory`, `check_path`, and the node's services, which also
/// refuse requests with it), and the prediction (`collision_ahead`).
///
/// The rule: the answer is valid when no cause holds; otherwise its status
/// is the first cause in the order of [`Cause`] (the order of the variants:
/// the clock, then the footprint, the obstacles, the transforms, the
/// obstacles' shapes, the velocity), and, with `fail_safe`, the answer
/// reads colliding whatever the geometry found: when the monitor cannot
/// tell, the robot must not be told "clear".
///
/// ```
/// use sat_collision::model::{Cause, Status, Verdict};
///
/// let verdict = Verdict::of([Cause::StaleObstacles, Cause::StaleFootprint], true);
/// assert!(!verdict.valid());
/// assert_eq!(verdict.status(), Status::StaleFootprint); // first in `Cause`'s order
/// assert!(verdict.colliding(false)); // fail-safe: "clear" is not trusted
///
/// let trusted = Verdict::of(None::<Cause>, true); // no cause holds
/// assert!(trusted.valid() && !trusted.colliding(false) && trusted.colliding(true));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// [`Status::Ok`], or why the answer cannot be trusted.
    status: Status,
    /// The cause that decided, when one did.
    cause: Option<Cause>,
    /// A verdict that is not valid makes the answer read colliding.
    fail_safe: bool,
}

impl Verdict {
    /// The verdict on an answer that `causes` hold against (any order;
    /// none: valid), with the `fail_safe` setting. The causes may be given
    /// as [`Cause`]s or as `Option<Cause>`s (`None`: that input holds
    /// nothing against it).
    pub fn of<C: Into<Option<Cause>>>(
        causes: impl IntoIterator<Item = C>,
        fail_safe: bool,
    ) -> Self {
        let mut first = FirstCause::default();
        for cause in causes {
            first.note(cause.into());
        }
        Self::decided(first, fail_safe)
    }

    /// The verdict once every cause has been noted in `first` (what
    /// [`of`](Self::of) does, for a caller that notes its causes one by
    /// one: the monitor's flag, which pays a test per input for it).
    pub fn decided(first: FirstCause, fail_safe: bool) -> Self {
        Verdict {
            status: Status::of(first.0),
            cause: first.0,
            fail_safe,
        }
    }

    /// The verdict on a request refused before anything was computed
    /// (`status` says why: a bad frame id, too many poses, ...).
    /// [`Status::Ok`] is no refusal: the verdict is then valid.
    pub fn refused(status: Status, fail_safe: bool) -> Self {
        Verdict {
            status,
            cause: None,
            fail_safe,
        }
    }

    /// Why the answer cannot be trusted, when that is a [`Cause`] (not a
    /// refusal).
    pub fn cause(&self) -> Option<Cause> {
        self.cause
    }

    /// The answer can be trusted.
    pub fn valid(&self) -> bool {
        self.status.is_ok()
    }

    /// [`Status::Ok`], or why the answer cannot be trusted.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Every part of the answer must read colliding, whatever the
    /// geometry found: it is not valid and `fail_safe` is set.
    pub fn forces_collision(&self) -> bool {
        !self.valid() && self.fail_safe
    }

    /// What the answer says about a collision the geometry did
    /// (`geometry` true) or did not find.
    pub fn colliding(&self, geometry: bool) -> bool {
        geometry || self.forces_collision()
    }

    /// The collision flag for what the geometry found.
    pub fn flag(&self, geometry: bool) -> Flag {
        Flag {
            colliding: self.colliding(geometry),
            valid: self.valid(),
            status: self.status,
        }
    }
}

/// The first of the causes noted so far, in the order of [`Cause`]: what
/// decides a [`Verdict`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FirstCause(Option<Cause>);

impl FirstCause {
    /// Notes `cause` (`None`: nothing holds), keeping the first in the
    /// order of [`Cause`].
    #[inline]
    pub fn note(&mut self, cause: Option<Cause>) {
        if let Some(cause) = cause {
            if self.0.is_none_or(|first| cause < first) {
                self.0 = Some(cause);
            }
        }
    }

    /// The first cause noted, if any.
    pub fn get(self) -> Option<Cause> {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Rejection;

    /// Every cause, in declaration order (the precedence).
    const ORDER: [Cause; 22] = [
        Cause::NoClock,
        Cause::ClockStalled,
        Cause::NoFootprint,
        Cause::ClockJumpedBack,
        Cause::StaleFootprint,
        Cause::RejectedFootprint(Rejection::InvalidFrameId),
        Cause::InvalidFootprint,
        Cause::NoObstacles,
        Cause::StaleObstacles,
        Cause::Overloaded,
        Cause::RejectedObstacles(Rejection::TooManyVertices),
        Cause::TransformConflict,
        Cause::InvalidTransform,
        Cause::TooManyFrames,
        Cause::TransformUnavailable,
        Cause::StaleTransform,
        Cause::FrameMismatch,
        Cause::InvalidObstacle,
        Cause::NoVelocity,
        Cause::StaleVelocity,
        Cause::InvalidVelocity,
        Cause::UnknownVelocityFrame,
    ];

    #[test]
    fn the_earlier_cause_decides_whatever_the_order_they_are_noted_in() {
        for (i, &early) in ORDER.iter().enumerate() {
            for &late in &ORDER[i + 1..] {
                for causes in [[Some(early), Some(late)], [Some(late), Some(early)]] {
                    let verdict = Verdict::of(causes, false);
                    assert_eq!(verdict.cause(), Some(early), "{causes:?}");
                    assert_eq!(verdict.status(), Status::from(early));
                    assert!(!verdict.valid() && !verdict.forces_collision());
                    assert!(!verdict.colliding(false) && verdict.colliding(true));
                }
            }
        }
    }

    #[test]
    fn fail_safe_forces_a_collision_only_when_not_valid() {
        let none = [None::<Cause>, None];
        assert_eq!(
            Verdict::of(none, true).flag(false),
            Flag {
                colliding: false,
                valid: true,
                status: Status::Ok
            }
        );
        let stale = Verdict::of([None, Some(Cause::StaleObstacles)], true);
        assert!(stale.forces_collision());
        assert_eq!(
            stale.flag(false),
            Flag {
                colliding: true,
                valid: false,
                status: Status::StaleObstacles
            }
        );
        let refused = Verdict::refused(Status::InvalidFrameId, true);
        assert!(!refused.valid() && refused.forces_collision());
        assert_eq!(refused.cause(), None);
        assert!(Verdict::refused(Status::Ok, true).valid());
    }
}
