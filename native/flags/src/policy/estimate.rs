//! The greedy bot's estimate (`_Position` of `pyramids.games.flags.policy`): the tuning
//! constants, the tables built at compile time, and what the heuristic reads from the
//! deciding seat's view, with the worth of each table change and tree action.

use pyramids_core::Action;

use crate::consts::{
    decode_trade, trade_action, FIRST_SCORING, NUM_FLAG_PIECES, NUM_PIECES, TABLE, WILD_COLOURS,
};
use crate::deck::{GROUP_MASK, NUM_CARDS, PIECES_MASK, TOWER};
use crate::state::{points, State};

// --- tuning: the Python module's constants (see its docstrings) -------------------------

/// Standing of a seat that meets a win condition.
pub(super) const WIN: f64 = 1000.0;
/// Standing per scored flag (five win).
pub(super) const FLAG_W: f64 = 1.0;
/// Standing of a group by its number of scored flags (three win).
pub(super) const GROUP_W: [f64; 3] = [0.0, 0.25, 0.9];
/// Standing per point of the scoring pyramids (eight win).
pub(super) const PT_W: f64 = 0.3;
/// Share of the best next pyramid's extra points (beyond its own point) in the standing.
pub(super) const NEXT_W: f64 = 0.25;
/// Worth of a hand card whose flag needs d more moves (index d; 0 = standing now).
pub(crate) const REACH: [f64; 5] = [0.9, 0.4, 0.15, 0.05, 0.02];
/// Weight of an opponent's reach gains against our own.
pub(super) const OPP_REACH_W: f64 = 1.0;
/// Share of an opponent's reach loss (a flag pushed further away) that counts as our gain.
pub(super) const BLOCK_W: f64 = 0.5;
/// Weight of the points an opponent loses to a capture or a trade, for the leader.
pub(super) const VICTIM_W: f64 = 1.0;
/// The same weight for an opponent who is not the leader.
pub(super) const OTHER_VICTIM_W: f64 = 0.3;
/// From this turn on the opponent terms fade out linearly ...
pub(super) const FADE_START: i64 = 60;
/// ... reaching zero this many turns later.
pub(super) const FADE_TURNS: i64 = 60;
/// An exchange gives up the move: a small cost so that an equal move is preferred.
pub(super) const SWAP_COST: f64 = 0.02;
/// Between two bank takes leading to the same pair, take the one worth more alone first.
pub(super) const FIRST_TAKE_W: f64 = 0.01;
/// Estimated worth of a destroy action before it is used (towers to split).
pub(super) const SPLIT_GAIN: f64 = 0.05;
/// Scores within this are ties.
pub(super) const EPS: f64 = 1e-9;

/// PF-WIN-1: five flags.
pub(super) const WIN_FLAGS: usize = 5;
/// PF-WIN-2: three flags of one group.
pub(super) const WIN_GROUP_FLAGS: usize = 3;
/// PF-WIN-3: eight points.
pub(super) const WIN_POINTS: usize = 8;

/// The flag pieces (the table).
pub(crate) const N: usize = NUM_FLAG_PIECES;
/// Bit mask of every card.
pub(super) const ALL_CARDS: u64 = (1 << NUM_CARDS) - 1;
/// The flag colour letters in piece order (a tree colour indexes the tree-value cache).
pub(super) const FLAG_COLOURS: &[u8; 6] = b"KWYBGR";

// --- tables built at compile time -----------------------------------------------------------

/// Per-card and per-piece masks of the flags (`CARDS_WITH_PIECE`, `CARDS_LOWER`,
/// `CARDS_UPPER`, `TOWER_MASK`, `LINKS`) and the scoring-mask facts behind `pot`.
pub(super) struct Tables {
    cards_with_piece: [u64; N],
    cards_lower: [u64; N],
    cards_upper: [u64; N],
    tower_mask: [u32; NUM_CARDS],
    /// Card -> its links (lower, upper), `links_len` of them.
    links: [[(usize, usize); 2]; NUM_CARDS],
    links_len: [usize; NUM_CARDS],
    /// Scoring-mask index -> (points now, extra points of the best next pyramid beyond its own).
    pot: [(u8, u8); 1 << (NUM_PIECES - FIRST_SCORING)],
}

const fn build_tables() -> Tables {
    let mut t = Tables {
        cards_with_piece: [0; N],
        cards_lower: [0; N],
        cards_upper: [0; N],
        tower_mask: [0; NUM_CARDS],
        links: [[(0, 0); 2]; NUM_CARDS],
        links_len: [0; NUM_CARDS],
        pot: [(0, 0); 1 << (NUM_PIECES - FIRST_SCORING)],
    };
    let mut c = 0;
    while c < NUM_CARDS {
        let tower = TOWER[c];
        let len = if tower[2] < 0 { 2 } else { 3 };
        let mut i = 0;
        while i < len {
            let p = tower[i] as usize;
            t.tower_mask[c] |= 1 << p;
            t.cards_with_piece[p] |= 1 << c;
            i += 1;
        }
        let mut i = 0;
        while i + 1 < len {
            let (lo, up) = (tower[i] as usize, tower[i + 1] as usize);
            t.links[c][i] = (lo, up);
            t.cards_lower[lo] |= 1 << c;
            t.cards_upper[up] |= 1 << c;
            i += 1;
        }
        t.links_len[c] = len - 1;
        c += 1;
    }
    let n = NUM_PIECES - FIRST_SCORING;
    let mut idx = 0;
    while idx < 1 << n {
        let mask = (idx as u32) << FIRST_SCORING;
        let now = points_const(mask);
        let mut best = now;
        let mut q = 0;
        while q < n {
            if (idx >> q) & 1 == 0 {
                let v = points_const(mask | (1 << (FIRST_SCORING + q)));
                if v > best {
                    best = v;
                }
            }
            q += 1;
        }
        let extra = if best > now + 1 { best - now - 1 } else { 0 };
        t.pot[idx] = (now as u8, extra as u8);
        idx += 1;
    }
    t
}

/// `scoring.best_trio_points` of a scoring mask (the one formula, `state::trio_points`).
const fn points_const(mask: u32) -> usize {
    crate::state::trio_points((mask >> FIRST_SCORING) as usize)
}

pub(super) static TABLES: Tables = build_tables();

/// `pot`: points of a scoring mask plus NEXT_W of what the best next pyramid would add.
#[inline]
pub(super) fn pot(mask: u32) -> f64 {
    let (now, extra) = TABLES.pot[((mask >> FIRST_SCORING) & 0xfff) as usize];
    f64::from(now) + NEXT_W * f64::from(extra)
}

/// Python's `max(a, b)`: `a` unless `b` is greater.
#[inline]
pub(crate) fn py_max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// The table arrays (`below`, `above`) padded to 32 entries (the pieces are 0..18), so that
/// an index masked with 31 needs no bounds check. Entry [`PAD`] of `below` holds `PAD`:
/// the padding link (`PAD`, `PAD`) of a two-piece flag is always in place.
pub(crate) type Table = [i8; 32];

/// The padding index (never a piece).
const PAD: usize = 31;

/// A state's `below` or `above` as a padded [`Table`].
#[inline]
pub(crate) fn padded(t: &[i8; N]) -> Table {
    let mut out = [-1; 32];
    out[..N].copy_from_slice(t);
    out[PAD] = PAD as i8;
    out
}

/// A card's links for [`flag_distance`]: (lower, upper) of each (a two-piece flag's
/// second link is the padding link, always in place), and the flag's piece mask with bit
/// [`PAD`] set (`above` of -1 masks to `PAD`: no foreign piece).
#[derive(Clone, Copy)]
pub(super) struct Links {
    lo: [u8; 2],
    up: [u8; 2],
    fmask: u32,
}

const fn build_links() -> [Links; NUM_CARDS] {
    let tables = build_tables();
    let mut out = [Links {
        lo: [PAD as u8; 2],
        up: [PAD as u8; 2],
        fmask: 0,
    }; NUM_CARDS];
    let mut c = 0;
    while c < NUM_CARDS {
        let t = &tables;
        let mut i = 0;
        while i < t.links_len[c] {
            out[c].lo[i] = t.links[c][i].0 as u8;
            out[c].up[i] = t.links[c][i].1 as u8;
            i += 1;
        }
        out[c].fmask = t.tower_mask[c] | 1 << PAD;
        c += 1;
    }
    out
}

static LINKS: [Links; NUM_CARDS] = build_links();

/// `flag_distance`: estimated moves before `card`'s flag stands (0: it stands now): per
/// link not in place one move, and one more when a foreign piece lies on its lower piece.
/// Branch-free over the card's [`Links`] (the sum of `flag_distance_ref`).
#[inline]
pub(crate) fn flag_distance(card: usize, below: &Table, above: &Table) -> usize {
    let l = &LINKS[card];
    let link = |i: usize| {
        let (lo, up) = (l.lo[i] as usize & 31, l.up[i] as usize & 31);
        let miss = usize::from(below[up] != lo as i8);
        let foreign = usize::from((l.fmask >> (above[lo] as u32 & 31)) & 1 == 0);
        miss + (miss & foreign)
    };
    link(0) + link(1)
}

/// The reference `flag_distance` (the Python loop), kept for the tests.
#[cfg(test)]
pub(super) fn flag_distance_ref(card: usize, below: &[i8; N], above: &[i8; N]) -> usize {
    let mut d = 0;
    let fmask = TABLES.tower_mask[card];
    for &(lo, up) in &TABLES.links[card][..TABLES.links_len[card]] {
        if below[up] as i64 != lo as i64 {
            d += 1;
            let a = above[lo];
            if a >= 0 && (fmask >> a) & 1 == 0 {
                d += 1;
            }
        }
    }
    d
}

/// `standing`: WIN when a win condition is met, else the weighted progress.
#[inline]
pub(super) fn standing(flags: usize, groups: &[usize; 4], mask: u32) -> f64 {
    let top = groups.iter().copied().max().unwrap_or(0);
    if flags >= WIN_FLAGS || top >= WIN_GROUP_FLAGS || points(mask) >= WIN_POINTS {
        return WIN;
    }
    let mut g = 0.0;
    for &k in groups {
        g += GROUP_W[k];
    }
    FLAG_W * flags as f64 + g + PT_W * pot(mask)
}

/// The set bits of a mask in ascending order.
#[inline]
pub(super) fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let b = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(b)
        }
    })
}

/// `_best_capture`: (seat's new mask, new bank, victim seat) after the best capture.
pub(super) fn best_capture(
    seat: usize,
    card: usize,
    bank: u32,
    masks: &[u32],
) -> (u32, u32, Option<usize>) {
    let shown = PIECES_MASK[card];
    let mine = masks[seat];
    let mut avail = [0usize; 12];
    let mut n_avail = 0;
    for p in bits(u64::from(shown & bank)) {
        avail[n_avail] = p;
        n_avail += 1;
    }
    let (mut best_mask, mut best_bank, mut victim) = (mine, bank, None);
    let mut best = pot(mine);
    for i in 0..n_avail {
        let single = mine | (1 << avail[i]);
        let mut consider = |m: u32| {
            let v = pot(m);
            if v > best + EPS {
                best = v;
                best_mask = m;
                best_bank = bank & !(m & !mine);
            }
        };
        if i + 1 < n_avail {
            for &q in &avail[i + 1..n_avail] {
                consider(single | (1 << q));
            }
        } else {
            consider(single);
        }
    }
    for (q, &held) in masks.iter().enumerate() {
        if q == seat {
            continue;
        }
        for p in bits(u64::from(shown & held)) {
            let m = mine | (1 << p);
            let v = pot(m);
            if v > best + EPS {
                best = v;
                best_mask = m;
                best_bank = bank;
                victim = Some(q);
            }
        }
    }
    (best_mask, best_bank, victim)
}

/// `_Position`: what the heuristic reads from the deciding seat's view, computed once.
pub(super) struct Position<'a> {
    pub(super) seat: usize,
    pub(super) n: usize,
    pub(super) below: Table,
    pub(super) above: Table,
    pub(super) hand: &'a [u8],
    pub(super) hand_sizes: [usize; 4],
    pub(super) deck_size: usize,
    pub(super) bank: u32,
    pub(super) masks: [u32; 4],
    pub(super) flags: [usize; 4],
    pub(super) groups: [[usize; 4]; 4],
    pub(super) standings: [f64; 4],
    pub(super) leader: usize,
    pub(super) unknown: u64,
    /// Per opponent: (seat, chance it holds a given unseen card, cards seen in its hand).
    pub(super) owner: [(usize, f64, u64); 3],
    pub(super) n_owner: usize,
    pub(super) others: u64,
    pub(super) p_held: [f64; NUM_CARDS],
    pub(super) dist: [usize; NUM_CARDS],
    pub(super) hand_mask: u64,
    /// Bit mask of our hand's cards whose flag stands now.
    pub(super) standing_mask: u64,
    pub(super) hand_base: f64,
    pub(super) fresh: f64,
    pub(super) actions_on: bool,
    pub(super) opp_w: f64,
    pub(super) opp_cache: [Option<f64>; NUM_CARDS],
    pub(super) tree_cache: [Option<f64>; 6],
    /// [`Position::opp_delta`]'s values, card x distance, and which are computed (bit d).
    pub(super) delta: [[f64; 5]; NUM_CARDS],
    pub(super) delta_done: [u8; NUM_CARDS],
    /// The piece [`Position::lift`] prepared for (usize::MAX: none), the cards whose
    /// opponents' term is not zero for every target, and those terms.
    pub(super) lifted: usize,
    pub(super) lifted_nz: u64,
    pub(super) lifted_delta: [f64; NUM_CARDS],
}

impl<'a> Position<'a> {
    pub(super) fn new(state: &'a State, seat: usize) -> Self {
        let n = state.n();
        let mut hand_sizes = [0; 4];
        for (q, size) in hand_sizes.iter_mut().enumerate().take(n) {
            *size = state.hand_len[q] as usize;
        }
        let mut masks = [0u32; 4];
        masks[..n].copy_from_slice(&state.scoring[..n]);
        let mut flags = [0; 4];
        let mut groups = [[0; 4]; 4];
        let mut standings = [0.0; 4];
        for q in 0..n {
            let scored = state.scored_cards(q);
            flags[q] = scored.len();
            groups[q] = crate::state::group_counts(scored);
            standings[q] = standing(flags[q], &groups[q], masks[q]);
        }
        // max(opponents, key=(standing, -seat)): the best standing, the lowest seat of equals.
        let mut leader = usize::MAX;
        for q in (0..n).filter(|&q| q != seat) {
            if leader == usize::MAX || standings[q] > standings[leader] {
                leader = q;
            }
        }
        // Where the cards may be: ours, scored, seen in a hand or the deck, or unseen.
        let seen = state.known[seat];
        let hand = state.hand(seat);
        let hand_mask = state.hand_mask(seat);
        let mut known_deck = 0u64;
        for &c in state.deck_cards() {
            if (seen >> c) & 1 == 1 {
                known_deck |= 1 << c;
            }
        }
        let mut placed = hand_mask | known_deck;
        for q in 0..n {
            for &c in state.scored_cards(q) {
                placed |= 1 << c;
            }
        }
        let mut known_hand = [0u64; 4];
        for q in (0..n).filter(|&q| q != seat) {
            known_hand[q] = state.hand_mask(q) & seen;
            placed |= known_hand[q];
        }
        let unknown = ALL_CARDS & !placed;
        let n_unknown = unknown.count_ones();
        let mut owner = [(0, 0.0, 0u64); 3];
        let mut n_owner = 0;
        let mut others = unknown;
        for q in (0..n).filter(|&q| q != seat) {
            let slots = hand_sizes[q] as i64 - i64::from(known_hand[q].count_ones());
            let p = if n_unknown > 0 {
                slots as f64 / f64::from(n_unknown)
            } else {
                0.0
            };
            owner[n_owner] = (q, p, known_hand[q]);
            n_owner += 1;
            others |= known_hand[q];
        }
        let mut p_held = [0.0; NUM_CARDS];
        for c in bits(others) {
            let bit = 1u64 << c;
            let mut total = 0.0;
            for &(_, p, known) in &owner[..n_owner] {
                if (known | unknown) & bit != 0 {
                    total += if known & bit != 0 { 1.0 } else { p };
                }
            }
            p_held[c] = total;
        }
        let (below, above) = (padded(&state.below), padded(&state.above));
        let mut dist = [0; NUM_CARDS];
        for (c, d) in dist.iter_mut().enumerate() {
            *d = flag_distance(c, &below, &above);
        }
        let mut standing_mask = 0u64;
        let mut hand_base = 0.0;
        for &c in hand {
            let d = dist[c as usize];
            if d == 0 {
                standing_mask |= 1 << c;
            } else {
                hand_base += REACH[d];
            }
        }
        let deck_cards = unknown | known_deck;
        let fresh = if deck_cards != 0 {
            let mut total = 0.0;
            for c in bits(deck_cards) {
                total += REACH[dist[c]];
            }
            total / f64::from(deck_cards.count_ones())
        } else {
            0.0
        };
        let late = state.turn - FADE_START;
        let opp_w = if late <= 0 {
            1.0
        } else {
            py_max(0.0, 1.0 - late as f64 / FADE_TURNS as f64)
        };
        Position {
            seat,
            n,
            below,
            above,
            hand,
            hand_sizes,
            deck_size: state.deck_len as usize,
            bank: state.bank,
            masks,
            flags,
            groups,
            standings,
            leader,
            unknown,
            owner,
            n_owner,
            others,
            p_held,
            dist,
            hand_mask,
            standing_mask,
            hand_base,
            fresh,
            actions_on: state.actions,
            opp_w,
            opp_cache: [None; NUM_CARDS],
            tree_cache: [None; 6],
            delta: [[0.0; 5]; NUM_CARDS],
            delta_done: [0; NUM_CARDS],
            lifted: usize::MAX,
            lifted_nz: 0,
            lifted_delta: [0.0; NUM_CARDS],
        }
    }

    // --- standings ---------------------------------------------------------------------

    /// Gain in `seat`'s standing from scoring `cards` in order, best captures taken.
    pub(super) fn gain(&self, seat: usize, cards: &[u8]) -> f64 {
        let mut flags = self.flags[seat];
        let mut groups = self.groups[seat];
        let mut masks = self.masks;
        let mut bank = self.bank;
        let before = self.standings[seat];
        for &c in cards {
            flags += 1;
            let g = GROUP_MASK[c as usize];
            for (i, count) in groups.iter_mut().enumerate() {
                if (g >> i) & 1 == 1 {
                    *count += 1;
                }
            }
            if standing(flags, &groups, masks[seat]) >= WIN {
                return WIN - before;
            }
            let (new_mask, new_bank, victim) =
                best_capture(seat, c as usize, bank, &masks[..self.n]);
            bank = new_bank;
            if let Some(v) = victim {
                masks[v] &= !(new_mask & !masks[seat]);
            }
            masks[seat] = new_mask;
        }
        standing(flags, &groups, masks[seat]) - before
    }

    /// Expected gain in standing of the opponents if `card`'s flag is scored now.
    pub(super) fn opp_value(&mut self, card: usize) -> f64 {
        if let Some(v) = self.opp_cache[card] {
            return v;
        }
        let bit = 1u64 << card;
        let mut value = 0.0;
        for i in 0..self.n_owner {
            let (q, p, known) = self.owner[i];
            let prob = if known & bit != 0 {
                1.0
            } else if self.unknown & bit != 0 {
                p
            } else {
                0.0
            };
            if prob > 0.0 {
                value += prob * self.gain(q, &[card as u8]);
            }
        }
        self.opp_cache[card] = Some(value);
        value
    }

    /// What a card an opponent may hold is worth to them at distance `d`.
    pub(super) fn opp_term(&mut self, card: usize, d: usize) -> f64 {
        if d == 0 {
            return self.opp_value(card);
        }
        OPP_REACH_W * self.p_held[card] * REACH[d]
    }

    /// How much we care about `q` losing points: the leader most.
    pub(super) fn victim_weight(&self, q: usize) -> f64 {
        if q == self.leader {
            VICTIM_W
        } else {
            OTHER_VICTIM_W
        }
    }

    /// Worth of our hand as the table stands.
    pub(super) fn hand_reach(&self) -> f64 {
        let mut total = 0.0;
        for &c in self.hand {
            total += REACH[self.dist[c as usize]];
        }
        total
    }

    // --- table changes -------------------------------------------------------------------

    /// Worth of the table now in `below`/`above` (only the cards of `touched` may have
    /// changed distance).
    pub(super) fn table_value(&mut self, touched: u64) -> f64 {
        let mut value = self.hand_value(touched);
        if self.opp_w <= 0.0 {
            return value;
        }
        for c in bits(touched & self.others) {
            let d = flag_distance(c, &self.below, &self.above);
            // `value - 0.0` is `value` (bit for bit): the term of d == d0 is +0.0
            value -= self.opp_delta(c, d);
        }
        value
    }

    /// The first part of [`Position::table_value`]: our hand's worth (with the gain of the
    /// cards that stand) on the table now in `below`/`above`.
    #[inline]
    fn hand_value(&mut self, touched: u64) -> f64 {
        let mut value = self.hand_base;
        // the cards that stand, as a mask: its bit order is the code order of PF-SCORE-2
        let mut scored = self.standing_mask & !touched;
        for c in bits(touched & self.hand_mask) {
            let d = flag_distance(c, &self.below, &self.above);
            let d0 = self.dist[c];
            value -= if d0 != 0 { REACH[d0] } else { 0.0 };
            if d == 0 {
                scored |= 1 << c;
            } else {
                value += REACH[d];
            }
        }
        if scored != 0 {
            let mut cards = [0u8; NUM_CARDS];
            let mut n = 0;
            for c in bits(scored) {
                cards[n] = c as u8;
                n += 1;
            }
            value += self.gain(self.seat, &cards[..n]) + n as f64 * self.fresh;
        }
        value
    }

    /// Prepare [`Position::move_value`] for the moves of `lowest`: the opponents' terms of
    /// the cards whose distance the lift of `lowest` changes the same way for every target
    /// (`below[lowest]` off its lower piece, `above[old]` free). Only the cards with a link
    /// whose lower piece is the target read anything a target changes.
    fn lift(&mut self, lowest: usize) {
        self.lifted = lowest;
        self.lifted_nz = 0;
        if self.opp_w <= 0.0 {
            return;
        }
        let old = self.below[lowest];
        let mut cards = TABLES.cards_upper[lowest];
        if old >= 0 {
            self.above[old as usize] = -1;
            cards |= TABLES.cards_lower[old as usize];
        }
        self.below[lowest] = -1;
        for c in bits(cards & self.others) {
            let d = flag_distance(c, &self.below, &self.above);
            if d != self.dist[c] {
                self.lifted_delta[c] = self.opp_delta(c, d);
                self.lifted_nz |= 1 << c;
            }
        }
        self.below[lowest] = old;
        if old >= 0 {
            self.above[old as usize] = lowest as i8;
        }
    }

    /// The opponents' term of `card` at distance `d` in [`Position::table_value`]: what
    /// the table loop subtracts, +0.0 when `d` is the card's distance now (the loop's
    /// `continue`); computed once per (card, d).
    #[inline]
    pub(super) fn opp_delta(&mut self, c: usize, d: usize) -> f64 {
        let bit = 1u8 << d;
        if self.delta_done[c] & bit != 0 {
            return self.delta[c][d];
        }
        let d0 = self.dist[c];
        let v = if d == d0 {
            0.0
        } else {
            let helped = if d != 0 && d0 != 0 {
                OPP_REACH_W * self.p_held[c] * (REACH[d] - REACH[d0])
            } else {
                self.opp_term(c, d) - self.opp_term(c, d0)
            };
            self.opp_w
                * if helped > 0.0 {
                    helped
                } else {
                    BLOCK_W * helped
                }
        };
        self.delta[c][d] = v;
        self.delta_done[c] |= bit;
        v
    }

    /// Worth of moving `lowest` (and what is on it) onto `target`.
    ///
    /// The table value of the move, with the opponents' loop over `touched & others` in
    /// card order as [`Position::table_value`] runs it: the cards a target may change
    /// (a link whose lower piece is the target) computed here, the others' terms from
    /// [`Position::lift`] (only the nonzero ones: skipping a +0.0 term is exact).
    pub(super) fn move_value(&mut self, lowest: usize, target: usize) -> f64 {
        if self.lifted != lowest {
            self.lift(lowest);
        }
        let old = self.below[lowest];
        let mut touched = TABLES.cards_upper[lowest];
        if old >= 0 {
            self.above[old as usize] = -1;
            touched |= TABLES.cards_lower[old as usize];
        }
        let mut lower_t = 0;
        if target == TABLE {
            self.below[lowest] = -1;
        } else {
            self.below[lowest] = target as i8;
            self.above[target] = lowest as i8;
            lower_t = TABLES.cards_lower[target];
            touched |= lower_t;
        }
        let mut value = self.hand_value(touched);
        if self.opp_w > 0.0 {
            let spec = lower_t & self.others;
            for c in bits((self.lifted_nz & !lower_t) | spec) {
                value -= if (spec >> c) & 1 != 0 {
                    let d = flag_distance(c, &self.below, &self.above);
                    self.opp_delta(c, d)
                } else {
                    self.lifted_delta[c]
                };
            }
        }
        if self.actions_on {
            if let Some(colour) = tree_made(lowest, &self.below, &self.above) {
                value += self.tree_value(colour);
            }
        }
        if target != TABLE {
            self.above[target] = -1;
        }
        self.below[lowest] = old;
        if old >= 0 {
            self.above[old as usize] = lowest as i8;
        }
        value
    }

    /// The reference `move_value` (over [`Position::table_value`]), kept for the tests.
    #[cfg(test)]
    pub(super) fn move_value_ref(&mut self, lowest: usize, target: usize) -> f64 {
        let old = self.below[lowest];
        let mut touched = TABLES.cards_upper[lowest];
        if old >= 0 {
            self.above[old as usize] = -1;
            touched |= TABLES.cards_lower[old as usize];
        }
        if target == TABLE {
            self.below[lowest] = -1;
        } else {
            self.below[lowest] = target as i8;
            self.above[target] = lowest as i8;
            touched |= TABLES.cards_lower[target];
        }
        let mut value = self.table_value(touched);
        if self.actions_on {
            if let Some(colour) = tree_made(lowest, &self.below, &self.above) {
                value += self.tree_value(colour);
            }
        }
        if target != TABLE {
            self.above[target] = -1;
        }
        self.below[lowest] = old;
        if old >= 0 {
            self.above[old as usize] = lowest as i8;
        }
        value
    }

    /// Gain of splitting the tower on `bottom` into single pyramids.
    pub(super) fn split_value(&mut self, bottom: usize) -> f64 {
        let mut group = [0usize; N];
        let mut len = 1;
        group[0] = bottom;
        while len < N && self.above[group[len - 1]] >= 0 {
            group[len] = self.above[group[len - 1]] as usize;
            len += 1;
        }
        let mut touched = 0;
        for &p in &group[..len] {
            touched |= TABLES.cards_with_piece[p];
            self.below[p] = -1;
            self.above[p] = -1;
        }
        let value = self.table_value(touched) - self.table_value(0);
        for i in 0..len {
            let p = group[i];
            self.below[p] = if i > 0 { group[i - 1] as i8 } else { -1 };
            self.above[p] = if i + 1 < len { group[i + 1] as i8 } else { -1 };
        }
        value
    }

    /// Gain of the best split available now (0 when none helps).
    pub(super) fn best_split(&mut self) -> f64 {
        let mut best = 0.0;
        for b in 0..N {
            if self.below[b] < 0 && self.above[b] >= 0 {
                best = py_max(best, self.split_value(b));
            }
        }
        best
    }

    // --- tree actions --------------------------------------------------------------------

    /// Worth of a blue trade: our gain plus the weighted loss of the other seat.
    pub(super) fn trade_value(&self, action: Action) -> f64 {
        let (mine, theirs, q) = decode_trade(action);
        let ours_before = self.masks[self.seat];
        let me = (ours_before & !(1 << mine)) | (1 << theirs);
        let other = (self.masks[q] & !(1 << theirs)) | (1 << mine);
        if points(me) >= WIN_POINTS {
            return WIN;
        }
        if points(other) >= WIN_POINTS {
            return -WIN;
        }
        let ours = pot(me) - pot(ours_before);
        let loss = pot(self.masks[q]) - pot(other);
        PT_W * (ours + self.victim_weight(q) * loss)
    }

    /// Worth of the best trade available now (0 when none helps).
    pub(super) fn best_trade(&self) -> f64 {
        let mut best = 0.0;
        let seat = self.seat;
        for m in bits(u64::from(self.masks[seat])) {
            for q in (0..self.n).filter(|&q| q != seat) {
                for t in bits(u64::from(self.masks[q])) {
                    best = py_max(best, self.trade_value(trade_action(m, t, q)));
                }
            }
        }
        best
    }

    /// Expected change in our hand's worth if all hands are dealt again (PF-TREE yellow).
    pub(super) fn newstart_value(&self) -> f64 {
        let total: usize = self.hand_sizes[..self.n].iter().sum();
        if total == 0 {
            return 0.0;
        }
        let (each, extra) = (total / self.n, total % self.n);
        let share = each + usize::from(extra != 0); // the dealer is served first
        let mine = self.hand_reach();
        let mean = (mine + (total - self.hand.len()) as f64 * self.fresh) / total as f64;
        share as f64 * mean - mine
    }

    /// Estimated worth of earning `colour`'s tree action (before seeing its options).
    pub(super) fn tree_value(&mut self, colour: u8) -> f64 {
        let slot = FLAG_COLOURS.iter().position(|&c| c == colour).unwrap_or(1);
        if let Some(v) = self.tree_cache[slot] {
            return v;
        }
        let value = match colour {
            b'G' => self.deck_size.min(2) as f64 * self.fresh,
            b'K' => {
                let robbed = (0..self.n).any(|q| q != self.seat && self.hand_sizes[q] != 0);
                if robbed {
                    2.0 * self.fresh
                } else {
                    0.0
                }
            }
            b'B' => self.best_trade(),
            b'Y' => py_max(0.0, self.newstart_value()),
            b'R' => SPLIT_GAIN,
            _ => {
                let mut best = f64::NAN;
                for (i, &c) in WILD_COLOURS.iter().enumerate() {
                    let v = self.tree_value(c);
                    if i == 0 || v > best {
                        best = v;
                    }
                }
                best
            }
        };
        self.tree_cache[slot] = Some(value);
        value
    }
}

/// `rules.tree_made` (PF-TREE-1): the colour of the tree whose medium or small `lowest`
/// now is (the run `C3 C2 C1` of its colour), or None.
pub(super) fn tree_made(lowest: usize, below: &Table, above: &Table) -> Option<u8> {
    let c = lowest / 3;
    let (big, mid, small) = ((c * 3 + 2) as i8, c * 3 + 1, c * 3);
    let made = if lowest == mid {
        below[mid] == big && above[mid] == small as i8
    } else {
        lowest == small && below[small] == mid as i8 && below[mid] == big
    };
    made.then_some(FLAG_COLOURS[c])
}
