//! Every field of a state as JSON and back, exactly (no rules re-run): what the Python
//! wrapper uses to pickle a state, to build the Python `FlamingPosition` of a native state
//! and a native state of a Python position. Not a notation for strangers: it checks only
//! that the data fits the arrays (never panics), not that the position obeys the rules.
//!
//! `{"options": {to_record()}, "players", "board": [[key, tile], ...] (dict order),
//! "hands", "piles", "hidden", "known", "out", "quenched": [[ember, mask]], "to_move",
//! "turn", "responsible", "pending", "pending_key", "winner": int|null,
//! "ranking": [int]|null, "overlooked", "candidates": [key, ...]}`.

use serde_json::{Map, Value};

use crate::board::bits;
use crate::options::Options;
use crate::state::{Hand, Pile, State, HAND_SIZE};
use crate::tiles::{ember_slot, is_ember, Key, NUM_TILES};

fn tiles(s: &[u8]) -> Value {
    Value::Array(s.iter().map(|&t| Value::from(t)).collect())
}

impl State {
    /// Every field as JSON (see the module doc).
    pub fn to_snapshot(&self) -> String {
        let n = self.n();
        let mut m = Map::new();
        m.insert("options".into(), Value::Object(self.opts.to_record()));
        m.insert("players".into(), n.into());
        m.insert(
            "board".into(),
            self.board
                .in_order()
                .iter()
                .map(|&(k, t)| Value::from(vec![Value::from(k), Value::from(t)]))
                .collect(),
        );
        m.insert(
            "hands".into(),
            (0..n).map(|s| tiles(self.hands[s].as_slice())).collect(),
        );
        m.insert(
            "piles".into(),
            (0..n).map(|s| tiles(self.piles[s].as_slice())).collect(),
        );
        m.insert("hidden".into(), tiles(&self.hidden[..n]));
        m.insert(
            "known".into(),
            self.known[..n].iter().map(|&k| Value::from(k)).collect(),
        );
        m.insert("out".into(), tiles(self.out.as_slice()));
        m.insert(
            "quenched".into(),
            bits(self.quenched)
                .map(|e| {
                    Value::from(vec![
                        Value::from(e),
                        Value::from(self.quench_touch[ember_slot(e)]),
                    ])
                })
                .collect(),
        );
        m.insert("to_move".into(), self.to_move.into());
        m.insert("turn".into(), self.turn.into());
        m.insert("responsible".into(), self.responsible.into());
        m.insert("pending".into(), self.pending.into());
        m.insert("pending_key".into(), self.pending_key.into());
        m.insert(
            "winner".into(),
            if self.winner >= 0 {
                self.winner.into()
            } else {
                Value::Null
            },
        );
        m.insert(
            "ranking".into(),
            if self.ranked {
                tiles(&self.ranking[..n])
            } else {
                Value::Null
            },
        );
        m.insert("overlooked".into(), self.overlooked.into());
        m.insert(
            "candidates".into(),
            bits(self.candidates & self.board.mask)
                .map(|t| Value::from(self.board.key_of[usize::from(t)]))
                .collect(),
        );
        Value::Object(m).to_string()
    }

    /// A state from `to_snapshot`'s JSON; Err when the data does not fit.
    pub fn from_snapshot(text: &str) -> Result<State, String> {
        let v: Value =
            serde_json::from_str(text).map_err(|e| format!("a snapshot must be JSON: {e}"))?;
        let m = v.as_object().ok_or("a snapshot must be an object")?;
        let get = |k: &str| m.get(k).ok_or_else(|| format!("the snapshot has no '{k}'"));
        let int = |k: &str| {
            get(k)?
                .as_i64()
                .ok_or_else(|| format!("snapshot.{k} must be an integer"))
        };
        let tile_list = |x: &Value| -> Result<Vec<u8>, String> {
            x.as_array()
                .and_then(|a| {
                    a.iter()
                        .map(|t| {
                            t.as_u64()
                                .filter(|&t| t < NUM_TILES as u64)
                                .map(|t| t as u8)
                        })
                        .collect()
                })
                .ok_or_else(|| "snapshot tiles must be lists of 0..44".to_string())
        };
        let opts = Options::from_json(get("options")?).map_err(|r| r.to_string())?;
        let n = int("players")?;
        if !(2..=6).contains(&n) {
            return Err("snapshot.players must be 2 to 6".into());
        }
        let n = n as usize;
        let seat = |k: &str| -> Result<u8, String> {
            let s = int(k)?;
            if (0..n as i64).contains(&s) {
                Ok(s as u8)
            } else {
                Err(format!("snapshot.{k} must be a seat"))
            }
        };
        let per_seat = |k: &str| -> Result<Vec<Value>, String> {
            match get(k)? {
                Value::Array(a) if a.len() == n => Ok(a.clone()),
                _ => Err(format!("snapshot.{k} must have one entry per seat")),
            }
        };
        let mut st = State::empty(n, opts);
        let mut placed = 0u64;
        let mut claim = |t: u8| -> Result<(), String> {
            if (placed >> t) & 1 == 1 {
                return Err(format!("snapshot: tile {t} is in two places"));
            }
            placed |= 1 << t;
            Ok(())
        };
        for cell in get("board")?
            .as_array()
            .ok_or("snapshot.board must be a list")?
        {
            let pair = cell.as_array().filter(|p| p.len() == 2).and_then(|p| {
                let k = p[0].as_i64().filter(|k| k.abs() < 1_060_000_000)? as Key;
                let t = p[1].as_u64().filter(|&t| t < NUM_TILES as u64)? as u8;
                Some((k, t))
            });
            let (k, t) = pair.ok_or("snapshot.board must list [key, tile] pairs")?;
            if st.board.contains(k) {
                return Err("snapshot: two tiles on one key".into());
            }
            claim(t)?;
            st.board.insert(k, t);
        }
        let hands = per_seat("hands")?;
        let piles = per_seat("piles")?;
        let hidden = per_seat("hidden")?;
        let known = per_seat("known")?;
        for s in 0..n {
            let h = tile_list(&hands[s])?;
            if h.len() > HAND_SIZE {
                return Err("snapshot: a hand holds at most 5 tiles".into());
            }
            let p = tile_list(&piles[s])?;
            for &t in h.iter().chain(&p) {
                claim(t)?;
            }
            st.hands[s] = Hand::from_slice(&h);
            st.piles[s] = Pile::from_slice(&p);
            st.hidden[s] = hidden[s]
                .as_u64()
                .filter(|&x| x <= 45)
                .ok_or("snapshot.hidden must be counts")? as u8;
            st.known[s] = known[s]
                .as_u64()
                .filter(|&x| x >> NUM_TILES == 0)
                .ok_or("snapshot.known must be masks")?;
        }
        for t in tile_list(get("out")?)? {
            claim(t)?;
            st.out.push(t);
        }
        for pair in get("quenched")?
            .as_array()
            .ok_or("snapshot.quenched must be a list")?
        {
            let q = pair.as_array().filter(|p| p.len() == 2).and_then(|p| {
                let e = p[0]
                    .as_u64()
                    .filter(|&e| e < NUM_TILES as u64 && is_ember(e as u8))?
                    as u8;
                let mask = p[1].as_u64().filter(|&x| x >> NUM_TILES == 0)?;
                Some((e, mask))
            });
            let (e, mask) = q.ok_or("snapshot.quenched must list [ember, mask] pairs")?;
            st.set_quench(e, mask);
        }
        st.to_move = seat("to_move")?;
        st.turn = int("turn")?;
        st.responsible = seat("responsible")?;
        let pending = int("pending")?;
        if !(0..=3).contains(&pending) {
            return Err("snapshot.pending must be 0 to 3".into());
        }
        st.pending = pending as u8;
        st.pending_key = Key::try_from(int("pending_key")?)
            .map_err(|_| "snapshot.pending_key is out of range")?;
        if (st.pending == crate::state::FALL || st.pending == crate::state::DIE)
            && !st.board.contains(st.pending_key)
        {
            return Err("snapshot: the pending key holds no tile".into());
        }
        if !get("winner")?.is_null() {
            st.winner = seat("winner")? as i8;
        }
        if !get("ranking")?.is_null() {
            let r = tile_list(get("ranking")?)?;
            if r.len() != n {
                return Err("snapshot.ranking must have a rank per seat".into());
            }
            st.ranking[..n].copy_from_slice(&r);
            st.ranked = true;
        }
        st.overlooked = get("overlooked")?
            .as_bool()
            .ok_or("snapshot.overlooked must be true or false")?;
        st.rebuild();
        if let Some(Value::Array(keys)) = m.get("candidates") {
            let mut c = 0u64;
            for k in keys {
                if let Some(t) = k.as_i64().and_then(|k| st.board.get_wide(k.into())) {
                    c |= 1 << t;
                }
            }
            st.candidates = c;
        }
        Ok(st)
    }
}
