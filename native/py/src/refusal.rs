//! A native [`Refusal`] raised in Python as the `pyramids.core.errors` class of its kind,
//! with its code and its facts as keyword arguments: `PositionError(code, **data)`.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyramids_core::{Refusal, RefusalKind};
use serde_json::Value;

/// A JSON value as the Python object `json.loads` would give (`pythonize`'s serde bridge).
pub fn value_to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value).map_err(PyErr::from)
}

/// The Python exception for `refusal`.
pub fn to_pyerr(refusal: Refusal) -> PyErr {
    Python::with_gil(|py| match build(py, &refusal) {
        Ok(err) => err,
        Err(err) => err,
    })
}

fn build(py: Python<'_>, refusal: &Refusal) -> PyResult<PyErr> {
    let errors = py.import("pyramids.core.errors")?;
    let class = errors.getattr(match refusal.kind {
        RefusalKind::Parse => "ActionParseError",
        RefusalKind::Illegal => "IllegalActionError",
        RefusalKind::Position => "PositionError",
    })?;
    let kwargs = PyDict::new(py);
    for (name, value) in &refusal.data {
        kwargs.set_item(*name, value_to_py(py, value)?)?;
    }
    let instance = class.call((refusal.code,), Some(&kwargs))?;
    Ok(PyErr::from_value(instance))
}
