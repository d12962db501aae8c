//! Timings for `pyramids bench` (docs/NATIVE.md, "Figures"): what only Rust can measure.
//!
//! `<game>_clone_ns(position, n)`: the mean cost of one Rust `State::clone()` over `n`
//! clones of the state read from the position notation (a dict, never JSON text), event recording off (as in native
//! playouts and the search), in nanoseconds. The loop runs with the GIL released.

use std::hint::black_box;
use std::time::Instant;

use pyo3::prelude::*;

use crate::convert::py_to_value;

/// Nanoseconds per clone of `state` over `n` clones (at least one).
fn clone_ns<S: Clone>(state: &S, n: u64) -> f64 {
    let n = n.max(1);
    let start = Instant::now();
    for _ in 0..n {
        let copy = black_box(state).clone();
        black_box(&copy);
    }
    start.elapsed().as_nanos() as f64 / n as f64
}

/// Nanoseconds per Rust clone of a Flaming Pyramids state (PositionError for a bad position).
#[pyfunction]
fn flaming_clone_ns(py: Python<'_>, position: &Bound<'_, PyAny>, n: u64) -> PyResult<f64> {
    let mut state = pyramids_flaming::State::from_position_value(&py_to_value(position)?)
        .map_err(crate::refusal::to_pyerr)?;
    state.set_record_events(false);
    Ok(py.allow_threads(|| clone_ns(&state, n)))
}

/// Nanoseconds per Rust clone of a Pyramids and Flags state (PositionError for a bad position).
#[pyfunction]
fn flags_clone_ns(py: Python<'_>, position: &Bound<'_, PyAny>, n: u64) -> PyResult<f64> {
    let mut state = pyramids_flags::position::read_position_value(&py_to_value(position)?)
        .map_err(crate::refusal::to_pyerr)?;
    state.set_record_events(false);
    Ok(py.allow_threads(|| clone_ns(&state, n)))
}

/// Adds the bench timings to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(flaming_clone_ns, m)?)?;
    m.add_function(wrap_pyfunction!(flags_clone_ns, m)?)?;
    Ok(())
}
