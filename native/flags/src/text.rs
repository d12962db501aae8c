//! Actions as text (PF-NOTE-1) and as a viewer sees them (PF-VIEW-4): the mirror of
//! `pyramids.flags.text`'s `action_to_text` and `masked_action_text`.

use crate::consts::*;
use crate::deck::CODES;
use crate::state::{State, DEAL};
use pyramids_core::Action;

/// An action in the notation (every card named); None for a number that is no action.
pub fn action_to_text(action: Action) -> Option<String> {
    Some(if action == DONE {
        "done".into()
    } else if action < SWAP_BASE {
        let (lowest, target) = decode_move(action);
        let t = if target == TABLE {
            "table".into()
        } else {
            piece_name(target)
        };
        format!("{}>{t}", piece_name(lowest))
    } else if action < TAKE_BASE {
        format!("swap:{}", CODES[(action - SWAP_BASE) as usize])
    } else if action < SPLIT_BASE {
        let (piece, seat) = decode_take(action);
        match seat {
            None => format!("take:{}", piece_name(piece)),
            Some(s) => format!("take:{}@{s}", piece_name(piece)),
        }
    } else if action < TRADE_BASE {
        format!("split:{}", piece_name((action - SPLIT_BASE) as usize))
    } else if action < GROW {
        let (mine, theirs, seat) = decode_trade(action);
        format!("trade:{}:{}@{seat}", piece_name(mine), piece_name(theirs))
    } else if action == GROW {
        "grow".into()
    } else if action == NEWSTART {
        "newstart".into()
    } else if action < WILD_BASE {
        format!("pirate:{}", action - PIRATE_BASE)
    } else if action < STEAL_BASE {
        format!(
            "wild:{}",
            WILD_COLOURS[(action - WILD_BASE) as usize] as char
        )
    } else if action < DEAL_BASE {
        format!("steal:{}", CODES[(action - STEAL_BASE) as usize])
    } else if action < NUM_ACTIONS {
        format!("deal:{}", CODES[(action - DEAL_BASE) as usize])
    } else {
        return None;
    })
}

/// The observation of another seat's exchange (`swap:?`): no action has this number.
pub const HIDDEN_SWAP: Action = NUM_ACTIONS;
/// The observation of a steal seen by neither thief nor victim (`steal:?`).
pub const HIDDEN_STEAL: Action = NUM_ACTIONS + 1;
/// The observation of a card dealt to another seat (`deal:?`).
pub const HIDDEN_DEAL: Action = NUM_ACTIONS + 2;

impl State {
    /// PF-VIEW-4: `action` (about to be applied here) as `viewer` sees it, as a number:
    /// the action itself, or [`HIDDEN_SWAP`], [`HIDDEN_STEAL`], [`HIDDEN_DEAL`] when the
    /// card is hidden from `viewer` (the search's observation keys; `action_text_for`).
    pub fn observed_action(&self, action: Action, viewer: Option<usize>) -> Action {
        let to_move = self.to_move as usize;
        if (SWAP_BASE..TAKE_BASE).contains(&action) && viewer != Some(to_move) {
            return HIDDEN_SWAP;
        }
        if (STEAL_BASE..DEAL_BASE).contains(&action)
            && (viewer.is_none()
                || (viewer != Some(to_move)
                    && viewer.map(|v| v as i64) != Some(self.victim as i64)))
        {
            return HIDDEN_STEAL;
        }
        if (DEAL_BASE..NUM_ACTIONS).contains(&action)
            && self.pending == DEAL
            && viewer != Some(self.deal_seat())
        {
            return HIDDEN_DEAL;
        }
        action
    }

    /// PF-VIEW-4: `action` (about to be applied here) as `viewer` sees it.
    pub fn action_text_for(&self, action: Action, viewer: Option<usize>) -> Option<String> {
        match self.observed_action(action, viewer) {
            HIDDEN_SWAP => Some("swap:?".into()),
            HIDDEN_STEAL => Some("steal:?".into()),
            HIDDEN_DEAL => Some("deal:?".into()),
            _ => action_to_text(action),
        }
    }
}
