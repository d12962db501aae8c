//! The native mirrors of Pyramids and Flags' greedy bot and static evaluation
//! (`pyramids.games.flags.policy` and `pyramids.games.flags.evaluation`).
//!
//! Every choice is the Python bot's choice for the same view, legal list and generator
//! state, and every tie break draws from the caller's [`PyRandom`] exactly as the Python
//! bot draws from its `random.Random`. The scores are computed in the Python code's order
//! of operations (sums left to right from zero, `max` keeping the first of equal values),
//! so they are bit-equal and equal scores are the same ties
//! (tests/native/test_policies.py). See the Python module for what the estimate means.
//!
//! The bot reads only what the deciding seat's view shows: the table, the bank, the
//! scoring pieces and face-up cards, hand and deck sizes, its own hand, and the hidden
//! cards whose place it knows (`known`).

use pyramids_core::{Action, GameState, PyRandom, SearchGame, ValueWeights};

use crate::consts::{
    decode_move, decode_take, DONE, GROW, MOVE_BASE, NEWSTART, PIRATE_BASE, SPLIT_BASE, SWAP_BASE,
    WILD_BASE, WILD_COLOURS,
};
use crate::deck::{NUM_CARDS, PIECES_MASK};
use crate::state::{points, State, ACTION, CAPTURE, NONE};
use crate::{determinize, View};

pub(crate) mod estimate;

use estimate::{
    bits, pot, py_max, Position, EPS, FIRST_TAKE_W, N, REACH, SWAP_COST, WIN, WIN_FLAGS,
    WIN_GROUP_FLAGS, WIN_POINTS,
};

/// `_pick`: the best-valued action; ties (within 1e-9) broken with `rng`.
fn pick(scored: &[(f64, Action)], rng: &mut PyRandom) -> Action {
    let mut top = scored[0].0;
    for &(v, _) in &scored[1..] {
        top = py_max(top, v);
    }
    let mut best = [0 as Action; 64];
    let mut best_vec = Vec::new();
    let mut n = 0;
    for &(v, a) in scored {
        if v >= top - EPS {
            if n < best.len() {
                best[n] = a;
            } else {
                if best_vec.is_empty() {
                    best_vec.extend_from_slice(&best);
                }
                best_vec.push(a);
            }
            n += 1;
        }
    }
    let best: &[Action] = if best_vec.is_empty() {
        &best[..n]
    } else {
        &best_vec
    };
    if best.len() > 1 {
        best[rng.below(best.len())]
    } else {
        best[0]
    }
}

/// `_turn_choice`: a move (PF-MOVE) or an exchange (PF-SWAP).
fn turn_choice(pos: &mut Position, legal: &[Action], rng: &mut PyRandom) -> Action {
    let mut scored = Vec::with_capacity(legal.len());
    let mut base = -1.0;
    for &a in legal {
        if a < SWAP_BASE {
            let (lowest, target) = decode_move(a.max(MOVE_BASE));
            scored.push((pos.move_value(lowest, target), a));
        } else {
            if base < 0.0 {
                base = pos.hand_reach() + pos.fresh - SWAP_COST;
            }
            let card = (a - SWAP_BASE) as usize;
            scored.push((base - REACH[pos.dist[card.min(NUM_CARDS - 1)]], a));
        }
    }
    pick(&scored, rng)
}

/// `_capture_choice`: a take (PF-CAPTURE): the most points for us, or from the leader.
fn capture_choice(pos: &Position, state: &State, legal: &[Action], rng: &mut PyRandom) -> Action {
    let mine = pos.masks[pos.seat];
    let shown = PIECES_MASK[state.card.max(0) as usize];
    let first = state.taken < 0;
    let mut scored = Vec::with_capacity(legal.len());
    for &a in legal {
        if a == DONE {
            scored.push((pot(mine) - 1.0, a));
            continue;
        }
        let (piece, source) = decode_take(a);
        let bit = 1u32 << piece;
        let me = mine | bit;
        let value = if points(me) >= WIN_POINTS {
            WIN
        } else if let Some(source) = source {
            let held = pos.masks[source];
            let loss = pot(held) - pot(held & !bit);
            pot(me) + pos.victim_weight(source) * loss
        } else {
            let mut best = pot(me);
            if first {
                // a second bank take follows: the better single first, in case of ties
                for q in bits(u64::from(shown & pos.bank & !bit)) {
                    best = py_max(best, pot(me | (1 << q)));
                }
                best += FIRST_TAKE_W * pot(me);
            }
            best
        };
        scored.push((value, a));
    }
    pick(&scored, rng)
}

/// `_action_choice`: a tree action (PF-TREE): used when it helps, else `done`.
fn action_choice(pos: &mut Position, colour: u8, legal: &[Action], rng: &mut PyRandom) -> Action {
    let options: Vec<Action> = legal.iter().copied().filter(|&a| a != DONE).collect();
    if options.is_empty() {
        return DONE;
    }
    match colour {
        b'G' => return GROW,
        b'K' => {
            // rob the fullest hand, then the leader, then the lowest seat
            let key = |a: Action| {
                let q = (a - PIRATE_BASE) as usize;
                (pos.hand_sizes[q.min(3)], pos.standings[q.min(3)])
            };
            let mut best = options[0];
            for &a in &options[1..] {
                let (h, s) = key(a);
                let (h0, s0) = key(best);
                #[allow(clippy::float_cmp)] // Python's tuple comparison: == first, then >
                let greater = h > h0 || (h == h0 && (s > s0 || (s == s0 && a < best)));
                if greater {
                    best = a;
                }
            }
            return best;
        }
        b'Y' => {
            return if pos.newstart_value() > EPS {
                NEWSTART
            } else {
                DONE
            }
        }
        _ => {}
    }
    let mut scored = Vec::with_capacity(options.len() + 1);
    scored.push((0.0, DONE));
    for &a in &options {
        let value = match colour {
            b'R' => pos.split_value(((a - SPLIT_BASE) as usize).min(N - 1)),
            b'B' => pos.trade_value(a),
            _ => {
                // white: the colour whose action is worth most now
                let chosen = WILD_COLOURS[((a - WILD_BASE) as usize).min(4)];
                if chosen == b'R' {
                    pos.best_split()
                } else {
                    pos.tree_value(chosen)
                }
            }
        };
        scored.push((value, a));
    }
    pick(&scored, rng)
}

/// The seat deciding in `state`: the capturing seat during a capture, else the mover.
fn deciding_seat(state: &State) -> usize {
    if state.pending == CAPTURE && state.player >= 0 {
        state.player as usize
    } else {
        state.to_move as usize
    }
}

/// The greedy bot's choice among `legal` (a subset of the legal actions, ascending) for the
/// deciding seat of `state`, as `GreedyFlagsBot.act(state.view(seat), legal, rng)` chooses:
/// the same action and the same draws from `rng`.
pub fn greedy(state: &State, legal: &[Action], rng: &mut PyRandom) -> Action {
    match legal.len() {
        0 => return DONE,
        1 => return legal[0],
        _ => {}
    }
    let seat = deciding_seat(state);
    if seat >= state.n() {
        return legal[rng.below(legal.len())];
    }
    let mut pos = Position::new(state, seat);
    match state.pending {
        NONE => turn_choice(&mut pos, legal, rng),
        CAPTURE => capture_choice(&pos, state, legal, rng),
        ACTION => action_choice(&mut pos, state.colour, legal, rng),
        _ => legal[rng.below(legal.len())],
    }
}

// --- the static evaluation (pyramids.games.flags.evaluation) ----------------------------

/// Weight of the nearest win condition in a seat's progress.
const NEAREST_W: f64 = 0.6;
/// Progress every seat starts with.
const FLOOR: f64 = 0.1;

/// Python's `min(1.0, x)`.
#[inline]
fn py_min1(x: f64) -> f64 {
    if x < 1.0 {
        x
    } else {
        1.0
    }
}

/// `progress`: how far `seat` is towards winning, in [0, 1) (PF-WIN).
pub(crate) fn progress(state: &State, seat: usize) -> f64 {
    let scored = state.scored_cards(seat);
    let best_group = crate::state::group_counts(scored)
        .iter()
        .copied()
        .max()
        .unwrap_or(0);
    let parts = [
        py_min1(scored.len() as f64 / WIN_FLAGS as f64),
        py_min1(best_group as f64 / WIN_GROUP_FLAGS as f64),
        py_min1(points(state.scoring[seat]) as f64 / WIN_POINTS as f64),
    ];
    let top = py_max(py_max(parts[0], parts[1]), parts[2]);
    let sum = 0.0 + parts[0] + parts[1] + parts[2];
    NEAREST_W * top + (1.0 - NEAREST_W) * sum / parts.len() as f64
}

/// The static evaluation: each seat's value in [0, 1], `returns()` at the end, else its
/// share of the progress (`evaluation.evaluate`, bit-equal), into `out` (cleared first).
pub fn evaluate(state: &State, out: &mut Vec<f64>) {
    if state.is_terminal() {
        state.returns_into(out);
        return;
    }
    out.clear();
    let mut total = 0.0;
    for s in 0..state.n() {
        let w = FLOOR + progress(state, s);
        total += w;
        out.push(w);
    }
    for w in out.iter_mut() {
        *w /= total;
    }
}

// --- the search's per-game parts ---------------------------------------------------------

/// Pyramids and Flags for the native search: determinization, greedy policy, evaluation.
///
/// `value`: the learned evaluation's weights (`SearchSettings.evaluation == "learned"`);
/// `None` evaluates with the hand-made [`evaluate`].
#[derive(Clone, Debug, Default)]
pub struct Search {
    /// The learned value's weights, when the search evaluates with it.
    pub value: Option<ValueWeights>,
}

impl SearchGame for Search {
    type State = State;
    type View = View;

    fn view_player(&self, view: &View) -> usize {
        view.player.map_or(0, usize::from)
    }

    fn determinize(&self, view: &View, rng: &mut PyRandom) -> State {
        determinize(view, rng)
    }

    fn policy(&self, state: &State, legal: &[Action], rng: &mut PyRandom) -> Action {
        greedy(state, legal, rng)
    }

    fn evaluate(&self, state: &State, out: &mut Vec<f64>) {
        match &self.value {
            Some(value) => crate::features::learned_evaluate(state, value, out),
            None => evaluate(state, out),
        }
    }

    /// PF-VIEW-4: another seat's exchange, a steal seen by neither thief nor victim and a
    /// card dealt to another seat look alike to the searcher.
    fn observation(&self, state: &State, searcher: usize, action: Action) -> Action {
        state.observed_action(action, Some(searcher))
    }
}

#[cfg(test)]
mod tests;
