//! Mayhem (FP-MAYHEM, `mayhem.py`): the five checks, resolving each event, the loop between
//! them, the fire die, and call-out mode's reading of standing mayhem.
//!
//! As in Python, mayhem is looked for only among the candidates (tiles where something
//! changed), which holds every standing event; the first event is the smallest
//! (category, key).

use crate::events::{Cell, RawEvent};
use crate::fault::{fault_on, Fault};
use crate::state::{State, DIE, FALL, NONE};
use crate::tiles::{
    completes_curse, fits, is_ember, Key, EMBER_MASK, HALF, IGNITES, MATERIAL, NEIGHBOURS,
    SUPPORT_LEFT, SUPPORT_RIGHT,
};

/// FP-AIR-1: a tile in row >= 1 with no support.
pub const FREE_AIR: u8 = 1;
/// FP-COLLAPSE-1: a supported tile that does not fit.
pub const COLLAPSE: u8 = 2;
/// FP-EXPLODE-1: touching embers.
pub const EXPLOSION: u8 = 3;
/// FP-FIRE-1: an ember touching what it ignites.
pub const FIRE: u8 = 4;
/// FP-CURSE-2: three of one number.
pub const CURSE: u8 = 5;
const NO_EVENT: u8 = 9;

/// The category names of the `call` event.
pub fn category_name(cat: u8) -> &'static str {
    match cat {
        FREE_AIR => "free_air",
        COLLAPSE => "collapse",
        EXPLOSION => "explosion",
        FIRE => "fire",
        _ => "curse",
    }
}

/// A fixed buffer of at most `N` (tile, key) cells (45 by default: the whole pyramid).
#[derive(Clone, Copy)]
pub struct Cells<const N: usize = 45> {
    n: usize,
    items: [Cell; N],
}

impl<const N: usize> Cells<N> {
    fn new() -> Self {
        Cells {
            n: 0,
            items: [(0, 0); N],
        }
    }
    fn push(&mut self, c: Cell) {
        if self.n < N {
            self.items[self.n] = c;
            self.n += 1;
        }
    }
    /// The cells.
    pub fn as_slice(&self) -> &[Cell] {
        &self.items[..self.n]
    }
}

/// A fixed set of keys (for the group and reach searches).
struct Keys {
    n: usize,
    items: [Key; 46],
}

impl Keys {
    fn new() -> Self {
        Keys {
            n: 0,
            items: [0; 46],
        }
    }
    fn contains(&self, k: Key) -> bool {
        self.items[..self.n].contains(&k)
    }
    fn push(&mut self, k: Key) {
        if self.n < 46 {
            self.items[self.n] = k;
            self.n += 1;
        }
    }
}

impl State {
    /// Checks 3 and 4 for the ember `t` at `k`: EXPLOSION, FIRE or 0 (FP-EXPLODE-1,
    /// FP-FIRE-1, FP-FIRE-4, FP-DIE-6).
    #[inline]
    fn ember_check(&self, k: Key, t: u8) -> u8 {
        let ignites = if self.is_quenched(t) {
            0
        } else {
            IGNITES[usize::from(t)]
        };
        let mut fire = false;
        for off in NEIGHBOURS {
            if let Some(nt) = self.board.get(k + off) {
                if is_ember(nt) {
                    return EXPLOSION;
                }
                if MATERIAL[usize::from(nt)] & ignites != 0 {
                    fire = true;
                }
            }
        }
        if fire {
            FIRE
        } else {
            0
        }
    }

    /// FP-MAYHEM-1: the first check that finds an event at `k` (tile `t`), or 0.
    #[inline]
    pub fn mayhem_category(&self, k: Key, t: u8, curse_on: bool) -> u8 {
        let (mut s1, mut s2) = (None, None);
        if k < -HALF {
            s1 = self.board.get(k + SUPPORT_LEFT);
            s2 = self.board.get(k + SUPPORT_RIGHT);
            if s1.is_none() && s2.is_none() {
                return FREE_AIR;
            }
            if !fits(t, s1, s2) {
                return COLLAPSE;
            }
        }
        if is_ember(t) {
            let cat = self.ember_check(k, t);
            if cat != 0 {
                return cat;
            }
        }
        if curse_on {
            if let (Some(l), Some(r)) = (s1, s2) {
                if completes_curse(t, l, r) && !fault_on(Fault::NoCurse) {
                    return CURSE;
                }
            }
        }
        0
    }

    /// FP-MAYHEM-2: (category, key) of the first event, or (0, 0); candidates without an
    /// event are dropped.
    pub fn first_event(&mut self, curse_on: bool) -> (u8, Key) {
        let mut best_cat = NO_EVENT;
        let mut best_k: Key = 0;
        let mut live = 0u64;
        let mut cands = self.candidates & self.board.mask;
        while cands != 0 {
            let t = cands.trailing_zeros() as u8;
            cands &= cands - 1;
            let k = self.board.key_of[usize::from(t)];
            let cat = self.mayhem_category(k, t, curse_on);
            if cat != 0 {
                live |= 1 << t;
                if cat < best_cat || (cat == best_cat && k < best_k) {
                    best_cat = cat;
                    best_k = k;
                }
            }
        }
        if best_cat == NO_EVENT {
            self.candidates = 0;
            return (0, 0);
        }
        self.candidates = live;
        (best_cat, best_k)
    }

    /// FP-MAYHEM-2..5: resolve events until a decision is needed or the turn ends.
    pub fn resolve(&mut self) {
        let curse_on = self.opts.curse;
        let out = self.overlooked && self.opts.family_callout();
        loop {
            let (cat, k) = if self.candidates != 0 {
                self.first_event(curse_on)
            } else {
                (0, 0)
            };
            if cat == 0 {
                self.overlooked = false;
                self.end_turn();
                return;
            }
            let p = self.responsible;
            match cat {
                FREE_AIR => {
                    let t = self.board.get(k).unwrap_or(0);
                    self.emit(|| RawEvent::FreeAir(p, t, k));
                    self.pending = FALL;
                    self.pending_key = k;
                    return;
                }
                COLLAPSE => {
                    self.collapse(k, p, out);
                    return;
                }
                EXPLOSION => self.explode(k, p, out),
                FIRE => {
                    if self.opts.fire_die {
                        self.pending = DIE;
                        self.pending_key = k;
                        let t = self.board.get(k).unwrap_or(0);
                        self.emit(|| RawEvent::FireFound(p, t, k));
                        return;
                    }
                    self.burn(k, p, true, 0, out);
                }
                _ => self.curse(k, p, out),
            }
        }
    }

    /// Tile `t` leaves the game for good.
    fn send_out(&mut self, t: u8) {
        self.out.push(t);
        self.in_play &= !(1 << t);
    }

    /// FP-MAYHEM-4: tiles go under `seat`'s pile in order (FP-CALL-6: out of the game with `out`).
    fn send_under(&mut self, seat: u8, cells: &[Cell], out: bool) {
        for &(t, _) in cells {
            if out {
                self.send_out(t);
            } else {
                self.piles[usize::from(seat)].push(t);
            }
        }
    }

    /// FP-COLLAPSE-1, FP-COLLAPSE-2: the supports go under P's pile, left first; a fall is pending.
    fn collapse(&mut self, k: Key, p: u8, out: bool) {
        let t = self.board.get(k).unwrap_or(0);
        let mut gone = Cells::<2>::new();
        for s in [k + SUPPORT_LEFT, k + SUPPORT_RIGHT] {
            if self.board.contains(s) {
                gone.push((self.remove_tile(s), s));
            }
        }
        self.send_under(p, gone.as_slice(), out);
        self.emit(|| RawEvent::Collapse(p, t, k, gone.as_slice().to_vec(), out));
        self.pending = FALL;
        self.pending_key = k;
    }

    /// FP-AIR-1, FP-AIR-2, FP-COLLAPSE-3: the pending tile drops left (0) or right (1).
    pub fn fall(&mut self, side: u8) {
        let k = self.pending_key;
        self.pending = NONE;
        let t = self.remove_tile(k);
        let target = k + if side == 0 {
            SUPPORT_LEFT
        } else {
            SUPPORT_RIGHT
        };
        self.add_tile(target, t);
        let p = self.responsible;
        self.emit(|| RawEvent::Fall(p, t, k, target, side));
    }

    /// FP-EXPLODE-1: the group of embers joined to the one at `k`, and the tiles touching
    /// it, both in scan order.
    fn ember_group(&self, k: Key) -> (Keys, Keys) {
        let mut group = Keys::new();
        group.push(k);
        let mut i = 0;
        while i < group.n {
            let e = group.items[i];
            for off in NEIGHBOURS {
                let n = e + off;
                if let Some(nt) = self.board.get(n) {
                    if is_ember(nt) && !group.contains(n) {
                        group.push(n);
                    }
                }
            }
            i += 1;
        }
        let mut victims = Keys::new();
        for &e in &group.items[..group.n] {
            for off in NEIGHBOURS {
                let n = e + off;
                if self.board.contains(n) && !group.contains(n) && !victims.contains(n) {
                    victims.push(n);
                }
            }
        }
        group.items[..group.n].sort_unstable();
        victims.items[..victims.n].sort_unstable();
        (group, victims)
    }

    /// FP-EXPLODE-1, FP-EXPLODE-2: the group leaves the game, every tile touching it goes to P.
    fn explode(&mut self, k: Key, p: u8, out: bool) {
        let (group, victims) = self.ember_group(k);
        let mut embers = Cells::<45>::new();
        for &e in &group.items[..group.n] {
            embers.push((self.remove_tile(e), e));
        }
        let mut hit = Cells::<45>::new();
        for &v in &victims.items[..victims.n] {
            hit.push((self.remove_tile(v), v));
        }
        for &(t, _) in embers.as_slice() {
            self.send_out(t);
        }
        self.send_under(p, hit.as_slice(), out);
        self.emit(|| {
            RawEvent::Explosion(p, embers.as_slice().to_vec(), hit.as_slice().to_vec(), out)
        });
    }

    /// FP-FIRE-2: the keys a fire from `k` reaches (not `k`), unsorted.
    fn fire_reach(&self, k: Key, ignites: u8) -> Keys {
        let mut reached = Keys::new();
        reached.push(k);
        let mut i = 0;
        while i < reached.n {
            let q = reached.items[i];
            for off in NEIGHBOURS {
                let n = q + off;
                if !reached.contains(n) {
                    if let Some(nt) = self.board.get(n) {
                        if MATERIAL[usize::from(nt)] & ignites != 0 {
                            reached.push(n);
                        }
                    }
                }
            }
            i += 1;
        }
        // drop k (the first item)
        reached.items.copy_within(1..reached.n, 0);
        reached.n -= 1;
        reached
    }

    /// FP-FIRE-2, FP-FIRE-3, FP-FIRE-5: every tile the ember ignites joined to it burns.
    fn burn(&mut self, k: Key, p: u8, remove_ember: bool, roll: u8, out: bool) {
        let ember = self.board.get(k).unwrap_or(0);
        let mut reach = self.fire_reach(k, IGNITES[usize::from(ember)]);
        reach.items[..reach.n].sort_unstable();
        let mut burnt = Cells::<45>::new();
        for &v in &reach.items[..reach.n] {
            burnt.push((self.remove_tile(v), v));
        }
        self.unquench(ember);
        self.send_under(p, burnt.as_slice(), out);
        if remove_ember {
            self.remove_tile(k);
            self.send_out(ember);
        }
        self.emit(|| {
            RawEvent::Fire(
                p,
                ember,
                k,
                burnt.as_slice().to_vec(),
                remove_ember,
                roll,
                out,
            )
        });
    }

    /// FP-CURSE-3..5: the trio goes to the seat on P's right, who becomes P.
    fn curse(&mut self, k: Key, p: u8, out: bool) {
        let n = self.n();
        let target = ((usize::from(p) + n - 1) % n) as u8;
        let mut trio = Cells::<3>::new();
        for s in [k, k + SUPPORT_LEFT, k + SUPPORT_RIGHT] {
            trio.push((self.remove_tile(s), s));
        }
        self.send_under(target, trio.as_slice(), out);
        self.responsible = target;
        self.emit(|| RawEvent::Curse(p, target, trio.as_slice().to_vec(), out));
    }

    /// FP-DIE-4: roll 5, the ember explodes alone.
    fn die_explosion(&mut self, k: Key, p: u8, out: bool) {
        let ember = self.board.get(k).unwrap_or(0);
        let mut keys: [Key; 6] = [0; 6];
        let mut n = 0;
        for off in NEIGHBOURS {
            if self.board.contains(k + off) {
                keys[n] = k + off;
                n += 1;
            }
        }
        keys[..n].sort_unstable();
        let mut victims = Cells::<6>::new();
        for &v in &keys[..n] {
            victims.push((self.remove_tile(v), v));
        }
        self.remove_tile(k);
        self.send_out(ember);
        self.send_under(p, victims.as_slice(), out);
        self.emit(|| RawEvent::DieExplosion(p, ember, k, victims.as_slice().to_vec(), out));
    }

    /// FP-DIE-5, FP-DIE-6: roll 6, the ember is quenched with the tiles touching it now.
    fn quench(&mut self, k: Key, p: u8) {
        let ember = self.board.get(k).unwrap_or(0);
        let mut mask = 0u64;
        for off in NEIGHBOURS {
            if let Some(nt) = self.board.get(k + off) {
                mask |= 1 << nt;
            }
        }
        self.set_quench(ember, mask);
        self.emit(|| RawEvent::Quench(p, ember, k));
    }

    /// FP-DIE-1..6: apply the pending fire-die `roll` (1 to 6), then go on with mayhem.
    pub fn roll_die(&mut self, roll: u8) {
        let k = self.pending_key;
        self.pending = NONE;
        let p = self.responsible;
        if let Some(e) = self.board.get(k) {
            self.unquench(e);
        }
        let out = self.overlooked && self.opts.family_callout();
        if roll <= 4 {
            self.burn(k, p, roll == 4, roll, out);
        } else if roll == 5 {
            self.die_explosion(k, p, out);
        } else {
            self.quench(k, p);
        }
        if let Some(t) = self.board.get(k) {
            self.candidates |= 1 << t;
        }
        self.resolve();
    }

    // --- call-out mode ------------------------------------------------------------------

    /// FP-CALL-5: whether any check would find an event now.
    pub fn standing_mayhem(&mut self, curse_on: bool) -> bool {
        self.candidates != 0 && self.first_event(curse_on).0 != 0
    }

    /// FP-CALL-3: per tile, the first check that acts on it (0: a call would be wrong).
    pub fn called_keys(&mut self, curse_on: bool) -> [u8; 45] {
        let mut found = [NO_EVENT; 45];
        if !self.standing_mayhem(curse_on) {
            return [0; 45];
        }
        let mark = |found: &mut [u8; 45], t: u8, cat: u8| {
            if found[usize::from(t)] > cat {
                found[usize::from(t)] = cat;
            }
        };
        let embers_on = self.board.mask & EMBER_MASK;
        for t in crate::board::bits(self.candidates & self.board.mask) {
            let k = self.board.key_of[usize::from(t)];
            if k < -HALF {
                let (sl, sr) = (k + SUPPORT_LEFT, k + SUPPORT_RIGHT);
                let (s1, s2) = (self.board.get(sl), self.board.get(sr));
                if s1.is_none() && s2.is_none() {
                    mark(&mut found, t, FREE_AIR);
                } else if !fits(t, s1, s2) {
                    mark(&mut found, t, COLLAPSE);
                    for s in [s1, s2].into_iter().flatten() {
                        mark(&mut found, s, COLLAPSE);
                    }
                }
                if curse_on {
                    if let (Some(l), Some(r)) = (s1, s2) {
                        if completes_curse(t, l, r) {
                            for s in [t, l, r] {
                                mark(&mut found, s, CURSE);
                            }
                        }
                    }
                }
            }
            if is_ember(t) {
                let touching = embers_on != 0
                    && NEIGHBOURS
                        .iter()
                        .any(|off| self.board.get(k + off).is_some_and(is_ember));
                if touching {
                    let (group, victims) = self.ember_group(k);
                    for &v in group.items[..group.n]
                        .iter()
                        .chain(&victims.items[..victims.n])
                    {
                        if let Some(vt) = self.board.get(v) {
                            mark(&mut found, vt, EXPLOSION);
                        }
                    }
                }
                if !self.is_quenched(t) {
                    let reach = self.fire_reach(k, IGNITES[usize::from(t)]);
                    if reach.n > 0 {
                        mark(&mut found, t, FIRE);
                        for &v in &reach.items[..reach.n] {
                            if let Some(vt) = self.board.get(v) {
                                mark(&mut found, vt, FIRE);
                            }
                        }
                    }
                }
            }
        }
        for f in found.iter_mut() {
            if *f == NO_EVENT {
                *f = 0;
            }
        }
        found
    }
}
