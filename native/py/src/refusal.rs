//! A native [`Refusal`] raised in Python as the `pyramids.core.errors` class of its kind,
//! with its code and its facts as keyword arguments: `PositionError(code, **data)`.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use pyramids_core::{Refusal, RefusalKind};
use serde_json::Value;

/// A JSON value as the Python object `json.loads` would give.
pub fn value_to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(value_to_py(py, item)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, value_to_py(py, v)?)?;
            }
            dict.into_any()
        }
    })
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
