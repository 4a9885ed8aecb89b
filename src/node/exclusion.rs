//! Exclusion zones (nav2 main's `exclusion_zone.cpp`): regions whose
//! points of a source are masked (dropped) as its messages are read, before
//! they reach the monitor; a dock the robot drives onto, the robot's own
//! body seen by its sensors. The zones of every source are held in one
//! [`ExclusionZones`], shared by the sources' readers (which mask), the
//! parameters (`<zone>.<suffix>`, followed at run time) and the
//! `add_exclusion_zone` / `remove_exclusion_zone` services.
//!
//! # The rule
//!
//! A point `p` of a message of frame `F` stamped `t_o` (a scan's or range
//! reading's frame; a point cloud's points are in the base frame `B` where
//! it was at `t_o`, moved there by the cloud's 3-D transform) is masked
//! when some zone of its source is enabled, can be placed, and
//!
//! * `p` lies in the zone's closed shape placed in `F` (its boundary
//!   included; within the geometry's length tolerance of it counts, the
//!   crate's rule for every shape, `geometry`'s tolerance policy), and
//! * `min_height <= z <= max_height`, `z` the point's height in `B`: a
//!   cloud's transformed z (`sensors::cloud_points_with_heights`); for a
//!   scan or range point, the z of `(x, y, 0)` moved by `F`'s 3-D
//!   transform into `B` at `t_o` (nav2's scan and range points are
//!   `(x, y, 0)` moved so), looked up only when the band excludes some
//!   height.
//!
//! A masked point is not obstacle information; every other point is kept.
//!
//! # Placement: where the zone is, in `F` at `t_o`
//!
//! nav2 moves the source's points into `B` now and the zone with them:
//! the zone frame `Z` at its **latest** transform into the global frame
//! `O` (`odom_frame_id`), held there while it is recent enough, then `O`
//! into `B` now: `T(B ← Z) = T(B ← O, latest) · T(O ← Z, latest)`, the
//! identity when `Z` is `B` (no lookup), `T(O ← Z)` the identity when `Z`
//! is `O`. Here the points stay where the message put them and the zone
//! is moved into `F` by `T(F ← B)`, the base frame's placement in `F` that
//! the velocity gate uses for the same points (`monitor::regions`:
//! `T(F ← O, t_o) · T(O ← B, latest)` with `base_shift_correction`,
//! `T(F ← B, t_o)` without, the identity for a message in `B` itself).
//! Proof that the mask is nav2's: nav2 masks `q = T(B ← F) p` when
//! `q ∈ T(B ← Z) S` (`S` the zone's shape in `Z`); the gate judges the same
//! point as `p` placed by `T(F ← B) = T(B ← F)⁻¹`, and
//! `T(B ← F) p ∈ T(B ← Z) S ⟺ p ∈ T(F ← B) · T(B ← Z) S`, since a rigid
//! motion is a bijection: the same points are masked.
//!
//! # Fail-safe
//!
//! A zone that cannot be placed masks **nothing**: a frame TF does not
//! know, a lookup that fails, or `Z`'s latest transform older than
//! `max(frame_hold_timeout, transform_tolerance)` (by stamp or by arrival,
//! `frames`' rule for a latest lookup), and, for a scan's or range's
//! height band, `F`'s 3-D transform. The message says which zone and why
//! ([`Exclusion::unplaced`]); the core reports it on `/diagnostics` (a
//! WARN naming the zone) and in a throttled log line. Masking nothing
//! keeps every point as obstacle information: the safe side.

use crate::config::{ExclusionZoneConfig, NodeConfig};
use crate::frames::{FrameTree, LookupFault};
use crate::geometry::{length_tolerance, Aabb, Point, PointProbe, Shape};
use crate::limits::MAX_EXCLUSION_ZONES;
use crate::model::{Cause, Status};
use nalgebra::Isometry2;
use std::sync::{Arc, Mutex, MutexGuard};

/// The frames a zone is placed through, and the tolerance.
#[derive(Clone, Debug, Default, PartialEq)]
struct Frames {
    /// `base_frame_id` (the monitor's `base_frame`).
    base: String,
    /// `odom_frame_id`: where a zone's latest pose is held.
    odom: String,
    /// `base_shift_correction`.
    correction: bool,
    /// `transform_tolerance` (s).
    tolerance: f64,
}

impl Frames {
    fn of(config: &NodeConfig) -> Self {
        Frames {
            base: config.monitor.base_frame.clone(),
            odom: config.gate.odom_frame.clone(),
            correction: config.gate.base_shift_correction,
            tolerance: config.monitor.transform_tolerance,
        }
    }
}

/// One exclusion zone of a source: its configuration and its shape in its
/// own frame.
#[derive(Clone, Debug)]
pub struct ExclusionZone {
    /// What it is.
    pub config: ExclusionZoneConfig,
    /// From the parameters (`<source>.exclusion_zones`); false: added by
    /// the service.
    pub from_parameters: bool,
    /// The polygon, or the circle centred on the frame's origin.
    shape: Shape,
}

impl ExclusionZone {
    /// The zone of `config` (checked by the configuration's rules); `Err`
    /// when its shape cannot be built.
    fn new(config: ExclusionZoneConfig, from_parameters: bool) -> Result<Self, String> {
        let shape = if config.circle {
            Shape::circle(Point::new(0.0, 0.0), config.radius)
        } else {
            Shape::polygon(&config.points)
        }
        .map_err(|e| format!("exclusion zone {}: {e}", crate::node::shown(&config.name)))?;
        Ok(ExclusionZone {
            config,
            from_parameters,
            shape,
        })
    }

    /// The zone's frame: `frame_id`, or the base frame when it is empty.
    fn frame<'a>(&'a self, frames: &'a Frames) -> &'a str {
        match self.config.frame_id.as_str() {
            "" => &frames.base,
            frame => frame,
        }
    }

    /// Its height band excludes some finite height.
    fn has_band(&self) -> bool {
        self.config.min_height > -f64::MAX || self.config.max_height < f64::MAX
    }
}

/// One source's zones.
#[derive(Clone, Debug, Default)]
struct SourceZones {
    /// The source's name.
    name: String,
    zones: Vec<ExclusionZone>,
}

#[derive(Debug, Default)]
struct Inner {
    frames: Frames,
    /// Counts every change, so that a reader copies the zones only then.
    revision: u64,
    /// Aligned with `observation_sources`.
    sources: Vec<SourceZones>,
}

/// Every source's exclusion zones, shared (a clone is the same zones):
/// the readers mask with them, the parameters and the services change
/// them. Made at configure ([`ExclusionZones::new`]) and dropped at
/// cleanup, so that the zones added by the service live as long as the
/// configuration (through deactivate and activate) and no longer.
#[derive(Clone, Debug, Default)]
pub struct ExclusionZones(Arc<Mutex<Inner>>);

fn lock(inner: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    inner
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A zone that could not be placed for a message: it masked nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct Unplaced {
    /// The zone's name.
    pub zone: String,
    /// The frame that could not be placed (the zone's, or the message's
    /// for a height band).
    pub frame: String,
    /// Why: a transform's cause (`transform_unavailable`,
    /// `stale_transform`, ...).
    pub cause: Cause,
}

impl std::fmt::Display for Unplaced {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exclusion zone {} masks nothing: {} (frame {})",
            crate::node::shown(&self.zone),
            Status::from(self.cause),
            crate::node::shown(&self.frame)
        )
    }
}

/// What a source's zones did with one message.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Exclusion {
    /// Points masked.
    pub masked: usize,
    /// The enabled zones that could not be placed (and masked nothing).
    pub unplaced: Vec<Unplaced>,
}

/// A zone's state for `/diagnostics`.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneState {
    /// The source's name.
    pub source: String,
    /// The zone's name.
    pub zone: String,
    /// `enabled`.
    pub enabled: bool,
    /// From the parameters (else added by the service).
    pub from_parameters: bool,
}

impl ExclusionZones {
    /// The zones of `config`'s sources (`<source>.exclusion_zones`; a zone
    /// named by two sources is each one's), with its frames and
    /// `transform_tolerance`. A zone whose shape cannot be built (the
    /// configuration refuses it first) is left out.
    pub fn new(config: &NodeConfig) -> Self {
        let mut inner = Inner {
            frames: Frames::of(config),
            ..Inner::default()
        };
        inner.sources = config
            .sources
            .iter()
            .map(|source| SourceZones {
                name: source.name.clone(),
                zones: source
                    .exclusion_zones
                    .iter()
                    .filter_map(|name| config.exclusion_zone(name))
                    .filter_map(|zone| ExclusionZone::new(zone.clone(), true).ok())
                    .collect(),
            })
            .collect();
        ExclusionZones(Arc::new(Mutex::new(inner)))
    }

    /// Follows the parameters: each parameter zone takes its
    /// configuration in `config` (its run-time parameters: `enabled`,
    /// `radius`, `points`, the heights, `frame_hold_timeout`); the zones
    /// added by the service stay as they are.
    pub fn follow(&self, config: &NodeConfig) {
        let mut inner = lock(&self.0);
        inner.frames.tolerance = config.monitor.transform_tolerance;
        let mut changed = false;
        for source in &mut inner.sources {
            for zone in source.zones.iter_mut().filter(|z| z.from_parameters) {
                let Some(new) = config.exclusion_zone(&zone.config.name) else {
                    continue;
                };
                if *new != zone.config {
                    if let Ok(built) = ExclusionZone::new(new.clone(), true) {
                        *zone = built;
                        changed = true;
                    }
                }
            }
        }
        if changed {
            inner.revision += 1;
        }
    }

    /// `~/<source>/add_exclusion_zone`: adds `zone` (checked by
    /// `ExclusionZoneConfig::from_description`) to `source`'s zones.
    /// Refused, nothing changed, for a source that is not a point source
    /// with zones (none of `observation_sources` by that name), a name the
    /// source already has, or one zone too many
    /// ([`MAX_EXCLUSION_ZONES`](crate::config::MAX_EXCLUSION_ZONES)).
    /// The answer's message either way.
    pub fn add(&self, source: &str, zone: ExclusionZoneConfig) -> Result<String, String> {
        let mut inner = lock(&self.0);
        let shown = crate::node::shown;
        let Some(zones) = inner.sources.iter_mut().find(|s| s.name == source) else {
            return Err(format!("no source {}", shown(source)));
        };
        let name = zone.name.clone();
        if zones.zones.iter().any(|z| z.config.name == name) {
            return Err(format!(
                "source {} already has an exclusion zone {}",
                shown(source),
                shown(&name)
            ));
        }
        if zones.zones.len() >= MAX_EXCLUSION_ZONES {
            return Err(format!(
                "source {} has {MAX_EXCLUSION_ZONES} exclusion zones, the most it may have",
                shown(source)
            ));
        }
        zones.zones.push(ExclusionZone::new(zone, false)?);
        inner.revision += 1;
        Ok(format!(
            "Added zone '{}' to source '{}'",
            shown(&name),
            shown(source)
        ))
    }

    /// `~/<source>/remove_exclusion_zone`: removes `source`'s zone `name`,
    /// or every zone with `all` (parameter zones too, as nav2 does; they
    /// come back at the next configure). Refused, nothing changed, for an
    /// empty name (without `all`) or one the source does not have.
    pub fn remove(&self, source: &str, name: &str, all: bool) -> Result<String, String> {
        let mut inner = lock(&self.0);
        let shown = crate::node::shown;
        let Some(zones) = inner.sources.iter_mut().find(|s| s.name == source) else {
            return Err(format!("no source {}", shown(source)));
        };
        if all {
            zones.zones.clear();
            inner.revision += 1;
            return Ok(format!(
                "Removed all zone(s) from source '{}'",
                shown(source)
            ));
        }
        if name.is_empty() {
            return Err("Zone name must not be empty".to_owned());
        }
        let Some(at) = zones.zones.iter().position(|z| z.config.name == name) else {
            return Err(format!(
                "Zone '{}' not found on source '{}'",
                shown(name),
                shown(source)
            ));
        };
        zones.zones.remove(at);
        inner.revision += 1;
        Ok(format!(
            "Removed zone '{}' from source '{}'",
            shown(name),
            shown(source)
        ))
    }

    /// Every zone, source by source, for `/diagnostics`.
    pub fn states(&self) -> Vec<ZoneState> {
        let inner = lock(&self.0);
        inner
            .sources
            .iter()
            .flat_map(|s| {
                s.zones.iter().map(|z| ZoneState {
                    source: s.name.clone(),
                    zone: z.config.name.clone(),
                    enabled: z.config.enabled,
                    from_parameters: z.from_parameters,
                })
            })
            .collect()
    }

    /// The enabled `visualize` zones' outlines (a circle as `segments`
    /// points) in the base frame now, each with its name, into `out`, each
    /// name once (a parameter zone named by two sources is one zone); a
    /// zone that cannot be placed is left out (it masks nothing).
    pub fn drawn(
        &self,
        tree: &FrameTree,
        now: f64,
        segments: usize,
        out: &mut Vec<(String, Vec<Point>)>,
    ) {
        out.clear();
        let inner = lock(&self.0);
        let frames = &inner.frames;
        for zone in inner.sources.iter().flat_map(|s| &s.zones) {
            let name = &zone.config.name;
            if !(zone.config.enabled && zone.config.visualize) || out.iter().any(|(n, _)| n == name)
            {
                continue;
            }
            if let Ok(pose) = base_from_zone(tree, frames, zone, now) {
                let outline = zone.shape.transformed(&pose).outline(segments);
                out.push((zone.config.name.clone(), outline));
            }
        }
    }

    /// `reader`'s copy of source `index`'s zones, refreshed when they
    /// changed since it was taken.
    pub(super) fn refresh(&self, index: usize, reader: &mut ReaderZones) {
        let inner = lock(&self.0);
        if reader.revision == Some(inner.revision) {
            return;
        }
        reader.revision = Some(inner.revision);
        reader.frames.clone_from(&inner.frames);
        reader.zones.clear();
        if let Some(source) = inner.sources.get(index) {
            reader.zones.extend(source.zones.iter().cloned());
        }
    }
}

/// A reader's copy of its source's zones (masking never waits for the
/// shared lock longer than the copy).
#[derive(Clone, Debug, Default)]
pub(super) struct ReaderZones {
    revision: Option<u64>,
    frames: Frames,
    zones: Vec<ExclusionZone>,
}

/// A zone placed in a message's frame: its shape there, the box its
/// points are looked for in, its band.
#[derive(Debug)]
struct PlacedZone {
    shape: Shape,
    /// The shape's box grown by twice its tolerance: a point outside it
    /// is not in the zone (below).
    search: Aabb,
    min_height: f64,
    max_height: f64,
}

/// A message's frame's 3-D transform into the base frame, as what a point
/// `(x, y, 0)` of it becomes in height: `z = a x + b y + c`.
#[derive(Clone, Copy, Debug)]
struct Plane {
    a: f64,
    b: f64,
    c: f64,
}

/// The zones placed for one message ([`ReaderZones::place`]): what
/// [`Placed::mask`] masks with.
#[derive(Debug, Default)]
pub(super) struct Placed {
    zones: Vec<PlacedZone>,
    /// For a scan's or range's height bands: its frame's plane; `None`:
    /// heights are given (a cloud) or no band needs them.
    plane: Option<Plane>,
    /// The points' heights come with them (a cloud's).
    heights_given: bool,
    unplaced: Vec<Unplaced>,
}

/// A failed lookup as the cause it is reported with.
pub(super) fn transform_cause(fault: LookupFault) -> Cause {
    match fault {
        LookupFault::Unavailable => Cause::TransformUnavailable,
        LookupFault::TooManyFrames => Cause::TooManyFrames,
        LookupFault::Stale => Cause::StaleTransform,
        LookupFault::Invalid(_) => Cause::InvalidTransform,
        LookupFault::Conflict => Cause::TransformConflict,
    }
}

/// `T(B ← Z)` now: the zone frame's latest pose in `odom_frame_id`, held
/// for `max(frame_hold_timeout, transform_tolerance)`, into the base frame
/// at its latest (the module's "Placement"). `Err`: the frame that could
/// not be placed and why.
fn base_from_zone(
    tree: &FrameTree,
    frames: &Frames,
    zone: &ExclusionZone,
    now: f64,
) -> Result<Isometry2<f64>, (String, Cause)> {
    let z = zone.frame(frames);
    let (base, odom, tolerance) = (frames.base.as_str(), frames.odom.as_str(), frames.tolerance);
    if z == base {
        return Ok(Isometry2::identity());
    }
    let fail = |frame: &str, fault| (frame.to_owned(), transform_cause(fault));
    let base_from_odom = tree
        .lookup(base, odom, 0.0, now, tolerance)
        .map_err(|f| fail(odom, f))?;
    if z == odom {
        return Ok(base_from_odom);
    }
    // A NaN never reaches here (the parameters' range), and `max` of a
    // number and NaN is the number.
    let hold = zone.config.frame_hold_timeout.max(tolerance);
    let odom_from_zone = tree
        .lookup(odom, z, 0.0, now, hold)
        .map_err(|f| fail(z, f))?;
    Ok(base_from_odom * odom_from_zone)
}

/// `T(F ← B)`: the base frame, now, in the message's frame `frame` at
/// `stamp` (`moved`: a cloud moved into the base frame from its sensor's),
/// by the velocity gate's rule for the same points (`monitor::regions`'
/// `place_base`): with `base_shift_correction` through `odom_frame_id`,
/// the identity for a message in the base frame itself.
fn frame_from_base(
    tree: &FrameTree,
    frames: &Frames,
    frame: &str,
    stamp: f64,
    moved: bool,
    now: f64,
) -> Result<Isometry2<f64>, (String, Cause)> {
    let (base, tolerance) = (frames.base.as_str(), frames.tolerance);
    let fixed = frames.correction.then_some(frames.odom.as_str());
    if frame == base && (!moved || fixed.is_none() || stamp == 0.0) {
        return Ok(Isometry2::identity());
    }
    let fail = |at: &str, fault| (at.to_owned(), transform_cause(fault));
    match fixed {
        Some(odom) if odom != base => {
            let base_in_odom = tree
                .lookup(odom, base, 0.0, now, tolerance)
                .map_err(|f| fail(base, f))?;
            if frame == odom {
                return Ok(base_in_odom);
            }
            let odom_in_frame = tree
                .lookup(frame, odom, stamp, now, tolerance)
                .map_err(|f| fail(frame, f))?;
            Ok(odom_in_frame * base_in_odom)
        }
        _ => tree
            .lookup(frame, base, stamp, now, tolerance)
            .map_err(|f| fail(frame, f)),
    }
}

impl ReaderZones {
    /// Whether some zone is enabled (else nothing is placed, no TF asked).
    pub(super) fn any_enabled(&self) -> bool {
        self.zones.iter().any(|z| z.config.enabled)
    }

    /// The enabled zones placed in the message's frame `frame` at `stamp`
    /// (`moved`: a cloud's points moved into the base frame), judged at
    /// `now`, into `out`; `heights_given`: the points' heights come with
    /// them (a cloud), else a band is judged by `frame`'s plane in the base
    /// frame. A zone that cannot be placed goes to `out.unplaced`.
    pub(super) fn place(
        &self,
        tree: &FrameTree,
        (frame, stamp, moved, heights_given): (&str, f64, bool, bool),
        now: f64,
        out: &mut Placed,
    ) {
        out.clear();
        out.heights_given = heights_given;
        let frames = &self.frames;
        let mut frame_pose = None;
        let mut plane: Option<Result<Plane, (String, Cause)>> = None;
        for zone in self.zones.iter().filter(|z| z.config.enabled) {
            let placed = (|| {
                let in_frame = frame_pose
                    .get_or_insert_with(|| frame_from_base(tree, frames, frame, stamp, moved, now))
                    .clone()?;
                let pose = in_frame * base_from_zone(tree, frames, zone, now)?;
                if zone.has_band() && !heights_given {
                    let got =
                        plane.get_or_insert_with(|| frame_plane(tree, frames, frame, stamp, now));
                    out.plane = Some(*got.as_ref().map_err(Clone::clone)?);
                }
                Ok::<_, (String, Cause)>(pose)
            })();
            match placed {
                Ok(pose) => {
                    let shape = zone.shape.transformed(&pose);
                    let aabb = shape.aabb();
                    let grow = 2.0 * length_tolerance(aabb.magnitude());
                    out.zones.push(PlacedZone {
                        search: aabb.inflated(grow),
                        shape,
                        min_height: zone.config.min_height,
                        max_height: zone.config.max_height,
                    });
                }
                Err((frame, cause)) => out.unplaced.push(Unplaced {
                    zone: zone.config.name.clone(),
                    frame,
                    cause,
                }),
            }
        }
    }
}

/// `frame`'s 3-D pose in the base frame at `stamp` as the height of its
/// plane's points; the base frame's own plane is `z = 0`.
fn frame_plane(
    tree: &FrameTree,
    frames: &Frames,
    frame: &str,
    stamp: f64,
    now: f64,
) -> Result<Plane, (String, Cause)> {
    let base = frames.base.as_str();
    if frame == base {
        return Ok(Plane {
            a: 0.0,
            b: 0.0,
            c: 0.0,
        });
    }
    let pose = tree
        .lookup_3d(base, frame, stamp, now, frames.tolerance)
        .map_err(|fault| (frame.to_owned(), transform_cause(fault)))?;
    let r = pose.rotation.to_rotation_matrix();
    let m = r.matrix();
    Ok(Plane {
        a: m[(2, 0)],
        b: m[(2, 1)],
        c: pose.translation.vector.z,
    })
}

impl PlacedZone {
    /// `p` at height `z` is masked: in the band (bounds included), in the
    /// closed shape (touching counts).
    ///
    /// Proof that the box test drops no point the shape holds: the shape
    /// test ([`PointProbe::collides`] with no padding) holds `p` when its
    /// distance to the shape is at most `tol(p) = 1e-12 · max(1, M, |p|)`
    /// (`M` the shape's magnitude, `length_tolerance`). If `p` is outside
    /// the box grown by `g = 2 · 1e-12 · max(1, M)`, its distance `d` to
    /// the shape exceeds `g`; and `|p| <= M + d`, so
    /// `tol(p) <= 1e-12 · max(1, M) + 1e-12 · d < g/2 + d/2 < d`: not held.
    #[inline(always)]
    fn masks(&self, p: &Point, z: f64) -> bool {
        let (lo, hi) = (self.search.min, self.search.max);
        // One branch for the six compares (`&`, not `&&`): most points are
        // outside the box, and which compare says so is random. Finite: a
        // NaN fails every compare; an infinite point is outside every box
        // of a finite shape.
        let in_box = (lo.x <= p.x) & (p.x <= hi.x) & (lo.y <= p.y) & (p.y <= hi.y);
        let in_band = (self.min_height <= z) & (z <= self.max_height);
        in_box & in_band && self.holds(p)
    }

    /// Every one of `points` in the zone's shape, one convex piece of it
    /// holding them all (see [`Placed::mask_cells`]).
    fn holds_all(&self, points: &[Point]) -> bool {
        let in_box = |p: &Point| {
            let (lo, hi) = (self.search.min, self.search.max);
            lo.x <= p.x && p.x <= hi.x && lo.y <= p.y && p.y <= hi.y
        };
        if !points.iter().all(in_box) {
            return false;
        }
        match &self.shape {
            Shape::Compound(compound) => compound.pieces().iter().any(|piece| {
                let piece = Shape::Convex(piece.clone());
                let probe = PointProbe::new(&piece, 0.0);
                points.iter().all(|p| probe.collides(p))
            }),
            shape => {
                let probe = PointProbe::new(shape, 0.0);
                points.iter().all(|p| probe.collides(p))
            }
        }
    }

    /// The shape test of [`masks`](Self::masks), out of line: the box test
    /// before it settles most points without a call.
    #[inline(never)]
    fn holds(&self, p: &Point) -> bool {
        PointProbe::new(&self.shape, 0.0).collides(p)
    }
}

impl Placed {
    /// Nothing placed, nothing unplaced.
    pub(super) fn clear(&mut self) {
        self.zones.clear();
        self.unplaced.clear();
        self.plane = None;
        self.heights_given = false;
    }

    /// No zone placed: nothing to mask.
    pub(super) fn is_empty(&self) -> bool {
        self.zones.is_empty()
    }

    /// The points' heights come with them and some placed zone's band
    /// excludes a height: a cloud's heights are to be read.
    pub(super) fn needs_heights(&self) -> bool {
        self.heights_given
            && self
                .zones
                .iter()
                .any(|z| z.min_height > -f64::MAX || z.max_height < f64::MAX)
    }

    /// Drops from `points` those a placed zone masks (their order kept),
    /// and from `heights` the same when they were read
    /// ([`needs_heights`](Self::needs_heights): a cloud's, aligned with
    /// `points`; else the plane's heights, or 0). What was masked, and the
    /// zones that were not placed.
    pub(super) fn mask(&self, points: &mut Vec<Point>, heights: &mut Vec<f64>) -> Exclusion {
        let before = points.len();
        let heights = self.needs_heights().then_some(heights);
        let plane = self.plane.unwrap_or(Plane {
            a: 0.0,
            b: 0.0,
            c: 0.0,
        });
        let height = |p: &Point| plane.a * p.x + plane.b * p.y + plane.c;
        let mut kept = 0;
        match heights {
            // Heights that do not match the points judge nothing: nothing
            // is masked, every point kept.
            Some(heights) if heights.len() != points.len() => kept = before,
            Some(heights) => {
                for i in 0..points.len() {
                    let (p, z) = (points[i], heights[i]);
                    if !self.zones.iter().any(|zone| zone.masks(&p, z)) {
                        points[kept] = p;
                        heights[kept] = z;
                        kept += 1;
                    }
                }
                heights.truncate(kept);
            }
            None => {
                for i in 0..points.len() {
                    let p = points[i];
                    if !self.zones.iter().any(|zone| zone.masks(&p, height(&p))) {
                        points[kept] = p;
                        kept += 1;
                    }
                }
            }
        }
        points.truncate(kept);
        Exclusion {
            masked: before - kept,
            unplaced: self.unplaced.clone(),
        }
    }

    /// Drops from `cells` (a costmap's obstacle cells, each the square it
    /// covers, in the message's frame) those a placed zone masks: a cell
    /// is masked when its **whole square** is in one zone, each corner
    /// within its band (the frame's plane gives the corners' heights, as a
    /// scan's points'). What was masked, and the zones not placed.
    ///
    /// nav2 masks a cell whose centre is in the zone; a square wholly in
    /// the zone holds its centre, so this masks no cell nav2 keeps: a
    /// cell reaching out of the zone stays an obstacle (the safe side of
    /// the costmap source's squares). Proof that the square is in the
    /// zone: a convex zone holds the convex hull of any points it holds,
    /// so its four corners; a concave zone, when the four corners are in
    /// one of its convex pieces (a sufficient test: a square across two
    /// pieces stays an obstacle); a circle is convex.
    pub(super) fn mask_cells(&self, cells: &mut Vec<(usize, Shape)>) -> Exclusion {
        let before = cells.len();
        let plane = self.plane.unwrap_or(Plane {
            a: 0.0,
            b: 0.0,
            c: 0.0,
        });
        let height = |p: &Point| plane.a * p.x + plane.b * p.y + plane.c;
        cells.retain(|(_, cell)| {
            let Shape::Convex(square) = cell else {
                return true;
            };
            let corners = square.vertices();
            !self.zones.iter().any(|zone| {
                corners.iter().all(|c| {
                    let z = height(c);
                    (zone.min_height <= z) & (z <= zone.max_height)
                }) && zone.holds_all(corners)
            })
        });
        Exclusion {
            masked: before - cells.len(),
            unplaced: self.unplaced.clone(),
        }
    }

    /// The zones that were not placed, without masking (no points).
    pub(super) fn unplaced_only(&self) -> Exclusion {
        Exclusion {
            masked: 0,
            unplaced: self.unplaced.clone(),
        }
    }
}
