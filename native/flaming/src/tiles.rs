//! The 45 tiles (FP-TILE), the geometry of spots (FP-GEOM) and fit (FP-FIT): the mirror of
//! `pyramids/flaming/tiles.py`.
//!
//! Tiles are `u8` 0..44 ordered by colour (Y, R, G, B, then the millstone W200) and weight,
//! exactly as in Python. Places are `i32` keys `-row * ROW + col` (ascending keys are the
//! scan order), the very integers of the Python engine.

/// A board position key: `-row * ROW + col`.
pub type Key = i32;

/// Number of tiles (45).
pub const NUM_TILES: usize = 45;
/// The millstone W200.
pub const MILLSTONE: u8 = 44;

/// Material bits (FP-TILE-2..6).
pub const STRAW: u8 = 1;
/// Wood.
pub const WOOD: u8 = 2;
/// Stone.
pub const STONE: u8 = 4;
/// Ember (coal or blowtorch).
pub const EMBER: u8 = 8;

const COLOUR_WEIGHTS: [[u16; 11]; 4] = [
    [1, 2, 4, 6, 10, 20, 30, 40, 60, 100, 120],
    [2, 4, 6, 7, 10, 20, 30, 40, 60, 100, 120],
    [1, 2, 4, 6, 10, 20, 30, 40, 60, 100, 120],
    [2, 4, 6, 7, 10, 20, 30, 40, 60, 100, 120],
];

const fn build_weights() -> [u16; NUM_TILES] {
    let mut w = [200u16; NUM_TILES];
    let mut c = 0;
    while c < 4 {
        let mut i = 0;
        while i < 11 {
            w[c * 11 + i] = COLOUR_WEIGHTS[c][i];
            i += 1;
        }
        c += 1;
    }
    w
}

const fn build_colours() -> [u8; NUM_TILES] {
    let mut out = [15u8; NUM_TILES];
    let mut t = 0;
    while t < 44 {
        out[t] = 1 << (t / 11);
        t += 1;
    }
    out
}

const fn material(w: u16) -> u8 {
    if w == 1 || w == 7 {
        EMBER
    } else if w <= 6 {
        STRAW
    } else if w <= 40 {
        WOOD
    } else {
        STONE
    }
}

const fn build_materials() -> [u8; NUM_TILES] {
    let mut out = [0u8; NUM_TILES];
    let mut t = 0;
    while t < NUM_TILES {
        out[t] = material(WEIGHT[t]);
        t += 1;
    }
    out
}

const fn build_ignites() -> [u8; NUM_TILES] {
    let mut out = [0u8; NUM_TILES];
    let mut t = 0;
    while t < NUM_TILES {
        if MATERIAL[t] == EMBER {
            out[t] = if WEIGHT[t] == 1 { STRAW } else { STRAW | WOOD };
        }
        t += 1;
    }
    out
}

/// Weight of each tile.
pub const WEIGHT: [u16; NUM_TILES] = build_weights();
/// Colour bits of each tile (Y 1, R 2, G 4, B 8, the millstone 15).
pub const COLOUR: [u8; NUM_TILES] = build_colours();
/// Material bit of each tile.
pub const MATERIAL: [u8; NUM_TILES] = build_materials();
/// FP-TILE-6: per ember, the materials it sets on fire (0 for other tiles).
pub const IGNITES: [u8; NUM_TILES] = build_ignites();
/// Bit mask of the four embers (Y1, R7, G1, B7).
pub const EMBER_MASK: u64 = (1 << 0) | (1 << 14) | (1 << 22) | (1 << 36);
/// Bit mask of every tile.
pub const ALL_MASK: u64 = (1 << NUM_TILES) - 1;
/// FP-TILE-7: the 40 tiles of the basic game (no embers, no millstone).
pub const BASIC_MASK: u64 = ALL_MASK & !EMBER_MASK & !(1 << MILLSTONE);

/// Whether tile `t` is an ember.
#[inline]
pub fn is_ember(t: u8) -> bool {
    (EMBER_MASK >> t) & 1 == 1
}

/// The ember's slot 0..3 (Y1, R7, G1, B7) for per-ember arrays; 0 for other tiles.
#[inline]
pub fn ember_slot(t: u8) -> usize {
    match t {
        14 => 1,
        22 => 2,
        36 => 3,
        _ => 0,
    }
}

const LETTERS: [char; 5] = ['Y', 'R', 'G', 'B', 'W'];

/// The tile's code, e.g. `R40`.
pub fn name(t: u8) -> String {
    format!("{}{}", LETTERS[usize::from(t) / 11], WEIGHT[usize::from(t)])
}

/// The tile named `code` exactly (upper case, no spaces), if any.
pub fn by_name(code: &str) -> Option<u8> {
    let mut chars = code.chars();
    let letter = chars.next()?;
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    (0..NUM_TILES as u8).find(|&t| {
        LETTERS[usize::from(t) / 11] == letter && WEIGHT[usize::from(t)].to_string() == digits
    })
}

// --- geometry -------------------------------------------------------------------------

/// Keys per row.
pub const ROW: i32 = 1 << 20;
/// Half a row: base keys lie in (-HALF, HALF).
pub const HALF: i32 = ROW >> 1;
/// Columns are limited to |col| < MAX_COL.
pub const MAX_COL: i32 = HALF / 2;
/// The highest row a position may name.
pub const MAX_ROW: i32 = 1000;
/// (r-1, c-1).
pub const SUPPORT_LEFT: i32 = ROW - 1;
/// (r-1, c+1).
pub const SUPPORT_RIGHT: i32 = ROW + 1;
/// (r+1, c-1).
pub const ABOVE_LEFT: i32 = -ROW - 1;
/// (r+1, c+1).
pub const ABOVE_RIGHT: i32 = -ROW + 1;
/// FP-GEOM-3: offsets of the six touching positions, in the Python order.
pub const NEIGHBOURS: [i32; 6] = [-2, 2, SUPPORT_LEFT, SUPPORT_RIGHT, ABOVE_LEFT, ABOVE_RIGHT];

/// The key of (row, col).
#[inline]
pub fn key_of(row: i32, col: i32) -> Key {
    -row * ROW + col
}

/// The row of a key (any integer, as Python's floor division).
#[inline]
pub fn row_of(key: i128) -> i128 {
    -((key + i128::from(HALF)).div_euclid(i128::from(ROW)))
}

/// The column of a key.
#[inline]
pub fn col_of(key: i128) -> i128 {
    key + row_of(key) * i128::from(ROW)
}

/// Whether the key is in row 0.
#[inline]
pub fn is_base(key: Key) -> bool {
    -HALF < key && key < HALF
}

/// `row,col` as in the notation.
pub fn spot_name(key: i128) -> String {
    format!("{},{}", row_of(key), col_of(key))
}

/// FP-NOTE-1: `TILE@row,col`.
pub fn tile_at(t: u8, key: Key) -> String {
    format!("{}@{}", name(t), spot_name(i128::from(key)))
}

/// FP-CURSE-2: three tiles of one number.
#[inline]
pub fn completes_curse(t: u8, l: u8, r: u8) -> bool {
    WEIGHT[usize::from(t)] == WEIGHT[usize::from(l)]
        && WEIGHT[usize::from(l)] == WEIGHT[usize::from(r)]
}

/// FP-FIT-1..3: weight within the present supports' sum and a colour or number match.
#[inline]
pub fn fits(t: u8, left: Option<u8>, right: Option<u8>) -> bool {
    let w = WEIGHT[usize::from(t)];
    let c = COLOUR[usize::from(t)];
    match (left, right) {
        (None, None) => true,
        (None, Some(s)) | (Some(s), None) => {
            let (ws, cs) = (WEIGHT[usize::from(s)], COLOUR[usize::from(s)]);
            w <= ws && (c & cs != 0 || w == ws)
        }
        (Some(l), Some(r)) => {
            let (wl, wr) = (WEIGHT[usize::from(l)], WEIGHT[usize::from(r)]);
            w <= wl + wr
                && (c & (COLOUR[usize::from(l)] | COLOUR[usize::from(r)]) != 0
                    || w == wl
                    || w == wr)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_table_matches_python_order() {
        assert_eq!(name(0), "Y1");
        assert_eq!(name(14), "R7");
        assert_eq!(name(22), "G1");
        assert_eq!(name(36), "B7");
        assert_eq!(name(44), "W200");
        assert_eq!(by_name("B100"), Some(42));
        assert_eq!(by_name("B7"), Some(36));
        assert_eq!(by_name("B07"), None);
        for t in 0..45u8 {
            assert_eq!(is_ember(t), MATERIAL[usize::from(t)] == EMBER);
        }
    }

    #[test]
    fn keys_round_trip() {
        for (r, c) in [(0, 0), (0, -6), (3, 5), (1000, -1), (1, 262_143)] {
            let k = key_of(r, c);
            assert_eq!((row_of(k.into()), col_of(k.into())), (r.into(), c.into()));
        }
    }
}
