//! Rules options and presets (FP-OPT-1, FP-OPT-2): the mirror of `pyramids/flaming/options.py`,
//! with the same refusals (codes and facts).

use serde_json::{Map, Value};

use crate::fields::{
    bool_field, check_integer, check_range, known_fields, object_field, str_field,
};
use crate::tiles::{ALL_MASK, BASIC_MASK};
use pyramids_core::Refusal;

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

    /// `FlamingOptions.from_json(data)` with the Python refusals (codes and facts).
    pub fn from_json(data: &Value) -> Result<Options, Refusal> {
        let map = object_field(data, Some("rules"))?;
        const ALLOWED: [&str; 6] = [
            "preset",
            "curse",
            "fire_die",
            "max_turns",
            "first_player",
            "callout",
        ];
        known_fields(map, &ALLOWED, Some("rules"))?;
        let preset = str_field(map, "preset", &Value::from("standard"))?.to_string();
        let curse = map.get("curse").cloned().unwrap_or(Value::Null);
        if !matches!(curse, Value::Null | Value::Bool(_)) {
            return Err(Refusal::position("position.not_a_boolean")
                .with("field", "curse")
                .with("value", curse));
        }
        let fire_die = bool_field(map, "fire_die", false)?;
        let callout = str_field(map, "callout", &Value::from("off"))?.to_string();
        // __post_init__
        let Some(preset_ix) = PRESETS.iter().position(|p| *p == preset) else {
            return Err(Refusal::position("flaming.unknown_preset")
                .with("value", preset)
                .with("presets", PRESETS.to_vec()));
        };
        let curse = match curse {
            Value::Bool(b) => b,
            _ => preset == "standard",
        };
        // A JSON true is not a number (FP-NOTE-3).
        let number = |field: &str, default: i64, low: i64| -> Result<i64, Refusal> {
            let value = map.get(field).cloned().unwrap_or(Value::from(default));
            check_range(check_integer(&value, field)?, field, low, None)
        };
        let max_turns = number("max_turns", DEFAULT_MAX_TURNS, 1)?;
        let first_player = number("first_player", 0, 0)?;
        let Some(callout_ix) = CALLOUT_MODES.iter().position(|c| *c == callout) else {
            return Err(Refusal::position("flaming.unknown_callout")
                .with("value", callout)
                .with("modes", CALLOUT_MODES.to_vec()));
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
