//! The solver's memory kernels: the second door where `unsafe` is allowed.
#![allow(unsafe_code)]

mod atomic;
mod bits;
mod prefetch;

pub(crate) use atomic::{huge_page_copy, AtomicArray, MapFailed};
pub(crate) use bits::pext;
pub(crate) use prefetch::prefetch;
