//! Raw events, the mirror of the Python rules' event tuples (`mayhem.py`, `rules.py`,
//! `turn.py`): the bindings turn each into the very tuple Python records, and the Python
//! `events.from_raw` makes the typed event. Recorded only when `State::record` is on.

use crate::tiles::Key;

/// A (tile, key) pair.
pub type Cell = (u8, Key);

/// One raw event; fields in the order of the Python tuple after its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RawEvent {
    /// `("setup_removed", tile)`.
    SetupRemoved(u8),
    /// `("place", seat, tile, key)`.
    Place(u8, u8, Key),
    /// `("free_air", p, tile, key)`.
    FreeAir(u8, u8, Key),
    /// `("collapse", p, tile, key, gone, out)`.
    Collapse(u8, u8, Key, Vec<Cell>, bool),
    /// `("fall", p, tile, from, to, side)`.
    Fall(u8, u8, Key, Key, u8),
    /// `("explosion", p, embers, victims, out)`.
    Explosion(u8, Vec<Cell>, Vec<Cell>, bool),
    /// `("fire_found", p, ember, key)`.
    FireFound(u8, u8, Key),
    /// `("fire", p, ember, key, victims, removed, roll, out)`.
    Fire(u8, u8, Key, Vec<Cell>, bool, u8, bool),
    /// `("die_explosion", p, ember, key, victims, out)`.
    DieExplosion(u8, u8, Key, Vec<Cell>, bool),
    /// `("quench", p, ember, key)`.
    Quench(u8, u8, Key),
    /// `("curse", p, target, trio, out)`.
    Curse(u8, u8, Vec<Cell>, bool),
    /// `("check_ok", seat)`.
    CheckOk(u8),
    /// `("false_alarm", seat, key)` (the key as called: any integer).
    FalseAlarm(u8, i128),
    /// `("call", seat, tile, key, found, overlooked)`; `found` a category name.
    Call(u8, u8, Key, &'static str, bool),
    /// `("draw", seat, count)`.
    Draw(u8, u8),
    /// `("win", seat)`.
    Win(u8),
    /// `("max_turns", ranking)`.
    MaxTurns(Vec<u8>),
}

impl RawEvent {
    /// The event's kind (the tuple's first item).
    pub fn kind(&self) -> &'static str {
        match self {
            RawEvent::SetupRemoved(..) => "setup_removed",
            RawEvent::Place(..) => "place",
            RawEvent::FreeAir(..) => "free_air",
            RawEvent::Collapse(..) => "collapse",
            RawEvent::Fall(..) => "fall",
            RawEvent::Explosion(..) => "explosion",
            RawEvent::FireFound(..) => "fire_found",
            RawEvent::Fire(..) => "fire",
            RawEvent::DieExplosion(..) => "die_explosion",
            RawEvent::Quench(..) => "quench",
            RawEvent::Curse(..) => "curse",
            RawEvent::CheckOk(..) => "check_ok",
            RawEvent::FalseAlarm(..) => "false_alarm",
            RawEvent::Call(..) => "call",
            RawEvent::Draw(..) => "draw",
            RawEvent::Win(..) => "win",
            RawEvent::MaxTurns(..) => "max_turns",
        }
    }
}
