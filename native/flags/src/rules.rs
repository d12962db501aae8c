//! The rules of Pyramids and Flags as methods over a [`State`] (the mirror of
//! `pyramids.flags.rules`, one function per rule of docs/RULES.md, same names).
//!
//! A turn is a little state machine: move, then scoring seat by seat (each capture a
//! decision of the card's holder), then the mover's tree action (decisions and chance
//! points), then the end of the turn. Functions that change the state record raw events
//! (when recording is on).

use crate::consts::*;
use crate::deck::{PIECES_MASK, TOWER};
use crate::state::*;
use crate::{fault, Fault};
use pyramids_core::{Action, Refusal};

const N: usize = NUM_FLAG_PIECES;

const fn size_at_least(s: usize) -> u32 {
    let mut m = 0;
    let mut p = 0;
    while p < N {
        if p % 3 >= s {
            m |= 1 << p;
        }
        p += 1;
    }
    m
}

const fn pop_table() -> [u8; 1024] {
    let mut t = [0u8; 1024];
    let mut v = 1;
    while v < 1024 {
        t[v] = t[v >> 1] + (v & 1) as u8;
        v += 1;
    }
    t
}

/// Bits set per 10-bit value (the portable build has no popcount instruction).
static POP10: [u8; 1024] = pop_table();

/// Bits set in a target mask (19 bits).
#[inline]
fn pop19(m: u32) -> usize {
    POP10[(m & 1023) as usize] as usize + POP10[((m >> 10) & 1023) as usize] as usize
}

/// Per size index (size - 1): the mask of the flag pieces at least that large.
const SIZE_AT_LEAST: [u32; 3] = [size_at_least(0), size_at_least(1), size_at_least(2)];

impl State {
    /// `p` and every piece above it, bottom to top (what a move of `p` takes, PF-MOVE-2).
    pub fn group(&self, mut p: usize) -> ([u8; N], usize) {
        let mut out = [0u8; N];
        let mut len = 0;
        loop {
            out[len] = p as u8;
            len += 1;
            let a = self.above[p];
            if a < 0 {
                break;
            }
            p = a as usize;
        }
        (out, len)
    }

    /// Bit mask of `group(p)`.
    pub fn group_mask(&self, mut p: usize) -> u32 {
        let mut m = 1u32 << p;
        while self.above[p] >= 0 {
            p = self.above[p] as usize;
            m |= 1 << p;
        }
        m
    }

    /// The towers, each bottom to top, in piece order of their bottoms (PF-NOTE-4).
    pub fn towers(&self) -> Vec<Vec<u8>> {
        (0..N)
            .filter(|&b| self.below[b] < 0)
            .map(|b| {
                let (g, l) = self.group(b);
                g[..l].to_vec()
            })
            .collect()
    }

    /// PF-FLAG-1..3: the card's flag stands (anywhere in a tower).
    #[inline]
    pub fn is_built(&self, card: usize) -> bool {
        let t = TOWER[card];
        if self.below[t[1] as usize] != t[0] {
            return false;
        }
        t[2] < 0 || self.below[t[2] as usize] == t[1]
    }

    /// PF-TREE-1: the colour letter of the tree whose medium or small `lowest` now is, or 0.
    pub fn tree_made(&self, lowest: usize) -> u8 {
        let c = colour_of(lowest);
        let (big, mid, small) = ((c * 3 + 2) as i8, c * 3 + 1, c * 3);
        if lowest == mid {
            if self.below[mid] == big && self.above[mid] == small as i8 {
                return COLOURS[c];
            }
        } else if lowest == small && self.below[small] == mid as i8 && self.below[mid] == big {
            return COLOURS[c];
        }
        0
    }

    /// PF-MOVE-2..6: every legal move, sorted, appended to `out`.
    ///
    /// Per piece `p` (ascending): onto every top of another tower at least as large
    /// (ascending), then onto the table if `p` is not a bottom; never the group the last
    /// move moved. Bit masks: one pass over the towers for the tops, one target mask per
    /// piece, then the actions written in one go.
    pub fn move_actions(&self, out: &mut Vec<Action>) {
        // the tops (nothing on them) and each piece's top, by pointer jumping
        let mut up = [0u8; 32];
        let mut tops = 0u32;
        for (p, &a) in self.above.iter().enumerate() {
            let top = a < 0;
            up[p] = if top { p as u8 } else { a as u8 };
            tops |= u32::from(top) << p;
        }
        // two doublings reach up 4 pieces; more only while some piece's pointer is short of
        // its top (at most five in all: 2^5 > 17)
        for round in 0..5 {
            if round >= 2 && (0..N).all(|p| (tops >> (up[p] & 31)) & 1 == 1) {
                break;
            }
            for p in 0..N {
                up[p] = up[(up[p] & 31) as usize];
            }
        }
        let top_of = up;
        let skip = self.last_group_piece();
        let mut masks = [0u32; N];
        let mut total = 0;
        for (p, m) in masks.iter_mut().enumerate() {
            let mut t = tops & !(1 << (top_of[p] & 31)) & SIZE_AT_LEAST[p % 3];
            if self.below[p] >= 0 {
                t |= 1 << TABLE;
            }
            if p == skip {
                t = 0;
            }
            *m = t;
            total += pop19(t);
        }
        let start = out.len();
        out.resize(start + total, 0);
        let dst = &mut out[start..];
        let mut k = 0;
        for (p, &m) in masks.iter().enumerate() {
            let base = MOVE_BASE + (p * (N + 1)) as Action;
            let mut t = m;
            while t != 0 {
                dst[k] = base + t.trailing_zeros() as Action;
                k += 1;
                t &= t - 1;
            }
        }
    }

    /// The piece whose group (it and everything on it) is exactly the group the last move
    /// moved (PF-MOVE-5: it may not move), or `N` if none.
    #[inline]
    pub fn last_group_piece(&self) -> usize {
        let last = self.last_mask;
        for p in crate::consts::bits(u64::from(last)) {
            if self.group_mask(p) == last {
                return p;
            }
        }
        N
    }

    /// PF-MOVE-1: the mover's choices, a move or an exchange (sorted), appended to `out`.
    pub fn turn_actions(&self, out: &mut Vec<Action>) {
        self.move_actions(out);
        if self.deck_len > 0 {
            let mut m = self.hand_mask(self.to_move as usize);
            while m != 0 {
                let c = m.trailing_zeros() as Action;
                m &= m - 1;
                out.push(SWAP_BASE + c);
            }
        }
    }

    /// Why moving `lowest` onto `target` breaks PF-MOVE, or None (a refusal is built only
    /// for an illegal move).
    pub fn move_reason(&self, lowest: usize, target: usize) -> Option<Refusal> {
        let name = || piece_name(lowest);
        let moved = self.group_mask(lowest);
        if target == TABLE {
            if self.below[lowest] < 0 {
                return Some(Refusal::illegal("flags.whole_tower_to_table").with("piece", name()));
            }
        } else {
            let tname = || piece_name(target);
            if (moved >> target) & 1 == 1 {
                return Some(
                    Refusal::illegal("flags.lands_on_itself")
                        .with("piece", name())
                        .with("target", tname()),
                );
            }
            if self.above[target] >= 0 {
                return Some(
                    Refusal::illegal("flags.target_not_top")
                        .with("target", tname())
                        .with("above", piece_name(self.above[target] as usize)),
                );
            }
            if size_of(lowest) > size_of(target) {
                return Some(
                    Refusal::illegal("flags.onto_smaller_piece")
                        .with("piece", name())
                        .with("target", tname()),
                );
            }
        }
        if moved == self.last_mask {
            let last: Vec<String> = self
                .last_moved()
                .iter()
                .map(|&p| piece_name(p as usize))
                .collect();
            return Some(Refusal::illegal("flags.same_group_again").with("pieces", last));
        }
        None
    }

    /// PF-MOVE-2: move `lowest` and everything on it onto `target`, note a tree, score.
    pub fn apply_move(&mut self, lowest: usize, target: usize) {
        let old = self.below[lowest];
        if old >= 0 {
            self.above[old as usize] = -1;
        }
        if target == TABLE {
            self.below[lowest] = -1;
        } else {
            self.below[lowest] = target as i8;
            self.above[target] = lowest as i8;
        }
        let (g, len) = self.group(lowest);
        self.set_last(&g[..len]);
        let seat = self.to_move;
        self.ev(|_| Ev::Move {
            seat,
            lowest: lowest as u8,
            target: target as u8,
            group: g,
            len: len as u8,
            old,
        });
        let tree = if self.actions {
            self.tree_made(lowest)
        } else {
            0
        };
        if tree != 0 {
            self.ev(|_| Ev::Tree {
                seat,
                colour: tree,
                lowest: lowest as u8,
            });
        }
        self.tree = tree;
        self.run_scoring(seat as usize);
    }

    /// PF-SWAP-2: why the mover may not exchange `card`, or None.
    pub fn swap_reason(&self, card: usize) -> Option<Refusal> {
        let seat = self.to_move as usize;
        if !self.hand(seat).contains(&(card as u8)) {
            return Some(
                Refusal::illegal("flags.not_in_hand")
                    .with("card", crate::deck::CODES[card])
                    .with("seat", seat),
            );
        }
        if self.deck_len == 0 {
            return Some(Refusal::illegal("flags.deck_empty"));
        }
        None
    }

    /// PF-VIEW-3: a card leaves `seat`'s hand of several cards unseen: every seat not in
    /// `keep` forgets what it knew of that hand.
    pub fn forget_hand(&mut self, seat: usize, keep: &[usize]) {
        if self.hand_len[seat] > 1 {
            let hm = self.hand_mask(seat);
            for p in 0..self.n() {
                if !keep.contains(&p) {
                    self.known[p] &= !hm;
                }
            }
        }
    }

    /// PF-SWAP-1, PF-SWAP-3: `card` goes under the deck, the mover draws, no flag is checked.
    pub fn apply_swap(&mut self, card: usize) {
        let seat = self.to_move as usize;
        self.forget_hand(seat, &[seat]);
        self.remove_hand(seat, card as u8);
        self.deck[self.deck_len as usize] = card as u8;
        self.deck_len += 1;
        self.known[seat] |= 1 << card;
        self.set_last(&[]);
        self.ev(|_| Ev::Swap {
            seat: seat as u8,
            card: card as u8,
        });
        self.draw(seat, "swap");
        self.end_turn();
    }

    /// The top card of the deck goes to `seat`'s hand; false when the deck is empty.
    pub fn draw(&mut self, seat: usize, why: &'static str) -> bool {
        if self.deck_len == 0 {
            self.ev(|_| Ev::NoDraw {
                seat: seat as u8,
                why,
            });
            return false;
        }
        let card = self.deck[0];
        let l = self.deck_len as usize;
        self.deck.copy_within(1..l, 0);
        self.deck[l - 1] = 0;
        self.deck_len -= 1;
        self.push_hand(seat, card);
        self.known[seat] &= !(1 << card);
        self.ev(|_| Ev::Draw {
            seat: seat as u8,
            card,
            why,
        });
        true
    }

    /// PF-SCORE-2: the alphabetically first card in `seat`'s hand whose flag stands.
    pub fn first_built(&self, seat: usize) -> Option<usize> {
        let mut best = usize::MAX;
        for &c in self.hand(seat) {
            let c = c as usize;
            if c < best && self.is_built(c) {
                best = c;
            }
        }
        (best != usize::MAX).then_some(best)
    }

    /// PF-SCORE-1, PF-SCORE-3, PF-SCORE-4: after a move, score built cards from `seat` on.
    pub fn run_scoring(&mut self, mut seat: usize) {
        let n = self.n();
        let mover = self.to_move as usize;
        loop {
            let Some(card) = self.first_built(seat) else {
                seat = (seat + 1) % n;
                if seat == mover {
                    break;
                }
                continue;
            };
            self.remove_hand(seat, card as u8);
            let l = self.scored_len[seat] as usize;
            self.scored[seat][l] = card as u8;
            self.scored_len[seat] += 1;
            for p in 0..n {
                self.known[p] &= !(1 << card);
            }
            self.ev(|_| Ev::Flag {
                seat: seat as u8,
                card: card as u8,
            });
            if self.check_wins(seat) {
                return;
            }
            if self.capture_choices(seat, card, false) {
                self.pending = CAPTURE;
                self.player = seat as i8;
                self.card = card as i8;
                self.taken = -1;
                return;
            }
            self.ev(|_| Ev::NoCapture {
                seat: seat as u8,
                card: card as u8,
            });
            self.draw(seat, "flag");
        }
        self.after_scoring();
    }

    /// PF-CAPTURE-4: whether `seat` can still take something for `card`.
    pub fn capture_choices(&self, seat: usize, card: usize, taken: bool) -> bool {
        let cm = PIECES_MASK[card];
        if cm & self.bank != 0 {
            return true;
        }
        if taken {
            return false;
        }
        (0..self.n()).any(|q| q != seat && cm & self.scoring[q] != 0)
    }

    /// PF-CAPTURE-1..3: `done` and the takes of the pending capture, appended to `out`.
    pub fn capture_actions(&self, out: &mut Vec<Action>) {
        let seat = self.player as usize;
        let cm = PIECES_MASK[self.card as usize];
        let taken = self.taken >= 0 && !fault(Fault::CaptureMixes);
        out.push(DONE);
        for piece in bits(cm as u64) {
            let bit = 1u32 << piece;
            if self.bank & bit != 0 {
                out.push(take_action(piece, None));
            }
            if !taken {
                for q in 0..self.n() {
                    if q != seat && self.scoring[q] & bit != 0 {
                        out.push(take_action(piece, Some(q)));
                    }
                }
            }
        }
    }

    /// PF-CAPTURE-5: the capture is over; the holder draws, and scoring goes on.
    pub fn end_capture(&mut self) {
        let seat = self.player as usize;
        self.pending = NONE;
        self.player = -1;
        self.card = -1;
        self.taken = -1;
        self.draw(seat, "flag");
        self.run_scoring(seat);
    }

    /// PF-CAPTURE-1, PF-CAPTURE-4: one take of the pending capture.
    pub fn apply_take(&mut self, piece: usize, source: Option<usize>) {
        let seat = self.player as usize;
        let bit = 1u32 << piece;
        match source {
            None => self.bank &= !bit,
            Some(q) => self.scoring[q] &= !bit,
        }
        self.scoring[seat] |= bit;
        self.ev(|_| Ev::Take {
            seat: seat as u8,
            piece: piece as u8,
            source: source.map_or(-1, |q| q as i8),
        });
        if self.check_wins(seat) {
            return;
        }
        if source.is_none() && self.taken < 0 && PIECES_MASK[self.card as usize] & self.bank != 0 {
            self.taken = piece as i8;
            return;
        }
        self.end_capture();
    }

    /// PF-CAPTURE-3: `done` ends the capture, also before any take.
    pub fn decline_capture(&mut self) {
        let (seat, card) = (self.player as u8, self.card as u8);
        self.ev(|_| Ev::CaptureDone { seat, card });
        self.end_capture();
    }

    /// PF-WIN-4: the actor first, then the others in turn order; the first winner ends it.
    pub fn check_wins(&mut self, actor: usize) -> bool {
        let n = self.n();
        for i in 0..n {
            let s = (actor + i) % n;
            if let Some(reason) = win_reason(self.scored_cards(s), self.scoring[s]) {
                self.winner = s as i8;
                self.pending = NONE;
                self.player = -1;
                self.card = -1;
                self.taken = -1;
                self.colour = 0;
                self.victim = -1;
                self.tree = 0;
                self.to_deal = 0;
                self.ev(|_| Ev::Win {
                    seat: s as u8,
                    reason,
                });
                return true;
            }
        }
        false
    }

    /// PF-WIN-5: seats ranked by points, then flags, ties sharing (competition ranking).
    pub fn rank(&self) -> [u8; MAX_PLAYERS] {
        let n = self.n();
        let mut keys = [0usize; MAX_PLAYERS];
        for (s, k) in keys.iter_mut().enumerate().take(n) {
            *k = points(self.scoring[s]) * 64 + self.scored_len[s] as usize;
        }
        let mut out = [0u8; MAX_PLAYERS];
        for s in 0..n {
            out[s] = 1 + (0..n).filter(|&o| keys[o] > keys[s]).count() as u8;
        }
        out
    }

    /// PF-WIN-5, PF-WIN-6: end the game by the safeguards, or pass to the next seat.
    pub fn end_turn(&mut self) {
        self.pending = NONE;
        self.player = -1;
        self.colour = 0;
        self.victim = -1;
        self.tree = 0;
        if self.deck_len == 0 && !self.any_hand() {
            self.ranking = self.rank();
            self.ranked = true;
            self.ev(|s| Ev::DeckOut {
                ranking: s.ranking[..s.n()].to_vec(),
            });
            return;
        }
        if self.turn >= self.max_turns {
            self.ranking = self.rank();
            self.ranked = true;
            self.ev(|s| Ev::MaxTurns {
                ranking: s.ranking[..s.n()].to_vec(),
            });
            return;
        }
        self.to_move = ((self.to_move as usize + 1) % self.n()) as u8;
        self.turn += 1;
    }

    /// PF-TREE-2: after all scoring the mover uses the tree action the move earned, if any.
    pub fn after_scoring(&mut self) {
        let tree = self.tree;
        self.tree = 0;
        if tree != 0 && self.actions {
            self.start_action(tree);
        } else {
            self.end_turn();
        }
    }

    /// PF-TREE-3: an action with nothing to act on lapses; else it is the mover's decision.
    pub fn start_action(&mut self, colour: u8) {
        let seat = self.to_move;
        if !self.has_action_options(colour) {
            self.ev(|_| Ev::Lapse { seat, colour });
            self.end_turn();
            return;
        }
        self.ev(|_| Ev::Action { seat, colour });
        self.pending = ACTION;
        self.player = seat as i8;
        self.colour = colour;
    }

    /// Whether `colour`'s tree action has something to act on (PF-TREE-3).
    pub fn has_action_options(&self, colour: u8) -> bool {
        let seat = self.to_move as usize;
        match colour {
            b'R' => (0..N).any(|b| self.below[b] < 0 && self.above[b] >= 0),
            b'B' => {
                self.scoring[seat] != 0 && (0..self.n()).any(|q| q != seat && self.scoring[q] != 0)
            }
            b'G' => self.deck_len > 0,
            b'Y' => self.any_hand(),
            b'K' => (0..self.n()).any(|q| q != seat && self.hand_len[q] > 0),
            b'W' => WILD_COLOURS.iter().any(|&c| self.has_action_options(c)),
            _ => false,
        }
    }

    /// The choices (`done` aside) of `colour`'s tree action, sorted, appended to `out`.
    pub fn action_options(&self, colour: u8, out: &mut Vec<Action>) {
        let seat = self.to_move as usize;
        match colour {
            b'R' => {
                for b in 0..N {
                    if self.below[b] < 0 && self.above[b] >= 0 {
                        out.push(SPLIT_BASE + b as Action);
                    }
                }
            }
            b'B' => {
                let mine = self.scoring[seat];
                for m in bits(mine as u64) {
                    for t in FIRST_SCORING..NUM_PIECES {
                        for q in 0..self.n() {
                            if q != seat && (self.scoring[q] >> t) & 1 == 1 {
                                out.push(trade_action(m, t, q));
                            }
                        }
                    }
                }
            }
            b'G' if self.deck_len > 0 => out.push(GROW),
            b'Y' if self.any_hand() => out.push(NEWSTART),
            b'K' => {
                for q in 0..self.n() {
                    if q != seat && self.hand_len[q] > 0 {
                        out.push(PIRATE_BASE + q as Action);
                    }
                }
            }
            b'W' => {
                for (i, &c) in WILD_COLOURS.iter().enumerate() {
                    if self.has_action_options(c) {
                        out.push(WILD_BASE + i as Action);
                    }
                }
            }
            _ => {}
        }
    }

    /// Whether `action` is one of `colour`'s tree action choices (the membership test of
    /// [`State::action_options`], without building the list).
    pub fn is_action_option(&self, colour: u8, action: Action) -> bool {
        let seat = self.to_move as usize;
        match colour {
            b'R' => {
                (SPLIT_BASE..SPLIT_BASE + N as Action).contains(&action) && {
                    let b = (action - SPLIT_BASE) as usize;
                    self.below[b] < 0 && self.above[b] >= 0
                }
            }
            b'B' => {
                (TRADE_BASE..GROW).contains(&action) && {
                    let (m, t, q) = decode_trade(action);
                    (self.scoring[seat] >> m) & 1 == 1
                        && q != seat
                        && q < self.n()
                        && (self.scoring[q] >> t) & 1 == 1
                }
            }
            b'G' => action == GROW && self.deck_len > 0,
            b'Y' => action == NEWSTART && self.any_hand(),
            b'K' => {
                (PIRATE_BASE..WILD_BASE).contains(&action) && {
                    let q = (action - PIRATE_BASE) as usize;
                    q != seat && q < self.n() && self.hand_len[q] > 0
                }
            }
            b'W' => {
                (WILD_BASE..WILD_BASE + WILD_COLOURS.len() as Action).contains(&action)
                    && self.has_action_options(WILD_COLOURS[(action - WILD_BASE) as usize])
            }
            _ => false,
        }
    }

    /// PF-TREE-4: the tower on `bottom` becomes single pyramids; the action goes on while
    /// some tower has two pieces.
    pub fn apply_split(&mut self, bottom: usize) {
        let seat = self.to_move;
        let (g, len) = self.group(bottom);
        for &p in &g[..len] {
            self.below[p as usize] = -1;
            self.above[p as usize] = -1;
        }
        self.ev(|_| Ev::Split {
            seat,
            pieces: g,
            len: len as u8,
        });
        if !self.has_action_options(b'R') {
            self.ev(|_| Ev::ActionOver { seat, colour: b'R' });
            self.end_turn();
        }
    }

    /// PF-TREE-5: swap one scoring pyramid of the mover with one of an opponent; win check.
    pub fn apply_trade(&mut self, action: Action) {
        let seat = self.to_move as usize;
        let (mine, theirs, q) = decode_trade(action);
        self.scoring[seat] = (self.scoring[seat] & !(1 << mine)) | (1 << theirs);
        self.scoring[q] = (self.scoring[q] & !(1 << theirs)) | (1 << mine);
        self.ev(|_| Ev::Trade {
            seat: seat as u8,
            mine: mine as u8,
            theirs: theirs as u8,
            with: q as u8,
        });
        if !self.check_wins(seat) {
            self.end_turn();
        }
    }

    /// PF-TREE-6: the mover draws two cards (fewer from a short deck).
    pub fn apply_grow(&mut self) {
        let seat = self.to_move as usize;
        self.ev(|_| Ev::Grow { seat: seat as u8 });
        if self.draw(seat, "grow") {
            self.draw(seat, "grow");
        }
        self.end_turn();
    }

    /// PF-TREE-7: all hands are gathered, to be dealt again card by card; every seat
    /// forgets them.
    pub fn apply_newstart(&mut self) {
        let seat = self.to_move;
        let mut pool = 0u64;
        for s in 0..self.n() {
            pool |= self.hand_mask(s);
        }
        for p in 0..self.n() {
            self.known[p] &= !pool;
        }
        for s in 0..self.n() {
            self.clear_hand(s);
        }
        self.to_deal = pool;
        let cards = pool.count_ones() as u8;
        self.ev(|_| Ev::NewStart { seat, cards });
        self.pending = DEAL;
    }

    /// PF-TREE-7: the seat the next card of a new start goes to.
    pub fn deal_seat(&self) -> usize {
        let dealt: usize = self.hand_len[..self.n()].iter().map(|&l| l as usize).sum();
        let off = if fault(Fault::DealSeat) { 1 } else { 0 };
        (self.to_move as usize + dealt + off) % self.n()
    }

    /// PF-TREE-7, PF-VIEW-3: `card` goes to the next seat served; after the last card each
    /// seat knows the cards of the only other seat served (if just one was).
    pub fn apply_deal(&mut self, card: usize) {
        let n = self.n();
        let seat = self.deal_seat();
        self.to_deal &= !(1 << card);
        self.push_hand(seat, card as u8);
        if self.to_deal != 0 {
            return;
        }
        let mut masks = [0u64; MAX_PLAYERS];
        for (q, m) in masks.iter_mut().enumerate().take(n) {
            *m = self.hand_mask(q);
        }
        for p in 0..n {
            let mut only = None;
            let mut count = 0;
            for q in 0..n {
                if q != p && self.hand_len[q] > 0 {
                    count += 1;
                    only = Some(q);
                }
            }
            if count == 1 {
                if let Some(q) = only {
                    self.known[p] |= masks[q];
                }
            }
        }
        self.ev(|s| Ev::Deal {
            dealer: s.to_move,
            hands: (0..s.n()).map(|q| s.hand(q).to_vec()).collect(),
        });
        self.end_turn();
    }

    /// PF-TREE-8: the pirate names an opponent holding a card; a steal (chance) follows.
    pub fn apply_pirate(&mut self, victim: usize) {
        let seat = self.to_move;
        self.ev(|_| Ev::Pirate {
            seat,
            victim: victim as u8,
        });
        self.pending = STEAL;
        self.victim = victim as i8;
    }

    /// PF-TREE-8, PF-VIEW-3: the thief takes `card`; thief and victim know where it is.
    pub fn apply_steal(&mut self, card: usize) {
        let thief = self.to_move as usize;
        let victim = self.victim as usize;
        self.forget_hand(victim, &[thief, victim]);
        self.remove_hand(victim, card as u8);
        self.push_hand(thief, card as u8);
        self.known[thief] &= !(1 << card);
        if !fault(Fault::StealKnowledge) {
            self.known[victim] |= 1 << card;
        }
        self.ev(|_| Ev::Steal {
            seat: thief as u8,
            victim: victim as u8,
            card: card as u8,
        });
        self.end_turn();
    }

    /// PF-TREE-9: a white tree stands for the chosen colour, whose action follows.
    pub fn apply_wild(&mut self, action: Action) {
        let chosen = WILD_COLOURS[(action - WILD_BASE) as usize];
        let seat = self.to_move;
        self.ev(|_| Ev::Wild {
            seat,
            colour: chosen,
        });
        self.colour = chosen;
    }

    /// PF-TREE-2, PF-TREE-10: `done` declines (or ends) the tree action.
    pub fn decline_action(&mut self) {
        let (seat, colour) = (self.to_move, self.colour);
        self.ev(|_| Ev::Decline { seat, colour });
        self.end_turn();
    }

    /// One choice of the pending tree action (checked by the caller).
    pub fn apply_tree_action(&mut self, action: Action) {
        if action == DONE {
            self.decline_action();
            return;
        }
        match self.colour {
            b'R' => self.apply_split((action - SPLIT_BASE) as usize),
            b'B' => self.apply_trade(action),
            b'G' => self.apply_grow(),
            b'Y' => self.apply_newstart(),
            b'K' => self.apply_pirate((action - PIRATE_BASE) as usize),
            _ => self.apply_wild(action),
        }
    }
}
