//! Where the active player may play (FP-PLACE, `placement.py`): the forced spots F, else
//! the base ends; and why a placement is refused.
//!
//! F (FP-PLACE-3) is an empty key in row >= 1 on two tiles, or an empty base key strictly
//! between the base ends (with two base tiles or more). The row >= 1 part is kept on the
//! state as a bit mask of the left supports (`State::forced_up`, updated by
//! `add_tile`/`remove_tile`); the base part is read off the base ends. The Python engine
//! keeps the same set incrementally; the differential tests prove the two equal.

use pyramids_core::Refusal;

use crate::actions::{decode_place, place_action};
use crate::board::bits;
use crate::state::{State, HAND_SIZE};
use crate::tiles::{is_base, key_of, name, spot_name, Key, ABOVE_RIGHT, NUM_TILES};

impl State {
    /// Whether `k` is a forced spot (FP-PLACE-3).
    #[inline]
    pub fn is_forced(&self, k: Key) -> bool {
        if is_base(k) {
            !self.board.contains(k)
                && self.base_n >= 2
                && self.base_lo < k
                && k < self.base_hi
                && k % 2 == 0
        } else {
            // empty and on two tiles: the left support's bit in `forced_up`
            k.checked_add(crate::tiles::SUPPORT_LEFT)
                .and_then(|s| self.board.get(s))
                .is_some_and(|b| (self.forced_up >> b) & 1 == 1)
        }
    }

    /// The forced spots in row >= 1 in scan order (ascending keys) into `buf`; their number.
    #[inline]
    fn upper_forced(&self, buf: &mut [Key; 64]) -> usize {
        let mut n = 0;
        for t in bits(self.forced_up) {
            let k = self.board.key_of[usize::from(t)] + ABOVE_RIGHT;
            // insertion sort: a handful of spots
            let mut i = n;
            while i > 0 && buf[i - 1] > k {
                buf[i] = buf[i - 1];
                i -= 1;
            }
            buf[i] = k;
            n += 1;
        }
        n
    }

    /// Whether the base has a gap between its ends.
    #[inline]
    fn has_base_gap(&self) -> bool {
        self.base_n >= 2 && ((self.base_hi - self.base_lo) / 2 + 1) as u32 > self.base_n
    }

    /// Whether any forced spot exists.
    #[inline]
    pub fn has_forced(&self) -> bool {
        self.forced_up != 0 || self.has_base_gap()
    }

    /// FP-PLACE-2..5: the spots to play on, in scan order (ascending keys), each given to
    /// `each` in turn.
    #[inline]
    fn for_each_spot(&self, mut each: impl FnMut(Key)) {
        let mut buf = [0; 64];
        let n = self.upper_forced(&mut buf);
        for &k in &buf[..n] {
            each(k);
        }
        let gap = self.has_base_gap();
        if gap {
            let mut c = self.base_lo + 2;
            while c < self.base_hi {
                if !self.board.contains(c) {
                    each(c);
                }
                c += 2;
            }
        }
        if n == 0 && !gap {
            if self.base_n == 0 {
                each(key_of(0, 0));
            } else {
                each(self.base_lo - 2);
                each(self.base_hi + 2);
            }
        }
    }

    /// FP-PLACE-2..5: the spots to play on, in scan order (ascending keys), into `out`.
    pub fn placement_spots_into(&self, out: &mut Vec<Key>) {
        out.clear();
        self.for_each_spot(|k| out.push(k));
    }

    /// The placement spots as a new vector.
    pub fn placement_spots(&self) -> Vec<Key> {
        let mut v = Vec::new();
        self.placement_spots_into(&mut v);
        v
    }

    /// Whether the active player may play on `k` (the apply-time check).
    #[inline]
    pub fn is_placement_spot(&self, k: Key) -> bool {
        if self.has_forced() {
            self.is_forced(k)
        } else if self.base_n == 0 {
            k == 0
        } else {
            k == self.base_lo - 2 || k == self.base_hi + 2
        }
    }

    /// FP-PLACE-1, FP-PLACE-4: every (spot, hand tile) pair, ascending, appended to `out`.
    pub fn placement_actions_into(&self, out: &mut Vec<u64>) {
        // the hand's tiles ascending (its bit mask), then each spot's actions at once
        let mut tiles = [0u64; HAND_SIZE];
        let mut n = 0;
        for t in bits(self.hands[usize::from(self.to_move)].mask()) {
            if n < HAND_SIZE {
                tiles[n] = u64::from(t);
                n += 1;
            }
        }
        self.for_each_spot(|k| {
            let base = place_action(0, k);
            let mut actions = tiles;
            for a in actions.iter_mut() {
                *a += base;
            }
            // a fixed-size copy (no call), then the unused tail dropped
            out.extend_from_slice(&actions);
            out.truncate(out.len() - (HAND_SIZE - n));
        });
    }

    /// Why placement `action` is illegal at rest (the refusal), or None.
    pub fn placement_refusal(&self, action: u64) -> Option<Refusal> {
        let (tile, k) = decode_place(action);
        if usize::from(tile) >= NUM_TILES {
            return Some(Refusal::illegal("flaming.not_an_action").with("action", action));
        }
        let seat = self.to_move;
        if !self.hands[usize::from(seat)].contains(tile) {
            if (self.board.mask >> tile) & 1 == 1 {
                let at = self.board.key_of[usize::from(tile)];
                return Some(
                    Refusal::illegal("flaming.on_pyramid_not_in_hand")
                        .with("tile", name(tile))
                        .with("seat", seat)
                        .with("spot", spot_name(at.into())),
                );
            }
            return Some(
                Refusal::illegal("flaming.not_in_hand")
                    .with("tile", name(tile))
                    .with("seat", seat),
            );
        }
        let spots = self.placement_spots();
        if let Ok(k32) = Key::try_from(k) {
            if spots.contains(&k32) {
                return None;
            }
        }
        let listing: Vec<String> = spots.iter().map(|&s| spot_name(s.into())).collect();
        if let Some(there) = self.board.get_wide(k) {
            return Some(
                Refusal::illegal("flaming.spot_taken")
                    .with("spot", spot_name(k))
                    .with("tile", name(there))
                    .with("seat", seat)
                    .with("spots", listing),
            );
        }
        Some(
            Refusal::illegal("flaming.spot_not_allowed")
                .with("tile", name(tile))
                .with("spot", spot_name(k))
                .with("seat", seat)
                .with("spots", listing),
        )
    }
}
