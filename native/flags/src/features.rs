//! The learned evaluation's features of Pyramids and Flags, the mirror of
//! `pyramids.games.flags.features` (same numbers, same order of operations).
//!
//! Per seat of a full state: flags scored, best group, points, the hand-made progress
//! (`evaluation.progress`), the reach of its hand (the greedy bot's `REACH` of each hand
//! card's flag distance), the hand cards whose flag stands now, the hand's size, whether
//! the seat is to move, the differences against the best opponent, and the number of
//! players.

use pyramids_core::{GameState, ValueWeights};

use crate::consts::MAX_PLAYERS;
use crate::policy::estimate::{flag_distance, padded, py_max, REACH};
use crate::policy::progress;
use crate::state::{group_counts, points, State};

/// Number of features per seat.
pub const NUM_FEATURES: usize = 13;

/// The features' names, in order (`value.json`'s `features`).
pub const FEATURE_NAMES: [&str; NUM_FEATURES] = [
    "flags",
    "best_group",
    "points",
    "progress",
    "reach",
    "ready",
    "hand",
    "to_move",
    "progress_vs_best",
    "flags_vs_best",
    "points_vs_best",
    "reach_vs_best",
    "players",
];

/// What a seat's own features read: (flags, best group, points, progress, reach, ready).
fn own(state: &State, seat: usize, below: &[i8; 32], above: &[i8; 32]) -> [f64; 6] {
    let scored = state.scored_cards(seat);
    let best_group = group_counts(scored).iter().copied().max().unwrap_or(0);
    let mut reach = 0.0;
    let mut ready = 0usize;
    for &c in state.hand(seat) {
        let d = flag_distance(usize::from(c), below, above);
        reach += REACH[d];
        ready += usize::from(d == 0);
    }
    [
        scored.len() as f64,
        best_group as f64,
        points(state.scoring[seat]) as f64,
        progress(state, seat),
        reach,
        ready as f64,
    ]
}

/// Every seat's features, seat after seat, into `out` (cleared first).
pub fn features(state: &State, out: &mut Vec<f64>) {
    out.clear();
    let mut all = [[0.0; NUM_FEATURES]; MAX_PLAYERS];
    let n = all_features(state, &mut all);
    for f in &all[..n] {
        out.extend_from_slice(f);
    }
}

/// Every seat's features into `all` (`features.features`); the number of seats.
pub fn all_features(state: &State, all: &mut [[f64; NUM_FEATURES]; MAX_PLAYERS]) -> usize {
    let n = state.n().min(MAX_PLAYERS);
    let below = padded(&state.below);
    let above = padded(&state.above);
    let mut mine = [[0.0; 6]; MAX_PLAYERS];
    for (s, m) in mine.iter_mut().enumerate().take(n) {
        *m = own(state, s, &below, &above);
    }
    for s in 0..n {
        let m = mine[s];
        // the best opponent in each measure (the seat's own when it has none)
        let mut best: Option<[f64; 6]> = None;
        for (q, o) in mine.iter().enumerate().take(n) {
            if q == s {
                continue;
            }
            best = Some(match best {
                None => *o,
                Some(b) => {
                    let mut t = b;
                    for (x, y) in t.iter_mut().zip(o) {
                        *x = py_max(*x, *y);
                    }
                    t
                }
            });
        }
        let b = best.unwrap_or(m);
        all[s] = [
            m[0],
            m[1],
            m[2],
            m[3],
            m[4],
            m[5],
            state.hand(s).len() as f64,
            f64::from(u8::from(usize::from(state.to_move) == s)),
            m[3] - b[3],
            m[0] - b[0],
            m[2] - b[2],
            m[4] - b[4],
            n as f64,
        ];
    }
    n
}

/// The learned evaluation with `value`'s weights: `returns()` at the end, else each seat's
/// `sigmoid(w·f + b)` normalised to add up to 1 (`learned.evaluate`), into `out`.
pub fn learned_evaluate(state: &State, value: &ValueWeights, out: &mut Vec<f64>) {
    if state.is_terminal() {
        state.returns_into(out);
        return;
    }
    let mut all = [[0.0; NUM_FEATURES]; MAX_PLAYERS];
    let n = all_features(state, &mut all);
    let mut p = [0.0; MAX_PLAYERS];
    for (v, f) in p.iter_mut().zip(&all).take(n) {
        *v = value.seat_value(f);
    }
    pyramids_core::value::normalise(&mut p[..n]);
    out.clear();
    out.extend_from_slice(&p[..n]);
}
