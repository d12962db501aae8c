//! Rulebook examples in Rust (the Python tests and the differential tests cover the rest).

use pyramids_core::GameState;

use crate::actions::{place_action, LEFT};
use crate::tiles::{by_name, key_of};
use crate::State;

fn pos(json: &str) -> State {
    match State::from_position_json(json) {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    }
}

fn tile(code: &str) -> u8 {
    by_name(code).expect("a tile")
}

#[test]
fn deal_matches_python_seed_zero_shape() {
    let st = State::new_game(3, r#"{"preset": "standard"}"#, 0).expect("a game");
    assert_eq!(st.n(), 3);
    for s in 0..3 {
        assert_eq!(st.hands[s].len(), 5);
        assert_eq!(st.piles[s].len(), 10);
    }
    assert!(st.legal_actions().windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn rulebook_misfit_collapses_supports_under_the_players_pile() {
    // FP-COLLAPSE-1: B100 on G20 and R6 is too heavy; the supports go under seat 0's pile.
    let mut st = pos(r#"{"players": 2, "pyramid": ["G20@0,0", "R6@0,2"],
            "hands": [["B100", "Y2"], ["Y4"]], "piles": [[], ["Y6"]]}"#);
    st.set_record_events(true);
    st.apply(place_action(tile("B100"), key_of(1, 1)))
        .expect("legal");
    assert_eq!(st.piles[0].as_slice(), &[tile("G20"), tile("R6")]);
    assert_eq!(st.pending, crate::state::FALL);
    st.apply(LEFT).expect("a fall");
    assert_eq!(st.board.get(key_of(0, 0)), Some(tile("B100")));
}

#[test]
fn rulebook_curse_sends_trio_to_the_right() {
    // FP-CURSE-3: three 20s go under the pile of the seat on P's right.
    let mut st = pos(r#"{"players": 3, "pyramid": ["G20@0,0", "R20@0,2"],
            "hands": [["B20", "Y2"], ["Y4"], ["Y6"]], "piles": [[], [], []]}"#);
    st.apply(place_action(tile("B20"), key_of(1, 1)))
        .expect("legal");
    assert_eq!(st.piles[2].len(), 3);
    assert!(st.board.is_empty());
}

#[test]
fn refusals_name_their_code_and_facts() {
    let e = State::from_position_json(r#"{"players": 7}"#).expect_err("7 players");
    assert_eq!(
        e.to_string(),
        r#"position.out_of_range {"field":"players","value":7,"low":2,"high":6}"#
    );
    let e =
        State::from_position_json(r#"{"players": 2, "hands": [["X9"], []], "piles": [[], []]}"#)
            .expect_err("an unknown tile");
    assert_eq!(e.code, "flaming.unknown_tile");
    assert_eq!(e.get("field"), Some(&serde_json::Value::from("hands[0]")));
    assert_eq!(e.get("value"), Some(&serde_json::Value::from("X9")));
}

#[test]
fn json_round_trips() {
    let st = State::new_game(4, r#"{"preset": "family", "fire_die": true}"#, 7).expect("a game");
    let text = st.to_position_json();
    let back = pos(&text);
    assert_eq!(back.to_position_json(), text);
}

#[test]
fn edge_inputs_are_refused_with_the_python_codes() {
    // Issue 32, point 7: a true is no rank, digits are ASCII, quenched lists tile codes,
    // a row beyond 1000 (of any size) names the spot as written, 64 bits at most.
    let base = |extra: &str| {
        format!(
            r#"{{"players": 2, "pyramid": ["R100@0,0", "B120@0,2", "Y1@0,4"],
                "hands": [["R40"], ["G4"]], "piles": [[], []]{extra}}}"#
        )
    };
    let code = |extra: &str| {
        let e = State::from_position_json(&base(extra)).expect_err("refused");
        (e.code, e.to_string())
    };
    assert_eq!(
        code(r#", "hands": [[], []], "ranking": [true, 2]"#).0,
        "position.not_an_integer"
    );
    assert_eq!(
        code(r#", "pyramid": ["R100@\u0660,0"]"#).1,
        "flaming.not_tile_at {\"field\":\"pyramid\",\"value\":\"R100@٠,0\"}"
    );
    assert_eq!(
        code(r#", "rules": {"fire_die": true}, "quenched": {"Y1": [3]}"#).1,
        r#"flaming.not_tile_list {"field":"quenched[Y1]"}"#
    );
    assert_eq!(
        code(r#", "pyramid": ["R100@0,0", "Y2@0099999999999999999999999,1"]"#).1,
        r#"flaming.row_out_of_range {"spot":"99999999999999999999999,1","max_row":1000}"#
    );
    assert_eq!(
        code(r#", "turn": 18446744073709551615"#).1,
        r#"position.integer_too_large {"field":"turn"}"#
    );
}
