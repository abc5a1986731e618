//! The solver's memory kernels: the second door where `unsafe` is allowed.
#![allow(unsafe_code)]

mod atomic;
mod prefetch;

pub(crate) use atomic::{AtomicArray, MapFailed};
pub(crate) use prefetch::prefetch;
