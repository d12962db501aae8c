//! Rules options and presets (FP-OPT-1, FP-OPT-2): the mirror of `pyramids/flaming/options.py`,
//! with the same refusals, word for word.

use serde_json::{Map, Value};

use crate::pyjson::{as_int, repr, repr_str};
use crate::tiles::{ALL_MASK, BASIC_MASK};

/// The presets, in Python's order (an index into this is `Options::preset`).
pub const PRESETS: [&str; 3] = ["basic", "family", "standard"];
/// The call-out modes (FP-CALL-1), `Options::callout` indexes this.
pub const CALLOUT_MODES: [&str; 3] = ["off", "family", "competitive"];
/// The default turn limit.
pub const DEFAULT_MAX_TURNS: i64 = 1000;

/// `FlamingOptions` with `curse` resolved (as `__post_init__` does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// 0 basic, 1 family, 2 standard.
    pub preset: u8,
    /// The curse check runs (FP-CURSE).
    pub curse: bool,
    /// The fire die is used (FP-DIE).
    pub fire_die: bool,
    /// FP-END-4: the game ends after this many turns.
    pub max_turns: i64,
    /// The seat that plays first (only used by the deal).
    pub first_player: i64,
    /// 0 off, 1 family, 2 competitive (FP-CALL).
    pub callout: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            preset: 2,
            curse: true,
            fire_die: false,
            max_turns: DEFAULT_MAX_TURNS,
            first_player: 0,
            callout: 0,
        }
    }
}

impl Options {
    /// Whether the players check for mayhem themselves (FP-CALL-1).
    pub fn callout_on(&self) -> bool {
        self.callout != 0
    }

    /// Whether the family penalty applies to overlooked mayhem (FP-CALL-6).
    pub fn family_callout(&self) -> bool {
        self.callout == 1
    }

    /// The tiles of the preset, as a bit mask.
    pub fn tiles(&self) -> u64 {
        if self.preset == 0 {
            BASIC_MASK
        } else {
            ALL_MASK
        }
    }

    /// The preset's name.
    pub fn preset_name(&self) -> &'static str {
        PRESETS[usize::from(self.preset)]
    }

    /// `FlamingOptions.to_json()`: the position's `rules` object.
    pub fn to_json(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("preset".into(), self.preset_name().into());
        m.insert("curse".into(), self.curse.into());
        m.insert("fire_die".into(), self.fire_die.into());
        m.insert("max_turns".into(), self.max_turns.into());
        if self.callout != 0 {
            m.insert(
                "callout".into(),
                CALLOUT_MODES[usize::from(self.callout)].into(),
            );
        }
        m
    }

    /// `FlamingOptions.to_record()`: every option.
    pub fn to_record(&self) -> Map<String, Value> {
        let mut m = self.to_json();
        m.insert("first_player".into(), self.first_player.into());
        m
    }

    /// `FlamingOptions.from_json(data)` with the Python refusals.
    pub fn from_json(data: &Value) -> Result<Options, String> {
        let Value::Object(map) = data else {
            return Err("'rules' must be an object".into());
        };
        const ALLOWED: [&str; 6] = [
            "preset",
            "curse",
            "fire_die",
            "max_turns",
            "first_player",
            "callout",
        ];
        let mut unknown: Vec<&str> = map
            .keys()
            .map(String::as_str)
            .filter(|k| !ALLOWED.contains(k))
            .collect();
        if !unknown.is_empty() {
            unknown.sort_unstable();
            return Err(format!("unknown rules option(s): {}", unknown.join(", ")));
        }
        let preset = map
            .get("preset")
            .cloned()
            .unwrap_or_else(|| "standard".into());
        let curse = map.get("curse").cloned().unwrap_or(Value::Null);
        let fire_die = map.get("fire_die").cloned().unwrap_or(Value::Bool(false));
        let Value::String(preset) = preset else {
            return Err("rules.preset must be a string".into());
        };
        if !matches!(curse, Value::Null | Value::Bool(_)) {
            return Err("rules.curse must be true or false".into());
        }
        let Value::Bool(fire_die) = fire_die else {
            return Err("rules.fire_die must be true or false".into());
        };
        let callout = map.get("callout").cloned().unwrap_or_else(|| "off".into());
        let Value::String(callout) = callout else {
            return Err(format!(
                "rules.callout must be one of {}",
                CALLOUT_MODES.join(", ")
            ));
        };
        // __post_init__
        let Some(preset_ix) = PRESETS.iter().position(|p| *p == preset) else {
            return Err(format!(
                "unknown preset {} (choose {})",
                repr_str(&preset),
                PRESETS.join(", ")
            ));
        };
        let curse = match curse {
            Value::Bool(b) => b,
            _ => preset == "standard",
        };
        let max_turns = map
            .get("max_turns")
            .cloned()
            .unwrap_or(Value::from(DEFAULT_MAX_TURNS));
        let max_turns = match as_int(&max_turns, false) {
            Some(n) if n >= 1 => n,
            _ => {
                return Err(format!(
                    "max_turns must be a positive integer, not {}",
                    repr(&max_turns)
                ))
            }
        };
        let first = map.get("first_player").cloned().unwrap_or(Value::from(0));
        let first_player = match as_int(&first, true) {
            Some(n) if n >= 0 => n,
            _ => {
                return Err(format!(
                    "first_player must be a seat number, not {}",
                    repr(&first)
                ))
            }
        };
        let Some(callout_ix) = CALLOUT_MODES.iter().position(|c| *c == callout) else {
            return Err(format!(
                "unknown callout mode {} (choose {})",
                repr_str(&callout),
                CALLOUT_MODES.join(", ")
            ));
        };
        Ok(Options {
            preset: preset_ix as u8,
            curse,
            fire_die,
            max_turns,
            first_player,
            callout: callout_ix as u8,
        })
    }
}
