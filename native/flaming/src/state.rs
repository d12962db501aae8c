//! The Flaming Pyramids position as plain data (`FlamingPosition` of `position.py`) and the
//! pyramid's upkeep as tiles come and go (`add_tile`, `remove_tile`, `rebuild`).
//!
//! Every field is public, fixed size and `Copy`-able but the event log (empty unless
//! recording, so a clone is a memcpy). Derived fields (`in_play`, `candidates`, base ends,
//! `forced_up`: the forced spots F in row >= 1, FP-PLACE-3) are kept current by
//! `add_tile`/`remove_tile` and recomputed by `rebuild`; the base part of F is read off the
//! base ends (`placement.rs`).

use crate::board::{bits, Board};
use crate::events::RawEvent;
use crate::options::Options;
use crate::tiles::{
    ember_slot, is_base, is_ember, Key, ABOVE_LEFT, ABOVE_RIGHT, IGNITES, MATERIAL, NEIGHBOURS,
    SUPPORT_LEFT, SUPPORT_RIGHT,
};

/// FP-SETUP-3, FP-END-1: a hand is drawn up to 5 tiles.
pub const HAND_SIZE: usize = 5;
/// At most 6 seats.
pub const MAX_PLAYERS: usize = 6;

/// No decision pending mid-turn.
pub const NONE: u8 = 0;
/// A tile is falling: P chooses left or right.
pub const FALL: u8 = 1;
/// A fire-die roll is pending (chance).
pub const DIE: u8 = 2;
/// Call-out mode: the checker must say ok or call a tile.
pub const CHECK: u8 = 3;

/// An ordered list of at most `N` tiles (a hand, a pile, the out list). Equal when the
/// tiles in order are (`items[len..]` is scratch).
#[derive(Clone, Copy, Debug)]
pub struct TileList<const N: usize> {
    /// Number of tiles.
    pub len: u8,
    /// The tiles, `items[..len]`.
    pub items: [u8; N],
}

impl<const N: usize> PartialEq for TileList<N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<const N: usize> Eq for TileList<N> {}

impl<const N: usize> Default for TileList<N> {
    fn default() -> Self {
        TileList {
            len: 0,
            items: [0; N],
        }
    }
}

impl<const N: usize> TileList<N> {
    /// The tiles in order.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.items[..usize::from(self.len)]
    }
    /// Number of tiles.
    #[inline]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }
    /// Whether empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// Append a tile (ignored when full, which the rules never reach).
    #[inline]
    pub fn push(&mut self, t: u8) {
        if usize::from(self.len) < N {
            self.items[usize::from(self.len)] = t;
            self.len += 1;
        }
    }
    /// Remove and return the first tile.
    #[inline]
    pub fn pop_front(&mut self) -> Option<u8> {
        if self.len == 0 {
            return None;
        }
        let t = self.items[0];
        // the whole array moves (a fixed-size copy, no call); only items[..len] matter
        self.items.copy_within(1..N, 0);
        self.len -= 1;
        Some(t)
    }
    /// Remove the first occurrence of `t` (order of the rest kept); whether found.
    #[inline]
    pub fn remove(&mut self, t: u8) -> bool {
        match self.as_slice().iter().position(|&x| x == t) {
            Some(i) => {
                if N <= 8 {
                    // a hand: a fixed number of moves (no call)
                    for j in 0..N - 1 {
                        if j >= i {
                            self.items[j] = self.items[j + 1];
                        }
                    }
                } else {
                    self.items.copy_within(i + 1..usize::from(self.len), i);
                }
                self.len -= 1;
                true
            }
            None => false,
        }
    }
    /// Whether `t` is in the list.
    #[inline]
    pub fn contains(&self, t: u8) -> bool {
        self.as_slice().contains(&t)
    }
    /// A list from a slice (truncated at N).
    pub fn from_slice(tiles: &[u8]) -> Self {
        let mut l = Self::default();
        for &t in tiles {
            l.push(t);
        }
        l
    }
    /// Bit mask of the tiles.
    #[inline]
    pub fn mask(&self) -> u64 {
        self.as_slice().iter().fold(0, |m, &t| m | (1 << t))
    }
}

/// A hand (at most 5 tiles, in the order they came in).
pub type Hand = TileList<HAND_SIZE>;
/// A draw pile, top first, or the out list.
pub type Pile = TileList<45>;

/// A Flaming Pyramids game in progress, every hidden fact included (the Python
/// `FlamingState`: options plus `FlamingPosition`). Plain data: read any field; change it
/// only through the rules (`apply`), which keep the derived fields current.
#[derive(Clone, Debug)]
pub struct State {
    /// The rules in force.
    pub opts: Options,
    /// Number of seats (2..6); arrays below are indexed by seat `< players`.
    pub players: u8,
    /// The pyramid.
    pub board: Board,
    /// Per seat, the hand in the order its tiles came into it.
    pub hands: [Hand; MAX_PLAYERS],
    /// Per seat, the draw pile, top first.
    pub piles: [Pile; MAX_PLAYERS],
    /// Per seat, how many tiles at the top of the pile nobody saw go there (FP-VIEW-2).
    pub hidden: [u8; MAX_PLAYERS],
    /// Per seat, bit mask of hand tiles everyone knows (FP-VIEW-2).
    pub known: [u64; MAX_PLAYERS],
    /// Tiles removed from the game, in order.
    pub out: Pile,
    /// Bit mask of the quenched embers (FP-DIE-6).
    pub quenched: u64,
    /// Per ember slot (`tiles::ember_slot`), the tiles it touched at the roll.
    pub quench_touch: [u64; 4],
    /// The active player.
    pub to_move: u8,
    /// The turn number, from 1.
    pub turn: i64,
    /// P, who suffers this turn's mayhem (FP-MAYHEM-3).
    pub responsible: u8,
    /// NONE, FALL, DIE or CHECK.
    pub pending: u8,
    /// Key of the falling tile or of the ember whose roll is pending (0 otherwise).
    pub pending_key: Key,
    /// The winner, -1 while nobody has won.
    pub winner: i8,
    /// Whether `ranking` holds the max_turns ranking (FP-END-4).
    pub ranked: bool,
    /// A rank per seat after max_turns (valid when `ranked`).
    pub ranking: [u8; MAX_PLAYERS],
    /// FP-CALL-5: a check ended with mayhem standing, not yet resolved by a right call.
    pub overlooked: bool,
    // --- derived ---
    /// Bit mask of the tiles still in the game (pyramid, hands, piles).
    pub in_play: u64,
    /// Bit mask of the tiles on the pyramid where mayhem may stand (the Python candidate keys).
    pub candidates: u64,
    /// Leftmost base column (valid when `base_n > 0`).
    pub base_lo: Key,
    /// Rightmost base column.
    pub base_hi: Key,
    /// Number of base tiles.
    pub base_n: u32,
    /// Bit `t`: tile `t` and the tile two columns to its right are on the pyramid and the
    /// key above both (`key_of[t] + ABOVE_RIGHT`) is empty: a forced spot in row >= 1
    /// (FP-PLACE-3), kept current by `add_tile`/`remove_tile`.
    pub forced_up: u64,
    /// Whether `apply` records raw events into `events`.
    pub record: bool,
    /// The raw events of the last apply (or of the deal) when recording.
    pub events: Vec<RawEvent>,
}

impl State {
    /// An empty table for `players` seats.
    pub fn empty(players: usize, opts: Options) -> State {
        State {
            opts,
            players: players as u8,
            board: Board::default(),
            hands: Default::default(),
            piles: Default::default(),
            hidden: [0; MAX_PLAYERS],
            known: [0; MAX_PLAYERS],
            out: Pile::default(),
            quenched: 0,
            quench_touch: [0; 4],
            to_move: 0,
            turn: 1,
            responsible: 0,
            pending: NONE,
            pending_key: 0,
            winner: -1,
            ranked: false,
            ranking: [0; MAX_PLAYERS],
            overlooked: false,
            in_play: 0,
            candidates: 0,
            base_lo: 0,
            base_hi: 0,
            base_n: 0,
            forced_up: 0,
            record: false,
            events: Vec::new(),
        }
    }

    /// Number of seats.
    #[inline]
    pub fn n(&self) -> usize {
        usize::from(self.players)
    }

    /// FP-CALL-2: the seat on the active player's left, who checks.
    #[inline]
    pub fn checker(&self) -> u8 {
        ((usize::from(self.to_move) + 1) % self.n()) as u8
    }

    /// Whether the game has ended.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.winner >= 0 || self.ranked
    }

    /// Whether ember `t` is quenched.
    #[inline]
    pub fn is_quenched(&self, t: u8) -> bool {
        (self.quenched >> t) & 1 == 1
    }

    /// Drop a quench (an ember that moves, burns or rolls again).
    #[inline]
    pub fn unquench(&mut self, t: u8) {
        if self.is_quenched(t) {
            self.quenched &= !(1 << t);
            self.quench_touch[ember_slot(t)] = 0;
        }
    }

    /// Quench ember `t` with the tiles it touches now.
    #[inline]
    pub fn set_quench(&mut self, t: u8, mask: u64) {
        self.quenched |= 1 << t;
        self.quench_touch[ember_slot(t)] = mask;
    }

    /// Record a raw event (when recording).
    #[inline]
    pub fn emit(&mut self, make: impl FnOnce() -> RawEvent) {
        if self.record {
            self.events.push(make());
        }
    }

    /// Whether the non-derived fields are equal (the Python position's `==`; the rules
    /// options are compared too, as the Python state compares its game).
    pub fn same_position(&self, other: &State) -> bool {
        let n = self.n();
        self.opts == other.opts
            && self.players == other.players
            && self.board.mask == other.board.mask
            && bits(self.board.mask)
                .all(|t| self.board.key_of[usize::from(t)] == other.board.key_of[usize::from(t)])
            && self.hands[..n] == other.hands[..n]
            && self.piles[..n] == other.piles[..n]
            && self.hidden[..n] == other.hidden[..n]
            && self.known[..n] == other.known[..n]
            && self.out == other.out
            && self.quenched == other.quenched
            && bits(self.quenched)
                .all(|t| self.quench_touch[ember_slot(t)] == other.quench_touch[ember_slot(t)])
            && self.to_move == other.to_move
            && self.turn == other.turn
            && self.responsible == other.responsible
            && self.pending == other.pending
            && self.pending_key == other.pending_key
            && self.winner == other.winner
            && self.ranked == other.ranked
            && (!self.ranked || self.ranking[..n] == other.ranking[..n])
            && self.overlooked == other.overlooked
    }

    // --- upkeep of the derived fields ---------------------------------------------------

    /// Recompute every derived field from the pyramid, hands and piles (after loading).
    pub fn rebuild(&mut self) {
        let n = self.n();
        let mut in_play = self.board.mask;
        for seat in 0..n {
            in_play |= self.hands[seat].mask() | self.piles[seat].mask();
        }
        self.in_play = in_play;
        let mut base_n = 0;
        let (mut lo, mut hi) = (0, 0);
        for t in bits(self.board.mask) {
            let k = self.board.key_of[usize::from(t)];
            if is_base(k) {
                if base_n == 0 {
                    lo = k;
                    hi = k;
                } else {
                    lo = lo.min(k);
                    hi = hi.max(k);
                }
                base_n += 1;
            }
        }
        self.base_n = base_n;
        self.base_lo = lo;
        self.base_hi = hi;
        self.candidates = self.board.mask;
        let mut forced_up = 0;
        for t in bits(self.board.mask) {
            let k = self.board.key_of[usize::from(t)];
            if self.board.contains(k + 2) && !self.board.contains(k + ABOVE_RIGHT) {
                forced_up |= 1 << t;
            }
        }
        self.forced_up = forced_up;
    }

    /// Put tile `t` at `k`: base ends, candidates, forced spots and the quenches it ends
    /// (FP-DIE-6).
    pub fn add_tile(&mut self, k: Key, t: u8) {
        self.board.insert(k, t);
        let embers = self.board.mask & crate::tiles::EMBER_MASK & !(1 << t);
        let b = &self.board;
        let base = is_base(k);
        // the six touching positions, in NEIGHBOURS order: nothing lies below row 0, and
        // (r-1, c+1) matters only to the ember checks
        let near = [
            b.get(k + NEIGHBOURS[0]),
            b.get(k + NEIGHBOURS[1]),
            if base { None } else { b.get(k + NEIGHBOURS[2]) },
            if base || embers == 0 {
                None
            } else {
                b.get(k + NEIGHBOURS[3])
            },
            b.get(k + NEIGHBOURS[4]),
            b.get(k + NEIGHBOURS[5]),
        ];
        let [left, right, below_left, _, above_left, above_right] = near;
        let mut cands = self.candidates | (1 << t);
        let mut forced = self.forced_up;
        if let Some(a) = above_left {
            cands |= 1 << a;
        }
        if let Some(a) = above_right {
            cands |= 1 << a;
        }
        if right.is_some() && above_right.is_none() {
            forced |= 1 << t;
        }
        if let Some(l) = left {
            if above_left.is_none() {
                forced |= 1 << l;
            }
        }
        if let Some(b) = below_left {
            forced &= !(1 << b);
        }
        self.forced_up = forced;
        if base {
            if self.base_n == 0 {
                self.base_lo = k;
                self.base_hi = k;
                self.base_n = 1;
            } else {
                self.base_n += 1;
                if k < self.base_lo {
                    self.base_lo = k;
                } else if k > self.base_hi {
                    self.base_hi = k;
                }
            }
        }
        if embers != 0 {
            for e in near.into_iter().flatten() {
                if is_ember(e) {
                    cands |= 1 << e;
                    if self.is_quenched(e) {
                        let mask = self.quench_touch[ember_slot(e)];
                        if ends_quench(mask, e, t) {
                            self.unquench(e);
                        }
                    }
                }
            }
        }
        self.candidates = cands;
    }

    /// Take the tile at `k` off the pyramid and return it (an ember that moves is unquenched).
    pub fn remove_tile(&mut self, k: Key) -> u8 {
        let Some(t) = self.board.remove(k) else {
            return 0;
        };
        let mut cands = self.candidates & !(1 << t);
        if let Some(a) = self.board.get(k + ABOVE_LEFT) {
            cands |= 1 << a;
        }
        if let Some(a) = self.board.get(k + ABOVE_RIGHT) {
            cands |= 1 << a;
        }
        self.candidates = cands;
        let mut forced = self.forced_up & !(1 << t);
        if let Some(l) = self.board.get(k - 2) {
            forced &= !(1 << l);
        }
        if let Some(b) = self.board.get(k + SUPPORT_LEFT) {
            if self.board.contains(k + SUPPORT_RIGHT) {
                forced |= 1 << b;
            }
        }
        self.forced_up = forced;
        if is_base(k) {
            self.base_n -= 1;
            if self.base_n > 0 && (k == self.base_lo || k == self.base_hi) {
                let (mut lo, mut hi) = (self.base_lo, self.base_hi);
                while !self.board.contains(lo) {
                    lo += 2;
                }
                while !self.board.contains(hi) {
                    hi -= 2;
                }
                self.base_lo = lo;
                self.base_hi = hi;
            }
        }
        if is_ember(t) {
            self.unquench(t);
        }
        t
    }
}

/// FP-DIE-6: `tile` coming to touch quenched `ember` ends the quench when the ember ignites
/// it and it did not touch the ember at the roll (`mask`).
#[inline]
pub fn ends_quench(mask: u64, ember: u8, tile: u8) -> bool {
    MATERIAL[usize::from(tile)] & IGNITES[usize::from(ember)] != 0
        && (mask >> tile) & 1 == 0
        && !crate::fault::fault_on(crate::fault::Fault::QuenchForever)
}
