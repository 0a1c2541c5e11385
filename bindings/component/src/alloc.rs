//! The component's allocator: blocks in power-of-two size classes, a free
//! list per class, memory from `memory.grow`.
//!
//! A freed block goes back on its class's list and the next request of that
//! class takes it, so a long-running host sees flat memory (BENCHMARKS.md:
//! a million calls); a wasm memory never shrinks anyway. The component
//! model runs one call at a time in an instance, so there is no locking.
//! It replaces the standard library's dlmalloc: about 1 KB of code instead
//! of about 9 KB, and fewer instructions per allocation, for up to twice the
//! bytes a request asks (a block is the next power of two).

use core::alloc::{GlobalAlloc, Layout};
use core::arch::wasm32::memory_grow;
use core::cell::UnsafeCell;
use core::ptr::null_mut;

const PAGE: usize = 65536;
/// The smallest block: 16 bytes (class 4).
const MIN_CLASS: u32 = 4;
/// Blocks are aligned to their size, up to this; larger alignments are refused.
const MAX_ALIGN: usize = 4096;

struct State {
    /// The first free block of each class; a free block holds the next.
    free: [*mut u8; 32],
    /// Memory not yet carved into blocks: `next..end`.
    next: usize,
    end: usize,
}

pub struct Classes(UnsafeCell<State>);

// SAFETY: an instance runs one call at a time, on one thread.
unsafe impl Sync for Classes {}

impl Classes {
    pub const fn new() -> Self {
        Classes(UnsafeCell::new(State {
            free: [null_mut(); 32],
            next: 0,
            end: 0,
        }))
    }
}

/// The class of a layout: its block is `1 << class` bytes.
fn class(l: &Layout) -> Option<usize> {
    let size = l.size().max(l.align()).max(1 << MIN_CLASS);
    if l.align() > MAX_ALIGN || size > 1 << 30 {
        return None;
    }
    Some(size.next_power_of_two().trailing_zeros() as usize)
}

impl State {
    /// A new block of class `k`, carved from fresh memory.
    fn carve(&mut self, k: usize) -> *mut u8 {
        let size = 1usize << k;
        let align = size.min(MAX_ALIGN);
        loop {
            // Near the 4 GiB end of a wasm32 memory these sums overflow:
            // then there is no room, and the request fails.
            let Some(start) = self.next.checked_add(align - 1).map(|n| n & !(align - 1)) else {
                return null_mut();
            };
            let Some(stop) = start.checked_add(size) else {
                return null_mut();
            };
            if stop <= self.end {
                self.next = stop;
                return start as *mut u8;
            }
            let pages = (stop - self.end).div_ceil(PAGE);
            let old = memory_grow(0, pages);
            if old == usize::MAX {
                return null_mut();
            }
            let Some(end) = (old + pages).checked_mul(PAGE) else {
                return null_mut();
            };
            if old * PAGE != self.end {
                // The first carve (or memory grown by someone else): the
                // new pages start at the old end of memory; the loop aligns
                // and may grow once more.
                self.next = old * PAGE;
            }
            self.end = end;
        }
    }
}

unsafe impl GlobalAlloc for Classes {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let Some(k) = class(&l) else {
            return null_mut();
        };
        // SAFETY: one call at a time (see `Sync`), and no allocation
        // happens while this borrow lives.
        let s = unsafe { &mut *self.0.get() };
        let head = s.free[k];
        if head.is_null() {
            return s.carve(k);
        }
        // SAFETY: a free block of this class holds the next one's address.
        s.free[k] = unsafe { *(head as *mut *mut u8) };
        head
    }

    unsafe fn dealloc(&self, ptr: *mut u8, l: Layout) {
        let Some(k) = class(&l) else {
            return;
        };
        // SAFETY: as in `alloc`; the block is at least 16 bytes and aligned.
        let s = unsafe { &mut *self.0.get() };
        unsafe { *(ptr as *mut *mut u8) = s.free[k] };
        s.free[k] = ptr;
    }

    unsafe fn realloc(&self, ptr: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's layout rules (GlobalAlloc::realloc).
        let new = unsafe { Layout::from_size_align_unchecked(new_size, l.align()) };
        if class(&new).is_some() && class(&new) == class(&l) {
            return ptr;
        }
        let p = unsafe { self.alloc(new) };
        if !p.is_null() {
            unsafe {
                core::ptr::copy_nonoverlapping(ptr, p, l.size().min(new_size));
                self.dealloc(ptr, l);
            }
        }
        p
    }
}
