//! The position notation's JSON (FP-NOTE-3..5, FP-CALL-10), the mirror of `codec.py`:
//! printed with the same keys in the same order, parsed with every refusal the Python
//! reader (`text.py`) makes, in the same order and with the same codes and facts.

use pyramids_core::Refusal;
use serde_json::{Map, Value};

use crate::fields::{check_integer, check_range, int_field, known_fields, object_field};
use crate::options::Options;
use crate::pyjson::{is_py_space, py_strip};
use crate::state::{State, CHECK, DIE, FALL, HAND_SIZE, NONE};
use crate::tiles::{
    by_name, col_of, ember_slot, is_ember, name, row_of, spot_name, tile_at, Key, MAX_COL, MAX_ROW,
    NEIGHBOURS, NUM_TILES, ROW, SUPPORT_LEFT, SUPPORT_RIGHT,
};

const TOP_KEYS: [&str; 14] = [
    "rules",
    "players",
    "to_move",
    "turn",
    "pyramid",
    "hands",
    "piles",
    "out",
    "pending",
    "quenched",
    "winner",
    "ranking",
    "overlooked",
    "events",
];

/// `tiles.parse_tile(text, field)`: a tile from its code (`R40`, spaces and case forgiven);
/// `flaming.unknown_tile` names the field read and the refused text.
pub fn parse_tile(text: &str, field: &str) -> Result<u8, Refusal> {
    by_name(&py_strip(text).to_ascii_uppercase()).ok_or_else(|| {
        Refusal::position("flaming.unknown_tile")
            .with("field", field)
            .with("value", text)
    })
}

/// A decimal integer as Python's `int()` reads it (sign, digits), kept exact as text.
struct BigInt {
    neg: bool,
    digits: String,
}

impl BigInt {
    fn parse(s: &str) -> BigInt {
        let (neg, d) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let digits = d.trim_start_matches('0');
        let digits = if digits.is_empty() {
            "0".to_string()
        } else {
            digits.to_string()
        };
        let neg = neg && digits != "0";
        BigInt { neg, digits }
    }
    fn small(&self) -> Option<i64> {
        if self.digits.len() > 15 {
            return None;
        }
        let v: i64 = self.digits.parse().ok()?;
        Some(if self.neg { -v } else { v })
    }
    fn text(&self) -> String {
        format!("{}{}", if self.neg { "-" } else { "" }, self.digits)
    }
}

/// `tiles.check_spot(row, col)` on the integers' texts (any size: the spot fact is text).
fn check_spot(row: &str, col: &str) -> Result<Key, Refusal> {
    let (r, c) = (BigInt::parse(row), BigInt::parse(col));
    let spot = format!("{},{}", r.text(), c.text());
    let rv = r.small().filter(|v| (0..=i64::from(MAX_ROW)).contains(v));
    let Some(rv) = rv else {
        return Err(Refusal::position("flaming.row_out_of_range")
            .with("spot", spot)
            .with("max_row", MAX_ROW));
    };
    let cv = c
        .small()
        .filter(|v| -i64::from(MAX_COL) < *v && *v < i64::from(MAX_COL));
    let Some(cv) = cv else {
        return Err(Refusal::position("flaming.column_out_of_range").with("spot", spot));
    };
    if (cv - rv).rem_euclid(2) != 0 {
        return Err(Refusal::position("flaming.wrong_parity")
            .with("spot", spot)
            .with("row", rv)
            .with("even", rv % 2 == 0));
    }
    Ok(-(rv as Key) * ROW + cv as Key)
}

/// The regex `^\s*([A-Za-z]\d+)\s*@\s*(-?\d+)\s*,\s*(-?\d+)\s*$` (ASCII digits).
fn match_tile_at(text: &str) -> Option<(&str, &str, &str)> {
    let s = text.trim_start_matches(is_py_space);
    let s = s.trim_end_matches(is_py_space);
    let bytes = s.as_bytes();
    let mut i = 0;
    if !bytes.first()?.is_ascii_alphabetic() {
        return None;
    }
    i += 1;
    let d0 = i;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    if i == d0 {
        return None;
    }
    let tile = &s[..i];
    let rest = s[i..].trim_start_matches(is_py_space);
    let rest = rest.strip_prefix('@')?.trim_start_matches(is_py_space);
    let (row, rest) = signed_digits(rest)?;
    let rest = rest.trim_start_matches(is_py_space).strip_prefix(',')?;
    let rest = rest.trim_start_matches(is_py_space);
    let (col, rest) = signed_digits(rest)?;
    if !rest.is_empty() {
        return None;
    }
    Some((tile, row, col))
}

fn signed_digits(s: &str) -> Option<(&str, &str)> {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'-'));
    let d0 = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i == d0 {
        return None;
    }
    Some((&s[..i], &s[i..]))
}

/// `actions.parse_tile_at(text, field)`: (tile, key) from `TILE@row,col`;
/// `flaming.not_tile_at` names the field and the refused value.
pub fn parse_tile_at(value: Option<&Value>, field: &str) -> Result<(u8, Key), Refusal> {
    let parts = match value {
        Some(Value::String(text)) => match_tile_at(text),
        _ => None,
    };
    let Some((tile, row, col)) = parts else {
        return Err(Refusal::position("flaming.not_tile_at")
            .with("field", field)
            .with("value", value.cloned().unwrap_or(Value::Null)));
    };
    let tile = parse_tile(tile, field)?;
    Ok((tile, check_spot(row, col)?))
}

/// `text._seat_field`: a seat number from 0 to players - 1 (a `true` is no seat).
fn seat_field(value: Option<&Value>, field: &str, players: i64) -> Result<i64, Refusal> {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return Err(Refusal::position("position.missing_field").with("field", field));
    };
    check_range(check_integer(value, field)?, field, 0, Some(players - 1))
}

fn tile_lists(
    data: &Map<String, Value>,
    key: &str,
    players: usize,
) -> Result<Vec<Vec<u8>>, Refusal> {
    let value = data.get(key).filter(|v| !v.is_null());
    let Some(value) = value else {
        return Err(Refusal::position("position.missing_field").with("field", key));
    };
    let list = match value {
        Value::Array(a) if a.len() == players => a,
        _ => {
            return Err(Refusal::position("flaming.not_seat_lists")
                .with("field", key)
                .with("players", players))
        }
    };
    let mut out = Vec::with_capacity(players);
    for (seat, items) in list.iter().enumerate() {
        let field = format!("{key}[{seat}]");
        let items = match items {
            Value::Array(items) if items.iter().all(Value::is_string) => items,
            _ => return Err(Refusal::position("flaming.not_tile_list").with("field", field)),
        };
        let mut tiles = Vec::with_capacity(items.len());
        for x in items {
            tiles.push(parse_tile(x.as_str().unwrap_or(""), &field)?);
        }
        out.push(tiles);
    }
    Ok(out)
}

/// Where a tile is listed (`text.parse_position`'s `claim`): the place and the seat.
type Place = (&'static str, Option<usize>);

impl State {
    /// FP-NOTE-3..5: the position as the contract's JSON object.
    pub fn to_json_value(&self) -> Map<String, Value> {
        let n = self.n();
        let mut data = Map::new();
        data.insert("rules".into(), Value::Object(self.opts.to_json()));
        data.insert("players".into(), n.into());
        data.insert("to_move".into(), self.to_move.into());
        data.insert("turn".into(), self.turn.into());
        let mut cells = self.board.sorted();
        cells.sort_by_key(|&(k, _)| (row_of(k.into()), col_of(k.into())));
        data.insert(
            "pyramid".into(),
            cells
                .iter()
                .map(|&(k, t)| Value::from(tile_at(t, k)))
                .collect(),
        );
        let names =
            |tiles: &[u8]| Value::Array(tiles.iter().map(|&t| Value::from(name(t))).collect());
        data.insert(
            "hands".into(),
            (0..n).map(|s| names(self.hands[s].as_slice())).collect(),
        );
        data.insert(
            "piles".into(),
            (0..n).map(|s| names(self.piles[s].as_slice())).collect(),
        );
        data.insert("out".into(), names(self.out.as_slice()));
        let key = self.pending_key;
        let mut pending = Map::new();
        match self.pending {
            FALL => {
                pending.insert("player".into(), self.responsible.into());
                pending.insert("kind".into(), "fall".into());
                pending.insert(
                    "tile".into(),
                    tile_at(self.board.get(key).unwrap_or(0), key).into(),
                );
            }
            DIE => {
                pending.insert("player".into(), self.responsible.into());
                pending.insert("kind".into(), "die".into());
            }
            CHECK => {
                pending.insert("player".into(), self.checker().into());
                pending.insert("kind".into(), "check".into());
            }
            _ => {}
        }
        if !pending.is_empty() {
            data.insert("pending".into(), Value::Object(pending));
        }
        if self.overlooked {
            data.insert("overlooked".into(), true.into());
        }
        if self.quenched != 0 {
            let mut q = Map::new();
            for e in crate::board::bits(self.quenched) {
                let mask = self.quench_touch[ember_slot(e)];
                q.insert(
                    name(e),
                    crate::board::bits(mask)
                        .map(|t| Value::from(name(t)))
                        .collect(),
                );
            }
            data.insert("quenched".into(), Value::Object(q));
        }
        if self.winner >= 0 {
            data.insert("winner".into(), self.winner.into());
        }
        if self.ranked {
            data.insert(
                "ranking".into(),
                self.ranking[..n].iter().map(|&r| Value::from(r)).collect(),
            );
        }
        data
    }

    /// The position JSON as text.
    pub fn to_position_json(&self) -> String {
        Value::Object(self.to_json_value()).to_string()
    }

    /// `text.parse_position` of a JSON text; Err is the Python engine's refusal.
    pub fn from_position_json(text: &str) -> Result<State, Refusal> {
        let data: Value = serde_json::from_str(text)
            .map_err(|_| Refusal::position("position.not_an_object").with("field", None::<&str>))?;
        State::from_position_value(&data)
    }

    /// `text.parse_position` of a parsed JSON value.
    pub fn from_position_value(data: &Value) -> Result<State, Refusal> {
        let data = object_field(data, None)?;
        known_fields(data, &TOP_KEYS, None)?;
        let rules = data
            .get("rules")
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new()));
        let mut opts = Options::from_json(&rules)?;
        opts.first_player = 0;
        let players = int_field(data, "players", None, 2, Some(6))?;
        let n = players as usize;
        let to_move = int_field(data, "to_move", Some(0), 0, Some(players - 1))?;
        let turn = int_field(data, "turn", Some(1), 1, None)?;
        let mut seen: [Option<Place>; NUM_TILES] = [None; NUM_TILES];
        let tiles_ok = opts.tiles();
        let preset = opts.preset_name();
        let mut claim = |t: u8, place: Place| -> Result<(), Refusal> {
            if let Some((first, first_seat)) = seen[usize::from(t)] {
                return Err(Refusal::position("flaming.tile_twice")
                    .with("tile", name(t))
                    .with("first", first)
                    .with("first_seat", first_seat)
                    .with("second", place.0)
                    .with("second_seat", place.1));
            }
            if (tiles_ok >> t) & 1 == 0 {
                return Err(Refusal::position("flaming.not_in_preset")
                    .with("tile", name(t))
                    .with("preset", preset));
            }
            seen[usize::from(t)] = Some(place);
            Ok(())
        };
        let mut st = State::empty(n, opts);
        let pyramid = data.get("pyramid").cloned().unwrap_or(Value::Array(vec![]));
        let Value::Array(pyramid) = pyramid else {
            return Err(Refusal::position("flaming.pyramid_not_list"));
        };
        for entry in &pyramid {
            let (tile, key) = parse_tile_at(Some(entry), "pyramid")?;
            if let Some(there) = st.board.get(key) {
                return Err(Refusal::position("flaming.spot_taken_twice")
                    .with("spot", spot_name(key.into()))
                    .with("tiles", vec![name(there), name(tile)]));
            }
            claim(tile, ("pyramid", None))?;
            st.board.insert(key, tile);
        }
        let hands = tile_lists(data, "hands", n)?;
        let piles = tile_lists(data, "piles", n)?;
        for seat in 0..n {
            if hands[seat].len() > HAND_SIZE {
                return Err(Refusal::position("flaming.hand_too_big")
                    .with("seat", seat)
                    .with("count", hands[seat].len())
                    .with("max", HAND_SIZE));
            }
            for &t in &hands[seat] {
                claim(t, ("hand", Some(seat)))?;
            }
            for &t in &piles[seat] {
                claim(t, ("pile", Some(seat)))?;
            }
            st.hands[seat] = crate::state::Hand::from_slice(&hands[seat]);
            st.piles[seat] = crate::state::Pile::from_slice(&piles[seat]);
            st.hidden[seat] = piles[seat].len() as u8;
        }
        let out = data.get("out").cloned().unwrap_or(Value::Array(vec![]));
        let out = match out {
            Value::Array(items) if items.iter().all(Value::is_string) => items,
            _ => return Err(Refusal::position("flaming.not_tile_list").with("field", "out")),
        };
        for x in &out {
            let t = parse_tile(x.as_str().unwrap_or(""), "out")?;
            claim(t, ("out", None))?;
            st.out.push(t);
        }
        st.to_move = to_move as u8;
        st.turn = turn;
        st.responsible = to_move as u8;
        st.rebuild();
        let quenched = data
            .get("quenched")
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new()));
        st.load_quenched(&quenched)?;

        let winner = data.get("winner").filter(|v| !v.is_null());
        let ranking = data.get("ranking").filter(|v| !v.is_null());
        if let Some(w) = winner {
            let w = seat_field(Some(w), "winner", players)? as usize;
            if !st.hands[w].is_empty() || !st.piles[w].is_empty() {
                return Err(Refusal::position("flaming.winner_has_tiles").with("seat", w));
            }
            st.winner = w as i8;
        }
        if let Some(r) = ranking {
            if winner.is_some() {
                return Err(Refusal::position("flaming.winner_and_ranking"));
            }
            let items = match r {
                Value::Array(items) if items.len() == n => items,
                _ => {
                    return Err(Refusal::position("flaming.bad_ranking")
                        .with("value", r.clone())
                        .with("players", players))
                }
            };
            for (s, x) in items.iter().enumerate() {
                // A JSON true is not a rank (FP-NOTE-4).
                let rank = check_range(check_integer(x, "ranking")?, "ranking", 1, Some(players))?;
                st.ranking[s] = rank as u8;
            }
            st.ranked = true;
        }
        let terminal = winner.is_some() || ranking.is_some();
        if let Some(pending) = data.get("pending").filter(|v| !v.is_null()) {
            if terminal {
                return Err(Refusal::position("flaming.ended_with_pending"));
            }
            st.load_pending(pending)?;
        }
        let overlooked = data
            .get("overlooked")
            .cloned()
            .unwrap_or(Value::Bool(false));
        st.load_overlooked(&overlooked)?;
        if !terminal {
            for seat in 0..n {
                if seat != usize::from(st.to_move)
                    && st.hands[seat].is_empty()
                    && st.piles[seat].is_empty()
                {
                    return Err(Refusal::position("flaming.no_tiles_no_winner").with("seat", seat));
                }
            }
            if st.pending == NONE && st.hands[usize::from(st.to_move)].is_empty() {
                return Err(
                    Refusal::position("flaming.to_move_without_tiles").with("seat", st.to_move)
                );
            }
        }
        Ok(st)
    }

    fn load_quenched(&mut self, quenched: &Value) -> Result<(), Refusal> {
        let map = object_field(quenched, Some("quenched"))?;
        for (ember_name, touching) in map {
            let ember = parse_tile(ember_name, "quenched")?;
            if !is_ember(ember) {
                return Err(Refusal::position("flaming.quenched_not_ember")
                    .with("tile", ember_name.as_str()));
            }
            if (self.board.mask >> ember) & 1 == 0 {
                return Err(Refusal::position("flaming.quenched_not_on_pyramid")
                    .with("tile", ember_name.as_str()));
            }
            let field = format!("quenched[{ember_name}]");
            let touching = match touching {
                Value::Array(items) if items.iter().all(Value::is_string) => items,
                _ => return Err(Refusal::position("flaming.not_tile_list").with("field", field)),
            };
            let mut mask = 0u64;
            for x in touching {
                mask |= 1 << parse_tile(x.as_str().unwrap_or(""), &field)?;
            }
            let k = self.board.key_of[usize::from(ember)];
            let ended = NEIGHBOURS.iter().any(|off| {
                self.board
                    .get(k + off)
                    .is_some_and(|t| crate::state::ends_quench(mask, ember, t))
            });
            if !ended {
                self.set_quench(ember, mask);
            }
        }
        if !map.is_empty() && !self.opts.fire_die {
            return Err(Refusal::position("flaming.quench_needs_fire_die"));
        }
        Ok(())
    }

    fn load_pending(&mut self, pending: &Value) -> Result<(), Refusal> {
        let n = self.n() as i64;
        let pending = object_field(pending, Some("pending"))?;
        let player = seat_field(pending.get("player"), "pending.player", n)?;
        self.responsible = player as u8;
        let kind = pending.get("kind");
        match kind.and_then(Value::as_str) {
            Some("fall") => {
                let given = pending.get("tile");
                let (tile, key) = parse_tile_at(given, "pending.tile")?;
                let shown = given.cloned().unwrap_or(Value::Null);
                if self.board.get(key) != Some(tile) {
                    return Err(
                        Refusal::position("flaming.fall_not_on_pyramid").with("value", shown)
                    );
                }
                if crate::tiles::is_base(key) {
                    return Err(Refusal::position("flaming.base_cannot_fall").with("value", shown));
                }
                if self.board.contains(key + SUPPORT_LEFT)
                    || self.board.contains(key + SUPPORT_RIGHT)
                {
                    return Err(Refusal::position("flaming.fall_supported").with("value", shown));
                }
                self.pending = FALL;
                self.pending_key = key;
            }
            Some("check") => {
                if !self.opts.callout_on() {
                    return Err(Refusal::position("flaming.check_needs_callout"));
                }
                if player != i64::from(self.checker()) {
                    return Err(Refusal::position("flaming.wrong_checker")
                        .with("checker", self.checker())
                        .with("to_move", self.to_move)
                        .with("value", player));
                }
                if self.board.is_empty() {
                    return Err(Refusal::position("flaming.check_without_pyramid"));
                }
                self.responsible = self.to_move;
                self.pending = CHECK;
            }
            Some("die") => {
                if !self.opts.fire_die {
                    return Err(Refusal::position("flaming.die_needs_fire_die"));
                }
                let (cat, key) = self.first_event(self.opts.curse);
                self.candidates = self.board.mask;
                if cat != crate::mayhem::FIRE {
                    return Err(Refusal::position("flaming.die_without_fire"));
                }
                self.pending = DIE;
                self.pending_key = key;
            }
            _ => {
                return Err(Refusal::position("flaming.bad_pending_kind")
                    .with("value", kind.cloned().unwrap_or(Value::Null)));
            }
        }
        Ok(())
    }

    fn load_overlooked(&mut self, overlooked: &Value) -> Result<(), Refusal> {
        let Value::Bool(overlooked) = overlooked else {
            return Err(Refusal::position("position.not_a_boolean")
                .with("field", "overlooked")
                .with("value", overlooked.clone()));
        };
        if !overlooked {
            return Ok(());
        }
        if !self.opts.callout_on() {
            return Err(Refusal::position("flaming.overlooked_needs_callout"));
        }
        if !self.standing_mayhem(self.opts.curse) {
            return Err(Refusal::position("flaming.overlooked_without_mayhem"));
        }
        self.candidates = self.board.mask;
        self.overlooked = true;
        Ok(())
    }
}
