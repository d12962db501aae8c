//! Unit tests of the core rules (the differential test in tests/native checks the rest).

use crate::consts::*;
use crate::state::*;
use crate::*;
use serde_json::Value;

fn game(seed: i128) -> State {
    State::new_game(2, "{}", seed).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn setup_has_202_actions() {
    // PF-MOVE: 198 moves on 18 single pyramids, plus 4 exchanges (tests/flags/test_perft.py).
    let s = game(1);
    assert_eq!(s.legal_actions().len(), 202);
    assert_eq!(s.hand_len[..2], [4, 4]);
    assert_eq!(s.deck_len, 28);
}

#[test]
fn json_round_trips() {
    let s = game(7);
    let back = State::from_position_json(&s.to_position_json()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, s);
}

#[test]
fn random_playouts_end_and_round_trip() {
    let mut rng = PyRandom::new(3);
    for seed in 0..20 {
        let mut s =
            State::new_game(2 + (seed as usize % 3), "{}", seed).unwrap_or_else(|e| panic!("{e}"));
        let mut steps = 0;
        while !s.is_terminal() && steps < 5000 {
            let legal = s.legal_actions();
            assert!(!legal.is_empty());
            let a = legal[rng.below(legal.len())];
            s.apply(a).unwrap_or_else(|e| panic!("{e}"));
            let back =
                State::from_position_json(&s.to_position_json()).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(back.to_position_json(), s.to_position_json());
            steps += 1;
        }
    }
}

#[test]
fn illegal_actions_change_nothing() {
    let mut s = game(1);
    let before = s.clone();
    assert_eq!(
        s.apply_checked(SPLIT_BASE),
        Err(Refusal::illegal("flags.move_or_exchange").with("seat", 0))
    );
    assert_eq!(
        s.apply(SPLIT_BASE),
        Err(r#"flags.move_or_exchange {"seat":0}"#.into())
    );
    assert_eq!(s, before);
    assert!(s.apply(move_action(2, TABLE)).is_err());
}

#[test]
fn scoring_formula() {
    // One-colour trio O1 O2 O3 = 3 + 2 + 2 = 7 points.
    assert_eq!(points(0b111 << 18), 7);
    assert_eq!(points(0), 0);
}

#[test]
fn bad_positions_are_refused() {
    assert_eq!(
        State::from_position("[]"),
        Err(Refusal::position("position.not_an_object").with("field", Value::Null))
    );
    assert_eq!(
        State::from_position(r#"{"players": 5}"#),
        Err(Refusal::position("position.out_of_range")
            .with("field", "players")
            .with("value", 5)
            .with("low", 2)
            .with("high", 4))
    );
    assert_eq!(
        State::from_position(r#"{"players": true}"#),
        Err(Refusal::position("position.not_an_integer")
            .with("field", "players")
            .with("value", true))
    );
}

#[test]
fn faults_switch() {
    assert!(set_fault(Some("nonsense")).is_err());
    assert!(set_fault(None).is_ok());
}
