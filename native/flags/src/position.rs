//! Positions as JSON (PF-NOTE-2, PF-NOTE-3): the mirror of `pyramids.flags.text`'s
//! `read_position` (every refusal: the same code and facts) and `position_to_json` (same
//! keys, same order).

use crate::consts::*;
use crate::deck::{CODES, NUM_CARDS, PIECES_MASK};
use crate::state::*;
use pyramids_core::fields::{int_field, int_field_at, int_value, known_fields};
use pyramids_core::Refusal;
use serde_json::{json, Map, Value};

type R<T> = Result<T, Refusal>;

/// A `PositionError` refusal.
fn refuse(code: &'static str) -> Refusal {
    Refusal::position(code)
}

const TOP_KEYS: [&str; 15] = [
    "rules",
    "players",
    "to_move",
    "turn",
    "towers",
    "bank",
    "scoring",
    "hands",
    "scored",
    "deck",
    "last_moved",
    "pending",
    "winner",
    "ranking",
    "events",
];

/// A JSON integer (not a bool, not a float) as i128.
pub fn as_int(v: &Value) -> Option<i128> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .map(i128::from)
            .or_else(|| n.as_u64().map(i128::from)),
        _ => None,
    }
}

/// `FlagsOptions.from_json` then its checks: (actions, max_turns, first_player).
pub fn parse_options(data: &Value) -> R<(bool, i64, i64)> {
    let Value::Object(m) = data else {
        return Err(refuse("position.not_an_object").with("field", "rules"));
    };
    known_fields(m, &["actions", "max_turns", "first_player"], Some("rules"))?;
    let actions = match m.get("actions") {
        None => true,
        Some(Value::Bool(b)) => *b,
        Some(v) => {
            return Err(refuse("position.not_a_boolean")
                .with("field", "actions")
                .with("value", v.clone()))
        }
    };
    let max_turns = match m.get("max_turns") {
        None => 3000,
        Some(v) => int_value(v, "max_turns", 1, None)?,
    };
    let first_player = match m.get("first_player") {
        None => 0,
        Some(v) => int_value(v, "first_player", 0, None)?,
    };
    Ok((actions, max_turns, first_player))
}

fn code_list<'a>(value: Option<&'a Value>, field: &str, kind: &'static str) -> R<Vec<&'a str>> {
    let err = || {
        refuse("flags.not_a_code_list")
            .with("field", field)
            .with("kind", kind)
    };
    let Some(Value::Array(a)) = value else {
        return Err(err());
    };
    a.iter().map(|x| x.as_str().ok_or_else(err)).collect()
}

fn per_seat<'a>(
    data: &'a Map<String, Value>,
    name: &str,
    players: usize,
    kind: &'static str,
) -> R<Vec<Vec<&'a str>>> {
    let value = match data.get(name) {
        None | Some(Value::Null) => {
            return Err(refuse("position.missing_field").with("field", name))
        }
        Some(v) => v,
    };
    match value {
        Value::Array(a) if a.len() == players => a
            .iter()
            .enumerate()
            .map(|(s, v)| code_list(Some(v), &format!("{name}[{s}]"), kind))
            .collect(),
        _ => Err(refuse("flags.not_per_seat")
            .with("field", name)
            .with("players", players)),
    }
}

/// `parse_piece(text, field)` for a JSON string.
pub fn parse_piece(text: &str, field: &str) -> R<usize> {
    piece_by_name(&py_strip(text).to_uppercase()).ok_or_else(|| {
        refuse("flags.unknown_piece")
            .with("field", field)
            .with("value", text)
    })
}

/// `parse_card(value, field)` for any JSON value (absent: null).
pub fn parse_card_value(v: Option<&Value>, field: &str) -> R<usize> {
    match v {
        Some(Value::String(s)) => parse_card(s, field),
        _ => Err(refuse("flags.card_not_text")
            .with("field", field)
            .with("value", v.cloned().unwrap_or(Value::Null))),
    }
}

/// `parse_card(text, field)` for a string.
pub fn parse_card(text: &str, field: &str) -> R<usize> {
    card_by_code(&py_strip(text).to_uppercase()).ok_or_else(|| {
        refuse("flags.unknown_card")
            .with("field", field)
            .with("value", text)
    })
}

/// Python's `str.strip()` (Unicode whitespace).
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

/// A win reason as the facts `win` (flags, group or points) and `detail` of a refusal.
fn with_win(r: Refusal, reason: WinReason) -> Refusal {
    match reason {
        WinReason::Flags(n) => r.with("win", "flags").with("detail", n),
        WinReason::Group(g) => r.with("win", "group").with("detail", GROUPS[g]),
        WinReason::Points(p) => r.with("win", "points").with("detail", p),
    }
}

/// `read_position`: a state from the contract's JSON text; Err: the refusal (text that
/// is not JSON at all: `flags.not_json`).
pub fn read_position(text: &str) -> R<State> {
    let value: Value = serde_json::from_str(text).map_err(|_| refuse("flags.not_json"))?;
    read_position_value(&value)
}

/// `read_position` of a parsed JSON value.
pub fn read_position_value(value: &Value) -> R<State> {
    let Value::Object(data) = value else {
        return Err(refuse("position.not_an_object").with("field", Value::Null));
    };
    known_fields(data, &TOP_KEYS, None)?;
    let empty = Value::Object(Map::new());
    let (actions, max_turns, _) = parse_options(data.get("rules").unwrap_or(&empty))?;
    let players = int_field(data, "players", None, 2, Some(MAX_PLAYERS as i64))?;
    let n = players as usize;
    let mut pos = State::start(n, actions, max_turns, 0);
    let to_move = int_field(data, "to_move", Some(0), 0, Some(players - 1))?;
    let turn = int_field(data, "turn", Some(1), 1, Some(max_turns))?;
    pos.to_move = to_move as u8;
    pos.turn = turn;

    let mut place: [Option<String>; NUM_PIECES] = std::array::from_fn(|_| None);
    let mut claim = |p: usize, at: String| -> R<()> {
        if let Some(was) = &place[p] {
            return Err(refuse("flags.piece_twice")
                .with("piece", piece_name(p))
                .with("first", was.as_str())
                .with("second", at));
        }
        place[p] = Some(at);
        Ok(())
    };
    let Some(Value::Array(towers)) = data.get("towers") else {
        return Err(refuse("flags.towers_not_list"));
    };
    for (i, tower) in towers.iter().enumerate() {
        let what = format!("towers[{i}]");
        let codes = code_list(Some(tower), &what, "piece")?;
        if codes.is_empty() {
            return Err(refuse("flags.empty_tower").with("field", what));
        }
        let mut prev: Option<usize> = None;
        for code in codes {
            let p = parse_piece(code, &what)?;
            if p >= NUM_FLAG_PIECES {
                return Err(refuse("flags.scoring_piece_on_table").with("piece", piece_name(p)));
            }
            claim(p, what.clone())?;
            if let Some(q) = prev {
                if size_of(p) > size_of(q) {
                    return Err(refuse("flags.on_smaller_piece")
                        .with("piece", piece_name(p))
                        .with("below", piece_name(q)));
                }
                pos.below[p] = q as i8;
                pos.above[q] = p as i8;
            }
            prev = Some(p);
        }
    }
    let empty_list = Value::Array(Vec::new());
    let bank = code_list(
        Some(data.get("bank").unwrap_or(&empty_list)),
        "bank",
        "piece",
    )?;
    let mut bank_mask = 0u32;
    for code in &bank {
        let p = parse_piece(code, "bank")?;
        if p < NUM_FLAG_PIECES {
            return Err(refuse("flags.flag_piece_off_table")
                .with("piece", piece_name(p))
                .with("field", "bank"));
        }
        claim(p, "bank".into())?;
        bank_mask |= 1 << p;
    }
    let scoring = per_seat(data, "scoring", n, "piece")?;
    for (s, codes) in scoring.iter().enumerate() {
        for code in codes {
            let at = format!("scoring[{s}]");
            let p = parse_piece(code, &at)?;
            if p < NUM_FLAG_PIECES {
                return Err(refuse("flags.flag_piece_off_table")
                    .with("piece", piece_name(p))
                    .with("field", at));
            }
            claim(p, at)?;
            pos.scoring[s] |= 1 << p;
        }
    }
    let missing: Vec<String> = (0..NUM_PIECES)
        .filter(|&p| place[p].is_none())
        .map(piece_name)
        .collect();
    if !missing.is_empty() {
        return Err(refuse("flags.pieces_missing").with("pieces", missing));
    }
    pos.bank = bank_mask;

    let mut seen: [Option<String>; NUM_CARDS] = std::array::from_fn(|_| None);
    let mut take_card = |code: &str, at: String| -> R<usize> {
        let c = parse_card(code, &at)?;
        if let Some(was) = &seen[c] {
            return Err(refuse("flags.card_twice")
                .with("card", CODES[c])
                .with("first", was.as_str())
                .with("second", at));
        }
        seen[c] = Some(at);
        Ok(c)
    };
    let hands = per_seat(data, "hands", n, "card")?;
    let scored = per_seat(data, "scored", n, "card")?;
    for s in 0..n {
        for code in &hands[s] {
            let c = take_card(code, format!("hands[{s}]"))?;
            pos.push_hand(s, c as u8);
        }
        for code in &scored[s] {
            let c = take_card(code, format!("scored[{s}]"))?;
            let l = pos.scored_len[s] as usize;
            pos.scored[s][l] = c as u8;
            pos.scored_len[s] += 1;
        }
    }
    let deck = code_list(
        Some(data.get("deck").unwrap_or(&empty_list)),
        "deck",
        "card",
    )?;
    for code in deck {
        let c = take_card(code, "deck".into())?;
        pos.deck[pos.deck_len as usize] = c as u8;
        pos.deck_len += 1;
    }
    let pending = data.get("pending").filter(|v| !v.is_null());
    let pmap = pending.and_then(|p| p.as_object());
    let dealing = pmap.is_some_and(|m| m.get("kind").and_then(|k| k.as_str()) == Some("deal"));
    if dealing {
        if let Some(cards) = pmap.and_then(|m| m.get("cards")) {
            let left = code_list(Some(cards), "pending.cards", "card")?;
            for code in left {
                let c = take_card(code, "pending.cards".into())?;
                pos.to_deal |= 1 << c;
            }
        }
    }
    let gone: Vec<&str> = (0..NUM_CARDS)
        .filter(|&c| seen[c].is_none())
        .map(|c| CODES[c])
        .collect();
    if !gone.is_empty() {
        return Err(refuse("flags.cards_missing").with("cards", gone));
    }

    let last = code_list(
        Some(data.get("last_moved").unwrap_or(&empty_list)),
        "last_moved",
        "piece",
    )?;
    let mut moved = Vec::with_capacity(last.len());
    for code in last {
        moved.push(parse_piece(code, "last_moved")?);
    }
    if moved.iter().any(|&p| p >= NUM_FLAG_PIECES) {
        return Err(refuse("flags.last_moved_not_flag_pieces"));
    }
    let mut mask = 0u32;
    for &p in &moved {
        if (mask >> p) & 1 == 1 {
            return Err(refuse("flags.last_moved_twice"));
        }
        mask |= 1 << p;
    }
    let moved: Vec<u8> = moved.iter().map(|&p| p as u8).collect();
    pos.set_last(&moved);

    let winner = data.get("winner").filter(|v| !v.is_null());
    let ranking = data.get("ranking").filter(|v| !v.is_null());
    if pos.to_deal != 0 && !dealing {
        return Err(refuse("flags.deal_not_pending"));
    }
    if winner.is_some() || ranking.is_some() {
        load_end(&mut pos, winner, ranking, pending)?;
        return Ok(pos);
    }
    for s in 0..n {
        if let Some(r) = win_reason(pos.scored_cards(s), pos.scoring[s]) {
            return Err(with_win(refuse("flags.win_undeclared").with("seat", s), r));
        }
    }
    match pending {
        None => {
            if pos.deck_len == 0 && !pos.any_hand() {
                return Err(refuse("flags.end_undeclared"));
            }
            Ok(pos)
        }
        Some(p) => {
            load_pending(&mut pos, p)?;
            Ok(pos)
        }
    }
}

fn load_end(
    pos: &mut State,
    winner: Option<&Value>,
    ranking: Option<&Value>,
    pending: Option<&Value>,
) -> R<()> {
    let n = pos.n();
    if pending.is_some() {
        return Err(refuse("flags.ended_with_pending"));
    }
    if winner.is_some() && ranking.is_some() {
        return Err(refuse("flags.winner_and_ranking"));
    }
    if let Some(w) = winner {
        let w = int_value(w, "winner", 0, Some(n as i64 - 1))? as usize;
        if win_reason(pos.scored_cards(w), pos.scoring[w]).is_none() {
            return Err(refuse("flags.winner_without_win").with("seat", w));
        }
        pos.winner = w as i8;
        return Ok(());
    }
    let bad = || {
        refuse("flags.bad_ranking")
            .with("value", ranking.cloned().unwrap_or(Value::Null))
            .with("players", n)
    };
    let Some(Value::Array(r)) = ranking else {
        return Err(bad());
    };
    if r.len() != n {
        return Err(bad());
    }
    let mut ranks = Vec::with_capacity(n);
    for (i, x) in r.iter().enumerate() {
        ranks.push(int_value(x, &format!("ranking[{i}]"), 1, Some(n as i64))?);
    }
    for s in 0..n {
        if win_reason(pos.scored_cards(s), pos.scoring[s]).is_some() {
            return Err(refuse("flags.ranking_with_win").with("seat", s));
        }
    }
    let expected = pos.rank();
    if ranks
        .iter()
        .zip(expected.iter())
        .any(|(&a, &b)| a != b as i64)
    {
        let want: Vec<i64> = expected[..n].iter().map(|&x| x as i64).collect();
        return Err(refuse("flags.wrong_ranking")
            .with("value", ranks)
            .with("expected", want));
    }
    pos.ranking = expected;
    pos.ranked = true;
    Ok(())
}

/// The first of `seats` holding a card whose flag stands, as the facts `seat` and `card`.
fn built_in_hands(pos: &State, seats: &[usize], refusal: Refusal) -> Option<Refusal> {
    for &s in seats {
        for &c in pos.hand(s) {
            if pos.is_built(c as usize) {
                return Some(refusal.with("seat", s).with("card", CODES[c as usize]));
            }
        }
    }
    None
}

fn load_pending(pos: &mut State, pending: &Value) -> R<()> {
    let n = pos.n();
    let to_move = pos.to_move as usize;
    let Value::Object(p) = pending else {
        return Err(refuse("position.not_an_object").with("field", "pending"));
    };
    let kind = p.get("kind");
    let allowed: &[&str] = match kind.and_then(|k| k.as_str()) {
        Some("capture") => &["player", "kind", "card", "taken"],
        Some("action") => &["player", "kind", "colour"],
        Some("steal") => &["kind", "from"],
        Some("deal") => &["kind", "cards"],
        _ => {
            return Err(refuse("flags.bad_pending_kind")
                .with("value", kind.cloned().unwrap_or(Value::Null)))
        }
    };
    let kind = kind.and_then(|k| k.as_str()).unwrap_or_default();
    known_fields(p, allowed, Some("pending"))?;
    if kind != "capture" && !pos.actions {
        return Err(refuse("flags.pending_needs_actions").with("kind", kind));
    }
    let moved: Vec<u8> = pos.last_moved().to_vec();
    let made = if moved.is_empty() {
        0
    } else {
        pos.tree_made(moved[0] as usize)
    };
    if kind == "capture" {
        let player =
            int_field_at(p, "player", "pending.player", None, 0, Some(n as i64 - 1))? as usize;
        let card = parse_card_value(p.get("card"), "pending.card")?;
        if pos.scored_cards(player).last() != Some(&(card as u8)) {
            return Err(refuse("flags.capture_not_last_scored")
                .with("card", CODES[card])
                .with("seat", player));
        }
        if !pos.is_built(card) {
            return Err(refuse("flags.capture_flag_down").with("card", CODES[card]));
        }
        let ok = !moved.is_empty() && {
            let (g, l) = pos.group(moved[0] as usize);
            g[..l] == moved[..]
        };
        if !ok {
            return Err(refuse("flags.capture_not_last_group"));
        }
        let empty_list = Value::Array(Vec::new());
        let codes = code_list(
            Some(p.get("taken").unwrap_or(&empty_list)),
            "pending.taken",
            "piece",
        )?;
        let mut taken = Vec::new();
        for code in codes {
            taken.push(parse_piece(code, "pending.taken")?);
        }
        if taken.len() > 1 {
            return Err(refuse("flags.capture_two_takes"));
        }
        for &t in &taken {
            if (PIECES_MASK[card] >> t) & 1 == 0 {
                return Err(refuse("flags.capture_not_shown")
                    .with("piece", piece_name(t))
                    .with("card", CODES[card]));
            }
            if (pos.scoring[player] >> t) & 1 == 0 {
                return Err(refuse("flags.capture_taken_not_held")
                    .with("seat", player)
                    .with("piece", piece_name(t)));
            }
        }
        if !pos.capture_choices(player, card, !taken.is_empty()) {
            return Err(refuse("flags.capture_nothing_left"));
        }
        let mut passed = Vec::new();
        let mut s = to_move;
        while s != player {
            passed.push(s);
            s = (s + 1) % n;
        }
        if let Some(refused) = built_in_hands(pos, &passed, refuse("flags.capture_scoring_over")) {
            return Err(refused);
        }
        pos.pending = CAPTURE;
        pos.player = player as i8;
        pos.card = card as i8;
        pos.taken = taken.first().map_or(-1, |&t| t as i8);
        pos.tree = if pos.actions { made } else { 0 };
        return Ok(());
    }
    let all: Vec<usize> = (0..n).collect();
    let before = refuse("flags.scoring_before_tree").with("kind", kind);
    if let Some(refused) = built_in_hands(pos, &all, before) {
        return Err(refused);
    }
    match kind {
        "action" => {
            let is_mover = match p.get("player") {
                None => true,
                Some(Value::Bool(b)) => *b as usize == to_move,
                Some(Value::Number(x)) => x.as_f64() == Some(to_move as f64),
                Some(_) => false,
            };
            if !is_mover {
                return Err(refuse("flags.action_player_not_mover"));
            }
            let colour = match p.get("colour").and_then(|c| c.as_str()) {
                Some(c @ ("R" | "B" | "G" | "Y" | "K" | "W")) => c.as_bytes()[0],
                _ => {
                    return Err(refuse("flags.bad_colour")
                        .with("value", p.get("colour").cloned().unwrap_or(Value::Null)))
                }
            };
            let ch = (colour as char).to_string();
            if colour != b'R' && made != colour && made != b'W' {
                return Err(refuse("flags.action_no_tree").with("colour", ch));
            }
            pos.colour = colour;
            if !pos.has_action_options(colour) {
                return Err(refuse("flags.action_lapses").with("colour", ch));
            }
            pos.pending = ACTION;
            pos.player = to_move as i8;
            Ok(())
        }
        "steal" => {
            let victim =
                int_field_at(p, "from", "pending.from", None, 0, Some(n as i64 - 1))? as usize;
            if victim == to_move {
                return Err(refuse("flags.steal_from_self"));
            }
            if pos.hand_len[victim] == 0 {
                return Err(refuse("flags.steal_empty_hand").with("seat", victim));
            }
            if made != b'K' && made != b'W' {
                return Err(refuse("flags.steal_no_tree"));
            }
            pos.pending = STEAL;
            pos.victim = victim as i8;
            Ok(())
        }
        _ => {
            if made != b'Y' && made != b'W' {
                return Err(refuse("flags.deal_no_tree"));
            }
            if !p.contains_key("cards") {
                for s in 0..n {
                    pos.to_deal |= pos.hand_mask(s);
                    pos.clear_hand(s);
                }
            }
            if pos.to_deal == 0 {
                return Err(refuse("flags.deal_nothing_left"));
            }
            let dealt: usize = pos.hand_len[..n].iter().map(|&l| l as usize).sum();
            for k in 0..n {
                let want = dealt / n + usize::from(k < dealt % n);
                let seat = (to_move + k) % n;
                if pos.hand_len[seat] as usize != want {
                    return Err(refuse("flags.deal_uneven")
                        .with("dealt", dealt)
                        .with("first", to_move)
                        .with("seat", seat)
                        .with("expected", want)
                        .with("value", pos.hand_len[seat]));
                }
            }
            pos.pending = DEAL;
            Ok(())
        }
    }
}

fn names(mask: u64) -> Vec<Value> {
    bits(mask).map(|p| Value::String(piece_name(p))).collect()
}

fn codes(cards: &[u8]) -> Vec<Value> {
    cards
        .iter()
        .map(|&c| Value::String(CODES[c as usize].into()))
        .collect()
}

/// `pending_json`: the pending decision as the notation's `pending` object (None if none).
pub fn pending_value(pos: &State) -> Option<Value> {
    Some(match pos.pending {
        CAPTURE => json!({
            "player": pos.player,
            "kind": "capture",
            "card": CODES[pos.card as usize],
            "taken": if pos.taken >= 0 { vec![piece_name(pos.taken as usize)] } else { vec![] },
        }),
        ACTION => {
            json!({"player": pos.to_move, "kind": "action", "colour": (pos.colour as char).to_string()})
        }
        STEAL => json!({"kind": "steal", "from": pos.victim}),
        DEAL => {
            let cards: Vec<u8> = bits(pos.to_deal).map(|c| c as u8).collect();
            json!({"kind": "deal", "cards": codes(&cards)})
        }
        _ => return None,
    })
}

/// `position_to_json` as a JSON value (same keys, same order).
pub fn position_value(pos: &State) -> Value {
    let n = pos.n();
    let mut d = Map::new();
    d.insert(
        "rules".into(),
        json!({"actions": pos.actions, "max_turns": pos.max_turns}),
    );
    d.insert("players".into(), json!(n));
    d.insert("to_move".into(), json!(pos.to_move));
    d.insert("turn".into(), json!(pos.turn));
    let towers: Vec<Value> = pos
        .towers()
        .iter()
        .map(|t| {
            Value::Array(
                t.iter()
                    .map(|&p| Value::String(piece_name(p as usize)))
                    .collect(),
            )
        })
        .collect();
    d.insert("towers".into(), Value::Array(towers));
    d.insert("bank".into(), Value::Array(names(pos.bank as u64)));
    d.insert(
        "scoring".into(),
        Value::Array(
            (0..n)
                .map(|s| Value::Array(names(pos.scoring[s] as u64)))
                .collect(),
        ),
    );
    d.insert(
        "hands".into(),
        Value::Array((0..n).map(|s| Value::Array(codes(pos.hand(s)))).collect()),
    );
    d.insert(
        "scored".into(),
        Value::Array(
            (0..n)
                .map(|s| Value::Array(codes(pos.scored_cards(s))))
                .collect(),
        ),
    );
    d.insert("deck".into(), Value::Array(codes(pos.deck_cards())));
    let last: Vec<Value> = pos
        .last_moved()
        .iter()
        .map(|&p| Value::String(piece_name(p as usize)))
        .collect();
    d.insert("last_moved".into(), Value::Array(last));
    if let Some(p) = pending_value(pos) {
        d.insert("pending".into(), p);
    }
    if pos.winner >= 0 {
        d.insert("winner".into(), json!(pos.winner));
    }
    if let Some(r) = pos.ranking_slice() {
        d.insert("ranking".into(), json!(r));
    }
    Value::Object(d)
}
