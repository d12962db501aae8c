//! The pyramid as plain data: which tile sits at which key, both ways, with no allocation.
//!
//! `key_of[t]` gives a tile's key (or `NO_KEY`), `mask` the tiles on the pyramid, and a
//! 128-slot open-addressing table (linear probing, backward-shift deletion) maps a key to
//! its tile. `seq[t]` numbers insertions so the pyramid can be listed in the insertion
//! order of the Python engine's `board` dict (what its views and `board` accessor show).

use crate::tiles::{Key, NUM_TILES};

const SLOTS: usize = 128;
const EMPTY: Key = i32::MIN;
/// `key_of[t]` of a tile that is not on the pyramid.
pub const NO_KEY: Key = i32::MIN;

/// Key -> tile and tile -> key for the tiles on the pyramid.
#[derive(Clone, Debug)]
pub struct Board {
    /// Bit mask of the tiles on the pyramid.
    pub mask: u64,
    /// Each tile's key, `NO_KEY` when not on the pyramid.
    pub key_of: [Key; NUM_TILES],
    /// Insertion number of each tile on the pyramid (the Python dict's order).
    pub seq: [u32; NUM_TILES],
    next_seq: u32,
    keys: [Key; SLOTS],
    tiles: [u8; SLOTS],
}

impl Default for Board {
    fn default() -> Self {
        Board {
            mask: 0,
            key_of: [NO_KEY; NUM_TILES],
            seq: [0; NUM_TILES],
            next_seq: 0,
            keys: [EMPTY; SLOTS],
            tiles: [0; SLOTS],
        }
    }
}

#[inline]
fn slot(key: Key) -> usize {
    ((key as u32).wrapping_mul(0x9E37_79B1) >> 25) as usize
}

impl Board {
    /// The tile at `key`, if any.
    #[inline]
    pub fn get(&self, key: Key) -> Option<u8> {
        let mut i = slot(key);
        loop {
            let k = self.keys[i];
            if k == key {
                return Some(self.tiles[i]);
            }
            if k == EMPTY {
                return None;
            }
            i = (i + 1) & (SLOTS - 1);
        }
    }

    /// The tile at a key given as any integer (None outside the key range).
    pub fn get_wide(&self, key: i128) -> Option<u8> {
        if key <= i128::from(EMPTY) || key > i128::from(i32::MAX) {
            return None;
        }
        self.get(key as Key)
    }

    /// Whether a tile sits at `key`.
    #[inline]
    pub fn contains(&self, key: Key) -> bool {
        self.get(key).is_some()
    }

    /// Number of tiles on the pyramid.
    #[inline]
    pub fn len(&self) -> usize {
        self.mask.count_ones() as usize
    }

    /// Whether the pyramid is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.mask == 0
    }

    /// Put `tile` at the empty `key` (appended to the insertion order).
    #[inline]
    pub fn insert(&mut self, key: Key, tile: u8) {
        let mut i = slot(key);
        while self.keys[i] != EMPTY {
            i = (i + 1) & (SLOTS - 1);
        }
        self.keys[i] = key;
        self.tiles[i] = tile;
        self.key_of[usize::from(tile)] = key;
        self.seq[usize::from(tile)] = self.next_seq;
        self.next_seq = self.next_seq.wrapping_add(1);
        self.mask |= 1 << tile;
    }

    /// Take the tile at `key` off (None when empty).
    #[inline]
    pub fn remove(&mut self, key: Key) -> Option<u8> {
        let mut i = slot(key);
        loop {
            let k = self.keys[i];
            if k == EMPTY {
                return None;
            }
            if k == key {
                break;
            }
            i = (i + 1) & (SLOTS - 1);
        }
        let tile = self.tiles[i];
        // backward-shift deletion
        let mut hole = i;
        let mut j = i;
        loop {
            j = (j + 1) & (SLOTS - 1);
            let k = self.keys[j];
            if k == EMPTY {
                break;
            }
            let home = slot(k);
            let dist_j = j.wrapping_sub(home) & (SLOTS - 1);
            let dist_hole = hole.wrapping_sub(home) & (SLOTS - 1);
            if dist_hole < dist_j {
                self.keys[hole] = k;
                self.tiles[hole] = self.tiles[j];
                hole = j;
            }
        }
        self.keys[hole] = EMPTY;
        self.key_of[usize::from(tile)] = NO_KEY;
        self.mask &= !(1 << tile);
        Some(tile)
    }

    /// (key, tile) pairs in the Python dict's insertion order.
    pub fn in_order(&self) -> Vec<(Key, u8)> {
        let mut tiles: Vec<u8> = bits(self.mask).collect();
        tiles.sort_by_key(|&t| self.seq[usize::from(t)]);
        tiles
            .into_iter()
            .map(|t| (self.key_of[usize::from(t)], t))
            .collect()
    }

    /// (key, tile) pairs in ascending key order (scan order).
    pub fn sorted(&self) -> Vec<(Key, u8)> {
        let mut v: Vec<(Key, u8)> = bits(self.mask)
            .map(|t| (self.key_of[usize::from(t)], t))
            .collect();
        v.sort_unstable();
        v
    }
}

/// The set bits of `mask`, lowest first.
#[inline]
pub fn bits(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let t = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(t)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::key_of;

    #[test]
    fn insert_remove_keeps_lookups() {
        let mut b = Board::default();
        let keys: Vec<Key> = (0..45)
            .map(|i| key_of(i % 9, (i % 9) + 2 * (i / 9) - 40))
            .collect();
        for (t, &k) in keys.iter().enumerate() {
            b.insert(k, t as u8);
        }
        for t in (0..45).step_by(2) {
            assert_eq!(b.remove(keys[t]), Some(t as u8));
        }
        for (t, &k) in keys.iter().enumerate() {
            assert_eq!(b.get(k), if t % 2 == 0 { None } else { Some(t as u8) });
        }
        assert_eq!(b.len(), 22);
    }
}
