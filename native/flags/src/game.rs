//! The game protocol over a [`State`]: legal actions, chance outcomes, apply and the
//! refusals, the mirror of `pyramids.flags.state.FlagsState` (same codes and facts).

use crate::consts::*;
use crate::deck::{CODES, PIECES_MASK};
use crate::state::*;
use pyramids_core::{Action, GameState, Refusal, CHANCE, TERMINAL};

impl State {
    /// Why `action` is illegal here (the Python `illegal_reason` refusal: same code and
    /// facts), or None.
    pub fn illegal_reason(&self, action: Action) -> Option<Refusal> {
        if self.over() {
            return Some(Refusal::illegal("flags.game_over"));
        }
        let seat = self.to_move as usize;
        match self.pending {
            NONE => {
                if (MOVE_BASE..SWAP_BASE).contains(&action) {
                    let (lowest, target) = decode_move(action);
                    return self.move_reason(lowest, target);
                }
                if (SWAP_BASE..TAKE_BASE).contains(&action) {
                    return self.swap_reason((action - SWAP_BASE) as usize);
                }
                Some(Refusal::illegal("flags.move_or_exchange").with("seat", seat))
            }
            CAPTURE => self.take_reason(action),
            ACTION => {
                if action == DONE || self.is_action_option(self.colour, action) {
                    return None;
                }
                Some(self.action_reason(action))
            }
            STEAL => {
                let victim = self.victim as usize;
                if (STEAL_BASE..DEAL_BASE).contains(&action)
                    && self.hand(victim).contains(&((action - STEAL_BASE) as u8))
                {
                    return None;
                }
                Some(Refusal::illegal("flags.steal_a_card").with("seat", victim))
            }
            _ => {
                if (DEAL_BASE..NUM_ACTIONS).contains(&action)
                    && (self.to_deal >> (action - DEAL_BASE)) & 1 == 1
                {
                    return None;
                }
                Some(Refusal::illegal("flags.deal_a_card"))
            }
        }
    }

    fn take_reason(&self, action: Action) -> Option<Refusal> {
        let holder = self.player as usize;
        let card = self.card as usize;
        let code = CODES[card];
        if action == DONE {
            return None;
        }
        if !(TAKE_BASE..SPLIT_BASE).contains(&action) {
            return Some(
                Refusal::illegal("flags.capturing")
                    .with("seat", holder)
                    .with("card", code),
            );
        }
        let (piece, source) = decode_take(action);
        let name = || piece_name(piece);
        if (PIECES_MASK[card] >> piece) & 1 == 0 {
            let shown: Vec<String> = bits(PIECES_MASK[card] as u64).map(piece_name).collect();
            return Some(
                Refusal::illegal("flags.not_shown")
                    .with("piece", name())
                    .with("card", code)
                    .with("shown", shown),
            );
        }
        let Some(source) = source else {
            if (self.bank >> piece) & 1 == 0 {
                return Some(Refusal::illegal("flags.not_in_bank").with("piece", name()));
            }
            return None;
        };
        if self.taken >= 0 {
            return Some(Refusal::illegal("flags.takes_not_mixed"));
        }
        if source == holder || source >= self.n() {
            return Some(
                Refusal::illegal("flags.take_from_opponent")
                    .with("seat", holder)
                    .with("source", source),
            );
        }
        if (self.scoring[source] >> piece) & 1 == 0 {
            return Some(not_held(source, piece));
        }
        None
    }

    fn action_reason(&self, action: Action) -> Refusal {
        let colour = self.colour;
        let seat = self.to_move as usize;
        if colour == b'R' && (SPLIT_BASE..TRADE_BASE).contains(&action) {
            let b = (action - SPLIT_BASE) as usize;
            if self.below[b] >= 0 {
                return Refusal::illegal("flags.not_bottom").with("piece", piece_name(b));
            }
            return Refusal::illegal("flags.single_pyramid").with("piece", piece_name(b));
        }
        if colour == b'B' && (TRADE_BASE..GROW).contains(&action) {
            let (mine, theirs, q) = decode_trade(action);
            if (self.scoring[seat] >> mine) & 1 == 0 {
                return not_held(seat, mine);
            }
            if q == seat || q >= self.n() {
                return Refusal::illegal("flags.trade_with_opponent").with("seat", q);
            }
            return not_held(q, theirs);
        }
        if colour == b'K' && (PIRATE_BASE..WILD_BASE).contains(&action) {
            let q = (action - PIRATE_BASE) as usize;
            if q == seat || q >= self.n() {
                return Refusal::illegal("flags.rob_opponent").with("seat", q);
            }
            return Refusal::illegal("flags.no_card").with("seat", q);
        }
        Refusal::illegal("flags.tree_action")
            .with("seat", seat)
            .with("colour", (colour as char).to_string())
    }

    /// Apply one action or chance outcome; the refusal (changing nothing) if illegal.
    pub fn apply_checked(&mut self, action: Action) -> Result<(), Refusal> {
        if let Some(refused) = self.illegal_reason(action) {
            return Err(refused);
        }
        self.apply_unchecked(action);
        Ok(())
    }

    /// Apply an action known to be legal (no check; events recorded when on).
    pub fn apply_unchecked(&mut self, action: Action) {
        if self.record {
            self.events.clear();
        }
        match self.pending {
            NONE => {
                if action < SWAP_BASE {
                    let (lowest, target) = decode_move(action);
                    self.apply_move(lowest, target);
                } else {
                    self.apply_swap((action - SWAP_BASE) as usize);
                }
            }
            CAPTURE => {
                if action == DONE {
                    self.decline_capture();
                } else {
                    let (piece, source) = decode_take(action);
                    self.apply_take(piece, source);
                }
            }
            ACTION => self.apply_tree_action(action),
            STEAL => self.apply_steal((action - STEAL_BASE) as usize),
            _ => self.apply_deal((action - DEAL_BASE) as usize),
        }
    }
}

impl GameState for State {
    fn num_players(&self) -> usize {
        self.n()
    }

    fn current_player(&self) -> i32 {
        if self.over() {
            return TERMINAL;
        }
        match self.pending {
            NONE | ACTION => self.to_move as i32,
            CAPTURE => self.player as i32,
            _ => CHANCE,
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.over() {
            return;
        }
        match self.pending {
            NONE => self.turn_actions(out),
            CAPTURE => self.capture_actions(out),
            ACTION => {
                out.push(DONE);
                self.action_options(self.colour, out);
            }
            STEAL => {
                let mut m = self.hand_mask(self.victim as usize);
                while m != 0 {
                    out.push(STEAL_BASE + m.trailing_zeros() as Action);
                    m &= m - 1;
                }
            }
            _ => out.extend(bits(self.to_deal).map(|c| DEAL_BASE + c as Action)),
        }
    }

    fn chance_outcomes_into(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        if self.over() {
            return;
        }
        let mask = match self.pending {
            STEAL => self.hand_mask(self.victim as usize),
            DEAL => self.to_deal,
            _ => return,
        };
        let (base, p) = (
            if self.pending == STEAL {
                STEAL_BASE
            } else {
                DEAL_BASE
            },
            1.0 / mask.count_ones() as f64,
        );
        out.extend(bits(mask).map(|c| (base + c as Action, p)));
    }

    /// [`State::apply_checked`] with the refusal as its code and facts (`Display`).
    fn apply(&mut self, action: Action) -> Result<(), String> {
        self.apply_checked(action).map_err(|r| r.to_string())
    }

    fn is_terminal(&self) -> bool {
        self.over()
    }

    fn returns_into(&self, out: &mut Vec<f64>) {
        out.clear();
        let n = self.n();
        if self.winner >= 0 {
            out.extend((0..n).map(|s| if s == self.winner as usize { 1.0 } else { 0.0 }));
        } else if let Some(r) = self.ranking_slice() {
            out.extend(ranked_returns(r));
        } else {
            out.resize(n, 0.0);
        }
    }
}

/// `Outcome.ranked(ranking).returns(n)` of the Python core: 1 shared by those ranked first.
pub fn ranked_returns(ranking: &[u8]) -> Vec<f64> {
    let firsts = ranking.iter().filter(|&&r| r == 1).count();
    ranking
        .iter()
        .map(|&r| if r == 1 { 1.0 / firsts as f64 } else { 0.0 })
        .collect()
}

/// `flags.not_held`: `seat` does not hold `piece` (a take or a trade).
fn not_held(seat: usize, piece: usize) -> Refusal {
    Refusal::illegal("flags.not_held")
        .with("seat", seat)
        .with("piece", piece_name(piece))
}
