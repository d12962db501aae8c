//! Positions as JSON (PF-NOTE-2, PF-NOTE-3): the mirror of `pyramids.flags.text`'s
//! `read_position` (every refusal, the same text) and `position_to_json` (same keys,
//! same order).

use crate::consts::*;
use crate::deck::{CODES, NUM_CARDS, PIECES_MASK};
use crate::state::*;
use pyramids_core::pyjson::repr as py_repr;
use serde_json::{json, Map, Value};

type R<T> = Result<T, String>;

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
        return Err("'rules' must be an object".into());
    };
    let mut unknown: Vec<&str> = m
        .keys()
        .map(|k| k.as_str())
        .filter(|k| !["actions", "max_turns", "first_player"].contains(k))
        .collect();
    unknown.sort_unstable();
    if !unknown.is_empty() {
        return Err(format!("unknown rules option(s): {}", unknown.join(", ")));
    }
    let actions = match m.get("actions") {
        None => true,
        Some(Value::Bool(b)) => *b,
        Some(v) => return Err(format!("actions must be true or false, not {}", py_repr(v))),
    };
    let max_turns = match m.get("max_turns") {
        None => 3000,
        Some(v) => match as_int(v) {
            Some(i) if i >= 1 => i.min(i64::MAX as i128) as i64,
            _ => {
                return Err(format!(
                    "max_turns must be a positive integer, not {}",
                    py_repr(v)
                ))
            }
        },
    };
    let first_player = match m.get("first_player") {
        None => 0,
        Some(v) => match as_int(v) {
            Some(i) if i >= 0 => i.min(i64::MAX as i128) as i64,
            _ => {
                return Err(format!(
                    "first_player must be a seat number, not {}",
                    py_repr(v)
                ))
            }
        },
    };
    Ok((actions, max_turns, first_player))
}

fn int_field(data: &Map<String, Value>, name: &str, default: Option<i128>) -> R<i128> {
    match data.get(name) {
        None if default.is_some() => Ok(default.unwrap_or_default()),
        None | Some(Value::Null) => Err(format!("the position has no '{name}'")),
        Some(v) => {
            as_int(v).ok_or_else(|| format!("'{name}' must be an integer, not {}", py_repr(v)))
        }
    }
}

fn code_list<'a>(value: Option<&'a Value>, what: &str, kind: &str) -> R<Vec<&'a str>> {
    let err = || format!("{what} must be a list of {kind} codes");
    let Some(Value::Array(a)) = value else {
        return Err(err());
    };
    a.iter().map(|x| x.as_str().ok_or_else(err)).collect()
}

fn per_seat<'a>(
    data: &'a Map<String, Value>,
    name: &str,
    players: usize,
    kind: &str,
) -> R<Vec<Vec<&'a str>>> {
    let value = match data.get(name) {
        None | Some(Value::Null) => return Err(format!("the position has no '{name}'")),
        Some(v) => v,
    };
    match value {
        Value::Array(a) if a.len() == players => a
            .iter()
            .enumerate()
            .map(|(s, v)| code_list(Some(v), &format!("{name}[{s}]"), kind))
            .collect(),
        _ => Err(format!(
            "'{name}' must be a list of {players} lists (one per seat)"
        )),
    }
}

/// `parse_piece(text, what)` for a JSON string.
pub fn parse_piece(text: &str, what: &str) -> R<usize> {
    piece_by_name(&py_strip(text).to_uppercase()).ok_or_else(|| {
        format!(
            "{what} {} is not a piece: a colour letter of KWYBGROPCX and a size 1, 2 or 3",
            py_repr(&Value::String(text.into()))
        )
    })
}

/// `parse_card(value, what)` for any JSON value.
pub fn parse_card_value(v: Option<&Value>, what: &str) -> R<usize> {
    match v {
        Some(Value::String(s)) => parse_card(s, what),
        _ => Err(format!(
            "{what} must be a card code like 'CZE', not {}",
            py_repr(v.unwrap_or(&Value::Null))
        )),
    }
}

/// `parse_card(text, what)` for a string.
pub fn parse_card(text: &str, what: &str) -> R<usize> {
    card_by_code(&py_strip(text).to_uppercase()).ok_or_else(|| {
        format!(
            "{what} {} is not a card of the deck",
            py_repr(&Value::String(text.into()))
        )
    })
}

/// Python's `str.strip()` (Unicode whitespace).
pub fn py_strip(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c))
}

fn win_text(r: WinReason) -> String {
    match r {
        WinReason::Flags(n) => format!("{n} flags"),
        WinReason::Group(g) => format!("3 flags of the group {}", GROUPS[g]),
        WinReason::Points(p) => format!("{p} points"),
    }
}

/// `read_position`: a state from the contract's JSON text; Err(PositionError text).
pub fn read_position(text: &str) -> R<State> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    read_position_value(&value)
}

/// `read_position` of a parsed JSON value.
pub fn read_position_value(value: &Value) -> R<State> {
    let Value::Object(data) = value else {
        return Err("a position must be a JSON object".into());
    };
    let mut unknown: Vec<&str> = data
        .keys()
        .map(|k| k.as_str())
        .filter(|k| !TOP_KEYS.contains(k))
        .collect();
    unknown.sort_unstable();
    if !unknown.is_empty() {
        return Err(format!("unknown position field(s): {}", unknown.join(", ")));
    }
    let empty = Value::Object(Map::new());
    let (actions, max_turns, _) = parse_options(data.get("rules").unwrap_or(&empty))?;
    let players = int_field(data, "players", None)?;
    if !(2..=MAX_PLAYERS as i128).contains(&players) {
        return Err(format!(
            "'players' must be 2 to {MAX_PLAYERS}, not {players}"
        ));
    }
    let n = players as usize;
    let mut pos = State::start(n, actions, max_turns, 0);
    let to_move = int_field(data, "to_move", Some(0))?;
    if !(0..players).contains(&to_move) {
        return Err(format!(
            "'to_move' must be a seat from 0 to {}, not {to_move}",
            n - 1
        ));
    }
    let turn = int_field(data, "turn", Some(1))?;
    if !(1..=max_turns as i128).contains(&turn) {
        return Err(format!(
            "'turn' must be from 1 to max_turns ({max_turns}), not {turn}"
        ));
    }
    pos.to_move = to_move as u8;
    pos.turn = turn as i64;

    let mut place: [Option<String>; NUM_PIECES] = std::array::from_fn(|_| None);
    let mut claim = |p: usize, at: String| -> R<()> {
        if let Some(was) = &place[p] {
            return Err(format!(
                "{} is listed twice: in {was} and in {at}",
                piece_name(p)
            ));
        }
        place[p] = Some(at);
        Ok(())
    };
    let Some(Value::Array(towers)) = data.get("towers") else {
        return Err(
            "'towers' must be a list of towers, each a list of pieces bottom to top".into(),
        );
    };
    for (i, tower) in towers.iter().enumerate() {
        let what = format!("towers[{i}]");
        let codes = code_list(Some(tower), &what, "piece")?;
        if codes.is_empty() {
            return Err(format!(
                "towers[{i}] is empty: a tower has at least one piece"
            ));
        }
        let mut prev: Option<usize> = None;
        for code in codes {
            let p = parse_piece(code, &what)?;
            if p >= NUM_FLAG_PIECES {
                return Err(format!("{} is a scoring piece: it belongs in the bank or a player's hold, not on the table", piece_name(p)));
            }
            claim(p, "the towers".into())?;
            if let Some(q) = prev {
                if size_of(p) > size_of(q) {
                    return Err(format!(
                        "{} sits on {}, a smaller piece (PF-MOVE-3)",
                        piece_name(p),
                        piece_name(q)
                    ));
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
        "'bank'",
        "piece",
    )?;
    let mut bank_mask = 0u32;
    for code in &bank {
        let p = parse_piece(code, "bank")?;
        if p < NUM_FLAG_PIECES {
            return Err(format!(
                "{} is a flag piece: it belongs on the table, not in the bank",
                piece_name(p)
            ));
        }
        claim(p, "the bank".into())?;
        bank_mask |= 1 << p;
    }
    let scoring = per_seat(data, "scoring", n, "piece")?;
    for (s, codes) in scoring.iter().enumerate() {
        for code in codes {
            let p = parse_piece(code, &format!("scoring[{s}]"))?;
            if p < NUM_FLAG_PIECES {
                return Err(format!(
                    "{} is a flag piece: it belongs on the table, not in seat {s}'s hold",
                    piece_name(p)
                ));
            }
            claim(p, format!("seat {s}'s scoring pieces"))?;
            pos.scoring[s] |= 1 << p;
        }
    }
    let missing: Vec<String> = (0..NUM_PIECES)
        .filter(|&p| place[p].is_none())
        .map(piece_name)
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "piece(s) missing from the position: {}",
            missing.join(", ")
        ));
    }
    pos.bank = bank_mask;

    let mut seen: [Option<String>; NUM_CARDS] = std::array::from_fn(|_| None);
    let mut take_card = |code: &str, at: String| -> R<usize> {
        let c = parse_card(code, &at)?;
        if let Some(was) = &seen[c] {
            return Err(format!(
                "card {} is listed twice: in {was} and in {at}",
                CODES[c]
            ));
        }
        seen[c] = Some(at);
        Ok(c)
    };
    let hands = per_seat(data, "hands", n, "card")?;
    let scored = per_seat(data, "scored", n, "card")?;
    for s in 0..n {
        for code in &hands[s] {
            let c = take_card(code, format!("seat {s}'s hand"))?;
            pos.push_hand(s, c as u8);
        }
        for code in &scored[s] {
            let c = take_card(code, format!("seat {s}'s scored cards"))?;
            let l = pos.scored_len[s] as usize;
            pos.scored[s][l] = c as u8;
            pos.scored_len[s] += 1;
        }
    }
    let deck = code_list(
        Some(data.get("deck").unwrap_or(&empty_list)),
        "'deck'",
        "card",
    )?;
    for code in deck {
        let c = take_card(code, "the deck".into())?;
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
                let c = take_card(code, "the cards left to deal".into())?;
                pos.to_deal |= 1 << c;
            }
        }
    }
    let gone: Vec<&str> = (0..NUM_CARDS)
        .filter(|&c| seen[c].is_none())
        .map(|c| CODES[c])
        .collect();
    if !gone.is_empty() {
        return Err(format!(
            "card(s) missing from the position: {}",
            gone.join(", ")
        ));
    }

    let last = code_list(
        Some(data.get("last_moved").unwrap_or(&empty_list)),
        "'last_moved'",
        "piece",
    )?;
    let mut moved = Vec::with_capacity(last.len());
    for code in last {
        moved.push(parse_piece(code, "last_moved")?);
    }
    if moved.iter().any(|&p| p >= NUM_FLAG_PIECES) {
        return Err("'last_moved' lists flag pieces only (the pieces a move moved)".into());
    }
    let mut mask = 0u32;
    for &p in &moved {
        if (mask >> p) & 1 == 1 {
            return Err("'last_moved' lists a piece twice".into());
        }
        mask |= 1 << p;
    }
    let moved: Vec<u8> = moved.iter().map(|&p| p as u8).collect();
    pos.set_last(&moved);

    let winner = data.get("winner").filter(|v| !v.is_null());
    let ranking = data.get("ranking").filter(|v| !v.is_null());
    if pos.to_deal != 0 && !dealing {
        return Err("cards are left to deal but no deal is pending".into());
    }
    if winner.is_some() || ranking.is_some() {
        load_end(&mut pos, winner, ranking, pending)?;
        return Ok(pos);
    }
    for s in 0..n {
        if let Some(r) = win_reason(pos.scored_cards(s), pos.scoring[s]) {
            return Err(format!(
                "seat {s} already meets a win condition ({}) but the position has no winner",
                win_text(r)
            ));
        }
    }
    match pending {
        None => {
            if pos.deck_len == 0 && !pos.any_hand() {
                return Err("the deck and every hand are empty: that ends the game (PF-WIN-6); give a 'ranking'".into());
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
        return Err("an ended game has no pending decision".into());
    }
    if winner.is_some() && ranking.is_some() {
        return Err("a position has a 'winner' or a 'ranking', not both".into());
    }
    if let Some(w) = winner {
        let Some(w) = as_int(w).filter(|&w| (0..n as i128).contains(&w)) else {
            return Err(format!("'winner' must be a seat from 0 to {}", n - 1));
        };
        let w = w as usize;
        if win_reason(pos.scored_cards(w), pos.scoring[w]).is_none() {
            return Err(format!("seat {w} is the winner but meets no win condition"));
        }
        pos.winner = w as i8;
        return Ok(());
    }
    let bad = || format!("'ranking' must list a rank from 1 to {n} per seat");
    let Some(Value::Array(r)) = ranking else {
        return Err(bad());
    };
    if r.len() != n {
        return Err(bad());
    }
    let mut ranks = Vec::with_capacity(n);
    for x in r {
        ranks.push(as_int(x).ok_or_else(bad)?);
    }
    for s in 0..n {
        if win_reason(pos.scored_cards(s), pos.scoring[s]).is_some() {
            return Err(format!(
                "seat {s} meets a win condition: the position needs a 'winner'"
            ));
        }
    }
    let expected = pos.rank();
    if ranks
        .iter()
        .zip(expected.iter())
        .any(|(&a, &b)| a != b as i128)
    {
        let given: Vec<String> = r.iter().map(py_repr).collect();
        let want: Vec<String> = expected[..n].iter().map(|x| x.to_string()).collect();
        return Err(format!(
            "'ranking' [{}] does not follow points then flags (PF-WIN-5): [{}]",
            given.join(", "),
            want.join(", ")
        ));
    }
    pos.ranking = expected;
    pos.ranked = true;
    Ok(())
}

fn built_in_hands(pos: &State, seats: &[usize]) -> Option<String> {
    for &s in seats {
        for &c in pos.hand(s) {
            if pos.is_built(c as usize) {
                return Some(format!(
                    "seat {s} holds {}, whose flag stands",
                    CODES[c as usize]
                ));
            }
        }
    }
    None
}

fn seat_field(v: Option<&Value>, n: usize) -> Option<usize> {
    v.and_then(as_int)
        .filter(|&s| (0..n as i128).contains(&s))
        .map(|s| s as usize)
}

fn load_pending(pos: &mut State, pending: &Value) -> R<()> {
    let n = pos.n();
    let to_move = pos.to_move as usize;
    let Value::Object(p) = pending else {
        return Err("'pending' must be an object".into());
    };
    let kind = p.get("kind");
    let allowed: &[&str] = match kind.and_then(|k| k.as_str()) {
        Some("capture") => &["player", "kind", "card", "taken"],
        Some("action") => &["player", "kind", "colour"],
        Some("steal") => &["kind", "from"],
        Some("deal") => &["kind", "cards"],
        _ => {
            return Err(format!(
                "pending.kind must be capture, action, steal or deal, not {}",
                py_repr(kind.unwrap_or(&Value::Null))
            ))
        }
    };
    let kind = kind.and_then(|k| k.as_str()).unwrap_or_default();
    let mut extra: Vec<&str> = p
        .keys()
        .map(|k| k.as_str())
        .filter(|k| !allowed.contains(k))
        .collect();
    extra.sort_unstable();
    if !extra.is_empty() {
        return Err(format!(
            "unknown field(s) in a pending {kind}: {}",
            extra.join(", ")
        ));
    }
    if kind != "capture" && !pos.actions {
        return Err(format!(
            "a pending {kind} needs the tree actions (rules.actions)"
        ));
    }
    let moved: Vec<u8> = pos.last_moved().to_vec();
    let made = if moved.is_empty() {
        0
    } else {
        pos.tree_made(moved[0] as usize)
    };
    if kind == "capture" {
        let Some(player) = seat_field(p.get("player").filter(|v| !v.is_boolean()), n) else {
            return Err(format!("pending.player must be a seat from 0 to {}", n - 1));
        };
        let card = parse_card_value(p.get("card"), "pending.card")?;
        if pos.scored_cards(player).last() != Some(&(card as u8)) {
            return Err(format!(
                "pending capture: {} must be the last card seat {player} scored",
                CODES[card]
            ));
        }
        if !pos.is_built(card) {
            return Err(format!(
                "pending capture: the flag of {} does not stand",
                CODES[card]
            ));
        }
        let ok = !moved.is_empty() && {
            let (g, l) = pos.group(moved[0] as usize);
            g[..l] == moved[..]
        };
        if !ok {
            return Err("pending capture: 'last_moved' must be the group this turn's move put on top of a tower".into());
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
            return Err("pending capture: after two takes the capture is over".into());
        }
        for &t in &taken {
            if (PIECES_MASK[card] >> t) & 1 == 0 {
                return Err(format!(
                    "pending capture: {} is not shown on {}",
                    piece_name(t),
                    CODES[card]
                ));
            }
            if (pos.scoring[player] >> t) & 1 == 0 {
                return Err(format!(
                    "pending capture: seat {player} does not hold the taken {}",
                    piece_name(t)
                ));
            }
        }
        if !pos.capture_choices(player, card, !taken.is_empty()) {
            return Err("pending capture: nothing is left to take, so the capture would be over (PF-CAPTURE-4)".into());
        }
        let mut passed = Vec::new();
        let mut s = to_move;
        while s != player {
            passed.push(s);
            s = (s + 1) % n;
        }
        if let Some(problem) = built_in_hands(pos, &passed) {
            return Err(format!(
                "pending capture: {problem} but its scoring is over"
            ));
        }
        pos.pending = CAPTURE;
        pos.player = player as i8;
        pos.card = card as i8;
        pos.taken = taken.first().map_or(-1, |&t| t as i8);
        pos.tree = if pos.actions { made } else { 0 };
        return Ok(());
    }
    let all: Vec<usize> = (0..n).collect();
    if let Some(problem) = built_in_hands(pos, &all) {
        return Err(format!(
            "pending {kind}: {problem}; scoring comes before the tree action"
        ));
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
                return Err(
                    "pending action: the player is the one to move (the tree's builder)".into(),
                );
            }
            let colour = match p.get("colour").and_then(|c| c.as_str()) {
                Some(c @ ("R" | "B" | "G" | "Y" | "K" | "W")) => c.as_bytes()[0],
                _ => return Err("pending.colour must be one of R, B, G, Y, K, W".into()),
            };
            let ch = colour as char;
            if colour != b'R' && made != colour && made != b'W' {
                return Err(format!("pending action {ch}: the last move made no tree of that colour (nor a white one)"));
            }
            pos.colour = colour;
            if !pos.has_action_options(colour) {
                return Err(format!(
                    "pending action {ch}: nothing to act on, so the action would lapse (PF-TREE-3)"
                ));
            }
            pos.pending = ACTION;
            pos.player = to_move as i8;
            Ok(())
        }
        "steal" => {
            let Some(victim) = seat_field(p.get("from").filter(|v| !v.is_boolean()), n) else {
                return Err(format!("pending.from must be a seat from 0 to {}", n - 1));
            };
            if victim == to_move {
                return Err("pending steal: the pirate robs an opponent, not themself".into());
            }
            if pos.hand_len[victim] == 0 {
                return Err(format!("pending steal: seat {victim} holds no card"));
            }
            if made != b'K' && made != b'W' {
                return Err("pending steal: the last move made no black (or white) tree".into());
            }
            pos.pending = STEAL;
            pos.victim = victim as i8;
            Ok(())
        }
        _ => {
            if made != b'Y' && made != b'W' {
                return Err("pending deal: the last move made no yellow (or white) tree".into());
            }
            if !p.contains_key("cards") {
                for s in 0..n {
                    pos.to_deal |= pos.hand_mask(s);
                    pos.clear_hand(s);
                }
            }
            if pos.to_deal == 0 {
                return Err("pending deal: no card is left to deal".into());
            }
            let dealt: usize = pos.hand_len[..n].iter().map(|&l| l as usize).sum();
            for k in 0..n {
                let want = dealt / n + usize::from(k < dealt % n);
                let seat = (to_move + k) % n;
                if pos.hand_len[seat] as usize != want {
                    return Err(format!(
                        "pending deal: {dealt} cards dealt one at a time from seat {to_move} give seat {seat} {want}, not {}",
                        pos.hand_len[seat]
                    ));
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
