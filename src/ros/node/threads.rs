//! What the node's threads share about threads: a lock that survives a
//! panic elsewhere, scheduling priorities, and giving freed memory back.

use std::sync::{Mutex, MutexGuard};

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // The data behind these locks stays consistent at every unlock: after a
    // panic elsewhere, keep using it rather than losing the node.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Lowers the calling thread's scheduling priority to `nice`, so that on a
/// busy machine the flag's thread and the transport get the cores first.
/// Best effort: a failure leaves the priority as it was.
pub(super) fn lower_priority(nice: i32) {
    // SAFETY: gettid has no preconditions; setpriority on the calling
    // thread's own id changes only that thread's nice value.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, nice);
    }
}

/// Nice value of the report thread: the lowest of the node's threads.
pub(super) const REPORT_NICE: i32 = 10;
/// Nice value of the obstacle worker: below the flag, above the report.
pub(super) const OBSTACLES_NICE: i32 = 5;

/// Returns freed heap memory to the system after a large message (glibc
/// keeps it otherwise, and RSS would stay at its peak).
pub(super) fn trim_heap() {
    #[cfg(target_env = "gnu")]
    // SAFETY: malloc_trim only releases free memory at the top of glibc's
    // heaps; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// A publisher to destroy on the I/O thread (which owns the node).
pub(super) type Release = Box<dyn FnOnce(&mut r2r::Node) + Send>;

/// `publisher`, destroyed when the [`Release`] runs.
pub(super) fn release<T: r2r::WrappedTypesupport + 'static>(
    publisher: r2r::Publisher<T>,
) -> Release {
    Box::new(move |node: &mut r2r::Node| node.destroy_publisher(publisher))
}
