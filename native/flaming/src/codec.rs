//! The position notation's JSON (FP-NOTE-3..5, FP-CALL-10), the mirror of `codec.py`:
//! printed with the same keys in the same order, parsed with every refusal the Python
//! codec makes, in the same order and with the same text.

use serde_json::{Map, Value};

use crate::options::Options;
use crate::pyjson::{as_int, is_py_space, py_str, py_strip, repr, repr_str};
use crate::state::{State, CHECK, DIE, FALL, HAND_SIZE, NONE};
use crate::tiles::{
    by_name, col_of, ember_slot, is_ember, name, row_of, tile_at, Key, MAX_COL, MAX_ROW,
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

/// `tiles.parse_tile`: a tile from its code (`R40`, spaces and case forgiven).
pub fn parse_tile(text: &str) -> Result<u8, String> {
    by_name(&py_strip(text).to_ascii_uppercase()).ok_or_else(|| {
        format!(
            "unknown tile {} (tiles are a colour Y/R/G/B/W and a weight, e.g. R40)",
            repr_str(text)
        )
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

/// `tiles.check_spot(row, col)` on the integers' texts.
fn check_spot(row: &str, col: &str) -> Result<Key, String> {
    let (r, c) = (BigInt::parse(row), BigInt::parse(col));
    let rv = r.small().filter(|v| (0..=i64::from(MAX_ROW)).contains(v));
    let Some(rv) = rv else {
        return Err(format!("row {} is out of range (0 to {MAX_ROW})", r.text()));
    };
    let cv = c
        .small()
        .filter(|v| -i64::from(MAX_COL) < *v && *v < i64::from(MAX_COL));
    let Some(cv) = cv else {
        return Err(format!("column {} is out of range", c.text()));
    };
    if (cv - rv).rem_euclid(2) != 0 {
        return Err(format!(
            "spot {rv},{cv} has the wrong parity: a tile in row {rv} sits on {} columns",
            if rv % 2 == 0 { "even" } else { "odd" }
        ));
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

/// `actions.parse_tile_at(text, what)`: (tile, key) from `TILE@row,col`.
pub fn parse_tile_at(value: Option<&Value>, what: &str) -> Result<(u8, Key), String> {
    let Some(Value::String(text)) = value else {
        let shown = value.map(repr).unwrap_or_else(|| "None".into());
        return Err(format!(
            "{what} must be a string like 'R40@1,1', not {shown}"
        ));
    };
    let Some((tile, row, col)) = match_tile_at(text) else {
        return Err(format!(
            "{what} {} is not of the form TILE@row,col (e.g. R40@1,1)",
            repr_str(text)
        ));
    };
    let tile = parse_tile(tile)?;
    Ok((tile, check_spot(row, col)?))
}

/// `core.fields.int_field`.
fn int_field(data: &Map<String, Value>, key: &str, default: Option<i64>) -> Result<i64, String> {
    let value = match data.get(key) {
        Some(v) => v.clone(),
        None => default.map(Value::from).unwrap_or(Value::Null),
    };
    if value.is_null() {
        return Err(format!("the position has no '{key}'"));
    }
    as_int(&value, false).ok_or_else(|| format!("'{key}' must be an integer, not {}", repr(&value)))
}

fn tile_lists(
    data: &Map<String, Value>,
    key: &str,
    players: usize,
) -> Result<Vec<Vec<u8>>, String> {
    let value = data.get(key).filter(|v| !v.is_null());
    let Some(value) = value else {
        return Err(format!("the position has no '{key}'"));
    };
    let list = match value {
        Value::Array(a) if a.len() == players => a,
        _ => {
            return Err(format!(
                "'{key}' must be a list of {players} lists (one per seat)"
            ))
        }
    };
    let mut out = Vec::with_capacity(players);
    for (seat, items) in list.iter().enumerate() {
        let Value::Array(items) = items else {
            return Err(format!("{key}[{seat}] must be a list of tile codes"));
        };
        let mut tiles = Vec::with_capacity(items.len());
        for x in items {
            if !x.is_string() {
                return Err(format!("{key}[{seat}] must be a list of tile codes"));
            }
        }
        for x in items {
            let t =
                parse_tile(x.as_str().unwrap_or("")).map_err(|e| format!("{key}[{seat}]: {e}"))?;
            tiles.push(t);
        }
        out.push(tiles);
    }
    Ok(out)
}

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

    /// `codec.parse_position` of a JSON text; Err is the Python PositionError text.
    pub fn from_position_json(text: &str) -> Result<State, String> {
        let data: Value = serde_json::from_str(text)
            .map_err(|e| format!("the position is not valid JSON: {e}"))?;
        State::from_position_value(&data)
    }

    /// `codec.parse_position` of a parsed JSON value.
    pub fn from_position_value(data: &Value) -> Result<State, String> {
        let Value::Object(data) = data else {
            return Err("a position must be a JSON object".into());
        };
        let mut unknown: Vec<&str> = data
            .keys()
            .map(String::as_str)
            .filter(|k| !TOP_KEYS.contains(k))
            .collect();
        if !unknown.is_empty() {
            unknown.sort_unstable();
            return Err(format!("unknown position field(s): {}", unknown.join(", ")));
        }
        let rules = data
            .get("rules")
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new()));
        let mut opts = Options::from_json(&rules)?;
        opts.first_player = 0;
        let players = int_field(data, "players", None)?;
        if !(2..=6).contains(&players) {
            return Err(format!("'players' must be 2 to 6, not {players}"));
        }
        let n = players as usize;
        let to_move = int_field(data, "to_move", Some(0))?;
        if !(0..players).contains(&to_move) {
            return Err(format!(
                "'to_move' must be a seat from 0 to {}, not {to_move}",
                players - 1
            ));
        }
        let turn = int_field(data, "turn", Some(1))?;
        if turn < 1 {
            return Err(format!("'turn' must be 1 or more, not {turn}"));
        }
        let mut seen: [Option<String>; NUM_TILES] = std::array::from_fn(|_| None);
        let tiles_ok = opts.tiles();
        let preset = opts.preset_name();
        let mut claim = |t: u8, where_: String| -> Result<(), String> {
            if let Some(before) = &seen[usize::from(t)] {
                return Err(format!(
                    "{} is listed twice: in {before} and in {where_}",
                    name(t)
                ));
            }
            if (tiles_ok >> t) & 1 == 0 {
                return Err(format!("{} is not part of a {preset} game", name(t)));
            }
            seen[usize::from(t)] = Some(where_);
            Ok(())
        };
        let mut st = State::empty(n, opts);
        let pyramid = data.get("pyramid").cloned().unwrap_or(Value::Array(vec![]));
        let Value::Array(pyramid) = pyramid else {
            return Err("'pyramid' must be a list like [\"R100@0,0\", ...]".into());
        };
        for entry in &pyramid {
            let (tile, key) = parse_tile_at(Some(entry), "pyramid entry")?;
            if let Some(there) = st.board.get(key) {
                return Err(format!(
                    "two tiles on one spot {},{}: {} and {}",
                    row_of(key.into()),
                    col_of(key.into()),
                    name(there),
                    name(tile)
                ));
            }
            claim(tile, "the pyramid".into())?;
            st.board.insert(key, tile);
        }
        let hands = tile_lists(data, "hands", n)?;
        let piles = tile_lists(data, "piles", n)?;
        for seat in 0..n {
            if hands[seat].len() > HAND_SIZE {
                return Err(format!(
                    "seat {seat} holds {} tiles; a hand holds at most 5",
                    hands[seat].len()
                ));
            }
            for &t in &hands[seat] {
                claim(t, format!("seat {seat}'s hand"))?;
            }
            for &t in &piles[seat] {
                claim(t, format!("seat {seat}'s pile"))?;
            }
            st.hands[seat] = crate::state::Hand::from_slice(&hands[seat]);
            st.piles[seat] = crate::state::Pile::from_slice(&piles[seat]);
            st.hidden[seat] = piles[seat].len() as u8;
        }
        let out = data.get("out").cloned().unwrap_or(Value::Array(vec![]));
        let out = match out {
            Value::Array(items) if items.iter().all(Value::is_string) => items,
            _ => return Err("'out' must be a list of tile codes".into()),
        };
        for x in &out {
            let t = parse_tile(x.as_str().unwrap_or(""))?;
            claim(t, "'out'".into())?;
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
            let w = as_int(w, false).filter(|w| (0..players).contains(w));
            let Some(w) = w else {
                return Err(format!("'winner' must be a seat from 0 to {}", players - 1));
            };
            let w = w as usize;
            if !st.hands[w].is_empty() || !st.piles[w].is_empty() {
                return Err(format!("seat {w} is the winner but still has tiles"));
            }
            st.winner = w as i8;
        }
        if let Some(r) = ranking {
            if winner.is_some() {
                return Err("a position has a 'winner' or a 'ranking', not both".into());
            }
            let ranks: Option<Vec<i64>> = match r {
                Value::Array(items) if items.len() == n => items
                    .iter()
                    .map(|x| as_int(x, true).filter(|v| (1..=players).contains(v)))
                    .collect(),
                _ => None,
            };
            let Some(ranks) = ranks else {
                return Err(format!(
                    "'ranking' must list a rank from 1 to {players} per seat"
                ));
            };
            for (s, r) in ranks.iter().enumerate() {
                st.ranking[s] = *r as u8;
            }
            st.ranked = true;
        }
        let terminal = winner.is_some() || ranking.is_some();
        if let Some(pending) = data.get("pending").filter(|v| !v.is_null()) {
            if terminal {
                return Err("an ended game has no pending decision".into());
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
                    return Err(format!(
                        "seat {seat} has no tiles left but the game has no winner"
                    ));
                }
            }
            if st.pending == NONE && st.hands[usize::from(st.to_move)].is_empty() {
                return Err(format!(
                    "seat {} is to move with no tile in hand",
                    st.to_move
                ));
            }
        }
        Ok(st)
    }

    fn load_quenched(&mut self, quenched: &Value) -> Result<(), String> {
        let Value::Object(map) = quenched else {
            return Err("'quenched' must be an object like {\"Y1\": [\"R2\"]}".into());
        };
        for (ember_name, touching) in map {
            let ember = parse_tile(ember_name)?;
            if !is_ember(ember) {
                return Err(format!(
                    "only embers are quenched; {ember_name} is not an ember"
                ));
            }
            if (self.board.mask >> ember) & 1 == 0 {
                return Err(format!("quenched ember {ember_name} is not on the pyramid"));
            }
            let Value::Array(touching) = touching else {
                return Err(format!(
                    "quenched[{}] must be a list of tile codes",
                    repr_str(ember_name)
                ));
            };
            let mut mask = 0u64;
            for x in touching {
                let Value::String(x) = x else {
                    return Err(format!(
                        "quenched[{}] must be a list of tile codes",
                        repr_str(ember_name)
                    ));
                };
                mask |= 1 << parse_tile(x)?;
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
            return Err("a quenched ember needs the fire_die option".into());
        }
        Ok(())
    }

    fn load_pending(&mut self, pending: &Value) -> Result<(), String> {
        let n = self.n() as i64;
        let Value::Object(pending) = pending else {
            return Err("'pending' must be an object".into());
        };
        let player = pending
            .get("player")
            .and_then(|p| as_int(p, false))
            .filter(|p| (0..n).contains(p));
        let Some(player) = player else {
            return Err(format!("pending.player must be a seat from 0 to {}", n - 1));
        };
        self.responsible = player as u8;
        let kind = pending.get("kind");
        match kind.and_then(Value::as_str) {
            Some("fall") => {
                let given = pending.get("tile");
                let (tile, key) = parse_tile_at(given, "pending.tile")?;
                let shown = given.map(py_str).unwrap_or_else(|| "None".into());
                if self.board.get(key) != Some(tile) {
                    return Err(format!(
                        "pending fall names {shown}, which is not on the pyramid"
                    ));
                }
                if crate::tiles::is_base(key) {
                    return Err("a base tile cannot fall".into());
                }
                if self.board.contains(key + SUPPORT_LEFT)
                    || self.board.contains(key + SUPPORT_RIGHT)
                {
                    return Err(format!(
                        "pending fall: {shown} still rests on a tile, so it cannot fall"
                    ));
                }
                self.pending = FALL;
                self.pending_key = key;
            }
            Some("check") => {
                if !self.opts.callout_on() {
                    return Err(
                        "a pending check needs the callout option (family or competitive)".into(),
                    );
                }
                if player != i64::from(self.checker()) {
                    return Err(format!(
                        "pending check: the checker is seat {}, on the left of seat {} who is to move, not seat {player}",
                        self.checker(),
                        self.to_move
                    ));
                }
                if self.board.is_empty() {
                    return Err("pending check: there is no pyramid to check".into());
                }
                self.responsible = self.to_move;
                self.pending = CHECK;
            }
            Some("die") => {
                if !self.opts.fire_die {
                    return Err("a pending die roll needs the fire_die option".into());
                }
                let (cat, key) = self.first_event(self.opts.curse);
                self.candidates = self.board.mask;
                if cat != crate::mayhem::FIRE {
                    return Err(
                        "pending die: no fire is waiting for a roll (the first mayhem check finds none)".into()
                    );
                }
                self.pending = DIE;
                self.pending_key = key;
            }
            _ => {
                let shown = kind.map(repr).unwrap_or_else(|| "None".into());
                return Err(format!(
                    "pending.kind must be 'fall', 'die' or 'check', not {shown}"
                ));
            }
        }
        Ok(())
    }

    fn load_overlooked(&mut self, overlooked: &Value) -> Result<(), String> {
        let Value::Bool(overlooked) = overlooked else {
            return Err("'overlooked' must be true or false".into());
        };
        if !overlooked {
            return Ok(());
        }
        if !self.opts.callout_on() {
            return Err("'overlooked' needs the callout option (family or competitive)".into());
        }
        if !self.standing_mayhem(self.opts.curse) {
            return Err("'overlooked' is true but no mayhem stands on the pyramid".into());
        }
        self.candidates = self.board.mask;
        self.overlooked = true;
        Ok(())
    }
}
