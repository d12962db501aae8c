//! The learned evaluation's features of Flaming Pyramids, the mirror of
//! `pyramids.games.flaming.features` (same numbers, same order of operations).
//!
//! Per seat of a full state: tiles left (hand and pile) own and against the best and the
//! mean opponent, the hand's size and mix (stones, embers), the pile, whether the seat is
//! to move, and the number of players.

use pyramids_core::{GameState, ValueWeights};

use crate::state::{State, MAX_PLAYERS};
use crate::tiles::{is_ember, WEIGHT};

/// Number of features per seat.
pub const NUM_FEATURES: usize = 9;

/// The features' names, in order (`value.json`'s `features`).
pub const FEATURE_NAMES: [&str; NUM_FEATURES] = [
    "left",
    "left_vs_best",
    "left_vs_mean",
    "hand",
    "pile",
    "stones",
    "embers",
    "to_move",
    "players",
];

/// Tiles as a count in tens (the features stay near 1).
const SCALE: f64 = 10.0;

/// The weight from which a tile is stone (FP-TILE-4).
const STONE_WEIGHT: u16 = 60;

/// Seat `seat`'s features of `state` (`features.seat_features`).
pub fn seat_features(state: &State, seat: usize) -> [f64; NUM_FEATURES] {
    let n = state.n();
    let left = |q: usize| (state.hands[q].len() + state.piles[q].len()) as i64;
    let own = left(seat);
    let mut best: Option<i64> = None;
    let mut others = 0i64;
    for q in (0..n).filter(|&q| q != seat) {
        best = Some(best.map_or(left(q), |b| b.min(left(q))));
        others += left(q);
    }
    let best = best.unwrap_or(own);
    let opponents = n.saturating_sub(1).max(1) as i64;
    let hand = state.hands[seat].as_slice();
    let stones = hand
        .iter()
        .filter(|&&t| !is_ember(t) && WEIGHT[usize::from(t)] >= STONE_WEIGHT)
        .count();
    let embers = hand.iter().filter(|&&t| is_ember(t)).count();
    [
        own as f64 / SCALE,
        (own - best) as f64 / SCALE,
        (own * opponents - others) as f64 / (SCALE * opponents as f64),
        hand.len() as f64 / SCALE,
        state.piles[seat].len() as f64 / SCALE,
        stones as f64,
        embers as f64,
        f64::from(u8::from(usize::from(state.to_move) == seat)),
        n as f64,
    ]
}

/// Every seat's features, seat after seat, into `out` (cleared first).
pub fn features(state: &State, out: &mut Vec<f64>) {
    out.clear();
    for s in 0..state.n() {
        out.extend_from_slice(&seat_features(state, s));
    }
}

/// The learned evaluation with `value`'s weights: `returns()` at the end, else each seat's
/// `sigmoid(w·f + b)` normalised to add up to 1 (`learned.evaluate`), into `out`.
pub fn learned_evaluate(state: &State, value: &ValueWeights, out: &mut Vec<f64>) {
    if state.is_terminal() {
        state.returns_into(out);
        return;
    }
    let n = state.n().min(MAX_PLAYERS);
    let mut p = [0.0; MAX_PLAYERS];
    for (s, v) in p.iter_mut().enumerate().take(n) {
        *v = value.seat_value(&seat_features(state, s));
    }
    pyramids_core::value::normalise(&mut p[..n]);
    out.clear();
    out.extend_from_slice(&p[..n]);
}
