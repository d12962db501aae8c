//! What each seat may know (FP-VIEW-1..3, `view.py`): the view, its exchange form with the
//! Python wrapper, and `determinize`, drawing exactly as Python's `view.determinize`.
//!
//! The exchange form (`View::to_json`, read by `View::from_json`, written by the wrapper's
//! `view_json`) is the Python `FlamingView` named tuple's fields as JSON, tiles and keys as
//! the engine's integers:
//! `{"player": int|null, "players", "options": {to_record()}, "to_move", "turn",
//! "responsible", "pending", "pending_key", "board": [[key, tile], ...] (dict order),
//! "out": [tile], "hand": [tile]|null, "hand_sizes", "pile_sizes", "pile_known": [[tile]],
//! "hand_known": [[tile]], "in_play", "quenched": [[ember, mask]], "winner": int|null,
//! "ranking": [int]|null, "overlooked": bool}`.

use pyramids_core::PyRandom;
use serde_json::{Map, Value};

use crate::board::{bits, Board};
use crate::options::Options;
use crate::state::{Hand, Pile, State, DIE, FALL, MAX_PLAYERS};
use crate::tiles::{ember_slot, is_ember, Key, NUM_TILES};

/// One seat's knowledge (`player` None: a spectator's); the Python `FlamingView`'s fields.
#[derive(Clone, Debug)]
pub struct View {
    /// The viewing seat, None for a spectator.
    pub player: Option<u8>,
    /// Number of seats.
    pub players: u8,
    /// The game's rules (with its first_player).
    pub opts: Options,
    /// The active player.
    pub to_move: u8,
    /// The turn number.
    pub turn: i64,
    /// P.
    pub responsible: u8,
    /// NONE, FALL, DIE or CHECK.
    pub pending: u8,
    /// Key of the falling tile or rolling ember (0 otherwise).
    pub pending_key: Key,
    /// The pyramid (insertion order kept).
    pub board: Board,
    /// Tiles out of the game, in order.
    pub out: Pile,
    /// The viewer's hand (None for a spectator).
    pub hand: Option<Hand>,
    /// Every hand's size.
    pub hand_sizes: [u8; MAX_PLAYERS],
    /// Every pile's size.
    pub pile_sizes: [u8; MAX_PLAYERS],
    /// Per seat, the publicly known bottom part of the pile, top to bottom.
    pub pile_known: [Pile; MAX_PLAYERS],
    /// Per seat, the hand tiles everyone knows (mask).
    pub hand_known: [u64; MAX_PLAYERS],
    /// Tiles still in the game.
    pub in_play: u64,
    /// Quenched embers (mask) and per ember slot the tiles touched at the roll.
    pub quenched: u64,
    /// See `State::quench_touch`.
    pub quench_touch: [u64; 4],
    /// The winner, -1 if none.
    pub winner: i8,
    /// Whether ranked.
    pub ranked: bool,
    /// The ranking when ranked.
    pub ranking: [u8; MAX_PLAYERS],
    /// FP-CALL-5: overlooked mayhem stands (public; kept for determinization).
    pub overlooked: bool,
}

impl State {
    /// FP-VIEW-1..3: the view of `player` (None: public). `player` must be a seat.
    pub fn view(&self, player: Option<usize>) -> View {
        let n = self.n();
        let mut v = View {
            player: player.map(|p| p as u8),
            players: self.players,
            opts: self.opts,
            to_move: self.to_move,
            turn: self.turn,
            responsible: self.responsible,
            pending: self.pending,
            pending_key: if self.pending == FALL || self.pending == DIE {
                self.pending_key
            } else {
                0
            },
            board: self.board.clone(),
            out: self.out,
            hand: player.filter(|&p| p < n).map(|p| self.hands[p]),
            hand_sizes: [0; MAX_PLAYERS],
            pile_sizes: [0; MAX_PLAYERS],
            pile_known: Default::default(),
            hand_known: self.known,
            in_play: self.in_play,
            quenched: self.quenched,
            quench_touch: self.quench_touch,
            winner: self.winner,
            ranked: self.ranked,
            ranking: self.ranking,
            overlooked: self.overlooked,
        };
        for s in 0..n {
            v.hand_sizes[s] = self.hands[s].len;
            v.pile_sizes[s] = self.piles[s].len;
            let pile = self.piles[s].as_slice();
            let h = usize::from(self.hidden[s]).min(pile.len());
            v.pile_known[s] = Pile::from_slice(&pile[h..]);
        }
        v
    }
}

impl View {
    /// The tiles in the game whose place the viewer does not know, ascending.
    pub fn unseen_mask(&self) -> u64 {
        let mut seen = self.board.mask;
        for s in 0..usize::from(self.players) {
            seen |= self.pile_known[s].mask() | self.hand_known[s];
        }
        if let Some(h) = &self.hand {
            seen |= h.mask();
        }
        self.in_play & !seen
    }

    /// The number of places the viewer cannot see into (hand tiles not known, hidden pile tops).
    fn unseen_places(&self) -> i64 {
        let mut places = 0i64;
        for s in 0..usize::from(self.players) {
            if self.player != Some(s as u8) || self.hand.is_none() {
                places += (i64::from(self.hand_sizes[s])
                    - i64::from(self.hand_known[s].count_ones() as u8))
                .max(0);
            }
            places += (i64::from(self.pile_sizes[s]) - i64::from(self.pile_known[s].len)).max(0);
        }
        places
    }

    /// The exchange form (see the module doc).
    pub fn to_json(&self) -> String {
        let n = usize::from(self.players);
        let tiles = |s: &[u8]| Value::Array(s.iter().map(|&t| Value::from(t)).collect());
        let mut m = Map::new();
        m.insert(
            "player".into(),
            self.player.map(Value::from).unwrap_or(Value::Null),
        );
        m.insert("players".into(), n.into());
        m.insert("options".into(), Value::Object(self.opts.to_record()));
        m.insert("to_move".into(), self.to_move.into());
        m.insert("turn".into(), self.turn.into());
        m.insert("responsible".into(), self.responsible.into());
        m.insert("pending".into(), self.pending.into());
        m.insert("pending_key".into(), self.pending_key.into());
        m.insert(
            "board".into(),
            self.board
                .in_order()
                .iter()
                .map(|&(k, t)| Value::from(vec![Value::from(k), Value::from(t)]))
                .collect(),
        );
        m.insert("out".into(), tiles(self.out.as_slice()));
        m.insert(
            "hand".into(),
            self.hand
                .map(|h| tiles(h.as_slice()))
                .unwrap_or(Value::Null),
        );
        m.insert("hand_sizes".into(), tiles(&self.hand_sizes[..n]));
        m.insert("pile_sizes".into(), tiles(&self.pile_sizes[..n]));
        m.insert(
            "pile_known".into(),
            (0..n)
                .map(|s| tiles(self.pile_known[s].as_slice()))
                .collect(),
        );
        m.insert(
            "hand_known".into(),
            (0..n)
                .map(|s| Value::Array(bits(self.hand_known[s]).map(Value::from).collect()))
                .collect(),
        );
        m.insert("in_play".into(), self.in_play.into());
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
        Value::Object(m).to_string()
    }

    /// Read the exchange form; Err says what is malformed or inconsistent.
    pub fn from_json(text: &str) -> Result<View, String> {
        let v: Value =
            serde_json::from_str(text).map_err(|e| format!("a view must be JSON: {e}"))?;
        let Value::Object(m) = v else {
            return Err("a view must be a JSON object".into());
        };
        let get = |k: &str| m.get(k).ok_or_else(|| format!("the view has no '{k}'"));
        let int = |k: &str| -> Result<i64, String> {
            get(k)?
                .as_i64()
                .ok_or_else(|| format!("view.{k} must be an integer"))
        };
        let opt_int = |k: &str| -> Result<Option<i64>, String> {
            match get(k)? {
                Value::Null => Ok(None),
                x => x
                    .as_i64()
                    .map(Some)
                    .ok_or_else(|| format!("view.{k} must be an integer or null")),
            }
        };
        let tile_list = |x: &Value, what: &str| -> Result<Vec<u8>, String> {
            let Value::Array(items) = x else {
                return Err(format!("view.{what} must be a list"));
            };
            items
                .iter()
                .map(|t| {
                    t.as_u64()
                        .filter(|&t| t < NUM_TILES as u64)
                        .map(|t| t as u8)
                })
                .collect::<Option<Vec<u8>>>()
                .ok_or_else(|| format!("view.{what} must list tiles 0..44"))
        };
        let lists = |k: &str, n: usize| -> Result<Vec<Vec<u8>>, String> {
            let Value::Array(items) = get(k)? else {
                return Err(format!("view.{k} must be a list"));
            };
            if items.len() != n {
                return Err(format!("view.{k} must have one entry per seat"));
            }
            items.iter().map(|x| tile_list(x, k)).collect()
        };
        let players = int("players")?;
        if !(2..=6).contains(&players) {
            return Err("view.players must be 2 to 6".into());
        }
        let n = players as usize;
        let seat = |x: i64, what: &str| -> Result<u8, String> {
            if (0..players).contains(&x) {
                Ok(x as u8)
            } else {
                Err(format!("view.{what} must be a seat"))
            }
        };
        let player = opt_int("player")?.map(|p| seat(p, "player")).transpose()?;
        let opts = Options::from_json(get("options")?).map_err(|r| r.to_string())?;
        let pending = int("pending")?;
        if !(0..=3).contains(&pending) {
            return Err("view.pending must be 0 to 3".into());
        }
        let mut view = View {
            player,
            players: n as u8,
            opts,
            to_move: seat(int("to_move")?, "to_move")?,
            turn: int("turn")?,
            responsible: seat(int("responsible")?, "responsible")?,
            pending: pending as u8,
            pending_key: Key::try_from(int("pending_key")?)
                .map_err(|_| "view.pending_key is out of range")?,
            board: Board::default(),
            out: Pile::default(),
            hand: None,
            hand_sizes: [0; MAX_PLAYERS],
            pile_sizes: [0; MAX_PLAYERS],
            pile_known: Default::default(),
            hand_known: [0; MAX_PLAYERS],
            in_play: 0,
            quenched: 0,
            quench_touch: [0; 4],
            winner: -1,
            ranked: false,
            ranking: [0; MAX_PLAYERS],
            overlooked: false,
        };
        let mut placed = 0u64;
        let mut claim = |t: u8| -> Result<(), String> {
            if (placed >> t) & 1 == 1 {
                return Err(format!("inconsistent view: tile {t} is in two places"));
            }
            placed |= 1 << t;
            Ok(())
        };
        let Value::Array(board) = get("board")? else {
            return Err("view.board must be a list".into());
        };
        for cell in board {
            let pair = cell.as_array().filter(|p| p.len() == 2);
            let parsed = pair.and_then(|p| {
                let k = p[0]
                    .as_i64()
                    .and_then(|k| Key::try_from(k).ok())
                    .filter(|&k| k > i32::MIN + 4 * (1 << 20))?;
                let t = p[1].as_u64().filter(|&t| t < NUM_TILES as u64)?;
                Some((k, t as u8))
            });
            let Some((k, t)) = parsed else {
                return Err("view.board must list [key, tile] pairs".into());
            };
            if view.board.contains(k) {
                return Err("inconsistent view: two tiles on one key".into());
            }
            claim(t)?;
            view.board.insert(k, t);
        }
        for t in tile_list(get("out")?, "out")? {
            claim(t)?;
            view.out.push(t);
        }
        match get("hand")? {
            Value::Null => {}
            h => {
                let tiles = tile_list(h, "hand")?;
                if tiles.len() > 5 {
                    return Err("view.hand holds at most 5 tiles".into());
                }
                view.hand = Some(Hand::from_slice(&tiles));
            }
        }
        let sizes = |k: &str, max: u64| -> Result<Vec<u8>, String> {
            let Value::Array(items) = get(k)? else {
                return Err(format!("view.{k} must be a list"));
            };
            if items.len() != n {
                return Err(format!("view.{k} must have one entry per seat"));
            }
            items
                .iter()
                .map(|x| x.as_u64().filter(|&s| s <= max).map(|s| s as u8))
                .collect::<Option<Vec<u8>>>()
                .ok_or_else(|| format!("view.{k} must list sizes 0..{max}"))
        };
        let hs = sizes("hand_sizes", 5)?;
        let ps = sizes("pile_sizes", 45)?;
        let pk = lists("pile_known", n)?;
        let hk = lists("hand_known", n)?;
        for s in 0..n {
            view.hand_sizes[s] = hs[s];
            view.pile_sizes[s] = ps[s];
            if pk[s].len() > usize::from(ps[s]) {
                return Err("inconsistent view: more known pile tiles than the pile holds".into());
            }
            if hk[s].len() > usize::from(hs[s]) {
                return Err("inconsistent view: more known hand tiles than the hand holds".into());
            }
            for &t in &pk[s] {
                claim(t)?;
            }
            view.pile_known[s] = Pile::from_slice(&pk[s]);
            let mut mask = 0u64;
            let mut last: i32 = -1;
            for &t in &hk[s] {
                if i32::from(t) <= last {
                    return Err("view.hand_known lists must be ascending".into());
                }
                last = i32::from(t);
                mask |= 1 << t;
            }
            view.hand_known[s] = mask;
        }
        if let (Some(p), Some(h)) = (view.player, &view.hand) {
            if h.len() != usize::from(view.hand_sizes[usize::from(p)]) {
                return Err("inconsistent view: the hand and its size differ".into());
            }
            for &t in h.as_slice() {
                if (view.hand_known[usize::from(p)] >> t) & 1 == 0 {
                    claim(t)?;
                }
            }
        }
        for s in 0..n {
            for t in bits(view.hand_known[s]) {
                claim(t)?;
            }
        }
        let in_play = get("in_play")?.as_u64().filter(|&m| m >> NUM_TILES == 0);
        view.in_play = in_play.ok_or("view.in_play must be a tile mask")?;
        let Value::Array(q) = get("quenched")? else {
            return Err("view.quenched must be a list".into());
        };
        for pair in q {
            let parsed = pair.as_array().filter(|p| p.len() == 2).and_then(|p| {
                let e = p[0]
                    .as_u64()
                    .filter(|&e| e < NUM_TILES as u64 && is_ember(e as u8))?;
                let m = p[1].as_u64().filter(|&m| m >> NUM_TILES == 0)?;
                Some((e as u8, m))
            });
            let Some((e, mask)) = parsed else {
                return Err("view.quenched must list [ember, mask] pairs".into());
            };
            view.quenched |= 1 << e;
            view.quench_touch[ember_slot(e)] = mask;
        }
        if let Some(w) = opt_int("winner")? {
            view.winner = seat(w, "winner")? as i8;
        }
        match get("ranking")? {
            Value::Null => {}
            r => {
                let ranks = r
                    .as_array()
                    .filter(|a| a.len() == n)
                    .and_then(|a| {
                        a.iter()
                            .map(|x| x.as_u64().filter(|&v| (1..=6).contains(&v)))
                            .collect::<Option<Vec<u64>>>()
                    })
                    .ok_or("view.ranking must list a rank per seat")?;
                for (s, r) in ranks.iter().enumerate() {
                    view.ranking[s] = *r as u8;
                }
                view.ranked = true;
            }
        }
        view.overlooked = get("overlooked")?
            .as_bool()
            .ok_or("view.overlooked must be true or false")?;
        if (view.pending == FALL || view.pending == DIE) && !view.board.contains(view.pending_key) {
            return Err("inconsistent view: the pending key holds no tile".into());
        }
        // every unseen tile must have exactly one unseen place (what determinize deals)
        let unseen = view.unseen_mask();
        if unseen & placed != 0 || i64::from(unseen.count_ones() as u8) != view.unseen_places() {
            return Err("inconsistent view: the unseen tiles do not fill the unseen places".into());
        }
        Ok(view)
    }
}

/// `view.determinize(view, rng)`: a full state agreeing with `view`, the unseen tiles
/// shuffled (`rng.shuffle`) and popped from the end into the unseen places, seat by seat
/// (hand, then the hidden top of the pile), exactly as Python draws.
pub fn determinize(view: &View, rng: &mut PyRandom) -> State {
    let mut unseen: Vec<u8> = bits(view.unseen_mask()).collect();
    rng.shuffle(&mut unseen);
    let n = usize::from(view.players);
    let mut st = State::empty(n, view.opts);
    st.board = view.board.clone();
    st.out = view.out;
    for seat in 0..n {
        let known: Vec<u8> = bits(view.hand_known[seat]).collect();
        let hand = match (&view.hand, view.player) {
            (Some(h), Some(p)) if usize::from(p) == seat => *h,
            _ => {
                let mut h = Hand::from_slice(&known);
                let missing = usize::from(view.hand_sizes[seat]).saturating_sub(known.len());
                for _ in 0..missing {
                    if let Some(t) = unseen.pop() {
                        h.push(t);
                    }
                }
                h
            }
        };
        st.hands[seat] = hand;
        let hidden = usize::from(view.pile_sizes[seat]).saturating_sub(view.pile_known[seat].len());
        let mut pile = Pile::default();
        for _ in 0..hidden {
            if let Some(t) = unseen.pop() {
                pile.push(t);
            }
        }
        for &t in view.pile_known[seat].as_slice() {
            pile.push(t);
        }
        st.piles[seat] = pile;
        st.hidden[seat] = hidden as u8;
        st.known[seat] = view.hand_known[seat];
    }
    st.to_move = view.to_move;
    st.turn = view.turn;
    st.responsible = view.responsible;
    st.quenched = view.quenched;
    st.quench_touch = view.quench_touch;
    st.winner = view.winner;
    st.ranked = view.ranked;
    st.ranking = view.ranking;
    st.overlooked = view.overlooked;
    st.rebuild();
    st.pending = view.pending;
    st.pending_key = view.pending_key;
    st
}
