//! The native greedy bot and evaluation against values printed by CPython.

use super::*;
use crate::consts::{MOVE_BASE, TAKE_BASE};
use pyramids_core::{sample_chance, CHANCE};

/// (options, players, seed, turns, actions, hash of the actions, returns) of greedy
/// self-play on the Python engine (bench's loop, chance from `Random(seed + 1000)`),
/// printed by CPython.
type Golden = (&'static str, usize, i128, u64, usize, u64, &'static [f64]);

#[rustfmt::skip]
const GOLDEN: &[Golden] = &[
    (r#"{"actions": true, "max_turns": 3000, "first_player": 0}"#, 2, 0, 13, 21, 0x64b5b6ff262dcd47, &[1.0, 0.0]),
    (r#"{"actions": false, "max_turns": 3000, "first_player": 0}"#, 3, 1, 76, 91, 0x58d404a11cf8aa4c, &[1.0, 0.0, 0.0]),
    (r#"{"actions": true, "max_turns": 3000, "first_player": 0}"#, 4, 2, 48, 61, 0x81d077b6d780b2f, &[0.0, 0.0, 0.0, 1.0]),
    (r#"{"actions": false, "max_turns": 3000, "first_player": 0}"#, 2, 3, 9, 16, 0xcd511afc03f6764d, &[1.0, 0.0]),
    (r#"{"actions": true, "max_turns": 3000, "first_player": 0}"#, 3, 4, 41, 57, 0x303b58aae9da7184, &[0.0, 1.0, 0.0]),
    (r#"{"actions": false, "max_turns": 3000, "first_player": 0}"#, 4, 5, 62, 74, 0xa37da29d153477c1, &[0.0, 1.0, 0.0, 0.0]),
    (r#"{"actions": true, "max_turns": 3000, "first_player": 0}"#, 2, 6, 16, 27, 0xb5ce94724016f839, &[0.0, 1.0]),
    (r#"{"actions": false, "max_turns": 3000, "first_player": 0}"#, 3, 7, 24, 33, 0x3be9162a2d431c21, &[0.0, 0.0, 1.0]),
    (r#"{"actions": true, "max_turns": 3000, "first_player": 0}"#, 4, 8, 87, 100, 0x7dcd6224667ad475, &[0.0, 0.0, 1.0, 0.0]),
    (r#"{"actions": false, "max_turns": 3000, "first_player": 0}"#, 2, 9, 5, 13, 0xf3b81ad358bb27ca, &[1.0, 0.0]),
    (r#"{"actions": true, "max_turns": 3000, "first_player": 0}"#, 3, 10, 28, 42, 0xc7b0adebb91826bf, &[1.0, 0.0, 0.0]),
    (r#"{"actions": false, "max_turns": 3000, "first_player": 0}"#, 4, 11, 114, 123, 0x5a6bf582d3316ac1, &[0.0, 1.0, 0.0, 0.0]),
    (r#"{"actions": true, "max_turns": 3000, "first_player": 0}"#, 2, 12, 8, 16, 0xfe06911265d59619, &[0.0, 1.0]),
    (r#"{"actions": false, "max_turns": 3000, "first_player": 0}"#, 3, 13, 8, 16, 0x88167d73c3ebefb1, &[0.0, 1.0, 0.0]),
    (r#"{"actions": true, "max_turns": 3000, "first_player": 0}"#, 4, 14, 116, 135, 0x974fbe3d84d817c0, &[0.0, 0.0, 0.0, 1.0]),
];

#[test]
fn greedy_self_play_repeats_python_games() {
    for &(options, players, seed, turns, count, hash, returns) in GOLDEN {
        let mut state = State::new_game(players, options, seed).expect("a game");
        state.set_record_events(false);
        let mut rng = PyRandom::new(seed);
        let mut chance = PyRandom::new(seed + 1000);
        let (mut t, mut n, mut h) = (0u64, 0usize, 0u64);
        let (mut legal, mut outcomes) = (Vec::new(), Vec::new());
        while !state.is_terminal() {
            let a = if state.current_player() == CHANCE {
                state.chance_outcomes_into(&mut outcomes);
                sample_chance(&outcomes, &mut chance)
            } else {
                state.legal_actions_into(&mut legal);
                let a = greedy(&state, &legal, &mut rng);
                assert!(legal.contains(&a));
                if (MOVE_BASE..TAKE_BASE).contains(&a) {
                    t += 1;
                }
                a
            };
            h = h.wrapping_mul(1_000_003).wrapping_add(a);
            n += 1;
            state.apply(a).expect("a legal action");
        }
        let got = (t, n, h, state.returns());
        assert_eq!(
            got,
            (turns, count, hash, returns.to_vec()),
            "{options} {players} {seed}"
        );
    }
}

#[test]
fn evaluation_shares_sum_to_one() {
    let state = State::new_game(3, r#"{"actions": true}"#, 1).expect("a game");
    let mut out = Vec::new();
    evaluate(&state, &mut out);
    assert_eq!(out, vec![1.0 / 3.0; 3]);
}

#[test]
fn flag_distance_matches_the_reference_loop() {
    use estimate::{flag_distance, flag_distance_ref, padded};
    let mut rng = PyRandom::new(11);
    for seed in 0..40 {
        let mut state = State::new_game(2 + seed as usize % 3, "{}", seed).expect("a game");
        let mut legal = Vec::new();
        let mut steps = 0;
        while !state.is_terminal() && steps < 400 {
            let (below, above) = (padded(&state.below), padded(&state.above));
            for c in 0..NUM_CARDS {
                assert_eq!(
                    flag_distance(c, &below, &above),
                    flag_distance_ref(c, &state.below, &state.above)
                );
            }
            state.legal_actions_into(&mut legal);
            let a = legal[rng.below(legal.len())];
            state.apply(a).expect("legal");
            steps += 1;
        }
    }
}

#[test]
fn move_value_matches_the_reference_table_value() {
    use crate::consts::{decode_move, SWAP_BASE};
    let mut rng = PyRandom::new(12);
    let mut checked = 0;
    for seed in 0..30 {
        let mut state = State::new_game(2 + seed as usize % 3, "{}", seed).expect("a game");
        let mut legal = Vec::new();
        let mut steps = 0;
        while !state.is_terminal() && steps < 300 {
            state.legal_actions_into(&mut legal);
            if state.pending == crate::state::NONE {
                let mut fast = Position::new(&state, state.to_move as usize);
                let mut slow = Position::new(&state, state.to_move as usize);
                // also off the ascending order, to change the lifted piece back and forth
                for &a in legal.iter().chain(legal.iter().rev()) {
                    if a < SWAP_BASE {
                        let (lowest, target) = decode_move(a);
                        let (x, y) = (
                            fast.move_value(lowest, target),
                            slow.move_value_ref(lowest, target),
                        );
                        assert_eq!(x.to_bits(), y.to_bits(), "seed {seed} step {steps} {a}");
                        checked += 1;
                    }
                }
            }
            let a = legal[rng.below(legal.len())];
            state.apply(a).expect("legal");
            steps += 1;
        }
    }
    assert!(checked > 100_000, "{checked}");
}
