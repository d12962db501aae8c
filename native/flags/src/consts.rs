//! Pieces (PF-PIECE) and action numbers (PF-NOTE), mirrors of `pyramids.flags.pieces` and
//! `pyramids.flags.actions`: the same integers, the same ranges.

use pyramids_core::Action;

/// Maximum number of seats.
pub const MAX_PLAYERS: usize = 4;
/// The 30 pieces: 18 flag pieces (0..18) then 12 scoring pieces.
pub const NUM_PIECES: usize = 30;
/// Flag pieces are below this number.
pub const NUM_FLAG_PIECES: usize = 18;
/// The first scoring piece.
pub const FIRST_SCORING: usize = 18;
/// Colour letters in piece order (a piece is `colour * 3 + size - 1`).
pub const COLOURS: &[u8; 10] = b"KWYBGROPCX";
/// Bit mask of the 12 scoring pieces (the full bank).
pub const SCORING_PIECES_MASK: u32 = ((1 << NUM_PIECES) - 1) & !((1 << NUM_FLAG_PIECES) - 1);
/// The move target "on the table".
pub const TABLE: usize = NUM_FLAG_PIECES;

/// `done`.
pub const DONE: Action = 0;
/// Moves: `MOVE_BASE + lowest * 19 + target`.
pub const MOVE_BASE: Action = 1;
/// Exchanges: `SWAP_BASE + card`.
pub const SWAP_BASE: Action = MOVE_BASE + (NUM_FLAG_PIECES * (NUM_FLAG_PIECES + 1)) as Action;
/// Takes: `TAKE_BASE + (piece - 18) * 5 + (0 bank | 1 + seat)`.
pub const TAKE_BASE: Action = SWAP_BASE + crate::deck::NUM_CARDS as Action;
/// Red splits: `SPLIT_BASE + bottom`.
pub const SPLIT_BASE: Action = TAKE_BASE + 12 * (MAX_PLAYERS as Action + 1);
/// Blue trades: `TRADE_BASE + ((mine - 18) * 12 + theirs - 18) * 4 + seat`.
pub const TRADE_BASE: Action = SPLIT_BASE + NUM_FLAG_PIECES as Action;
/// Green `grow`.
pub const GROW: Action = TRADE_BASE + 12 * 12 * MAX_PLAYERS as Action;
/// Yellow `newstart`.
pub const NEWSTART: Action = GROW + 1;
/// Black `pirate:SEAT`.
pub const PIRATE_BASE: Action = NEWSTART + 1;
/// White `wild:C`, C in [`WILD_COLOURS`].
pub const WILD_BASE: Action = PIRATE_BASE + MAX_PLAYERS as Action;
/// The colours a white tree may stand for.
pub const WILD_COLOURS: &[u8; 5] = b"RBGYK";
/// Chance `steal:CARD`.
pub const STEAL_BASE: Action = WILD_BASE + 5;
/// Chance `deal:CARD`.
pub const DEAL_BASE: Action = STEAL_BASE + crate::deck::NUM_CARDS as Action;
/// Every action is below this.
pub const NUM_ACTIONS: Action = DEAL_BASE + crate::deck::NUM_CARDS as Action;

/// Piece -> colour index into [`COLOURS`].
#[inline]
pub const fn colour_of(p: usize) -> usize {
    p / 3
}

/// Piece -> size 1..=3.
#[inline]
pub const fn size_of(p: usize) -> usize {
    p % 3 + 1
}

/// Piece -> its code, e.g. `B3`.
pub fn piece_name(p: usize) -> String {
    format!("{}{}", COLOURS[p / 3] as char, p % 3 + 1)
}

/// A piece from its code (already stripped and upper-cased), or None.
pub fn piece_by_name(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let c = COLOURS.iter().position(|&x| x == b[0])?;
    match b[1] {
        b'1'..=b'3' => Some(c * 3 + (b[1] - b'1') as usize),
        _ => None,
    }
}

/// A card from its code (already stripped and upper-cased), or None.
pub fn card_by_code(text: &str) -> Option<usize> {
    crate::deck::CODES.iter().position(|&c| c == text)
}

/// The move of `lowest` (and everything on it) onto `target` (a piece or [`TABLE`]).
#[inline]
pub const fn move_action(lowest: usize, target: usize) -> Action {
    MOVE_BASE + (lowest * (NUM_FLAG_PIECES + 1) + target) as Action
}

/// (lowest, target) of a move action.
#[inline]
pub const fn decode_move(action: Action) -> (usize, usize) {
    let r = (action - MOVE_BASE) as usize;
    (r / (NUM_FLAG_PIECES + 1), r % (NUM_FLAG_PIECES + 1))
}

/// Capture `piece` from the bank (None) or from a seat.
#[inline]
pub const fn take_action(piece: usize, seat: Option<usize>) -> Action {
    let src = match seat {
        None => 0,
        Some(s) => 1 + s,
    };
    TAKE_BASE + ((piece - FIRST_SCORING) * (MAX_PLAYERS + 1) + src) as Action
}

/// (piece, seat or None for the bank) of a take action.
#[inline]
pub const fn decode_take(action: Action) -> (usize, Option<usize>) {
    let r = (action - TAKE_BASE) as usize;
    let src = r % (MAX_PLAYERS + 1);
    (
        FIRST_SCORING + r / (MAX_PLAYERS + 1),
        if src == 0 { None } else { Some(src - 1) },
    )
}

/// Blue trade: give `mine`, get `theirs` from `seat`.
#[inline]
pub const fn trade_action(mine: usize, theirs: usize, seat: usize) -> Action {
    TRADE_BASE
        + (((mine - FIRST_SCORING) * 12 + theirs - FIRST_SCORING) * MAX_PLAYERS + seat) as Action
}

/// (mine, theirs, seat) of a trade action.
#[inline]
pub const fn decode_trade(action: Action) -> (usize, usize, usize) {
    let r = (action - TRADE_BASE) as usize;
    let seat = r % MAX_PLAYERS;
    let rest = r / MAX_PLAYERS;
    (FIRST_SCORING + rest / 12, FIRST_SCORING + rest % 12, seat)
}

/// The English colour name of a colour letter (for refusal texts).
pub fn colour_name_en(c: u8) -> &'static str {
    match c {
        b'K' => "black",
        b'W' => "white",
        b'Y' => "yellow",
        b'B' => "blue",
        b'G' => "green",
        b'R' => "red",
        b'O' => "orange",
        b'P' => "purple",
        b'C' => "cyan",
        _ => "clear",
    }
}

/// Iterate the set bits of a mask, ascending.
#[inline]
pub fn bits(mut m: u64) -> impl Iterator<Item = usize> {
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
