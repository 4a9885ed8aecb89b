//! One zone at run time: its shapes, its debounce and what it last did.

use super::command::Command;
use super::config::{ZoneConfig, ZoneShape};
use crate::geometry::{Point, Shape, ShapeError};

/// A zone as the gate runs it: its configuration, its shapes built once,
/// the shape set at run time (dynamic zones) and its debounce.
#[derive(Clone, Debug)]
pub(super) struct Zone {
    pub(super) config: ZoneConfig,
    /// `Polygon` and `Circle`: the one shape; `Velocity`: one per
    /// velocity shape, in order; `Dynamic`: none.
    shapes: Vec<Shape>,
    /// `Dynamic`: the latest shape set at run time.
    dynamic: Option<Shape>,
    /// `Velocity`: the shape last chosen. A command that no velocity shape
    /// covers keeps it, as nav2 does (the zone is not dropped because the
    /// controller asked for an unusual command).
    chosen: Option<usize>,
    /// The debounced state: the zone acts.
    active: bool,
    /// Checks in a row that disagreed with `active`.
    streak: u32,
    /// `approach`: the ratio it applied last, kept while it is released
    /// but not yet clear for `release_consecutive` checks.
    pub(super) last_ratio: f64,
    /// `approach`: the contact time its last check found along the
    /// command (`None`: none within `time_before_collision`).
    pub(super) last_contact: Option<f64>,
}

impl Zone {
    /// The zone of `config`, its shapes built; an invalid polygon or
    /// radius is the error (the configuration checks them first).
    pub(super) fn new(config: ZoneConfig) -> Result<Self, ShapeError> {
        let shapes = match &config.shape {
            ZoneShape::Polygon(points) => vec![Shape::polygon(points)?],
            ZoneShape::Circle(radius) => vec![Shape::circle(Point::origin(), *radius)?],
            ZoneShape::Dynamic { .. } => Vec::new(),
            ZoneShape::Velocity { shapes, .. } => shapes
                .iter()
                .map(|s| Shape::polygon(&s.points))
                .collect::<Result<_, _>>()?,
        };
        Ok(Zone {
            config,
            shapes,
            dynamic: None,
            chosen: None,
            active: false,
            streak: 0,
            last_ratio: 1.0,
            last_contact: None,
        })
    }

    /// Sets a dynamic zone's shape (from `polygon_sub_topic` or
    /// `footprint_topic`, in the base frame). False for a zone whose shape
    /// is fixed.
    pub(super) fn set_shape(&mut self, shape: Shape) -> bool {
        if !matches!(self.config.shape, ZoneShape::Dynamic { .. }) {
            return false;
        }
        self.dynamic = Some(shape);
        true
    }

    /// Chooses a velocity zone's shape for `command`: the first whose
    /// ranges hold it; none: the previous choice stays. Other zones have
    /// nothing to choose.
    pub(super) fn choose(&mut self, command: &Command) {
        if let ZoneShape::Velocity { holonomic, shapes } = &self.config.shape {
            if let Some(i) = shapes.iter().position(|s| in_range(s, *holonomic, command)) {
                self.chosen = Some(i);
            }
        }
    }

    /// The shape to check (and draw): `None` before a dynamic zone's first
    /// message, or before a velocity zone's first command in its ranges.
    pub(super) fn current(&self) -> Option<&Shape> {
        match &self.config.shape {
            ZoneShape::Dynamic { .. } => self.dynamic.as_ref(),
            ZoneShape::Velocity { .. } => self.chosen.and_then(|i| self.shapes.get(i)),
            _ => self.shapes.first(),
        }
    }

    /// An enabled dynamic zone that has no shape yet: it cannot be
    /// checked (the gate stops). A velocity zone whose shapes do not cover
    /// a command is not this: nav2 defines it as the zone keeping its
    /// previous choice, or not acting before its first.
    pub(super) fn lacks_shape(&self) -> bool {
        self.config.enabled
            && matches!(self.config.shape, ZoneShape::Dynamic { .. })
            && self.dynamic.is_none()
    }

    /// One check's raw answer (`triggered`) through the debounce: the zone
    /// starts acting after `trigger_consecutive` triggered checks in a row
    /// and stops after `release_consecutive` clear ones in a row. Returns
    /// whether it acts now.
    pub(super) fn debounce(&mut self, triggered: bool) -> bool {
        if triggered == self.active {
            self.streak = 0;
            return self.active;
        }
        self.streak = self.streak.saturating_add(1);
        let needed = if triggered {
            self.config.trigger_consecutive
        } else {
            self.config.release_consecutive
        };
        if self.streak >= needed.max(1) {
            self.active = triggered;
            self.streak = 0;
        }
        self.active
    }

    /// Forgets the debounce (the zone was disabled, or the gate).
    pub(super) fn reset(&mut self) {
        self.active = false;
        self.streak = 0;
        self.last_ratio = 1.0;
        self.last_contact = None;
    }
}

/// nav2's `VelocityPolygon::isInRange`: `theta` within `[theta_min,
/// theta_max]`, and `linear.x` within `[linear_min, linear_max]`, or, when
/// `holonomic`, the speed within them and its direction (0 when still) in
/// `[direction_start, direction_end]` (a range that wraps when start >
/// end).
fn in_range(shape: &super::config::VelocityShape, holonomic: bool, command: &Command) -> bool {
    let theta = command.w <= shape.theta_max && command.w >= shape.theta_min;
    if !holonomic {
        return theta && command.x <= shape.linear_max && command.x >= shape.linear_min;
    }
    let speed = command.speed();
    let direction = if speed > 0.0 {
        command.y.atan2(command.x)
    } else {
        0.0
    };
    let linear = speed <= shape.linear_max && speed >= shape.linear_min;
    let heading = if shape.direction_start <= shape.direction_end {
        direction >= shape.direction_start && direction <= shape.direction_end
    } else {
        direction >= shape.direction_start || direction <= shape.direction_end
    };
    theta && linear && heading
}
