//! Python's whitespace, as the Python engines' text readers see it: `str.strip`'s and `\s`'s
//! characters, so an action or a tile name with odd spaces reads the same in both engines.

/// Python's `str.isspace` for one character (what `\s` and `strip()` use).
pub fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `text.strip()`.
pub fn py_strip(text: &str) -> &str {
    text.trim_matches(is_py_space)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strip_removes_what_python_strips() {
        assert_eq!(py_strip("\u{1f} R40@0,0\u{3000}\n"), "R40@0,0");
        assert!(is_py_space('\u{85}'));
        assert!(!is_py_space('\u{200b}'));
    }
}
