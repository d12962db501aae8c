//! A test-only fault switch: deliberately broken rules that exist ONLY so that the
//! differential test (`tests/native/test_flaming_differential.py`) can prove it catches a
//! native engine that differs from the Python one. Never turn one on elsewhere.

use std::sync::atomic::{AtomicU8, Ordering};

static FAULT: AtomicU8 = AtomicU8::new(0);

/// The faults that can be switched on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Fault {
    /// FP-CURSE-2 is never found by the resolver (call-out reading is left right).
    NoCurse = 1,
    /// FP-DIE-6: a new contact never ends a quench.
    QuenchForever = 2,
}

const NAMES: [(&str, Fault); 2] = [
    ("no_curse", Fault::NoCurse),
    ("quench_forever", Fault::QuenchForever),
];

/// Whether `fault` is on (one relaxed load; off in every real use).
#[inline]
pub fn fault_on(fault: Fault) -> bool {
    FAULT.load(Ordering::Relaxed) == fault as u8
}

/// Turn on the fault named `name` (`no_curse`, `quench_forever`), or none with `None`.
/// For the differential test only.
pub fn set_fault(name: Option<&str>) -> Result<(), String> {
    let value = match name {
        None => 0,
        Some(n) => match NAMES.iter().find(|(k, _)| *k == n) {
            Some((_, f)) => *f as u8,
            None => {
                let known: Vec<&str> = NAMES.iter().map(|(k, _)| *k).collect();
                return Err(format!("unknown fault {n:?} (known: {})", known.join(", ")));
            }
        },
    };
    FAULT.store(value, Ordering::Relaxed);
    Ok(())
}
