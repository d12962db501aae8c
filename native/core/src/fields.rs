//! The shared position readers of `pyramids/core/fields.py`, with its `position.*` codes and
//! facts: a JSON integer the engines can hold, a boolean, a string, an object with known keys.
//! Both games' position and options readers read through these, so the native and the Python
//! engines refuse a field with the same code and facts.

use crate::Refusal;
use serde_json::{Map, Value};

/// `check_integer(value, field)`: a JSON integer (a `true` is none) that fits an i64.
///
/// An integer beyond 64 bits is `position.integer_too_large` (no value: the engine never
/// holds it); anything else that is not an integer is `position.not_an_integer`.
pub fn check_integer(value: &Value, field: &str) -> Result<i64, Refusal> {
    if let Value::Number(n) = value {
        if let Some(i) = n.as_i64() {
            return Ok(i);
        }
        if n.is_u64() {
            return Err(Refusal::position("position.integer_too_large").with("field", field));
        }
    }
    Err(Refusal::position("position.not_an_integer")
        .with("field", field)
        .with("value", value.clone()))
}

/// `position.out_of_range` unless `low <= value <= high` (`high` None: no upper bound).
pub fn check_range(value: i64, field: &str, low: i64, high: Option<i64>) -> Result<i64, Refusal> {
    if value < low || high.is_some_and(|h| value > h) {
        return Err(Refusal::position("position.out_of_range")
            .with("field", field)
            .with("value", value)
            .with("low", low)
            .with("high", high));
    }
    Ok(value)
}

/// `data[name]`, or `default` when absent; `position.missing_field` when that is null.
fn present<'a>(
    data: &'a Map<String, Value>,
    name: &str,
    default: Option<&'a Value>,
) -> Result<&'a Value, Refusal> {
    match data.get(name).or(default) {
        Some(v) if !v.is_null() => Ok(v),
        _ => Err(Refusal::position("position.missing_field").with("field", name)),
    }
}

/// `int_value(value, field, low=low, high=high)`: an integer the engines hold, in range.
pub fn int_value(value: &Value, field: &str, low: i64, high: Option<i64>) -> Result<i64, Refusal> {
    check_range(check_integer(value, field)?, field, low, high)
}

/// `int_field(data, name, default, low=low, high=high)`.
pub fn int_field(
    data: &Map<String, Value>,
    name: &str,
    default: Option<i64>,
    low: i64,
    high: Option<i64>,
) -> Result<i64, Refusal> {
    int_field_at(data, name, name, default, low, high)
}

/// `int_field(data, name, default, low=low, high=high, field=field)`: refusals name `field`
/// (`pending.player`) rather than the key `name`.
pub fn int_field_at(
    data: &Map<String, Value>,
    name: &str,
    field: &str,
    default: Option<i64>,
    low: i64,
    high: Option<i64>,
) -> Result<i64, Refusal> {
    let default = default.map(Value::from);
    match data.get(name).or(default.as_ref()) {
        Some(v) if !v.is_null() => int_value(v, field, low, high),
        _ => Err(Refusal::position("position.missing_field").with("field", field)),
    }
}

/// `bool_field(data, name, default)`.
pub fn bool_field(data: &Map<String, Value>, name: &str, default: bool) -> Result<bool, Refusal> {
    let default = Value::Bool(default);
    match present(data, name, Some(&default))? {
        Value::Bool(b) => Ok(*b),
        other => Err(Refusal::position("position.not_a_boolean")
            .with("field", name)
            .with("value", other.clone())),
    }
}

/// `str_field(data, name, default)`.
pub fn str_field<'a>(
    data: &'a Map<String, Value>,
    name: &str,
    default: &'a Value,
) -> Result<&'a str, Refusal> {
    match present(data, name, Some(default))? {
        Value::String(s) => Ok(s),
        other => Err(Refusal::position("position.not_a_string")
            .with("field", name)
            .with("value", other.clone())),
    }
}

/// `object_field(value, field)`: `position.not_an_object` unless a JSON object.
pub fn object_field<'a>(
    value: &'a Value,
    field: Option<&str>,
) -> Result<&'a Map<String, Value>, Refusal> {
    match value {
        Value::Object(m) => Ok(m),
        _ => Err(Refusal::position("position.not_an_object").with("field", field)),
    }
}

/// `known_fields(data, known, field)`: `position.unknown_fields` lists the others, sorted.
pub fn known_fields(
    data: &Map<String, Value>,
    known: &[&str],
    field: Option<&str>,
) -> Result<(), Refusal> {
    let mut unknown: Vec<&str> = data
        .keys()
        .map(String::as_str)
        .filter(|k| !known.contains(k))
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    unknown.sort_unstable();
    Err(Refusal::position("position.unknown_fields")
        .with("field", field)
        .with("fields", unknown))
}
