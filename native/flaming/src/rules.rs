//! The rules as methods over the state (`rules.py`, `turn.py`): whose decision, the legal
//! actions, applying one, why one is refused, the end of a turn and of the game.

use pyramids_core::{Action, GameState, Refusal, CHANCE, TERMINAL};

use crate::actions::{
    decode_call, decode_place, is_place, CALL_BASE, CHECK_OK, DIE_BASE, LEFT, PLACE_BASE, RIGHT,
};
use crate::events::RawEvent;
use crate::mayhem::category_name;
use crate::state::{State, CHECK, FALL, HAND_SIZE, NONE};
use crate::tiles::{name, spot_name, Key};

impl State {
    /// FP-END-1..4, FP-CURSE-5: the end of the active player's turn (draw, win, limit, next).
    pub fn end_turn(&mut self) {
        let a = usize::from(self.to_move);
        let mut drawn = 0u8;
        while self.hands[a].len() < HAND_SIZE {
            let Some(t) = self.piles[a].pop_front() else {
                break;
            };
            if self.hidden[a] > 0 {
                self.hidden[a] -= 1;
            } else {
                self.known[a] |= 1 << t;
            }
            self.hands[a].push(t);
            drawn += 1;
        }
        let seat = a as u8;
        if drawn > 0 {
            self.emit(|| RawEvent::Draw(seat, drawn));
        }
        if self.hands[a].is_empty() && self.piles[a].is_empty() {
            self.winner = seat as i8;
            self.emit(|| RawEvent::Win(seat));
            return;
        }
        if self.turn >= self.opts.max_turns {
            let n = self.n();
            for s in 0..n {
                let mine = self.hands[s].len() + self.piles[s].len();
                let better = (0..n)
                    .filter(|&o| self.hands[o].len() + self.piles[o].len() < mine)
                    .count();
                self.ranking[s] = (1 + better) as u8;
            }
            self.ranked = true;
            let ranking = self.ranking[..n].to_vec();
            self.emit(|| RawEvent::MaxTurns(ranking));
            return;
        }
        let nxt = ((a + 1) % self.n()) as u8;
        self.to_move = nxt;
        self.responsible = nxt;
        self.turn += 1;
    }

    /// FP-CALL-2, FP-CALL-5: after a placement the checker must look.
    fn begin_check(&mut self) {
        let curse_on = self.opts.curse;
        if self.overlooked && !self.standing_mayhem(curse_on) {
            self.overlooked = false;
        }
        self.pending = CHECK;
        self.pending_key = 0;
    }

    /// FP-CALL-3..6: the checker's `ok` or call, and what follows.
    fn check(&mut self, action: Action) {
        let seat = self.checker();
        self.pending = NONE;
        let curse_on = self.opts.curse;
        if action != CHECK_OK {
            let k = decode_call(action);
            let found = self.called_keys(curse_on);
            if let Some(t) = self.board.get_wide(k) {
                let cat = found[usize::from(t)];
                if cat != 0 {
                    let overlooked = self.overlooked;
                    let key = k as Key;
                    self.emit(|| RawEvent::Call(seat, t, key, category_name(cat), overlooked));
                    self.resolve();
                    return;
                }
            }
            self.emit(|| RawEvent::FalseAlarm(seat, k));
        } else {
            self.emit(|| RawEvent::CheckOk(seat));
        }
        self.overlooked = self.standing_mayhem(curse_on);
        self.end_turn();
    }

    /// Apply `action` (already known legal for the pending kind); the rules after it.
    fn apply_checked(&mut self, action: Action) {
        match self.pending {
            NONE => {
                let (tile, k) = decode_place(action);
                let k = k as Key;
                let seat = usize::from(self.to_move);
                self.hands[seat].remove(tile);
                self.known[seat] &= !(1 << tile);
                let s = seat as u8;
                self.emit(|| RawEvent::Place(s, tile, k));
                self.add_tile(k, tile);
                if self.opts.callout_on() {
                    self.begin_check();
                } else {
                    self.resolve();
                }
            }
            FALL => {
                self.fall(action as u8);
                self.resolve();
            }
            CHECK => self.check(action),
            _ => self.roll_die((action - DIE_BASE + 1) as u8),
        }
    }

    /// Whether `action` is legal (the apply-time test of `rules.apply_action`).
    pub fn is_legal(&self, action: Action) -> bool {
        if self.is_over() {
            return false;
        }
        match self.pending {
            NONE => {
                if !is_place(action) {
                    return false;
                }
                let (tile, k) = decode_place(action);
                let Ok(k) = Key::try_from(k) else {
                    return false;
                };
                usize::from(tile) < 45
                    && self.hands[usize::from(self.to_move)].contains(tile)
                    && self.is_placement_spot(k)
            }
            FALL => action == LEFT || action == RIGHT,
            CHECK => {
                action == CHECK_OK
                    || (action >= CALL_BASE && self.board.get_wide(decode_call(action)).is_some())
            }
            _ => (DIE_BASE..DIE_BASE + 6).contains(&action),
        }
    }

    /// Apply `action`; `Err(refusal)` (the Python engine's code and facts) changes nothing.
    pub fn try_apply(&mut self, action: Action) -> Result<(), Refusal> {
        if !self.is_legal(action) {
            return Err(self.refusal_of(action));
        }
        if self.record {
            self.events.clear();
        }
        self.apply_checked(action);
        Ok(())
    }

    /// The refusal of an illegal `action` (off the hot path: apply's legal case stays small).
    #[cold]
    #[inline(never)]
    fn refusal_of(&self, action: Action) -> Refusal {
        self.illegal_reason(action)
            .unwrap_or_else(|| Refusal::illegal("flaming.illegal_action"))
    }

    /// Why `action` is illegal here (the refusal), or None when it is legal.
    pub fn illegal_reason(&self, action: Action) -> Option<Refusal> {
        self.illegal_reason_wide(i128::from(action))
    }

    /// `illegal_reason` for any integer (negative ones included, as Python's ints).
    pub fn illegal_reason_wide(&self, action: i128) -> Option<Refusal> {
        if self.is_over() {
            return Some(Refusal::illegal("flaming.game_over"));
        }
        let falls = action == 0 || action == 1;
        match self.pending {
            FALL => {
                if falls {
                    return None;
                }
                let k = self.pending_key;
                let falling = self.board.get(k).map(name).unwrap_or_default();
                Some(
                    Refusal::illegal("flaming.tile_falling")
                        .with("tile", falling)
                        .with("spot", spot_name(k.into()))
                        .with("seat", self.responsible),
                )
            }
            CHECK => {
                let seat = self.checker();
                if action == i128::from(CHECK_OK) {
                    return None;
                }
                if action >= i128::from(CALL_BASE) {
                    let k = action - i128::from(CALL_BASE) - i128::from(crate::actions::KEY_OFFSET);
                    if self.board.get_wide(k).is_some() {
                        return None;
                    }
                    return Some(
                        Refusal::illegal("flaming.no_tile_to_call")
                            .with("spot", spot_name(k))
                            .with("seat", seat),
                    );
                }
                Some(Refusal::illegal("flaming.check_pending").with("seat", seat))
            }
            NONE => {
                if action >= i128::from(CHECK_OK) {
                    return Some(Refusal::illegal("flaming.no_check_pending"));
                }
                if falls {
                    return Some(Refusal::illegal("flaming.nothing_falling"));
                }
                if action < i128::from(PLACE_BASE) {
                    return Some(Refusal::illegal("flaming.no_die_pending"));
                }
                self.placement_refusal(action as u64)
            }
            _ => {
                if (i128::from(DIE_BASE)..i128::from(DIE_BASE) + 6).contains(&action) {
                    None
                } else {
                    Some(Refusal::illegal("flaming.die_pending"))
                }
            }
        }
    }

    /// Each seat's result (FP-END-5): 1 to the winner, or 1 shared by those ranked first.
    pub fn returns_vec(&self) -> Vec<f64> {
        let n = self.n();
        if self.winner >= 0 {
            return (0..n)
                .map(|s| if s as i8 == self.winner { 1.0 } else { 0.0 })
                .collect();
        }
        if self.ranked {
            let firsts = self.ranking[..n].iter().filter(|&&r| r == 1).count() as f64;
            return self.ranking[..n]
                .iter()
                .map(|&r| if r == 1 { 1.0 / firsts } else { 0.0 })
                .collect();
        }
        vec![0.0; n]
    }
}

impl GameState for State {
    fn num_players(&self) -> usize {
        self.n()
    }

    fn current_player(&self) -> i32 {
        if self.is_over() {
            return TERMINAL;
        }
        match self.pending {
            NONE => i32::from(self.to_move),
            FALL => i32::from(self.responsible),
            CHECK => i32::from(self.checker()),
            _ => CHANCE,
        }
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.is_over() {
            return;
        }
        match self.pending {
            NONE => {
                self.placement_actions_into(out);
            }
            FALL => out.extend([LEFT, RIGHT]),
            CHECK => {
                out.push(CHECK_OK);
                for (k, _) in self.board.sorted() {
                    out.push(crate::actions::call_action(k));
                }
            }
            _ => out.extend(DIE_BASE..DIE_BASE + 6),
        }
    }

    fn chance_outcomes_into(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        if self.pending == crate::state::DIE && !self.is_over() {
            out.extend((0..6).map(|i| (DIE_BASE + i, 1.0 / 6.0)));
        }
    }

    fn apply(&mut self, action: Action) -> Result<(), String> {
        if !self.is_legal(action) {
            return Err(self.refusal_of(action).to_string());
        }
        if self.record {
            self.events.clear();
        }
        self.apply_checked(action);
        Ok(())
    }

    fn is_terminal(&self) -> bool {
        self.is_over()
    }

    fn returns_into(&self, out: &mut Vec<f64>) {
        out.clear();
        out.extend(self.returns_vec());
    }
}
