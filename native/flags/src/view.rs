//! What each seat may know (PF-VIEW) and sampling the rest: the mirror of
//! `pyramids.flags.view` (`make_view`, `determinize`, draw for draw).
//!
//! A [`View`] holds the fields of the Python `FlagsView` as plain data. Its JSON form
//! (`View::from_json`) is what the wrapper's `view_json` writes: the `FlagsView` fields
//! by name (`_asdict()`, options as an object), cards and pieces as integers, `scoring`
//! as bit masks, `pending` as in the position notation (a deal's cards as `"?"`).

use crate::consts::*;
use crate::deck::{CODES, NUM_CARDS};
use crate::position::{as_int, parse_card_value, parse_piece};
use crate::state::*;
use pyramids_core::{PyRandom, Refusal};
use serde_json::Value;

/// One seat's knowledge (`player` None: a spectator's), the Rust `FlagsView`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The viewing seat (None: a spectator).
    pub player: Option<u8>,
    /// Number of seats.
    pub players: u8,
    /// Rules option `actions`.
    pub actions: bool,
    /// Rules option `max_turns`.
    pub max_turns: i64,
    /// Rules option `first_player`.
    pub first_player: i64,
    /// The seat whose turn it is.
    pub to_move: u8,
    /// The turn number.
    pub turn: i64,
    /// The table: flag piece -> piece under it (-1 table), as in [`State::below`].
    pub below: [i8; NUM_FLAG_PIECES],
    /// The table: flag piece -> piece on it (-1 top).
    pub above: [i8; NUM_FLAG_PIECES],
    /// Bit mask of the bank.
    pub bank: u32,
    /// Bit mask of each seat's scoring pieces.
    pub scoring: [u32; MAX_PLAYERS],
    /// Each seat's face-up cards (`scored_len` used).
    pub scored: [[u8; NUM_CARDS]; MAX_PLAYERS],
    /// Number of face-up cards per seat.
    pub scored_len: [u8; MAX_PLAYERS],
    /// The viewer's own hand in hand order (`hand_len` used; empty for a spectator).
    pub hand: [u8; NUM_CARDS],
    /// Cards in `hand`.
    pub hand_len: u8,
    /// Whether the view has a hand (`hand is not None`).
    pub has_hand: bool,
    /// Every hand's size.
    pub hand_sizes: [u8; MAX_PLAYERS],
    /// The deck's size.
    pub deck_size: u8,
    /// Per seat, bit mask of the cards of that hand the viewer knows (never its own).
    pub known_hands: [u64; MAX_PLAYERS],
    /// (index from the top, card) of the deck cards the viewer knows, by index.
    pub known_deck: [(u8, u8); NUM_CARDS],
    /// Entries in `known_deck`.
    pub known_deck_len: u8,
    /// The pieces the last move moved, bottom to top (`last_len` used).
    pub last: [u8; NUM_FLAG_PIECES],
    /// Pieces in `last`.
    pub last_len: u8,
    /// Pending kind (NONE, CAPTURE, ACTION, STEAL, DEAL).
    pub pending: u8,
    /// CAPTURE: the capturing seat (-1 otherwise).
    pub player_pending: i8,
    /// CAPTURE: the card (-1 otherwise).
    pub card: i8,
    /// CAPTURE: the piece taken from the bank so far (-1: none).
    pub taken: i8,
    /// ACTION: the colour letter (0 otherwise).
    pub colour: u8,
    /// STEAL: the victim (-1 otherwise).
    pub victim: i8,
    /// DEAL: how many cards are left to deal (their identity is hidden).
    pub to_deal: u8,
    /// The colour of the tree action owed after the current scoring (0 if none).
    pub tree: u8,
    /// The winner (-1 none).
    pub winner: i8,
    /// The ranking after a safeguard ending (`ranked` says if present).
    pub ranking: [u8; MAX_PLAYERS],
    /// Whether `ranking` holds one.
    pub ranked: bool,
}

impl View {
    /// Seat's known cards of hand `seat`, sorted (the Python `known_hands[seat]`).
    pub fn known_hand(&self, seat: usize) -> impl Iterator<Item = usize> {
        bits(self.known_hands[seat])
    }

    /// The viewer's hand.
    pub fn hand_cards(&self) -> &[u8] {
        &self.hand[..self.hand_len as usize]
    }

    /// The deck cards the viewer knows.
    pub fn known_deck_cards(&self) -> &[(u8, u8)] {
        &self.known_deck[..self.known_deck_len as usize]
    }

    /// Seat's face-up cards.
    pub fn scored_cards(&self, seat: usize) -> &[u8] {
        &self.scored[seat][..self.scored_len[seat] as usize]
    }

    /// The last-moved pieces.
    pub fn last_moved(&self) -> &[u8] {
        &self.last[..self.last_len as usize]
    }

    /// The view in the JSON form [`View::from_json`] reads (the wrapper's `view_json`).
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }

    /// The view as the wrapper's `view_json` value (the `FlagsView` fields by name).
    pub fn to_value(&self) -> Value {
        let n = self.players as usize;
        let st = self.as_table();
        let towers: Vec<Vec<u8>> = st.towers();
        let pending = self.pending_value();
        serde_json::json!({
            "player": self.player,
            "players": n,
            "options": {"actions": self.actions, "max_turns": self.max_turns, "first_player": self.first_player},
            "to_move": self.to_move,
            "turn": self.turn,
            "towers": towers,
            "bank": bits(self.bank as u64).collect::<Vec<_>>(),
            "scoring": &self.scoring[..n],
            "scored": (0..n).map(|s| self.scored_cards(s).to_vec()).collect::<Vec<_>>(),
            "hand": if self.has_hand { Some(self.hand_cards().to_vec()) } else { None },
            "hand_sizes": &self.hand_sizes[..n],
            "deck_size": self.deck_size,
            "known_hands": (0..n).map(|s| self.known_hand(s).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "known_deck": self.known_deck_cards().iter().map(|&(i, c)| vec![i, c]).collect::<Vec<_>>(),
            "last_moved": self.last_moved(),
            "pending": pending.unwrap_or_else(|| Value::Object(Default::default())),
            "tree": if self.tree == 0 { String::new() } else { (self.tree as char).to_string() },
            "winner": if self.winner >= 0 { Some(self.winner) } else { None },
            "ranking": if self.ranked { Some(&self.ranking[..n]) } else { None },
        })
    }

    /// The view's pending object (as `FlagsView.pending`), None if nothing is pending.
    pub fn pending_value(&self) -> Option<Value> {
        Some(match self.pending {
            CAPTURE => serde_json::json!({
                "player": self.player_pending,
                "kind": "capture",
                "card": CODES[self.card as usize],
                "taken": if self.taken >= 0 { vec![piece_name(self.taken as usize)] } else { vec![] },
            }),
            ACTION => {
                serde_json::json!({"player": self.to_move, "kind": "action", "colour": (self.colour as char).to_string()})
            }
            STEAL => serde_json::json!({"kind": "steal", "from": self.victim}),
            DEAL => serde_json::json!({"kind": "deal", "cards": vec!["?"; self.to_deal as usize]}),
            _ => return None,
        })
    }

    /// A state holding only the view's table (for tower listing and rule checks).
    pub fn as_table(&self) -> State {
        let mut s = State::start(self.players as usize, self.actions, self.max_turns, 0);
        s.below = self.below;
        s.above = self.above;
        s
    }

    /// Read the wrapper's `view_json` text; Err (the refusal as text) when it is not a
    /// consistent view.
    pub fn from_json(text: &str) -> Result<View, String> {
        Self::read_json(text).map_err(|r| r.to_string())
    }

    /// [`View::from_json`] with the refusal: `flags.view_bad_field` (`field`), or a code of
    /// the position notation for a bad card or piece code.
    pub fn read_json(text: &str) -> Result<View, Refusal> {
        let v: Value = serde_json::from_str(text).map_err(|_| bad("view"))?;
        read_view(&v)
    }
}

fn bad(what: &str) -> Refusal {
    Refusal::position("flags.view_bad_field").with("field", what)
}

fn uint(v: Option<&Value>, what: &str, below: i128) -> Result<usize, Refusal> {
    v.and_then(as_int)
        .filter(|&x| (0..below).contains(&x))
        .map(|x| x as usize)
        .ok_or_else(|| bad(what))
}

fn list<'a>(v: Option<&'a Value>, what: &str) -> Result<&'a Vec<Value>, Refusal> {
    v.and_then(|x| x.as_array()).ok_or_else(|| bad(what))
}

fn read_view(v: &Value) -> Result<View, Refusal> {
    let m = v.as_object().ok_or_else(|| bad("view"))?;
    let players = uint(m.get("players"), "players", 5)?;
    if players < 2 {
        return Err(bad("players"));
    }
    let player = match m.get("player") {
        None | Some(Value::Null) => None,
        x => Some(uint(x, "player", players as i128)? as u8),
    };
    let opts = m
        .get("options")
        .and_then(|o| o.as_object())
        .ok_or_else(|| bad("options"))?;
    let actions = opts
        .get("actions")
        .and_then(|x| x.as_bool())
        .unwrap_or(true);
    let max_turns = opts
        .get("max_turns")
        .and_then(as_int)
        .unwrap_or(3000)
        .clamp(1, i64::MAX as i128) as i64;
    let first_player = opts
        .get("first_player")
        .and_then(as_int)
        .unwrap_or(0)
        .clamp(0, 3) as i64;
    let to_move = uint(m.get("to_move"), "to_move", players as i128)? as u8;
    let turn = m
        .get("turn")
        .and_then(as_int)
        .filter(|&t| t >= 1)
        .ok_or_else(|| bad("turn"))?
        .min(i64::MAX as i128) as i64;
    let mut below = [-1i8; NUM_FLAG_PIECES];
    let mut above = [-1i8; NUM_FLAG_PIECES];
    let mut seen = 0u32;
    for t in list(m.get("towers"), "towers")? {
        let mut prev: Option<usize> = None;
        for p in list(Some(t), "towers")? {
            let p = uint(Some(p), "towers", NUM_FLAG_PIECES as i128)?;
            if (seen >> p) & 1 == 1 {
                return Err(bad("towers"));
            }
            seen |= 1 << p;
            if let Some(q) = prev {
                below[p] = q as i8;
                above[q] = p as i8;
            }
            prev = Some(p);
        }
    }
    let mut bank = 0u32;
    for p in list(m.get("bank"), "bank")? {
        let p = uint(Some(p), "bank", NUM_PIECES as i128)?;
        bank |= 1 << p;
    }
    let mut scoring = [0u32; MAX_PLAYERS];
    let sc = list(m.get("scoring"), "scoring")?;
    if sc.len() != players {
        return Err(bad("scoring"));
    }
    for (s, x) in sc.iter().enumerate() {
        scoring[s] = uint(Some(x), "scoring", 1 << NUM_PIECES)? as u32;
    }
    let mut used = 0u64;
    let mut card = |x: &Value, what: &str| -> Result<u8, Refusal> {
        let c = uint(Some(x), what, NUM_CARDS as i128)?;
        if (used >> c) & 1 == 1 {
            return Err(bad(what));
        }
        used |= 1 << c;
        Ok(c as u8)
    };
    let mut scored = [[0u8; NUM_CARDS]; MAX_PLAYERS];
    let mut scored_len = [0u8; MAX_PLAYERS];
    let scl = list(m.get("scored"), "scored")?;
    if scl.len() != players {
        return Err(bad("scored"));
    }
    for (s, cards) in scl.iter().enumerate() {
        for c in list(Some(cards), "scored")? {
            scored[s][scored_len[s] as usize] = card(c, "scored")?;
            scored_len[s] += 1;
        }
    }
    let mut hand = [0u8; NUM_CARDS];
    let mut hand_len = 0u8;
    let has_hand = !matches!(m.get("hand"), None | Some(Value::Null));
    if has_hand {
        for c in list(m.get("hand"), "hand")? {
            hand[hand_len as usize] = card(c, "hand")?;
            hand_len += 1;
        }
    }
    let mut hand_sizes = [0u8; MAX_PLAYERS];
    let hs = list(m.get("hand_sizes"), "hand_sizes")?;
    if hs.len() != players {
        return Err(bad("hand_sizes"));
    }
    for (s, x) in hs.iter().enumerate() {
        hand_sizes[s] = uint(Some(x), "hand_sizes", NUM_CARDS as i128 + 1)? as u8;
    }
    let deck_size = uint(m.get("deck_size"), "deck_size", NUM_CARDS as i128 + 1)? as u8;
    let mut known_hands = [0u64; MAX_PLAYERS];
    let kh = list(m.get("known_hands"), "known_hands")?;
    if kh.len() != players {
        return Err(bad("known_hands"));
    }
    for (s, cards) in kh.iter().enumerate() {
        let mut k = 0;
        for c in list(Some(cards), "known_hands")? {
            known_hands[s] |= 1 << card(c, "known_hands")?;
            k += 1;
        }
        if k > hand_sizes[s] {
            return Err(bad("known_hands"));
        }
    }
    let mut known_deck = [(0u8, 0u8); NUM_CARDS];
    let mut known_deck_len = 0u8;
    let mut last_index = -1i64;
    for e in list(m.get("known_deck"), "known_deck")? {
        let e = list(Some(e), "known_deck")?;
        if e.len() != 2 {
            return Err(bad("known_deck"));
        }
        let i = uint(e.first(), "known_deck", deck_size as i128)?;
        if i as i64 <= last_index {
            return Err(bad("known_deck"));
        }
        last_index = i as i64;
        known_deck[known_deck_len as usize] = (i as u8, card(&e[1], "known_deck")?);
        known_deck_len += 1;
    }
    let mut last = [0u8; NUM_FLAG_PIECES];
    let mut last_len = 0u8;
    let mut lm = 0u32;
    for p in list(m.get("last_moved"), "last_moved")? {
        let p = uint(Some(p), "last_moved", NUM_FLAG_PIECES as i128)?;
        if (lm >> p) & 1 == 1 {
            return Err(bad("last_moved"));
        }
        lm |= 1 << p;
        last[last_len as usize] = p as u8;
        last_len += 1;
    }
    let mut view = View {
        player,
        players: players as u8,
        actions,
        max_turns,
        first_player,
        to_move,
        turn,
        below,
        above,
        bank,
        scoring,
        scored,
        scored_len,
        hand,
        hand_len,
        has_hand,
        hand_sizes,
        deck_size,
        known_hands,
        known_deck,
        known_deck_len,
        last,
        last_len,
        pending: NONE,
        player_pending: -1,
        card: -1,
        taken: -1,
        colour: 0,
        victim: -1,
        to_deal: 0,
        tree: 0,
        winner: -1,
        ranking: [0; MAX_PLAYERS],
        ranked: false,
    };
    if let Some(Value::Object(p)) = m.get("pending") {
        match p.get("kind").and_then(|k| k.as_str()) {
            None if p.is_empty() => {}
            Some("capture") => {
                view.pending = CAPTURE;
                view.player_pending = uint(p.get("player"), "pending", players as i128)? as i8;
                view.card = parse_card_value(p.get("card"), "pending.card")? as i8;
                let taken = list(p.get("taken"), "pending")?;
                if let Some(t) = taken.first() {
                    let t =
                        parse_piece(t.as_str().ok_or_else(|| bad("pending"))?, "pending.taken")?;
                    view.taken = t as i8;
                }
            }
            Some("action") => {
                view.pending = ACTION;
                view.colour = match p.get("colour").and_then(|c| c.as_str()) {
                    Some(c @ ("R" | "B" | "G" | "Y" | "K" | "W")) => c.as_bytes()[0],
                    _ => return Err(bad("pending")),
                };
            }
            Some("steal") => {
                view.pending = STEAL;
                view.victim = uint(p.get("from"), "pending", players as i128)? as i8;
            }
            Some("deal") => {
                view.pending = DEAL;
                view.to_deal = list(p.get("cards"), "pending")?.len().min(NUM_CARDS) as u8;
            }
            _ => return Err(bad("pending")),
        }
    } else if !matches!(m.get("pending"), None | Some(Value::Null)) {
        return Err(bad("pending"));
    }
    view.tree = match m.get("tree").and_then(|t| t.as_str()) {
        None | Some("") => 0,
        Some(t) if t.len() == 1 && "RBGYKW".contains(t) => t.as_bytes()[0],
        _ => return Err(bad("tree")),
    };
    if let Some(w) = m.get("winner").filter(|w| !w.is_null()) {
        view.winner = uint(Some(w), "winner", players as i128)? as i8;
    }
    if let Some(r) = m.get("ranking").filter(|r| !r.is_null()) {
        let r = list(Some(r), "ranking")?;
        if r.len() != players {
            return Err(bad("ranking"));
        }
        for (s, x) in r.iter().enumerate() {
            view.ranking[s] = uint(Some(x), "ranking", 5)? as u8;
        }
        view.ranked = true;
    }
    Ok(view)
}

impl State {
    /// PF-VIEW-1..3: the view of `player` (None: public). `player` must be a seat.
    pub fn view(&self, player: Option<usize>) -> View {
        let n = self.n();
        let mut known_hands = [0u64; MAX_PLAYERS];
        let mut known_deck = [(0u8, 0u8); NUM_CARDS];
        let mut known_deck_len = 0u8;
        let mask = player.map_or(0, |p| self.known[p]);
        if mask != 0 {
            for (s, k) in known_hands.iter_mut().enumerate().take(n) {
                *k = self.hand_mask(s) & mask;
            }
            for (i, &c) in self.deck_cards().iter().enumerate() {
                if (mask >> c) & 1 == 1 {
                    known_deck[known_deck_len as usize] = (i as u8, c);
                    known_deck_len += 1;
                }
            }
        }
        let mut hand = [0u8; NUM_CARDS];
        let mut hand_len = 0;
        if let Some(p) = player {
            hand = self.hands[p];
            hand_len = self.hand_len[p];
        }
        View {
            player: player.map(|p| p as u8),
            players: self.players,
            actions: self.actions,
            max_turns: self.max_turns,
            first_player: self.first_player,
            to_move: self.to_move,
            turn: self.turn,
            below: self.below,
            above: self.above,
            bank: self.bank,
            scoring: self.scoring,
            scored: self.scored,
            scored_len: self.scored_len,
            hand,
            hand_len,
            has_hand: player.is_some(),
            hand_sizes: self.hand_len,
            deck_size: self.deck_len,
            known_hands,
            known_deck,
            known_deck_len,
            last: self.last,
            last_len: self.last_len,
            pending: self.pending,
            player_pending: if self.pending == CAPTURE {
                self.player
            } else {
                -1
            },
            card: if self.pending == CAPTURE {
                self.card
            } else {
                -1
            },
            taken: if self.pending == CAPTURE {
                self.taken
            } else {
                -1
            },
            colour: if self.pending == ACTION {
                self.colour
            } else {
                0
            },
            victim: if self.pending == STEAL {
                self.victim
            } else {
                -1
            },
            to_deal: if self.pending == DEAL {
                self.to_deal.count_ones() as u8
            } else {
                0
            },
            tree: self.tree,
            winner: self.winner,
            ranking: self.ranking,
            ranked: self.ranked,
        }
    }
}

/// PF-VIEW-5: a full state agreeing with `view`, unknown cards shuffled with `rng` into
/// the unknown places exactly as the Python `determinize` draws. Err (the refusal as text)
/// when the view's counts do not add up (see [`determinize_checked`]).
pub fn try_determinize(view: &View, rng: &mut PyRandom) -> Result<State, String> {
    determinize_checked(view, rng).map_err(|r| r.to_string())
}

/// [`try_determinize`] with the Python engine's refusal: `flags.view_unknown_cards`
/// (`cards`, `places`).
pub fn determinize_checked(view: &View, rng: &mut PyRandom) -> Result<State, Refusal> {
    let n = view.players as usize;
    let mut pos = State::start(n, view.actions, view.max_turns, view.first_player);
    pos.below = view.below;
    pos.above = view.above;
    pos.bank = view.bank;
    pos.scoring = view.scoring;
    pos.scored = view.scored;
    pos.scored_len = view.scored_len;
    let mut placed = 0u64;
    for s in 0..n {
        for &c in view.scored_cards(s) {
            placed |= 1 << c;
        }
    }
    let own = view.player.is_some() && view.has_hand;
    if own {
        for &c in view.hand_cards() {
            placed |= 1 << c;
        }
    }
    let mut known = 0u64;
    for s in 0..n {
        known |= view.known_hands[s];
    }
    for &(_, c) in view.known_deck_cards() {
        known |= 1 << c;
    }
    let mut unknown = [0u8; NUM_CARDS];
    let mut nu = 0;
    for c in 0..NUM_CARDS {
        if ((placed | known) >> c) & 1 == 0 {
            unknown[nu] = c as u8;
            nu += 1;
        }
    }
    let to_deal = if view.pending == DEAL {
        view.to_deal as usize
    } else {
        0
    };
    let mut places = view.deck_size as i64 - view.known_deck_len as i64 + to_deal as i64;
    for s in 0..n {
        if Some(s as u8) != view.player || !view.has_hand {
            places += view.hand_sizes[s] as i64 - view.known_hands[s].count_ones() as i64;
        }
    }
    if places != nu as i64 {
        return Err(Refusal::position("flags.view_unknown_cards")
            .with("cards", nu)
            .with("places", places));
    }
    let unknown = &mut unknown[..nu];
    rng.shuffle(unknown);
    let mut top = nu;
    let mut pop = || {
        top -= 1;
        unknown[top]
    };
    for s in 0..n {
        if Some(s as u8) == view.player && view.has_hand {
            for &c in view.hand_cards() {
                pos.push_hand(s, c);
            }
        } else {
            for c in view.known_hand(s) {
                pos.push_hand(s, c as u8);
            }
            for _ in view.known_hands[s].count_ones() as usize..view.hand_sizes[s] as usize {
                let c = pop();
                pos.push_hand(s, c);
            }
        }
    }
    let mut deck = [-1i16; NUM_CARDS];
    for &(i, c) in view.known_deck_cards() {
        deck[i as usize] = c as i16;
    }
    for (i, slot) in deck.iter_mut().enumerate().take(view.deck_size as usize) {
        if *slot < 0 {
            *slot = pop() as i16;
        }
        pos.deck[i] = *slot as u8;
    }
    pos.deck_len = view.deck_size;
    if let Some(p) = view.player {
        pos.known[p as usize] = known;
    }
    pos.set_last(view.last_moved());
    pos.to_move = view.to_move;
    pos.turn = view.turn;
    pos.pending = view.pending;
    match view.pending {
        CAPTURE => {
            pos.player = view.player_pending;
            pos.card = view.card;
            pos.taken = view.taken;
        }
        ACTION => {
            pos.player = view.to_move as i8;
            pos.colour = view.colour;
        }
        STEAL => pos.victim = view.victim,
        DEAL => {
            for _ in 0..to_deal {
                let c = pop();
                pos.to_deal |= 1 << c;
            }
        }
        _ => {}
    }
    pos.tree = view.tree;
    pos.winner = view.winner;
    pos.ranking = view.ranking;
    pos.ranked = view.ranked;
    Ok(pos)
}

/// [`try_determinize`] for views known to be consistent (a state's own views); an
/// inconsistent view gives the view's public table with empty hands and deck.
pub fn determinize(view: &View, rng: &mut PyRandom) -> State {
    match try_determinize(view, rng) {
        Ok(s) => s,
        Err(_) => {
            let mut s = view.as_table();
            s.to_move = view.to_move;
            s.turn = view.turn;
            s
        }
    }
}
