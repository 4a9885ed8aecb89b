//! rosidl's C messages, read and written safely: the only home of the
//! node's `unsafe` towards rosidl.
//!
//! r2r hands the node native (C) messages; reading them as they are, before
//! any copy, is what lets an oversized message cost only its lengths and a
//! bad string be refused instead of converted lossily. What that takes is
//! here, and nowhere else in `ros`:
//!
//! * strings as their bytes ([`bytes`]), and read as the library reads
//!   text ([`frame_id`], [`obstacle_id`]: the checks of [`crate::text`]);
//! * sequences as slices borrowed from the message that owns them
//!   ([`items`]), or only when they are within a bound of
//!   [`crate::limits`] ([`items_within`]: the length is read first, the
//!   elements never when it is over);
//! * header stamps in seconds ([`seconds`]);
//! * writing: a string's bytes ([`set_string`], [`set_bytes`]) and the
//!   report's results sequence ([`resize_results`]).
//!
//! Every function takes a message r2r (or rosidl) created and initialised;
//! the slices borrow it, so they cannot outlive it. The fields of r2r's C
//! structs are public, so a struct built by hand with a dangling pointer
//! would be read as if rosidl owned it: hence this module is crate-private,
//! and the node reads only the messages r2r hands it.

use crate::model::Rejection;
use crate::text::{check_name, MAX_FRAME_ID_BYTES, MAX_ID_BYTES};
use r2r_msg_gen::{
    builtin_interfaces__msg__Time as NativeTime, geometry_msgs__msg__Point32 as NativePoint,
    geometry_msgs__msg__Point32__Sequence as PointSequence,
    geometry_msgs__msg__PoseStamped as NativePoseStamped,
    geometry_msgs__msg__PoseStamped__Sequence as PoseSequence,
    geometry_msgs__msg__TransformStamped as NativeTransform,
    geometry_msgs__msg__TransformStamped__Sequence as TransformSequence,
    sat_collision_msgs__msg__Obstacle as NativeObstacle,
    sat_collision_msgs__msg__ObstacleResult as NativeResult,
    sat_collision_msgs__msg__ObstacleResult__Sequence as ResultSequence,
    sat_collision_msgs__msg__ObstacleResult__Sequence__fini as fini_results,
    sat_collision_msgs__msg__ObstacleResult__Sequence__init as init_results,
    sat_collision_msgs__msg__Obstacle__Sequence as ObstacleSequence,
    sensor_msgs__msg__PointField as NativePointField,
    sensor_msgs__msg__PointField__Sequence as PointFieldSequence,
};
use r2r_rcl::{
    rosidl_runtime_c__String as NativeString, rosidl_runtime_c__String__assignn,
    rosidl_runtime_c__float__Sequence as FloatSequence,
    rosidl_runtime_c__uint8__Sequence as ByteSequence,
};

/// A rosidl sequence type (`data`, `size`, `capacity`) of `Item`s.
///
/// Implemented here only, for the sequences the node reads.
pub trait Sequence {
    type Item;
    /// Its `data` and `size`.
    fn raw(&self) -> (*mut Self::Item, usize);
}

macro_rules! sequences {
    ($($sequence:ty => $item:ty),* $(,)?) => {
        $(impl Sequence for $sequence {
            type Item = $item;
            fn raw(&self) -> (*mut $item, usize) {
                (self.data, self.size)
            }
        })*
    };
}

sequences! {
    PointSequence => NativePoint,
    ObstacleSequence => NativeObstacle,
    PoseSequence => NativePoseStamped,
    TransformSequence => NativeTransform,
    ResultSequence => NativeResult,
    FloatSequence => f32,
    ByteSequence => u8,
    PointFieldSequence => NativePointField,
}

/// How many elements a sequence holds (its `size`; nothing else is read).
pub fn len<S: Sequence>(sequence: &S) -> usize {
    sequence.raw().1
}

/// The elements of a sequence of a live message.
pub fn items<S: Sequence>(sequence: &S) -> &[S::Item] {
    let (data, size) = sequence.raw();
    if data.is_null() || size == 0 {
        return &[];
    }
    // SAFETY: an initialised rosidl sequence owns `size` elements at `data`,
    // and lives as long as the message holding it, which the slice borrows.
    unsafe { std::slice::from_raw_parts(data, size) }
}

/// The elements of a sequence, or `None` (the elements unread) when it
/// holds more than `max`.
pub fn items_within<S: Sequence>(sequence: &S, max: usize) -> Option<&[S::Item]> {
    (len(sequence) <= max).then(|| items(sequence))
}

/// The elements of a sequence of a live message, to write in place.
pub fn items_mut<S: Sequence>(sequence: &mut S) -> &mut [S::Item] {
    let (data, size) = sequence.raw();
    if data.is_null() || size == 0 {
        return &mut [];
    }
    // SAFETY: as in `items`; the message is borrowed mutably, so the
    // slice is the only access to its elements.
    unsafe { std::slice::from_raw_parts_mut(data, size) }
}

/// The bytes of a rosidl string (its `size`, NULs included).
pub fn bytes(s: &NativeString) -> &[u8] {
    if s.data.is_null() || s.size == 0 {
        return &[];
    }
    // SAFETY: an initialised rosidl string owns `size` bytes at `data`; the
    // slice borrows the message that owns the string.
    unsafe { std::slice::from_raw_parts(s.data.cast::<u8>(), s.size) }
}

/// A frame id as the library takes one ([`check_name`]: at most
/// [`MAX_FRAME_ID_BYTES`], UTF-8, no NUL), read without a copy.
pub fn frame_id(s: &NativeString) -> Result<&str, Rejection> {
    check_name(bytes(s), MAX_FRAME_ID_BYTES).map_err(|_| Rejection::InvalidFrameId)
}

/// An obstacle id as the library takes one (at most [`MAX_ID_BYTES`]).
pub fn obstacle_id(s: &NativeString) -> Result<&str, Rejection> {
    check_name(bytes(s), MAX_ID_BYTES).map_err(|_| Rejection::InvalidId)
}

/// A header stamp in seconds (0 asks for the latest transform).
pub fn seconds(stamp: &NativeTime) -> f64 {
    f64::from(stamp.sec) + f64::from(stamp.nanosec) * 1e-9
}

/// The C message could not be resized (its allocator failed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NativeAllocError;

/// Sets a string of a native message: nothing to do when it already reads
/// `value`; else one copy of exactly `value`'s bytes (no intermediate
/// `CString`, so no allocation on the Rust side and no panic on a NUL).
pub fn set_string(target: &mut NativeString, value: &str) -> Result<(), NativeAllocError> {
    set_bytes(target, value.as_bytes())
}

/// [`set_string`] for any bytes (NULs and bytes that are not UTF-8
/// included: what a publisher may send).
pub fn set_bytes(target: &mut NativeString, value: &[u8]) -> Result<(), NativeAllocError> {
    if bytes(target) == value {
        return Ok(());
    }
    // SAFETY: `target` is an initialised rosidl string; assignn copies
    // `value.len()` bytes from a valid pointer.
    let assigned =
        unsafe { rosidl_runtime_c__String__assignn(target, value.as_ptr().cast(), value.len()) };
    if assigned {
        Ok(())
    } else {
        Err(NativeAllocError)
    }
}

/// Makes the report's results sequence hold `n` elements: kept as it is
/// when it already does, else rebuilt with `n` default ones.
pub fn resize_results(
    results: &mut ResultSequence,
    n: usize,
) -> Result<&mut [NativeResult], NativeAllocError> {
    if results.size != n {
        // SAFETY: `results` is a sequence of a live, initialised message;
        // fini then init leaves it initialised with `n` default elements,
        // or empty when init fails.
        let resized = unsafe {
            fini_results(results);
            init_results(results, n)
        };
        if !resized {
            return Err(NativeAllocError);
        }
    }
    Ok(items_mut(results))
}
