//! The plain-data state of Pyramids and Flags (the Rust `FlagsPosition`), its raw events,
//! and the scoring formulas of PF-WIN (`pyramids.flags.scoring`).
//!
//! Every field is public and fixed-size (arrays and bit masks), so `clone()` is a copy
//! (the event list is empty unless recording is on). Lists of the Python position are an
//! array plus a length; entries past the length are always zero, so equality can compare
//! whole arrays. Seats are `0..players`; cards `0..36` (code order); pieces `0..30`.

use crate::consts::*;
use crate::deck::{GROUP_MASK, NUM_CARDS};

/// No pending decision: the mover moves or exchanges.
pub const NONE: u8 = 0;
/// A capture is pending (decision of `player`).
pub const CAPTURE: u8 = 1;
/// A tree action is pending (decision of the mover).
pub const ACTION: u8 = 2;
/// A pirate's steal is pending (chance).
pub const STEAL: u8 = 3;
/// A new start is being dealt (chance, one card at a time).
pub const DEAL: u8 = 4;

/// Cards dealt to each seat at setup (PF-SETUP-2).
pub const HAND_SIZE: usize = 4;

/// Why a win condition is met (PF-WIN-1..3), as the `win` event names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    /// `("flags", n)`: five flags or more.
    Flags(usize),
    /// `("group", GROUPS[i])`: three flags of group i.
    Group(usize),
    /// `("points", p)`: eight points or more.
    Points(usize),
}

/// The group names (PF-CARD-4), bit order of `GROUP_MASK`.
pub const GROUPS: [&str; 4] = ["EU", "Africa", "Caribbean", "Oil"];

/// A raw event: the Rust mirror of the Python rules' event tuples (`("move", seat, ...)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ev {
    /// `("move", seat, lowest, target, group, old)`.
    Move {
        seat: u8,
        lowest: u8,
        target: u8,
        group: [u8; 18],
        len: u8,
        old: i8,
    },
    /// `("tree", seat, colour, lowest)`.
    Tree { seat: u8, colour: u8, lowest: u8 },
    /// `("swap", seat, card)`.
    Swap { seat: u8, card: u8 },
    /// `("draw", seat, card, why)`.
    Draw {
        seat: u8,
        card: u8,
        why: &'static str,
    },
    /// `("no_draw", seat, why)`.
    NoDraw { seat: u8, why: &'static str },
    /// `("flag", seat, card)`.
    Flag { seat: u8, card: u8 },
    /// `("no_capture", seat, card)`.
    NoCapture { seat: u8, card: u8 },
    /// `("take", seat, piece, source or -1)`.
    Take { seat: u8, piece: u8, source: i8 },
    /// `("capture_done", seat, card)`.
    CaptureDone { seat: u8, card: u8 },
    /// `("win", seat, kind, detail)`.
    Win { seat: u8, reason: WinReason },
    /// `("action", seat, colour)`.
    Action { seat: u8, colour: u8 },
    /// `("lapse", seat, colour)`.
    Lapse { seat: u8, colour: u8 },
    /// `("decline", seat, colour)`.
    Decline { seat: u8, colour: u8 },
    /// `("action_over", seat, colour)`.
    ActionOver { seat: u8, colour: u8 },
    /// `("split", seat, pieces)`.
    Split { seat: u8, pieces: [u8; 18], len: u8 },
    /// `("trade", seat, mine, theirs, with)`.
    Trade {
        seat: u8,
        mine: u8,
        theirs: u8,
        with: u8,
    },
    /// `("grow", seat)`.
    Grow { seat: u8 },
    /// `("newstart", seat, number of cards gathered)`.
    NewStart { seat: u8, cards: u8 },
    /// `("deal", dealer, hands)`: every hand after the last card.
    Deal { dealer: u8, hands: Box<[Vec<u8>]> },
    /// `("pirate", seat, victim)`.
    Pirate { seat: u8, victim: u8 },
    /// `("steal", thief, victim, card)`.
    Steal { seat: u8, victim: u8, card: u8 },
    /// `("wild", seat, colour)`.
    Wild { seat: u8, colour: u8 },
    /// `("deck_out", ranking)`.
    DeckOut { ranking: Vec<u8> },
    /// `("max_turns", ranking)`.
    MaxTurns { ranking: Vec<u8> },
}

/// A full position (every hidden fact) plus the event switch.
#[derive(Clone, Debug)]
pub struct State {
    /// Number of seats (2..=4).
    pub players: u8,
    /// Rules option: tree actions on (PF-TREE).
    pub actions: bool,
    /// Rules option: the turn limit (PF-WIN-5).
    pub max_turns: i64,
    /// Rules option: the first seat (kept for equality with the Python position's options).
    pub first_player: i64,
    /// Flag piece -> the piece directly under it (-1: on the table).
    pub below: [i8; NUM_FLAG_PIECES],
    /// Flag piece -> the piece directly on it (-1: a top).
    pub above: [i8; NUM_FLAG_PIECES],
    /// Bit mask of the scoring pieces in the bank (bit p for piece p).
    pub bank: u32,
    /// Per seat, bit mask of its scoring pieces.
    pub scoring: [u32; MAX_PLAYERS],
    /// Per seat, its hidden cards in the order they came into the hand (`hand_len` used).
    pub hands: [[u8; NUM_CARDS]; MAX_PLAYERS],
    /// Per seat, the number of cards in `hands`.
    pub hand_len: [u8; MAX_PLAYERS],
    /// Per seat, its face-up cards in scoring order (`scored_len` used).
    pub scored: [[u8; NUM_CARDS]; MAX_PLAYERS],
    /// Per seat, the number of cards in `scored`.
    pub scored_len: [u8; MAX_PLAYERS],
    /// The deck, top first (`deck_len` used).
    pub deck: [u8; NUM_CARDS],
    /// The number of cards in the deck.
    pub deck_len: u8,
    /// Per seat, bit mask of the hidden cards not in its hand whose place it knows (PF-VIEW-3).
    pub known: [u64; MAX_PLAYERS],
    /// The pieces the last move moved, bottom to top (`last_len` used).
    pub last: [u8; NUM_FLAG_PIECES],
    /// Number of pieces in `last`.
    pub last_len: u8,
    /// Bit mask of `last`.
    pub last_mask: u32,
    /// The seat whose turn it is.
    pub to_move: u8,
    /// The turn number, from 1.
    pub turn: i64,
    /// NONE, CAPTURE, ACTION, STEAL or DEAL.
    pub pending: u8,
    /// The capturing seat (CAPTURE) or the mover (ACTION); -1 otherwise.
    pub player: i8,
    /// The card being captured for (CAPTURE); -1 otherwise.
    pub card: i8,
    /// The piece already taken from the bank in the pending capture (-1: none).
    pub taken: i8,
    /// The colour letter of the pending tree action (ACTION), 0 otherwise.
    pub colour: u8,
    /// The seat the pirate robs (STEAL); -1 otherwise.
    pub victim: i8,
    /// The colour letter of the tree action owed after the current scoring, 0 if none.
    pub tree: u8,
    /// Bit mask of the cards of a new start still to deal (DEAL).
    pub to_deal: u64,
    /// The winning seat, -1 if none.
    pub winner: i8,
    /// A rank per seat after a safeguard ending (1 the best); `ranked` says if present.
    pub ranking: [u8; MAX_PLAYERS],
    /// Whether `ranking` holds a ranking (the Python `ranking is not None`).
    pub ranked: bool,
    /// Whether applies record raw events into `events`.
    pub record: bool,
    /// The last apply's raw events (empty unless `record`).
    pub events: Vec<Ev>,
}

impl PartialEq for State {
    /// Position equality (the Python dataclass's): the event switch and events aside.
    fn eq(&self, o: &Self) -> bool {
        self.players == o.players
            && self.actions == o.actions
            && self.max_turns == o.max_turns
            && self.first_player == o.first_player
            && self.below == o.below
            && self.above == o.above
            && self.bank == o.bank
            && self.scoring == o.scoring
            && self.hands == o.hands
            && self.hand_len == o.hand_len
            && self.scored == o.scored
            && self.scored_len == o.scored_len
            && self.deck == o.deck
            && self.deck_len == o.deck_len
            && self.known == o.known
            && self.last == o.last
            && self.last_len == o.last_len
            && self.to_move == o.to_move
            && self.turn == o.turn
            && self.pending == o.pending
            && self.player == o.player
            && self.card == o.card
            && self.taken == o.taken
            && self.colour == o.colour
            && self.victim == o.victim
            && self.tree == o.tree
            && self.to_deal == o.to_deal
            && self.winner == o.winner
            && self.ranking == o.ranking
            && self.ranked == o.ranked
    }
}

impl State {
    /// PF-SETUP-1, PF-SETUP-3: 18 single towers, a full bank, empty hands and deck.
    pub fn start(players: usize, actions: bool, max_turns: i64, first_player: i64) -> State {
        State {
            players: players as u8,
            actions,
            max_turns,
            first_player,
            below: [-1; NUM_FLAG_PIECES],
            above: [-1; NUM_FLAG_PIECES],
            bank: SCORING_PIECES_MASK,
            scoring: [0; MAX_PLAYERS],
            hands: [[0; NUM_CARDS]; MAX_PLAYERS],
            hand_len: [0; MAX_PLAYERS],
            scored: [[0; NUM_CARDS]; MAX_PLAYERS],
            scored_len: [0; MAX_PLAYERS],
            deck: [0; NUM_CARDS],
            deck_len: 0,
            known: [0; MAX_PLAYERS],
            last: [0; NUM_FLAG_PIECES],
            last_len: 0,
            last_mask: 0,
            to_move: first_player.clamp(0, 3) as u8,
            turn: 1,
            pending: NONE,
            player: -1,
            card: -1,
            taken: -1,
            colour: 0,
            victim: -1,
            tree: 0,
            to_deal: 0,
            winner: -1,
            ranking: [0; MAX_PLAYERS],
            ranked: false,
            record: false,
            events: Vec::new(),
        }
    }

    /// Number of seats.
    #[inline]
    pub fn n(&self) -> usize {
        self.players as usize
    }

    /// Seat's hand, in the order the cards came in.
    #[inline]
    pub fn hand(&self, seat: usize) -> &[u8] {
        &self.hands[seat][..self.hand_len[seat] as usize]
    }

    /// Seat's face-up cards, in scoring order.
    #[inline]
    pub fn scored_cards(&self, seat: usize) -> &[u8] {
        &self.scored[seat][..self.scored_len[seat] as usize]
    }

    /// The deck, top first.
    #[inline]
    pub fn deck_cards(&self) -> &[u8] {
        &self.deck[..self.deck_len as usize]
    }

    /// The pieces the last move moved, bottom to top.
    #[inline]
    pub fn last_moved(&self) -> &[u8] {
        &self.last[..self.last_len as usize]
    }

    /// Bit mask of seat's hand.
    #[inline]
    pub fn hand_mask(&self, seat: usize) -> u64 {
        self.hand(seat).iter().fold(0, |m, &c| m | 1 << c)
    }

    /// Whether any hand holds a card.
    #[inline]
    pub fn any_hand(&self) -> bool {
        self.hand_len[..self.n()].iter().any(|&l| l > 0)
    }

    /// Append a card to seat's hand.
    #[inline]
    pub fn push_hand(&mut self, seat: usize, card: u8) {
        let l = self.hand_len[seat] as usize;
        self.hands[seat][l] = card;
        self.hand_len[seat] += 1;
    }

    /// Remove a card from seat's hand (keeping the order); false if absent.
    pub fn remove_hand(&mut self, seat: usize, card: u8) -> bool {
        let l = self.hand_len[seat] as usize;
        let h = &mut self.hands[seat];
        match h[..l].iter().position(|&c| c == card) {
            Some(i) => {
                h.copy_within(i + 1..l, i);
                h[l - 1] = 0;
                self.hand_len[seat] -= 1;
                true
            }
            None => false,
        }
    }

    /// Empty seat's hand.
    #[inline]
    pub fn clear_hand(&mut self, seat: usize) {
        self.hands[seat] = [0; NUM_CARDS];
        self.hand_len[seat] = 0;
    }

    /// Set the last-moved group.
    pub fn set_last(&mut self, pieces: &[u8]) {
        self.last = [0; NUM_FLAG_PIECES];
        self.last[..pieces.len()].copy_from_slice(pieces);
        self.last_len = pieces.len() as u8;
        self.last_mask = pieces.iter().fold(0, |m, &p| m | 1 << p);
    }

    /// Whether the game is over.
    #[inline]
    pub fn over(&self) -> bool {
        self.winner >= 0 || self.ranked
    }

    /// Record an event (when recording is on).
    #[inline]
    pub fn ev(&mut self, e: impl FnOnce(&State) -> Ev) {
        if self.record {
            let e = e(self);
            self.events.push(e);
        }
    }

    /// The ranking as a slice (players entries), if the game ended by a safeguard.
    pub fn ranking_slice(&self) -> Option<&[u8]> {
        if self.ranked {
            Some(&self.ranking[..self.n()])
        } else {
            None
        }
    }
}

/// `scoring.best_trio_points` of the twelve scoring pieces' bits `m` (piece `FIRST_SCORING`
/// at bit 0): the formula of `pyramids.flags.scoring`, for the tables built at compile time.
pub(crate) const fn trio_points(m: usize) -> usize {
    let mut sizes = [0usize; 3];
    let mut per = [[0usize; 3]; 4];
    let mut total = 0;
    let mut i = 0;
    while i < 12 {
        if (m >> i) & 1 == 1 {
            total += 1;
            sizes[i % 3] += 1;
            per[i / 3][i % 3] += 1;
        }
        i += 1;
    }
    let mut min = sizes[0];
    if sizes[1] < min {
        min = sizes[1];
    }
    if sizes[2] < min {
        min = sizes[2];
    }
    let mut mono = 0;
    let mut c = 0;
    while c < 4 {
        let mut k = per[c][0];
        if per[c][1] < k {
            k = per[c][1];
        }
        if per[c][2] < k {
            k = per[c][2];
        }
        mono += k;
        c += 1;
    }
    total + 2 * min + 2 * mono
}

const fn points_table() -> [u8; 4096] {
    let mut t = [0u8; 4096];
    let mut m = 0;
    while m < 4096 {
        t[m] = trio_points(m) as u8;
        m += 1;
    }
    t
}

static POINTS: [u8; 4096] = points_table();

/// PF-WIN-3: points of the scoring pieces in `mask` (best-trio scoring).
#[inline]
pub fn points(mask: u32) -> usize {
    POINTS[((mask >> FIRST_SCORING) & 0xfff) as usize] as usize
}

/// Scored flags per group (a card in two groups counts for both).
pub fn group_counts(scored: &[u8]) -> [usize; 4] {
    let mut out = [0; 4];
    for &c in scored {
        let g = GROUP_MASK[c as usize];
        for (i, o) in out.iter_mut().enumerate() {
            if (g >> i) & 1 == 1 {
                *o += 1;
            }
        }
    }
    out
}

/// PF-WIN-1..3 in the contract's order: which win condition is met, if any.
pub fn win_reason(scored: &[u8], scoring: u32) -> Option<WinReason> {
    if scored.len() >= 5 {
        return Some(WinReason::Flags(scored.len()));
    }
    if scored.len() >= 3 {
        if let Some(i) = group_counts(scored).iter().position(|&c| c >= 3) {
            return Some(WinReason::Group(i));
        }
    }
    let p = points(scoring);
    if p >= 8 {
        return Some(WinReason::Points(p));
    }
    None
}
