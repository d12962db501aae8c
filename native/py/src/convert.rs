//! Python data to JSON values and back, for what crosses the boundary by field name:
//! positions, views and options arrive as Python dicts (never JSON text) and are read
//! into the engines' `serde_json::Value` readers here; what goes back is built as dicts
//! (`crate::refusal::value_to_py`) or named fields.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// Plain Python data (dict with str keys, list, tuple, str, int within 64 bits, finite
/// float, bool, None) as the JSON value `json.loads(json.dumps(obj))` would give.
pub fn py_to_value(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.downcast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(i) = obj.downcast::<PyInt>() {
        if let Ok(v) = i.extract::<i64>() {
            return Ok(v.into());
        }
        if let Ok(v) = i.extract::<u64>() {
            return Ok(v.into());
        }
        return Err(PyValueError::new_err("an integer beyond 64 bits"));
    }
    if let Ok(f) = obj.downcast::<PyFloat>() {
        return Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| PyValueError::new_err("a float that is not finite"));
    }
    if let Ok(s) = obj.downcast::<PyString>() {
        return Ok(Value::String(s.to_str()?.to_owned()));
    }
    if let Ok(items) = obj.downcast::<PyList>() {
        return items.iter().map(|x| py_to_value(&x)).collect();
    }
    if let Ok(items) = obj.downcast::<PyTuple>() {
        return items.iter().map(|x| py_to_value(&x)).collect();
    }
    if let Ok(d) = obj.downcast::<PyDict>() {
        let mut map = Map::with_capacity(d.len());
        for (k, v) in d.iter() {
            let key = k
                .downcast::<PyString>()
                .map_err(|_| PyTypeError::new_err("a key that is not a string"))?;
            map.insert(key.to_str()?.to_owned(), py_to_value(&v)?);
        }
        return Ok(Value::Object(map));
    }
    Err(PyTypeError::new_err(format!(
        "not plain data: {}",
        obj.get_type().name()?
    )))
}

/// `py_to_value` of a dict as JSON text, for the engines' readers that take text
/// (the text never crosses the boundary).
pub fn py_to_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(py_to_value(obj)?.to_string())
}
