//! The native Pyramids and Flags rules engine: the Rust mirror of `pyramids.flags`.
//!
//! Same action integers, same position JSON, same raw events, same views and the same
//! determinization draws as the Python engine (the readable reference, docs/RULES.md).
//! Modules: `consts` (pieces, action numbers), `deck` (the cards, generated from the
//! Python package's deck by `scripts/gen_deck.py`), `state` (the plain-data [`State`], raw
//! events, scoring), `rules` (one method per rule), `game` (the protocol: legal actions,
//! apply, refusal reasons), `position` (JSON parse and print), `view` ([`View`],
//! [`determinize`]), `text` (action notation), `policy` (POLICY's).

pub mod consts;
pub mod deck;
pub mod features;
pub mod game;
pub mod policy;
pub mod position;
pub mod rules;
pub mod state;
pub mod text;
pub mod view;

#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicU8, Ordering};

pub use pyramids_core::{Action, GameState, PyRandom, Refusal};
pub use state::{Ev, State, WinReason};
pub use view::{determinize, determinize_checked, try_determinize, View};

/// A deliberately broken rule, switched on only by the differential test (to prove that
/// it catches a broken engine). Never on in play.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Fault {
    /// No fault (the default).
    None = 0,
    /// PF-CAPTURE-3 broken: after a bank take, opponents' pieces are still offered.
    CaptureMixes = 1,
    /// PF-VIEW-3 broken: a robbed seat does not learn where its card went.
    StealKnowledge = 2,
    /// PF-TREE-7 broken: a new start deals from the seat after the right one.
    DealSeat = 3,
}

static FAULT: AtomicU8 = AtomicU8::new(0);

/// Whether fault `f` is on (test-only switch; see [`set_fault`]).
#[inline]
pub fn fault(f: Fault) -> bool {
    FAULT.load(Ordering::Relaxed) == f as u8
}

/// Test-only: switch on a deliberately broken rule (`capture_mixes`, `steal_knowledge`,
/// `deal_seat`) or back to the true rules (None). It exists only so the differential test
/// can prove it catches a broken engine.
pub fn set_fault(name: Option<&str>) -> Result<(), String> {
    let f = match name {
        None | Some("") | Some("none") => Fault::None,
        Some("capture_mixes") => Fault::CaptureMixes,
        Some("steal_knowledge") => Fault::StealKnowledge,
        Some("deal_seat") => Fault::DealSeat,
        Some(other) => {
            return Err(format!(
                "unknown fault {other:?} (capture_mixes, steal_knowledge, deal_seat)"
            ))
        }
    };
    FAULT.store(f as u8, Ordering::Relaxed);
    Ok(())
}

impl State {
    /// `FlagsGame(players, FlagsOptions.from_json(options)).new_initial_state(seed)`: the
    /// cards in code order shuffled with `random.Random(seed)`, 4 dealt to each seat one at
    /// a time from seat 0, the rest the deck. Err: the refusal as text (see
    /// [`State::try_new_game`]).
    pub fn new_game(players: usize, options_json: &str, seed: i128) -> Result<State, String> {
        Self::try_new_game(players, options_json, seed).map_err(|r| r.to_string())
    }

    /// [`State::new_game`] with the Python engine's refusal (same code and facts).
    pub fn try_new_game(players: usize, options_json: &str, seed: i128) -> Result<State, Refusal> {
        let opts: serde_json::Value = serde_json::from_str(options_json)
            .map_err(|_| Refusal::position("position.not_an_object").with("field", "rules"))?;
        let (actions, max_turns, first_player) = position::parse_options(&opts)?;
        if !(2..=consts::MAX_PLAYERS).contains(&players) {
            return Err(Refusal::position("game.player_count")
                .with("game", "flags")
                .with("players", players)
                .with("low", 2)
                .with("high", consts::MAX_PLAYERS));
        }
        if first_player >= players as i64 {
            return Err(Refusal::position("game.first_player")
                .with("first_player", first_player)
                .with("players", players));
        }
        let mut deck: [u8; deck::NUM_CARDS] = std::array::from_fn(|i| i as u8);
        PyRandom::new(seed).shuffle(&mut deck);
        let mut s = State::start(players, actions, max_turns, first_player);
        let dealt = state::HAND_SIZE * players;
        for (i, &c) in deck.iter().enumerate().take(dealt) {
            s.push_hand(i % players, c);
        }
        for &c in &deck[dealt..] {
            s.deck[s.deck_len as usize] = c;
            s.deck_len += 1;
        }
        Ok(s)
    }

    /// A state from the position notation (`read_position`); Err: the refusal as text
    /// (see [`State::from_position`]).
    pub fn from_position_json(text: &str) -> Result<State, String> {
        position::read_position(text).map_err(|r| r.to_string())
    }

    /// A state from the position notation with the Python engine's refusal (same code and
    /// facts).
    pub fn from_position(text: &str) -> Result<State, Refusal> {
        position::read_position(text)
    }

    /// The position notation (`position_to_json`), same keys in the same order.
    pub fn to_position_json(&self) -> String {
        position::position_value(self).to_string()
    }

    /// Switch raw-event recording on (for states wrapped for Python) or off (playouts).
    pub fn set_record_events(&mut self, on: bool) {
        self.record = on;
        if !on {
            self.events = Vec::new();
        }
    }
}
