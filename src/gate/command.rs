//! A commanded velocity, as the gate reads and writes it.

/// A planar twist in the robot's base frame: `x`, `y` (m/s) and `w`
/// (rad/s about z), `geometry_msgs/Twist`'s `linear.x`, `linear.y` and
/// `angular.z` (the other three components are passed through by the edge
/// untouched when the command passes, and zeroed with it).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Command {
    /// `linear.x` (m/s).
    pub x: f64,
    /// `linear.y` (m/s).
    pub y: f64,
    /// `angular.z` (rad/s).
    pub w: f64,
}

impl Command {
    /// Zero velocity: what a stop publishes.
    pub const ZERO: Command = Command {
        x: 0.0,
        y: 0.0,
        w: 0.0,
    };

    /// A command of these components.
    pub fn new(x: f64, y: f64, w: f64) -> Self {
        Command { x, y, w }
    }

    /// Every component finite: anything else is refused, never passed on.
    pub fn is_finite(&self) -> bool {
        self.x.is_finite() && self.y.is_finite() && self.w.is_finite()
    }

    /// All three components exactly zero (a stop).
    pub fn is_zero(&self) -> bool {
        self.x == 0.0 && self.y == 0.0 && self.w == 0.0
    }

    /// Every component times `ratio`: the same path (curvature), another
    /// speed. A ratio of 0 gives exact zeros (never `-0.0` or NaN from a
    /// finite command).
    pub fn scaled(&self, ratio: f64) -> Command {
        if ratio == 0.0 {
            return Command::ZERO;
        }
        Command {
            x: self.x * ratio,
            y: self.y * ratio,
            w: self.w * ratio,
        }
    }

    /// Linear speed (m/s).
    pub fn speed(&self) -> f64 {
        self.x.hypot(self.y)
    }
}
