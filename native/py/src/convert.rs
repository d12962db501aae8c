//! Python data to JSON values and back, for what crosses the boundary by field name:
//! positions, views and options arrive as Python dicts (never JSON text) and are read
//! into the engines' `serde_json::Value` readers here; what goes back is built as dicts
//! (`crate::refusal::value_to_py`) or named fields.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};
use pyo3::{intern, IntoPyObjectExt};
use serde_json::Value;

/// Plain Python data (dict with str keys, list, tuple, str, int within 64 bits, finite
/// float, bool, None) as the JSON value `json.loads(json.dumps(obj))` would give
/// (`pythonize`'s serde bridge).
pub fn py_to_value(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    pythonize::depythonize(obj).map_err(|e| PyTypeError::new_err(format!("not plain data: {e}")))
}

/// `py_to_value` of a dict as JSON text, for the engines' readers that take text
/// (the text never crosses the boundary).
pub fn py_to_text(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    Ok(py_to_value(obj)?.to_string())
}

/// Values sent by field name, in the order the Rust side builds them.
pub struct Fields<'py> {
    py: Python<'py>,
    items: Vec<(&'static str, Bound<'py, PyAny>)>,
}

impl<'py> Fields<'py> {
    /// No field yet.
    pub fn new(py: Python<'py>, capacity: usize) -> Self {
        Fields {
            py,
            items: Vec::with_capacity(capacity),
        }
    }

    /// The record of one `kind`: its first field `kind` holds the kind's name.
    pub fn of_kind(py: Python<'py>, kind: &NamedKind, capacity: usize) -> PyResult<Self> {
        let mut f = Fields::new(py, capacity + 1);
        f.add("kind", kind.text(py).clone())?;
        Ok(f)
    }

    /// Add the field `name`.
    pub fn add<T: IntoPyObject<'py>>(&mut self, name: &'static str, value: T) -> PyResult<()> {
        let value = value.into_bound_py_any(self.py)?;
        self.items.push((name, value));
        Ok(())
    }

    /// The fields as a dict by name.
    pub fn into_dict(self) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(self.py);
        for (name, value) in self.items {
            d.set_item(name, value)?;
        }
        Ok(d)
    }

    /// An instance of the named tuple class `cls` built from these fields by name, with
    /// `supplied` (a field the caller gives, e.g. `options`) set to `value`. The class's
    /// `_fields` are matched to the names sent once per class (cached in `layout`); a
    /// field on one side only is a TypeError naming it, never a shifted value.
    pub fn into_named_tuple(
        self,
        layout: &'static GILOnceCell<Layout>,
        cls: &Bound<'py, PyType>,
        supplied: &'static str,
        value: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.build(layout, cls, Some((supplied, value)), false)
    }

    /// An instance of the named tuple class that `classes` (a mapping from kind names to
    /// classes, e.g. a rules package's `RAW_EVENTS`) gives for `kind`, built from these
    /// fields by name as `into_named_tuple` builds one (no supplied field). With `plain`,
    /// a plain tuple of the values in the class's field order (matched by name all the
    /// same), for a caller that reads them at once and needs no instance.
    pub fn into_kind(
        self,
        kind: &'static NamedKind,
        classes: &Bound<'py, PyAny>,
        plain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let cls = classes.get_item(kind.text(self.py)).map_err(|_| {
            PyTypeError::new_err(format!(
                "no class for the kind {:?} that the native engine sends",
                kind.name
            ))
        })?;
        let cls = cls.downcast::<PyType>()?;
        self.build(&kind.layout, cls, None, plain)
    }

    fn build(
        self,
        layout: &'static GILOnceCell<Layout>,
        cls: &Bound<'py, PyType>,
        supplied: Option<(&'static str, &Bound<'py, PyAny>)>,
        plain: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let name = supplied.map(|(n, _)| n);
        let fits = |l: &Layout| {
            l.class.bind(py).is(cls) && l.names.iter().eq(self.items.iter().map(|(n, _)| n))
        };
        let cached = layout.get_or_try_init(py, || Layout::of(cls, &self.names(), name))?;
        let fresh;
        let plan = if fits(cached) {
            cached
        } else {
            fresh = Layout::of(cls, &self.names(), name)?;
            &fresh
        };
        let tuple = if plan.in_order {
            PyTuple::new(py, self.items.into_iter().map(|(_, v)| v))?
        } else {
            let mut values: Vec<Option<Bound<'py, PyAny>>> =
                self.items.into_iter().map(|(_, v)| Some(v)).collect();
            let mut ordered = Vec::with_capacity(plan.order.len());
            for slot in &plan.order {
                ordered.push(match slot {
                    Some(i) => values[*i]
                        .take()
                        .unwrap_or_else(|| py.None().into_bound(py)),
                    None => match supplied {
                        Some((_, value)) => value.clone(),
                        None => py.None().into_bound(py),
                    },
                });
            }
            PyTuple::new(py, ordered)?
        };
        if plain {
            return Ok(tuple.into_any());
        }
        TUPLE_NEW
            .get_or_try_init(py, || {
                py.get_type::<PyTuple>()
                    .getattr(intern!(py, "__new__"))
                    .map(Bound::unbind)
            })?
            .bind(py)
            .call1((cls, tuple))
    }

    fn names(&self) -> Vec<&'static str> {
        self.items.iter().map(|(n, _)| *n).collect()
    }
}

/// `tuple.__new__`, which makes an instance of a named tuple class from a tuple.
static TUPLE_NEW: GILOnceCell<PyObject> = GILOnceCell::new();

/// Where each field of a named tuple class comes from among the names sent.
pub struct Layout {
    class: Py<PyType>,
    names: Vec<&'static str>,
    order: Vec<Option<usize>>,
    /// The class's fields are the names sent, in the order sent.
    in_order: bool,
}

impl Layout {
    fn of(
        cls: &Bound<'_, PyType>,
        names: &[&'static str],
        supplied: Option<&str>,
    ) -> PyResult<Layout> {
        let fields: Vec<String> = cls.getattr(intern!(cls.py(), "_fields"))?.extract()?;
        let mut order = Vec::with_capacity(fields.len());
        for f in &fields {
            if supplied == Some(f.as_str()) {
                order.push(None);
                continue;
            }
            let i = names.iter().position(|n| n == f).ok_or_else(|| {
                PyTypeError::new_err(format!(
                    "{} has a field {f:?} that the native engine does not send",
                    cls.name().map(|n| n.to_string()).unwrap_or_default()
                ))
            })?;
            order.push(Some(i));
        }
        if let Some(extra) = names.iter().find(|n| !fields.iter().any(|f| f == *n)) {
            return Err(PyTypeError::new_err(format!(
                "the native engine sends a field {extra:?} that {} does not have",
                cls.name().map(|n| n.to_string()).unwrap_or_default()
            )));
        }
        let in_order = order.len() == names.len()
            && order.iter().enumerate().all(|(i, slot)| *slot == Some(i));
        Ok(Layout {
            class: cls.clone().unbind(),
            names: names.to_vec(),
            order,
            in_order,
        })
    }
}

/// One kind of record (an event kind) built as a Python named tuple by field name: its
/// name, the name as a Python string (made once) and the layout of its class (matched
/// once, as for views).
pub struct NamedKind {
    name: &'static str,
    text: GILOnceCell<Py<PyString>>,
    layout: GILOnceCell<Layout>,
}

impl NamedKind {
    /// The kind `name` (its class and layout are found on first use).
    pub const fn new(name: &'static str) -> Self {
        NamedKind {
            name,
            text: GILOnceCell::new(),
            layout: GILOnceCell::new(),
        }
    }

    /// The kind's name as an interned Python string.
    pub fn text<'py>(&self, py: Python<'py>) -> &Bound<'py, PyString> {
        self.text
            .get_or_init(py, || PyString::intern(py, self.name).unbind())
            .bind(py)
    }
}
