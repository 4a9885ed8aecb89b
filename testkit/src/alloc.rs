//! Allocation counting: a global allocator that counts the allocation calls
//! (`alloc`, `alloc_zeroed`, `realloc`) of the current thread, so that the
//! test harness's other threads do not count.
//!
//! A test binary installs it and measures with [`allocations_in`] (or
//! [`thread_allocations`] before and after); without the allocator
//! installed, every count is zero:
//!
//! ```
//! use sat_collision_testkit::alloc::{allocations_in, CountingAllocator};
//!
//! #[global_allocator]
//! static ALLOCATOR: CountingAllocator = CountingAllocator;
//!
//! fn main() {
//!     let calls = allocations_in(|| drop(std::hint::black_box(vec![1u8; 16])));
//!     assert_eq!(calls, 1);
//! }
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    static CALLS: Cell<usize> = const { Cell::new(0) };
}

/// The system allocator, counting the calling thread's allocation calls.
pub struct CountingAllocator;

fn count() {
    // `try_with`: an allocation while the thread's locals are torn down is
    // simply not counted.
    let _ = CALLS.try_with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocation calls made by this thread so far.
pub fn thread_allocations() -> usize {
    CALLS.with(Cell::get)
}

/// Allocation calls made by this thread while `f` runs.
pub fn allocations_in(f: impl FnOnce()) -> usize {
    let before = thread_allocations();
    f();
    thread_allocations() - before
}
