//! The native Flaming Pyramids rules engine: the Rust mirror of `pyramids.flaming` (the
//! readable reference), proven equal by the differential tests in `tests/native/`.
//!
//! [`State`] is plain data (fixed arrays and bit masks; see `state.rs` for every field),
//! cheap to clone; it implements [`pyramids_core::GameState`] with the Python engine's
//! action integers, legal-action order, rules and refusals (codes and facts). Positions read and print
//! the Python JSON notation ([`State::from_position_json`], [`State::to_position_json`]);
//! [`View`] is a seat's knowledge and [`determinize`] deals the unseen tiles as Python does.
//!
//! Layout for other crates (the policy and the search): tiles are `u8` 0..44 (`tiles`),
//! places `i32` keys `-row * 2^20 + col`; `State::board` maps both ways; hands and piles
//! are ordered `TileList`s; `candidates`, `in_play`, `base_*`, `forced_up` are derived and
//! kept current by the rules (`rebuild` recomputes them after the board is set by hand). Mutate a state only through `GameState::apply`.

pub mod actions;
pub mod board;
pub mod codec;
pub mod events;
pub mod fault;
pub mod features;
pub use pyramids_core::fields;
pub mod mayhem;
pub mod options;
pub mod placement;
pub mod policy;
pub use pyramids_core::pyjson;
pub mod rules;
pub mod snapshot;
pub mod state;
pub mod tiles;
pub mod view;

pub use events::RawEvent;
pub use fault::set_fault;
pub use options::Options;
pub use state::State;
pub use view::{determinize, View};

use pyramids_core::{PyRandom, Refusal};

impl State {
    /// `FlamingGame(players, FlamingOptions.from_json(options)).new_initial_state(seed)`:
    /// `random.Random(seed).shuffle` of the sorted tiles, then the deal (FP-SETUP-1..4).
    /// Err is the Python engine's refusal for bad options or player counts.
    pub fn new_game(players: usize, options_json: &str, seed: i128) -> Result<State, Refusal> {
        let value: serde_json::Value = serde_json::from_str(options_json)
            .map_err(|_| Refusal::position("position.not_an_object").with("field", "rules"))?;
        let opts = Options::from_json(&value)?;
        State::new_game_with(players, opts, &mut PyRandom::new(seed))
    }

    /// `new_game` with the options parsed and the deal's generator given (`new_game` draws
    /// from `PyRandom::new(seed)`): `rng.shuffle` of the sorted tiles, then the deal. Err is
    /// the Python game's refusal for bad player counts (`game.player_count`,
    /// `game.first_player` of `core.game`).
    pub fn new_game_with(
        players: usize,
        opts: Options,
        rng: &mut PyRandom,
    ) -> Result<State, Refusal> {
        if !(2..=6).contains(&players) {
            return Err(Refusal::position("game.player_count")
                .with("game", "flaming")
                .with("players", players)
                .with("low", 2)
                .with("high", 6));
        }
        if opts.first_player >= players as i64 {
            return Err(Refusal::position("game.first_player")
                .with("first_player", opts.first_player)
                .with("players", players));
        }
        let mut tiles = [0u8; tiles::NUM_TILES];
        let mut n = 0;
        for t in board::bits(opts.tiles()) {
            tiles[n] = t;
            n += 1;
        }
        rng.shuffle(&mut tiles[..n]);
        Ok(State::from_deal(&tiles[..n], players, opts))
    }

    /// FP-SETUP-1..4 (`FlamingPosition.from_deal`): equal piles, the leftovers (embers out)
    /// form the base, hands of 5 drawn; `opts.first_player` moves. Records the
    /// `setup_removed` events (recording is on for a fresh deal).
    pub fn from_deal(tiles: &[u8], players: usize, opts: Options) -> State {
        let mut st = State::empty(players, opts);
        let each = tiles.len() / players;
        let mut col = 0;
        for &t in &tiles[players * each..] {
            if tiles::is_ember(t) {
                st.out.push(t);
            } else {
                st.board.insert(tiles::key_of(0, col), t);
                col += 2;
            }
        }
        for seat in 0..players {
            let pile = &tiles[seat * each..(seat + 1) * each];
            let h = pile.len().min(state::HAND_SIZE);
            st.hands[seat] = state::Hand::from_slice(&pile[..h]);
            st.piles[seat] = state::Pile::from_slice(&pile[h..]);
            st.hidden[seat] = (pile.len() - h) as u8;
        }
        st.to_move = opts.first_player as u8;
        st.responsible = st.to_move;
        st.rebuild();
        st.candidates = 0;
        st.record = true;
        for &t in st.out.as_slice() {
            st.events.push(RawEvent::SetupRemoved(t));
        }
        st
    }

    /// Switch event recording (off for playouts and search: no allocation per apply).
    pub fn set_record_events(&mut self, on: bool) {
        self.record = on;
        if !on {
            self.events = Vec::new();
        }
    }
}

#[cfg(test)]
mod tests;
