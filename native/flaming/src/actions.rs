//! Actions as integers and text (FP-NOTE-1, FP-NOTE-2, FP-CALL-3), the same integers as
//! `pyramids/flaming/actions.py`: two fall sides, six die faces, placements, then the
//! check actions of call-out mode.

use crate::tiles::{name, spot_name, Key, HALF, MAX_ROW, ROW};

/// Fall to the left.
pub const LEFT: u64 = 0;
/// Fall to the right.
pub const RIGHT: u64 = 1;
/// `die:1`; `die:6` is DIE_BASE + 5.
pub const DIE_BASE: u64 = 2;
/// Every placement action is at least PLACE_BASE.
pub const PLACE_BASE: u64 = 8;
/// Keys are shifted by this to be non-negative in actions.
pub const KEY_OFFSET: i64 = MAX_ROW as i64 * ROW as i64 + HALF as i64;
/// `ok` (FP-CALL-3).
pub const CHECK_OK: u64 = 1 << 40;
/// `call:r,c` is CALL_BASE + key + KEY_OFFSET.
pub const CALL_BASE: u64 = CHECK_OK + 1;

/// The action that plays `tile` at `key` (FP-PLACE-1).
#[inline]
pub fn place_action(tile: u8, key: Key) -> u64 {
    (PLACE_BASE as i64 + ((i64::from(key) + KEY_OFFSET) << 6) + i64::from(tile)) as u64
}

/// (tile, key) of a placement action (the key as a wide integer: any action decodes).
#[inline]
pub fn decode_place(action: u64) -> (u8, i128) {
    let a = i128::from(action) - i128::from(PLACE_BASE);
    ((a & 63) as u8, (a >> 6) - i128::from(KEY_OFFSET))
}

/// The check action naming `key`.
#[inline]
pub fn call_action(key: Key) -> u64 {
    (CALL_BASE as i64 + i64::from(key) + KEY_OFFSET) as u64
}

/// The key a call action names (wide: any action decodes).
#[inline]
pub fn decode_call(action: u64) -> i128 {
    i128::from(action) - i128::from(CALL_BASE) - i128::from(KEY_OFFSET)
}

/// Whether `action` is a placement.
#[inline]
pub fn is_place(action: u64) -> bool {
    (PLACE_BASE..CHECK_OK).contains(&action)
}

/// An action in the notation (`actions.action_to_text`).
pub fn action_to_text(action: u64) -> String {
    if action >= CHECK_OK {
        if action == CHECK_OK {
            return "ok".into();
        }
        return format!("call:{}", spot_name(decode_call(action)));
    }
    match action {
        LEFT => "left".into(),
        RIGHT => "right".into(),
        a if a < PLACE_BASE => format!("die:{}", a - DIE_BASE + 1),
        a => {
            let (t, k) = decode_place(a);
            let tile = if usize::from(t) < crate::tiles::NUM_TILES {
                name(t)
            } else {
                format!("?{t}")
            };
            format!("{tile}@{}", spot_name(k))
        }
    }
}
