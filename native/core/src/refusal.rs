//! A refusal: the native mirror of `pyramids.core.errors` (a code and its facts, no words).
//!
//! Both engines refuse a bad action, option or position with the same code and the same
//! facts; the words are in the message catalogue (`refusal.<code>`, English and French).
//! `pyramids._native` turns a [`Refusal`] into the Python exception of its [`RefusalKind`].

use serde_json::Value;
use std::fmt;

/// Which `pyramids.core.errors` class a refusal is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalKind {
    /// `ActionParseError`: the text is not an action at all.
    Parse,
    /// `IllegalActionError`: the action is not legal here.
    Illegal,
    /// `PositionError`: a position, options or a view break the notation or the rules.
    Position,
}

/// A refusal's code (`"flaming.not_in_hand"`) and facts (JSON values by name, in order).
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    pub kind: RefusalKind,
    pub code: &'static str,
    pub data: Vec<(&'static str, Value)>,
}

impl Refusal {
    /// A refusal of `kind` with no facts yet.
    pub fn new(kind: RefusalKind, code: &'static str) -> Self {
        Refusal {
            kind,
            code,
            data: Vec::new(),
        }
    }

    /// A `PositionError`.
    pub fn position(code: &'static str) -> Self {
        Self::new(RefusalKind::Position, code)
    }

    /// An `IllegalActionError`.
    pub fn illegal(code: &'static str) -> Self {
        Self::new(RefusalKind::Illegal, code)
    }

    /// An `ActionParseError`.
    pub fn parse(code: &'static str) -> Self {
        Self::new(RefusalKind::Parse, code)
    }

    /// The same refusal with one more fact.
    pub fn with(mut self, name: &'static str, value: impl Into<Value>) -> Self {
        self.data.push((name, value.into()));
        self
    }

    /// The fact called `name`, if any.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.data.iter().find(|(k, _)| *k == name).map(|(_, v)| v)
    }
}

impl fmt::Display for Refusal {
    /// The code and the facts as JSON (`flaming.not_in_hand {"tile":"R40"}`): for logs and
    /// Rust tests; players read the catalogue's words.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code)?;
        if !self.data.is_empty() {
            let map: serde_json::Map<String, Value> = self
                .data
                .iter()
                .map(|(k, v)| ((*k).to_string(), v.clone()))
                .collect();
            write!(f, " {}", Value::Object(map))?;
        }
        Ok(())
    }
}

impl std::error::Error for Refusal {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_shows_its_code_and_facts() {
        let r = Refusal::illegal("flaming.not_in_hand")
            .with("tile", "R40")
            .with("seat", 0);
        assert_eq!(
            r.to_string(),
            r#"flaming.not_in_hand {"tile":"R40","seat":0}"#
        );
        assert_eq!(r.get("seat"), Some(&Value::from(0)));
        assert_eq!(Refusal::position("x").to_string(), "x");
    }
}
