//! `sensor_msgs/PointCloud2` as planar points in the robot's base frame.
//!
//! The rule is [`cloud_points`]'s documentation.
//!
//! # How it is read
//!
//! The layout is checked once, before any point is read ([`CloudError`]):
//! every field read lies within `point_step`, every row within `row_step`,
//! every row within `data`. The loop then walks `chunks_exact(point_step)`
//! of each row, 256 points at a time (a block), in three passes over the
//! block, none with a branch per point:
//! 1. read `x`, `y`, `z` (and `height`) with `from_le_bytes` or
//!    `from_be_bytes` into arrays, monomorphised for the byte order, the
//!    height field and the coordinates' width (all float32, the common
//!    case and kept float32 until the filter widens them; all float64; or
//!    mixed);
//! 2. over the arrays, the height, the checks and the filter (vectorised
//!    by the compiler), into a kept/not kept mark per point;
//! 3. the indices of the kept points, then their base-frame `(x, y)`
//!    appended to `out` in one `extend`.
//!
//! Only the kept points are moved into the base frame's `x` and `y`.

use crate::geometry::{Point, MAX_COORDINATE};
use crate::limits::MAX_SENSOR_POINTS;
use nalgebra::Isometry3;
use std::marker::PhantomData;

/// `sensor_msgs/PointField` datatype of a 32-bit float.
pub const DATATYPE_FLOAT32: u8 = 7;
/// `sensor_msgs/PointField` datatype of a 64-bit float.
pub const DATATYPE_FLOAT64: u8 = 8;

/// One field of a point cloud's points (`sensor_msgs/PointField`).
#[derive(Clone, Copy, Debug, Default)]
pub struct PointField<'a> {
    /// The field's name, as bytes (`x`, `y`, `z`, `height`, ...).
    pub name: &'a [u8],
    /// Byte offset of the field within a point.
    pub offset: u32,
    /// Its type: [`DATATYPE_FLOAT32`] and [`DATATYPE_FLOAT64`] are read.
    pub datatype: u8,
    /// Number of elements (1 for the fields read).
    pub count: u32,
}

/// A point cloud, borrowed from its message (`sensor_msgs/PointCloud2`).
#[derive(Clone, Copy, Debug)]
pub struct PointCloud<'a> {
    /// Number of rows (1 for an unorganised cloud).
    pub height: u32,
    /// Points per row.
    pub width: u32,
    /// The points' fields.
    pub fields: &'a [PointField<'a>],
    /// Whether the fields are big endian.
    pub is_bigendian: bool,
    /// Bytes per point.
    pub point_step: u32,
    /// Bytes per row (at least `width * point_step`; more when rows are
    /// padded).
    pub row_step: u32,
    /// The points, `row_step * height` bytes.
    pub data: &'a [u8],
}

/// Which points of a cloud become obstacles, and where they go (nav2's
/// `pointcloud` source parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CloudFilter {
    /// The cloud's frame in the robot's base frame (from TF, at the
    /// cloud's stamp): the full 3-D transform, a pitched camera included.
    pub to_base: Isometry3<f64>,
    /// Lowest height kept (metres, included).
    pub min_height: f64,
    /// Highest height kept (metres, included).
    pub max_height: f64,
    /// Points closer than this to the sensor's origin (in the cloud's
    /// frame) are dropped.
    pub min_range: f64,
    /// Read the height from the cloud's `height` field instead of the
    /// base-frame z.
    pub use_global_height: bool,
}

impl Default for CloudFilter {
    /// nav2's defaults: heights `[0.05, 0.5]`, no minimum range, the base
    /// frame's z; the cloud already in the base frame.
    fn default() -> Self {
        CloudFilter {
            to_base: Isometry3::identity(),
            min_height: 0.05,
            max_height: 0.5,
            min_range: 0.0,
            use_global_height: false,
        }
    }
}

/// What [`cloud_points`] did with a cloud's points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CloudStats {
    /// Points read: `width * height`.
    pub read: usize,
    /// Points kept (appended to `out`).
    pub kept: usize,
    /// Points skipped for a NaN or infinite coordinate or height field
    /// (or one beyond `MAX_COORDINATE / 10`).
    pub non_finite: usize,
}

/// A field [`cloud_points`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloudField {
    /// `x`.
    X,
    /// `y`.
    Y,
    /// `z`.
    Z,
    /// `height` (with `use_global_height`).
    Height,
}

impl CloudField {
    /// The field's name in the message.
    pub const fn name(self) -> &'static str {
        match self {
            CloudField::X => "x",
            CloudField::Y => "y",
            CloudField::Z => "z",
            CloudField::Height => "height",
        }
    }
}

/// Why a point cloud gives no points (the message is malformed, or the
/// filter is).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CloudError {
    /// The filter has a NaN bound, or a transform that is not finite (or
    /// a translation beyond `MAX_COORDINATE / 10`).
    #[error("the cloud filter has a NaN bound or a non-finite transform")]
    InvalidFilter,
    /// More than [`MAX_SENSOR_POINTS`] points (`width * height`).
    #[error("more than {MAX_SENSOR_POINTS} points")]
    TooManyPoints,
    /// No field of that name.
    #[error("no field `{}`", .0.name())]
    MissingField(CloudField),
    /// The field is neither float32 nor float64.
    #[error("field `{}` has datatype {datatype}; float32 (7) or float64 (8) expected", field.name())]
    UnsupportedDatatype {
        /// The field.
        field: CloudField,
        /// Its datatype.
        datatype: u8,
    },
    /// The field's `count` is not 1.
    #[error("field `{}` has count {count}; 1 expected", field.name())]
    UnsupportedCount {
        /// The field.
        field: CloudField,
        /// Its count.
        count: u32,
    },
    /// The field's offset plus its size goes beyond `point_step`.
    #[error("field `{}` lies beyond point_step", .0.name())]
    FieldOutsidePointStep(CloudField),
    /// `row_step < width * point_step`.
    #[error("row_step is shorter than width * point_step")]
    RowStepTooShort,
    /// `data` is shorter than `row_step * height`.
    #[error("data is shorter than row_step * height")]
    DataTooShort,
    /// A size does not fit in memory's `usize`.
    #[error("the cloud's sizes overflow")]
    SizeOverflow,
}

impl CloudError {
    /// The stable snake_case spelling (logs, statuses).
    pub const fn as_str(self) -> &'static str {
        match self {
            CloudError::InvalidFilter => "invalid_filter",
            CloudError::TooManyPoints => "too_many_points",
            CloudError::MissingField(CloudField::X) => "missing_field_x",
            CloudError::MissingField(CloudField::Y) => "missing_field_y",
            CloudError::MissingField(CloudField::Z) => "missing_field_z",
            CloudError::MissingField(CloudField::Height) => "missing_field_height",
            CloudError::UnsupportedDatatype { .. } => "unsupported_datatype",
            CloudError::UnsupportedCount { .. } => "unsupported_count",
            CloudError::FieldOutsidePointStep(_) => "field_outside_point_step",
            CloudError::RowStepTooShort => "row_step_too_short",
            CloudError::DataTooShort => "data_too_short",
            CloudError::SizeOverflow => "size_overflow",
        }
    }
}

/// Appends the kept points of `cloud` to `out`, in the base frame, and
/// returns what it read, kept and skipped.
///
/// # The rule (nav2's collision monitor, `pointcloud.cpp`)
///
/// For each point `p` of the cloud (its `x`, `y`, `z` in the cloud's
/// frame):
/// * its **range** is `|p|`, the distance from the sensor's origin in the
///   cloud's frame (before any transform); a point with `|p| < min_range`
///   is dropped;
/// * it is moved into the base frame by the full 3-D `to_base`: `b = T p`;
/// * its **height** is `b.z`, or with `use_global_height` the value of the
///   cloud's field named `height` (a height above the ground the cloud's
///   producer measured; not transformed), and the point is kept when
///   `min_height <= height <= max_height`;
/// * the kept point is `(b.x, b.y)`.
///
/// A point with a NaN or infinite coordinate (or height field) is skipped
/// and counted ([`CloudStats::non_finite`]), as is a float64 one beyond
/// `MAX_COORDINATE / 10` (1e149 m: the kept points stay within
/// [`MAX_COORDINATE`], which the geometry requires).
///
/// The height is the transformed z: nav2 compared the cloud's own z for a
/// while (navigation2 #5586) and went back to the base frame's
/// (navigation2 #5794); this is the latter.
///
/// Every row is read (`row_step` apart: padded rows are fine), an
/// organised cloud (`height > 1`) like an unorganised one; the fields at
/// any offsets, float32 or float64 each, in either byte order; the first
/// field of a name is the one read. The points are appended in the
/// cloud's order.
///
/// # Errors
///
/// [`CloudError`], checked in this order before any point is read: the
/// filter (NaN bounds, a transform not finite), the point count
/// ([`MAX_SENSOR_POINTS`]), the fields `x`, `y`, `z` (then `height` with
/// `use_global_height`): missing, not float32/float64, `count != 1`,
/// beyond `point_step`; then `row_step` and `data` too short. On error
/// `out` is unchanged.
pub fn cloud_points(
    cloud: &PointCloud<'_>,
    filter: &CloudFilter,
    out: &mut Vec<Point>,
) -> Result<CloudStats, CloudError> {
    cloud_points_into(cloud, filter, out, None)
}

/// [`cloud_points`], and each kept point's z in the base frame appended to
/// `heights` (aligned with the points appended to `out`): `b.z`, also with
/// `use_global_height` (the height compared is the field's, the z kept
/// is the transformed one, as nav2 keeps it). For what is compared in the
/// base frame after the filter (a source's exclusion zones' height
/// bands). On error neither is changed.
pub fn cloud_points_with_heights(
    cloud: &PointCloud<'_>,
    filter: &CloudFilter,
    out: &mut Vec<Point>,
    heights: &mut Vec<f64>,
) -> Result<CloudStats, CloudError> {
    cloud_points_into(cloud, filter, out, Some(heights))
}

/// The one body of [`cloud_points`] and [`cloud_points_with_heights`].
fn cloud_points_into(
    cloud: &PointCloud<'_>,
    filter: &CloudFilter,
    out: &mut Vec<Point>,
    heights: Option<&mut Vec<f64>>,
) -> Result<CloudStats, CloudError> {
    let kernel = Kernel::new(filter)?;
    let layout = Layout::of(cloud, filter.use_global_height)?;
    let mut stats = CloudStats {
        read: layout.points,
        ..CloudStats::default()
    };
    if layout.points == 0 {
        return Ok(stats);
    }
    let before = out.len();
    let data = cloud.data;
    let s = &mut stats;
    let z = heights;
    match (layout.height.is_some(), cloud.is_bigendian) {
        (false, false) => by_width::<false, false>(&kernel, &layout, data, out, z, s),
        (false, true) => by_width::<true, false>(&kernel, &layout, data, out, z, s),
        (true, false) => by_width::<false, true>(&kernel, &layout, data, out, z, s),
        (true, true) => by_width::<true, true>(&kernel, &layout, data, out, z, s),
    }
    stats.kept = out.len() - before;
    Ok(stats)
}

/// Picks the reader for the byte order `BIG`, the height field (`GLOBAL`)
/// and the widths of `x`, `y`, `z`: one type for all three (the common
/// case, float32 little endian without a height field, is
/// `Same<f32, false, false>`), or a mix.
fn by_width<const BIG: bool, const GLOBAL: bool>(
    kernel: &Kernel,
    layout: &Layout,
    data: &[u8],
    out: &mut Vec<Point>,
    heights: Option<&mut Vec<f64>>,
    stats: &mut CloudStats,
) {
    let [x, y, z] = layout.xyz;
    let height = layout.height.unwrap_or(x);
    let offsets = [x.offset, y.offset, z.offset];
    match (x.double, y.double, z.double) {
        (false, false, false) => {
            let reader = Same::<f32, BIG, GLOBAL> {
                offsets,
                height,
                width: PhantomData,
            };
            decode(kernel, layout, data, reader, out, heights, stats);
        }
        (true, true, true) => {
            let reader = Same::<f64, BIG, GLOBAL> {
                offsets,
                height,
                width: PhantomData,
            };
            decode(kernel, layout, data, reader, out, heights, stats);
        }
        _ => {
            let reader = Mixed::<BIG, GLOBAL> {
                xyz: layout.xyz,
                height,
            };
            decode(kernel, layout, data, reader, out, heights, stats);
        }
    }
}

/// Reads every row of `data` with `reader` through `kernel`. Not inlined:
/// each reader's loops get registers of their own.
#[inline(never)]
fn decode<R: Reader>(
    kernel: &Kernel,
    layout: &Layout,
    data: &[u8],
    reader: R,
    out: &mut Vec<Point>,
    mut heights: Option<&mut Vec<f64>>,
    stats: &mut CloudStats,
) {
    let mut block = Block::<R::Coord>::new();
    let step = layout.point_step;
    if kernel.has_min_range() {
        for row in layout.rows(data) {
            let z = heights.as_deref_mut();
            kernel.run::<R, true>(row, step, reader, &mut block, out, z, stats);
        }
    } else {
        for row in layout.rows(data) {
            let z = heights.as_deref_mut();
            kernel.run::<R, false>(row, step, reader, &mut block, out, z, stats);
        }
    }
}

/// A field's place in a point.
#[derive(Clone, Copy, Debug)]
struct Field {
    offset: usize,
    /// float64 (else float32).
    double: bool,
}

/// A cloud's layout, checked: every field read lies within `point_step`,
/// `row_step >= width * point_step`, `data.len() >= row_step * height`.
#[derive(Clone, Copy, Debug)]
struct Layout {
    xyz: [Field; 3],
    height: Option<Field>,
    point_step: usize,
    row_step: usize,
    /// `width * point_step`.
    row_bytes: usize,
    rows: usize,
    /// `width * height`.
    points: usize,
}

impl Layout {
    fn of(cloud: &PointCloud<'_>, use_global_height: bool) -> Result<Layout, CloudError> {
        let (width, rows) = (u64::from(cloud.width), u64::from(cloud.height));
        // u32 * u32 < 2^64: no overflow in u64.
        let points = width * rows;
        if points > MAX_SENSOR_POINTS as u64 {
            return Err(CloudError::TooManyPoints);
        }
        let field = |which: CloudField| -> Result<Field, CloudError> {
            // The first field of that name, as sensor_msgs' iterators take it.
            let f = cloud
                .fields
                .iter()
                .find(|f| f.name == which.name().as_bytes())
                .ok_or(CloudError::MissingField(which))?;
            let size = match f.datatype {
                DATATYPE_FLOAT32 => 4,
                DATATYPE_FLOAT64 => 8,
                datatype => {
                    return Err(CloudError::UnsupportedDatatype {
                        field: which,
                        datatype,
                    })
                }
            };
            if f.count != 1 {
                return Err(CloudError::UnsupportedCount {
                    field: which,
                    count: f.count,
                });
            }
            if u64::from(f.offset) + size > u64::from(cloud.point_step) {
                return Err(CloudError::FieldOutsidePointStep(which));
            }
            Ok(Field {
                // Within point_step, a u32: fits a usize on every target
                // with at least 32 bits.
                offset: usize::try_from(f.offset).map_err(|_| CloudError::SizeOverflow)?,
                double: size == 8,
            })
        };
        let xyz = [
            field(CloudField::X)?,
            field(CloudField::Y)?,
            field(CloudField::Z)?,
        ];
        let height = if use_global_height {
            Some(field(CloudField::Height)?)
        } else {
            None
        };
        let row_bytes = width * u64::from(cloud.point_step);
        let row_step = u64::from(cloud.row_step);
        if row_step < row_bytes {
            return Err(CloudError::RowStepTooShort);
        }
        // u32 * u32 < 2^64.
        let needed = row_step * rows;
        if (cloud.data.len() as u64) < needed {
            return Err(CloudError::DataTooShort);
        }
        let size = |v: u64| usize::try_from(v).map_err(|_| CloudError::SizeOverflow);
        Ok(Layout {
            xyz,
            height,
            point_step: size(u64::from(cloud.point_step))?,
            row_step: size(row_step)?,
            row_bytes: size(row_bytes)?,
            rows: size(rows)?,
            points: size(points)?,
        })
    }

    /// Each row's points (`row_bytes` bytes; the padding left out): one
    /// slice for all of them when the rows are dense.
    ///
    /// Proof of the slicing: `row_bytes <= row_step` and `data.len() >=
    /// row_step * rows` (checked by [`Layout::of`]), so the first `rows`
    /// chunks of `row_step` bytes are whole and each holds `row_bytes`;
    /// dense rows are one chunk of `rows * row_bytes <= data.len()`.
    #[inline(always)]
    fn rows<'d>(&self, data: &'d [u8]) -> impl Iterator<Item = &'d [u8]> {
        let (step, len, count) = if self.row_step == self.row_bytes || self.rows == 1 {
            let all = self.rows * self.row_bytes;
            (all, all, 1)
        } else {
            (self.row_step, self.row_bytes, self.rows)
        };
        // `step >= len > 0` here (`cloud_points` returns early without
        // points): `chunks` gets no 0.
        data.chunks(step).take(count).map(move |row| &row[..len])
    }
}

/// Largest magnitude of a coordinate read, of a height field, and of the
/// filter's translation: a point beyond it is skipped as not finite, so
/// that the points kept lie within [`MAX_COORDINATE`] (see
/// [`Kernel::filter`]).
const MAX_INPUT: f64 = MAX_COORDINATE / 10.0;

/// Points per block: the loop reads a block's points into arrays, filters
/// them there, then copies the kept ones out. 256, so that a `u8` indexes a
/// block's arrays without a bounds check.
const BLOCK: usize = 256;

/// One block of points, as arrays (structure of arrays: the filter's loop
/// over them is vectorised).
struct Block<T> {
    /// Coordinates as read (float32 ones stay float32 here: the filter's
    /// loop widens them, two at a time).
    x: [T; BLOCK],
    y: [T; BLOCK],
    z: [T; BLOCK],
    /// The `height` field (with `use_global_height`).
    h: [f64; BLOCK],
    /// 1 when the point is kept.
    keep: [u64; BLOCK],
    /// The kept points' indices, in order.
    kept: [u8; BLOCK],
}

impl<T: Copy + Default> Block<T> {
    fn new() -> Block<T> {
        Block {
            x: [T::default(); BLOCK],
            y: [T::default(); BLOCK],
            z: [T::default(); BLOCK],
            h: [0.0; BLOCK],
            keep: [0; BLOCK],
            kept: [0; BLOCK],
        }
    }
}

/// Reads a block's points (at most [`BLOCK`] of them, each `point_step`
/// long; every field read lies within a point, [`Layout::of`]) into the
/// block's arrays.
trait Reader: Copy {
    /// Whether the height is read from a field (`use_global_height`).
    const GLOBAL_HEIGHT: bool;
    /// Whether `x`, `y`, `z` must be checked one by one: float64 values
    /// may be finite and still too large ([`MAX_INPUT`]), and a height
    /// read from a field says nothing about them. Without it (float32
    /// coordinates, the height computed from them) a finite height is
    /// proof enough ([`Kernel::filter`]).
    const CHECK_INPUTS: bool;
    /// The coordinates' type in the block's arrays.
    type Coord: Copy + Default + Into<f64>;
    /// Fills `x`, `y`, `z` (and `h` with `GLOBAL_HEIGHT`) from `points`
    /// (`chunks_exact(point_step)` of a block).
    fn fill<'p>(self, points: impl Iterator<Item = &'p [u8]>, block: &mut Block<Self::Coord>);
}

#[inline(always)]
fn bytes<const N: usize>(p: &[u8], offset: usize) -> [u8; N] {
    let mut b = [0; N];
    b.copy_from_slice(&p[offset..offset + N]);
    b
}

/// A float read from a point's bytes.
trait Float: Copy + Default + Into<f64> {
    /// float64.
    const WIDE: bool;
    /// The float at `offset` of `p`, in the byte order `BIG`.
    fn read<const BIG: bool>(p: &[u8], offset: usize) -> Self;
}

impl Float for f32 {
    const WIDE: bool = false;
    #[inline(always)]
    fn read<const BIG: bool>(p: &[u8], offset: usize) -> f32 {
        let b = bytes(p, offset);
        if BIG {
            f32::from_be_bytes(b)
        } else {
            f32::from_le_bytes(b)
        }
    }
}

impl Float for f64 {
    const WIDE: bool = true;
    #[inline(always)]
    fn read<const BIG: bool>(p: &[u8], offset: usize) -> f64 {
        let b = bytes(p, offset);
        if BIG {
            f64::from_be_bytes(b)
        } else {
            f64::from_le_bytes(b)
        }
    }
}

/// A field of either width, in the byte order `BIG`.
#[inline(always)]
fn read_field<const BIG: bool>(p: &[u8], f: Field) -> f64 {
    if f.double {
        f64::read::<BIG>(p, f.offset)
    } else {
        f32::read::<BIG>(p, f.offset).into()
    }
}

/// `x`, `y`, `z` all of type `T`, in the byte order `BIG`, with the
/// `height` field (either width) when `GLOBAL`. `Same<f32, false, false>`
/// is the common case.
#[derive(Clone, Copy, Debug)]
struct Same<T, const BIG: bool, const GLOBAL: bool> {
    offsets: [usize; 3],
    height: Field,
    width: PhantomData<T>,
}

impl<T: Float, const BIG: bool, const GLOBAL: bool> Reader for Same<T, BIG, GLOBAL> {
    const GLOBAL_HEIGHT: bool = GLOBAL;
    const CHECK_INPUTS: bool = T::WIDE || GLOBAL;
    type Coord = T;
    #[inline(always)]
    fn fill<'p>(self, points: impl Iterator<Item = &'p [u8]>, b: &mut Block<T>) {
        let [ox, oy, oz] = self.offsets;
        let arrays = b.x.iter_mut().zip(b.y.iter_mut()).zip(b.z.iter_mut());
        let arrays = arrays.zip(b.h.iter_mut());
        for (p, (((x, y), z), h)) in points.zip(arrays) {
            *x = T::read::<BIG>(p, ox);
            *y = T::read::<BIG>(p, oy);
            *z = T::read::<BIG>(p, oz);
            if GLOBAL {
                *h = read_field::<BIG>(p, self.height);
            }
        }
    }
}

/// `x`, `y`, `z` of mixed widths (each float32 or float64), in the byte
/// order `BIG`, with the `height` field when `GLOBAL`.
#[derive(Clone, Copy, Debug)]
struct Mixed<const BIG: bool, const GLOBAL: bool> {
    xyz: [Field; 3],
    height: Field,
}

impl<const BIG: bool, const GLOBAL: bool> Reader for Mixed<BIG, GLOBAL> {
    const GLOBAL_HEIGHT: bool = GLOBAL;
    const CHECK_INPUTS: bool = true;
    type Coord = f64;
    #[inline(always)]
    fn fill<'p>(self, points: impl Iterator<Item = &'p [u8]>, b: &mut Block<f64>) {
        let [fx, fy, fz] = self.xyz;
        let arrays = b.x.iter_mut().zip(b.y.iter_mut()).zip(b.z.iter_mut());
        let arrays = arrays.zip(b.h.iter_mut());
        for (p, (((x, y), z), h)) in points.zip(arrays) {
            *x = read_field::<BIG>(p, fx);
            *y = read_field::<BIG>(p, fy);
            *z = read_field::<BIG>(p, fz);
            if GLOBAL {
                *h = read_field::<BIG>(p, self.height);
            }
        }
    }
}

/// The filter, ready for the loop: the rotation as a matrix (rows), the
/// translation, the height band and the squared range threshold.
struct Kernel {
    r: [[f64; 3]; 3],
    t: [f64; 3],
    min_height: f64,
    max_height: f64,
    /// Smallest squared range kept ([`range_threshold`]).
    min_r2: f64,
}

impl Kernel {
    fn new(filter: &CloudFilter) -> Result<Kernel, CloudError> {
        let m = filter.to_base.rotation.to_rotation_matrix();
        let m = m.matrix();
        let t = filter.to_base.translation.vector;
        let finite = m.iter().all(|v| v.is_finite()) && t.iter().all(|v| v.abs() <= MAX_INPUT);
        let bounds = [filter.min_height, filter.max_height, filter.min_range];
        if !finite || bounds.iter().any(|b| b.is_nan()) {
            return Err(CloudError::InvalidFilter);
        }
        Ok(Kernel {
            r: [0, 1, 2].map(|i| [m[(i, 0)], m[(i, 1)], m[(i, 2)]]),
            t: [t.x, t.y, t.z],
            min_height: filter.min_height,
            max_height: filter.max_height,
            min_r2: range_threshold(filter.min_range),
        })
    }

    /// Whether a minimum range applies (else every range is kept and the
    /// loop skips the squared ranges).
    fn has_min_range(&self) -> bool {
        self.min_r2 > f64::NEG_INFINITY
    }

    /// Reads the points of one run of `point_step`-long points (a row, or
    /// all rows when they are dense) into `out`, block by block: the
    /// reader fills the block's arrays, [`Kernel::filter`] marks the kept
    /// points, and the kept ones are moved into the base frame and
    /// appended, in order (with `heights`, their base-frame z too, in a
    /// loop of its own: the common case pays one test per block).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn run<R: Reader, const RANGE: bool>(
        &self,
        run: &[u8],
        point_step: usize,
        reader: R,
        block: &mut Block<R::Coord>,
        out: &mut Vec<Point>,
        mut heights: Option<&mut Vec<f64>>,
        stats: &mut CloudStats,
    ) {
        let [r0, r1, r2] = self.r;
        let t = self.t;
        // `point_step >= 4` (x lies within it): the chunk sizes are not 0.
        for points in run.chunks(BLOCK * point_step) {
            let n = points.len() / point_step;
            reader.fill(points.chunks_exact(point_step), block);
            stats.non_finite += self.filter::<R, RANGE>(n, block);
            // `k` counts the kept points among the first `i` (`k <= i <
            // n <= BLOCK`): the index written is in bounds, and `i < 256`
            // fits a `u8`.
            let mut k = 0;
            for (i, &keep) in block.keep[..n].iter().enumerate() {
                block.kept[k & (BLOCK - 1)] = i as u8;
                k += keep as usize;
            }
            let (xs, ys, zs) = (&block.x, &block.y, &block.z);
            out.extend(block.kept[..k].iter().map(|&i| {
                // A u8 indexes the BLOCK = 256 arrays: no bounds check.
                let i = usize::from(i);
                let (x, y, z) = (xs[i].into(), ys[i].into(), zs[i].into());
                Point::new(
                    r0[0] * x + r0[1] * y + r0[2] * z + t[0],
                    r1[0] * x + r1[1] * y + r1[2] * z + t[1],
                )
            }));
            if let Some(heights) = heights.as_deref_mut() {
                // The same sum as the filter's height (`Kernel::filter`).
                heights.extend(block.kept[..k].iter().map(|&i| {
                    let i = usize::from(i);
                    let (x, y, z): (f64, f64, f64) = (xs[i].into(), ys[i].into(), zs[i].into());
                    r2[0] * x + r2[1] * y + r2[2] * z + t[2]
                }));
            }
        }
    }

    /// Marks the block's first `n` points that are kept (`keep`), and
    /// returns how many are not finite. No branch per point: the compiler
    /// vectorises it.
    ///
    /// Finite: `x`, `y`, `z` (and a height field) are finite and within
    /// [`MAX_INPUT`], so that the base-frame `x`, `y` are within
    /// `3 * MAX_INPUT + MAX_INPUT` (the rotation's entries are at most 1,
    /// the translation within `MAX_INPUT`, [`Kernel::new`]): within
    /// [`MAX_COORDINATE`]. Without [`Reader::CHECK_INPUTS`] one compare
    /// on the height proves it: a NaN or infinite `x`, `y` or `z` makes
    /// the height `r20 x + r21 y + r22 z + tz` NaN or infinite whatever
    /// the rotation (`0 * inf` and `0 * NaN` are NaN, `inf - inf` is NaN),
    /// and finite float32 values are within 3.5e38.
    #[inline(always)]
    fn filter<R: Reader, const RANGE: bool>(&self, n: usize, b: &mut Block<R::Coord>) -> usize {
        let r2 = self.r[2];
        let tz = self.t[2];
        let (min_h, max_h, min_r2) = (self.min_height, self.max_height, self.min_r2);
        let mut non_finite = 0u64;
        let (xs, ys, zs, hs) = (&b.x[..n], &b.y[..n], &b.z[..n], &b.h[..n]);
        let keeps = &mut b.keep[..n];
        for i in 0..n {
            let (x, y, z): (f64, f64, f64) = (xs[i].into(), ys[i].into(), zs[i].into());
            let h = if R::GLOBAL_HEIGHT {
                hs[i]
            } else {
                r2[0] * x + r2[1] * y + r2[2] * z + tz
            };
            let mut finite = h.abs() <= MAX_INPUT;
            if R::CHECK_INPUTS {
                finite &= (x.abs() <= MAX_INPUT) & (y.abs() <= MAX_INPUT) & (z.abs() <= MAX_INPUT);
            }
            let mut keep = finite & (h >= min_h) & (h <= max_h);
            if RANGE {
                keep &= x * x + y * y + z * z >= min_r2;
            }
            keeps[i] = u64::from(keep);
            non_finite += u64::from(!finite);
        }
        non_finite as usize
    }
}

/// The smallest squared range `t` with `sqrt(t) >= min_range` in floating
/// point: `range2 >= t` keeps exactly the points nav2 keeps with
/// `!(sqrt(range2) < min_range)` (`tf2::Vector3::length`, the same sum
/// `x*x + y*y + z*z` in `f64`), without a square root per point. `-inf`
/// when every range is kept (`min_range <= 0`).
///
/// `sqrt` is correctly rounded, hence non-decreasing, so the points kept
/// are an up-set of the squared ranges; non-negative doubles order as
/// their bit patterns, so a bisection over the bits finds its least
/// element in at most 64 steps (`P(0)` is false for `min_range > 0`,
/// `P(inf)` true).
pub(super) fn range_threshold(min_range: f64) -> f64 {
    if min_range.is_nan() || min_range <= 0.0 {
        return f64::NEG_INFINITY;
    }
    let kept = |bits: u64| f64::from_bits(bits).sqrt() >= min_range;
    let (mut lo, mut hi) = (0.0f64.to_bits(), f64::INFINITY.to_bits());
    // Start near min_range² when it brackets the threshold.
    let guess = (min_range * min_range).to_bits();
    if guess > 16 && guess + 16 < hi && !kept(guess - 16) && kept(guess + 16) {
        (lo, hi) = (guess - 16, guess + 16);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if kept(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    f64::from_bits(hi)
}
