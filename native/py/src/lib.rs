//! `pyramids._native`: the Python face of the native core (see docs/NATIVE.md).
//!
//! Each submodule registers its classes and functions on the one extension module; the
//! Python wrappers in `pyramids.native` turn them into the `pyramids.core` protocol.

use pyo3::prelude::*;

mod bench;
mod convert;
mod flags;
mod flaming;
mod learned;
mod policy;
pub mod refusal;
mod search;

/// The extension module; `pyramids.native` is its only direct user.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    bench::register(m)?;
    flaming::register(m)?;
    flags::register(m)?;
    learned::register(m)?;
    policy::register(m)?;
    search::register(m)?;
    Ok(())
}
