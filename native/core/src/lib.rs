//! The game protocol of the native core, the Rust mirror of `pyramids.core.game`.
//!
//! A [`GameState`] is what a search or a playout needs of a game: whose decision comes
//! next, the sorted legal actions, apply, the end and the returns. A [`SearchGame`] adds
//! the per-game parts of the search, the native mirrors of a descriptor's `policy`
//! (the greedy bot), `evaluation` and `reflex`, and the determinization of a seat's view.
//! Randomness is always a caller's [`PyRandom`], draw for draw CPython's `random.Random`.

pub mod fields;
pub mod pyjson;
pub mod pyrandom;
pub mod refusal;
pub mod value;

pub use pyrandom::PyRandom;
pub use refusal::{Refusal, RefusalKind};
pub use value::ValueWeights;

/// An action or chance outcome, the same integer as in the Python engine.
pub type Action = u64;

/// `current_player()` at a chance point (`pyramids.core.game.CHANCE`).
pub const CHANCE: i32 = -1;
/// `current_player()` once the game is over (`pyramids.core.game.TERMINAL`).
pub const TERMINAL: i32 = -4;

/// A game in progress, all hidden facts included (the native `pyramids.core.game.State`).
pub trait GameState: Clone + Send {
    /// Number of seats.
    fn num_players(&self) -> usize;
    /// The seat to decide next, [`CHANCE`], or [`TERMINAL`].
    fn current_player(&self) -> i32;
    /// The legal actions in ascending order (chance outcomes at a chance point), into `out`
    /// (cleared first).
    fn legal_actions_into(&self, out: &mut Vec<Action>);
    /// At a chance point each outcome with its probability, in the Python engine's order
    /// (cleared first); empty elsewhere.
    fn chance_outcomes_into(&self, out: &mut Vec<(Action, f64)>);
    /// Apply a legal action; `Err(reason)` (the Python engine's reason text) changes nothing.
    fn apply(&mut self, action: Action) -> Result<(), String>;
    /// Whether the game is over.
    fn is_terminal(&self) -> bool;
    /// Each seat's result in [0, 1] (zeros while the game goes on), into `out` (cleared first).
    fn returns_into(&self, out: &mut Vec<f64>);

    /// The legal actions as a new vector.
    fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::new();
        self.legal_actions_into(&mut out);
        out
    }

    /// The returns as a new vector.
    fn returns(&self) -> Vec<f64> {
        let mut out = Vec::new();
        self.returns_into(&mut out);
        out
    }
}

/// `pyramids.core.game.sample_chance`: one outcome drawn with `rng.random()` over the
/// cumulative probabilities (the last outcome if rounding leaves `x` above the total).
pub fn sample_chance(outcomes: &[(Action, f64)], rng: &mut PyRandom) -> Action {
    let x = rng.random();
    let mut acc = 0.0;
    for &(action, p) in outcomes {
        acc += p;
        if x < acc {
            return action;
        }
    }
    outcomes[outcomes.len() - 1].0
}

/// The per-game parts of the search: the native mirror of a game's registry descriptor
/// (`policy`, `evaluation`, `reflex`) and of `Game.determinize`.
///
/// Every method that draws must draw from `rng` exactly as its Python original draws from
/// its `random.Random` (same calls, same order), so a native search can repeat a Python one.
pub trait SearchGame: Sync {
    /// The full state.
    type State: GameState;
    /// What one seat may know (the Python view's data).
    type View: Send + Sync;

    /// The viewing seat of `view`.
    fn view_player(&self, view: &Self::View) -> usize;
    /// `Game.determinize(view, rng)`: a full state consistent with `view`.
    fn determinize(&self, view: &Self::View, rng: &mut PyRandom) -> Self::State;
    /// The default policy's (greedy bot's) choice among `legal` (a subset of the legal
    /// actions, in ascending order) for the deciding seat of `state`, seeing only what that
    /// seat's view shows: `policy.act(state.view(seat), legal, rng)`.
    fn policy(&self, state: &Self::State, legal: &[Action], rng: &mut PyRandom) -> Action;
    /// The game's static evaluation: a value in [0, 1] per seat, into `out` (cleared first).
    /// It judges every rollout cut at the search's horizon.
    fn evaluate(&self, state: &Self::State, out: &mut Vec<f64>);
    /// What `searcher` observes of `action` (another seat's decision or a chance outcome,
    /// about to be applied to `state`): the key of its edge in the search tree with
    /// `observe`. Actions that look alike to the searcher share a key (Pyramids and Flags:
    /// another seat's exchange, `swap:?`); Python keys by `State.action_text_for(action,
    /// searcher)`, so two actions share a key here exactly when their masked texts are
    /// equal. A key is the action itself or a number that is no action of the game. The
    /// default sees everything: the action itself.
    fn observation(&self, _state: &Self::State, _searcher: usize, action: Action) -> Action {
        action
    }
    /// Whether the game's reflex is in play for games like `state`'s (`Reflex.in_play`).
    fn reflex_in_play(&self, _state: &Self::State) -> bool {
        false
    }
    /// Whether `legal` is a reflex decision (`Reflex.applies`).
    fn reflex_applies(&self, _legal: &[Action]) -> bool {
        false
    }
    /// The careful answer of the reflex (`Reflex.careful(state, legal)`).
    fn reflex_careful(&self, _state: &Self::State, legal: &[Action]) -> Action {
        legal[0]
    }
}
