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
/// let trusted = Verdict::of([], true);
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
    /// none: valid), with the `fail_safe` setting.
    pub fn of(causes: impl IntoIterator<Item = Cause>, fail_safe: bool) -> Self {
        let cause = causes.into_iter().min();
        Verdict {
            status: Status::of(cause),
            cause,
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
