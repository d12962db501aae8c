//! The native mirrors of Flaming Pyramids' greedy bot, static evaluation and call-out reflex
//! (`pyramids.games.flaming.policy` and `pyramids.games.flaming.evaluation`).
//!
//! Every choice is the Python bot's choice for the same view, legal list and generator
//! state, and every tie break draws from the caller's [`PyRandom`] exactly as the Python
//! bot draws from its `random.Random`: the costs are computed in the Python code's order
//! of operations, so equal costs are the same ties (tests/native/test_policies.py).
//!
//! The estimate (see the Python module for the why): for a placement, the tiles mayhem
//! would send back under our own pile (a misfit's supports, an explosion's victims, the
//! fuel a fire burns; a curse is a gain), plus the cost of giving up a flexible tile; for
//! a fall, the same estimate at each landing spot. In call-out mode the bot checks
//! perfectly: the first event of the engine's scan order, or `ok`.

use pyramids_core::{Action, GameState, PyRandom, SearchGame, ValueWeights};

use std::sync::OnceLock;

use crate::board::{bits, Board};
use crate::state::FALL;
use crate::tiles::{
    completes_curse, fits, EMBER, HALF, IGNITES, MATERIAL, MAX_ROW, NEIGHBOURS, NUM_TILES, ROW,
    SUPPORT_LEFT, SUPPORT_RIGHT,
};
use crate::tiles::{Key, ALL_MASK};
use crate::{determinize, State, View};

// --- tuning: the Python module's constants --------------------------------------------

/// Expected extra tiles after a misfit's drop.
const FALL_COST: f64 = 0.5;
/// A drop into free air only postpones the landing.
const AIR_COST: f64 = 0.25;
/// A curse gives the player on the right three tiles.
const CURSE_GAIN: f64 = 1.5;
/// Shedding an ember that burns nothing.
const EMBER_SHED_GAIN: f64 = 0.5;
/// Per unit of flexibility: playing a tile that fits almost anywhere wastes it.
const KEEP_COST: f64 = 1.0;
const EPS: f64 = 1e-9;

// --- tables built once, from the engine's rules (pyramids.flaming.tiles) ------------------

// Keys are handled as i64 here: a placement action decodes to any key, never overflowing.
const KEY_OFFSET: i64 = MAX_ROW as i64 * ROW as i64 + HALF as i64;
const BASE_LOW: i64 = -(HALF as i64);
const SL: i64 = SUPPORT_LEFT as i64;
const SR: i64 = SUPPORT_RIGHT as i64;
const OFFSETS: [i64; 6] = [
    NEIGHBOURS[0] as i64,
    NEIGHBOURS[1] as i64,
    NEIGHBOURS[2] as i64,
    NEIGHBOURS[3] as i64,
    NEIGHBOURS[4] as i64,
    NEIGHBOURS[5] as i64,
];
const PLACE_BASE: Action = 8;
const FALL_LEFT: Action = 0;
const CHECK_OK: Action = 1 << 40;
const CALL_BASE: Action = CHECK_OK + 1;

#[inline]
fn is_ember_tile(t: usize) -> bool {
    MATERIAL[t] == EMBER
}

fn fit_mask(left: Option<u8>, right: Option<u8>) -> u64 {
    (0..NUM_TILES as u8)
        .filter(|&t| fits(t, left, right))
        .fold(0, |m, t| m | 1 << t)
}

/// Per support pair the tiles that fit (`_FIT2`, `_FIT1`) and complete a curse (`_CURSE2`),
/// and per tile the static cost of playing it (`_BASE_COST`: KEEP_COST * FLEX).
struct Tables {
    fit2: [[u64; NUM_TILES]; NUM_TILES],
    fit1: [u64; NUM_TILES],
    curse2: [[u64; NUM_TILES]; NUM_TILES],
    base_cost: [f64; NUM_TILES],
}

fn build_tables() -> Tables {
    let mut t = Tables {
        fit2: [[0; NUM_TILES]; NUM_TILES],
        fit1: [0; NUM_TILES],
        curse2: [[0; NUM_TILES]; NUM_TILES],
        base_cost: [0.0; NUM_TILES],
    };
    for a in 0..NUM_TILES as u8 {
        t.fit1[usize::from(a)] = fit_mask(Some(a), None);
        for b in 0..NUM_TILES as u8 {
            t.fit2[usize::from(a)][usize::from(b)] = fit_mask(Some(a), Some(b));
            t.curse2[usize::from(a)][usize::from(b)] = (0..NUM_TILES as u8)
                .filter(|&x| completes_curse(x, a, b))
                .fold(0, |m, x| m | 1 << x);
        }
    }
    // FLEX[t]: the share of ordered support pairs (no embers) tile t fits on.
    let supports: Vec<usize> = (0..NUM_TILES).filter(|&s| !is_ember_tile(s)).collect();
    let pairs = supports.len() * (supports.len() - 1);
    for x in 0..NUM_TILES {
        let mut count = 0usize;
        for &a in &supports {
            for &b in &supports {
                if a != b {
                    count += ((t.fit2[a][b] >> x) & 1) as usize;
                }
            }
        }
        t.base_cost[x] = KEEP_COST * (count as f64 / pairs as f64);
    }
    t
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

// --- the pyramid as the estimate reads it ------------------------------------------------

/// What the estimate reads of a pyramid: the tile at a position key, if any.
trait Pyramid {
    fn at(&self, key: i64) -> Option<usize>;
}

impl Pyramid for Board {
    #[inline]
    fn at(&self, key: i64) -> Option<usize> {
        Key::try_from(key)
            .ok()
            .and_then(|k| self.get(k))
            .map(usize::from)
    }
}

/// The state's pyramid with one position emptied (the falling tile leaves its place).
struct Without<'a, P: Pyramid> {
    inner: &'a P,
    key: i64,
}

impl<P: Pyramid> Pyramid for Without<'_, P> {
    #[inline]
    fn at(&self, key: i64) -> Option<usize> {
        if key == self.key {
            None
        } else {
            self.inner.at(key)
        }
    }
}

/// A small set of position keys (a pyramid holds at most 45 tiles).
struct KeySet {
    keys: [i64; 64],
    len: usize,
}

impl KeySet {
    fn new() -> Self {
        KeySet {
            keys: [0; 64],
            len: 0,
        }
    }

    #[inline]
    fn contains(&self, key: i64) -> bool {
        self.keys[..self.len].contains(&key)
    }

    /// Adds `key`; false when it was there already.
    #[inline]
    fn insert(&mut self, key: i64) -> bool {
        if self.contains(key) || self.len == self.keys.len() {
            return false;
        }
        self.keys[self.len] = key;
        self.len += 1;
        true
    }
}

/// `mayhem.fire_reach` counted: tiles of a material in `fuel` joined to `k` through such
/// tiles (`k` itself not counted).
fn fuel_chain<P: Pyramid>(board: &P, k: i64, fuel: u8) -> usize {
    // breadth first, as a key set would: the tiles reached as a bit mask (`k`'s own
    // tile, if any, counts as reached from the start)
    let mut seen: u64 = board.at(k).map_or(0, |t| 1 << t);
    let mut queue = [0i64; NUM_TILES + 1];
    queue[0] = k;
    let (mut len, mut i) = (1, 0);
    while i < len {
        let q = queue[i];
        i += 1;
        for off in OFFSETS {
            let n = q + off;
            if let Some(nt) = board.at(n) {
                if MATERIAL[nt] & fuel != 0 && (seen >> nt) & 1 == 0 && len < queue.len() {
                    seen |= 1 << nt;
                    queue[len] = n;
                    len += 1;
                }
            }
        }
    }
    len - 1
}

/// Tiles sent back by an explosion of the ember group through `k` (FP-EXPLODE).
fn blast<P: Pyramid>(board: &P, k: i64) -> usize {
    let mut group = KeySet::new();
    group.insert(k);
    let mut i = 0;
    while i < group.len {
        let q = group.keys[i];
        i += 1;
        for off in OFFSETS {
            let n = q + off;
            if let Some(nt) = board.at(n) {
                if is_ember_tile(nt) {
                    group.insert(n);
                }
            }
        }
    }
    let mut victims = KeySet::new();
    for &e in &group.keys[..group.len] {
        for off in OFFSETS {
            let n = e + off;
            if board.at(n).is_some() && !group.contains(n) {
                victims.insert(n);
            }
        }
    }
    victims.len
}

/// `_spot_facts`: (tiles that fit, cost of a misfit, tiles that complete a curse,
/// materials touching k, materials the touching embers ignite).
///
/// `chain` and `blast` remember `fuel_chain` (per fuel) and `blast` at the spot once counted
/// (they depend on the spot only).
#[derive(Clone, Copy)]
struct Facts {
    fit: u64,
    lost: f64,
    curse: u64,
    near: u8,
    ignited_by: u8,
    chain: [i32; 4],
    blast: i32,
}

impl Facts {
    /// `fuel_chain(board, k, fuel)`, counted once per fuel (fuel is STRAW or STRAW | WOOD).
    #[inline]
    fn chain<P: Pyramid>(&mut self, board: &P, k: i64, fuel: u8) -> usize {
        let slot = usize::from(fuel & 3);
        if self.chain[slot] < 0 {
            self.chain[slot] = fuel_chain(board, k, fuel) as i32;
        }
        self.chain[slot] as usize
    }

    /// `blast(board, k)`, counted once.
    #[inline]
    fn blast<P: Pyramid>(&mut self, board: &P, k: i64) -> usize {
        if self.blast < 0 {
            self.blast = blast(board, k) as i32;
        }
        self.blast as usize
    }
}

fn spot_facts<P: Pyramid>(board: &P, k: i64, curse_on: bool) -> Facts {
    let mut near = 0;
    let mut ignited_by = 0;
    let mut around = [None; 6];
    for (i, off) in OFFSETS.into_iter().enumerate() {
        around[i] = board.at(k + off);
        if let Some(nt) = around[i] {
            near |= MATERIAL[nt];
            ignited_by |= IGNITES[nt];
        }
    }
    let facts = |fit, lost, curse| Facts {
        fit,
        lost,
        curse,
        near,
        ignited_by,
        chain: [-1; 4],
        blast: -1,
    };
    if k >= BASE_LOW {
        return facts(ALL_MASK, 0.0, 0); // base: always fits (FP-FIT-4)
    }
    // the supports: OFFSETS[2] and OFFSETS[3] are SL and SR
    let (left, right) = (around[2], around[3]);
    match (left, right) {
        (None, None) => facts(0, AIR_COST, 0), // free air (FP-AIR): only a further drop
        (None, Some(s)) | (Some(s), None) => facts(tables().fit1[s], 1.0 + FALL_COST, 0),
        (Some(l), Some(r)) => {
            let curse = if curse_on { tables().curse2[l][r] } else { 0 };
            facts(tables().fit2[l][r], 2.0 + FALL_COST, curse)
        }
    }
}

/// `_ember_cost`: a fitting tile `t` at `k` when an ember is involved (FP-EXPLODE, FP-FIRE).
fn ember_cost<P: Pyramid>(board: &P, k: i64, t: usize, f: &mut Facts) -> f64 {
    if is_ember_tile(t) {
        if f.near & EMBER != 0 {
            return f.blast(board, k) as f64;
        }
        if f.near & IGNITES[t] != 0 {
            return f.chain(board, k, IGNITES[t]) as f64;
        }
        return -EMBER_SHED_GAIN;
    }
    if MATERIAL[t] & f.ignited_by != 0 {
        return 1.0 + f.chain(board, k, f.ignited_by) as f64;
    }
    curse_value(f, t)
}

#[inline]
fn curse_value(f: &Facts, t: usize) -> f64 {
    if (f.curse >> t) & 1 == 1 {
        -CURSE_GAIN
    } else {
        0.0
    }
}

/// `_cost` with the spot's facts known: estimated tiles coming back if `t` lands at `k`.
#[inline]
fn cost_with<P: Pyramid>(board: &P, k: i64, t: usize, f: &mut Facts) -> f64 {
    if (f.fit >> t) & 1 == 0 {
        f.lost
    } else if is_ember_tile(t) || f.near & EMBER != 0 {
        ember_cost(board, k, t, f)
    } else {
        curse_value(f, t)
    }
}

/// `actions.decode_place`: (tile, key) of a placement action.
#[inline]
fn decode_place(action: Action) -> (usize, i64) {
    let a = action.wrapping_sub(PLACE_BASE);
    ((a & 63) as usize, (a >> 6) as i64 - KEY_OFFSET)
}

/// `actions.call_action`: the call naming position `key`.
#[inline]
fn call_action(key: i64) -> Action {
    CALL_BASE.wrapping_add((key + KEY_OFFSET) as u64)
}

/// `legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]`.
#[inline]
fn pick(best: &[Action], rng: &mut PyRandom) -> Action {
    if best.len() > 1 {
        best[rng.below(best.len())]
    } else {
        best[0]
    }
}

/// The actions tied for best so far, in order (no allocation for up to 16 of them; ties
/// are few: the cost of giving up a tile differs from tile to tile).
#[derive(Default)]
struct Ties {
    small: [Action; 16],
    len: usize,
    spill: Vec<Action>,
}

impl Ties {
    fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }

    fn push(&mut self, a: Action) {
        if self.len < self.small.len() {
            self.small[self.len] = a;
        } else {
            if self.spill.is_empty() {
                self.spill.extend_from_slice(&self.small);
            }
            self.spill.push(a);
        }
        self.len += 1;
    }

    fn as_slice(&self) -> &[Action] {
        if self.spill.is_empty() {
            &self.small[..self.len]
        } else {
            &self.spill
        }
    }
}

/// `_place_choice`: the placement with the lowest estimate plus the cost of giving up the tile.
fn place_choice<P: Pyramid>(
    board: &P,
    curse_on: bool,
    legal: &[Action],
    rng: &mut PyRandom,
) -> Action {
    let mut spot: Option<i64> = None;
    let mut facts = Facts {
        fit: 0,
        lost: 0.0,
        curse: 0,
        near: 0,
        ignited_by: 0,
        chain: [-1; 4],
        blast: -1,
    };
    let tables = tables();
    let mut best = Ties::default();
    let mut best_cost = f64::INFINITY;
    for &a in legal {
        let (t, k) = decode_place(a);
        if t >= NUM_TILES {
            continue; // never a legal placement
        }
        if spot != Some(k) {
            spot = Some(k);
            facts = spot_facts(board, k, curse_on);
        }
        let c = cost_with(board, k, t, &mut facts) + tables.base_cost[t];
        if c < best_cost - EPS {
            best_cost = c;
            best.clear();
            best.push(a);
        } else if c <= best_cost + EPS {
            best.push(a);
        }
    }
    if best.len == 0 {
        return legal[0];
    }
    pick(best.as_slice(), rng)
}

/// `_fall_choice`: the side whose landing spot has the lowest estimate for the falling tile.
fn fall_choice<P: Pyramid>(
    board: &P,
    pending_key: i64,
    curse_on: bool,
    legal: &[Action],
    rng: &mut PyRandom,
) -> Action {
    let Some(t) = board.at(pending_key) else {
        return legal[0];
    };
    let without = Without {
        inner: board,
        key: pending_key,
    };
    let mut costs = [0.0f64; 8];
    let n = legal.len().min(costs.len());
    for (i, &a) in legal[..n].iter().enumerate() {
        let k = pending_key + if a == FALL_LEFT { SL } else { SR };
        costs[i] = cost_with(&without, k, t, &mut spot_facts(&without, k, curse_on));
    }
    let low = costs[..n]
        .iter()
        .fold(f64::INFINITY, |m, &c| if c < m { c } else { m });
    let mut best = Ties::default();
    for (&a, &c) in legal[..n].iter().zip(&costs[..n]) {
        if c <= low + EPS {
            best.push(a);
        }
    }
    pick(best.as_slice(), rng)
}

// --- the call-out checks (pyramids.flaming.mayhem.first_event) -----------------------------

/// `perfect_check` (FP-CALL-3): a call of the first event in check order then scan order
/// (`mayhem.first_event` over the whole pyramid, FP-MAYHEM-2), or `ok` when none stands.
fn perfect_check(state: &State) -> Action {
    let curse_on = state.opts.curse;
    let mut best: Option<(u8, Key)> = None;
    for t in bits(state.board.mask) {
        let k = state.board.key_of[usize::from(t)];
        let cat = state.mayhem_category(k, t, curse_on);
        if cat != 0 && !matches!(best, Some(b) if b <= (cat, k)) {
            best = Some((cat, k));
        }
    }
    match best {
        Some((_, k)) => call_action(i64::from(k)),
        None => CHECK_OK,
    }
}

/// `CheckReflex.careful(state, legal)`: `perfect_check` on the state's own pyramid.
///
/// As in Python, the engine's `first_event` scan of the state's mayhem candidates (on a
/// copy: the scan drops the candidates that hold no event).
pub fn careful(state: &State, _legal: &[Action]) -> Action {
    let mut scan = state.clone();
    match scan.first_event(state.opts.curse) {
        (0, _) => CHECK_OK,
        (_, k) => call_action(i64::from(k)),
    }
}

// --- the greedy bot (GreedyFlamingBot.act) ---------------------------------------------------

/// The greedy bot's choice among `legal` (a subset of the legal actions) for the deciding
/// seat of `state`, as `GreedyFlamingBot().act(state.view(seat), legal, rng)` chooses: the
/// same action and the same draws from `rng`. It reads only public facts (the pyramid,
/// the quenched embers, the pending fall, the curse option).
pub fn greedy(state: &State, legal: &[Action], rng: &mut PyRandom) -> Action {
    match legal.len() {
        0 => return CHECK_OK,
        1 => return legal[0],
        _ => {}
    }
    let curse_on = state.opts.curse;
    if legal[0] == CHECK_OK {
        return perfect_check(state);
    }
    if (PLACE_BASE..CHECK_OK).contains(&legal[0]) {
        return place_choice(&state.board, curse_on, legal, rng);
    }
    if state.pending == FALL {
        return fall_choice(
            &state.board,
            i64::from(state.pending_key),
            curse_on,
            legal,
            rng,
        );
    }
    legal[rng.below(legal.len())]
}

// --- the static evaluation (pyramids.games.flaming.evaluation) -----------------------------

/// The static evaluation: `returns()` at the end, else each seat's share of the tiles
/// shed, `(T - r[s]) / (T * (n - 1))` with `r[s]` tiles left to seat `s` (hand and pile)
/// and `T` their sum (`evaluation.evaluate`, bit-equal), into `out` (cleared first).
pub fn evaluate(state: &State, out: &mut Vec<f64>) {
    if state.is_terminal() {
        state.returns_into(out);
        return;
    }
    out.clear();
    let n = state.n();
    let left: Vec<usize> = (0..n)
        .map(|s| state.hands[s].len() + state.piles[s].len())
        .collect();
    let total: usize = left.iter().sum();
    if n < 2 || total == 0 {
        out.resize(n, 1.0 / n as f64);
        return;
    }
    let denom = (total * (n - 1)) as f64;
    out.extend(left.iter().map(|&r| (total - r) as f64 / denom));
}

// --- the search's per-game parts ---------------------------------------------------------

/// Flaming Pyramids for the native search: determinization, the greedy policy, the
/// evaluation and the call-out reflex (`CheckReflex`).
///
/// `value`: the learned evaluation's weights (`SearchSettings.evaluation == "learned"`);
/// `None` evaluates with the hand-made [`evaluate`].
#[derive(Clone, Debug, Default)]
pub struct Search {
    /// The learned value's weights, when the search evaluates with it.
    pub value: Option<ValueWeights>,
}

impl SearchGame for Search {
    type State = State;
    type View = View;

    fn view_player(&self, view: &View) -> usize {
        view.player.map_or(0, usize::from)
    }

    fn determinize(&self, view: &View, rng: &mut PyRandom) -> State {
        determinize(view, rng)
    }

    fn policy(&self, state: &State, legal: &[Action], rng: &mut PyRandom) -> Action {
        greedy(state, legal, rng)
    }

    fn evaluate(&self, state: &State, out: &mut Vec<f64>) {
        match &self.value {
            Some(value) => crate::features::learned_evaluate(state, value, out),
            None => evaluate(state, out),
        }
    }

    /// `CheckReflex.in_play`: call-out games only.
    fn reflex_in_play(&self, state: &State) -> bool {
        state.opts.callout_on()
    }

    /// `CheckReflex.applies`: a check, whose sorted legal actions start with `ok`.
    fn reflex_applies(&self, legal: &[Action]) -> bool {
        legal.first() == Some(&CHECK_OK)
    }

    /// `CheckReflex.careful`: the right call or `ok`.
    fn reflex_careful(&self, state: &State, legal: &[Action]) -> Action {
        careful(state, legal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pyramids_core::{sample_chance, CHANCE};

    #[test]
    fn tables_match_python() {
        // Printed by CPython from pyramids.games.flaming.policy (_BASE_COST, _FIT2, _FIT1, _CURSE2).
        let t = tables();
        let base: Vec<u64> = [0, 1, 5, 14, 20, 44]
            .iter()
            .map(|&x| t.base_cost[x].to_bits())
            .collect();
        let want = [
            0x3fde_0c7c_e0c7_ce0c,
            0x3fe2_4d6c_a4d6_ca4d,
            0x3fe0_4fec_04fe_c050,
            0x3fdd_44ae_d44a_ed45,
            0x3fd4_36f2_436f_2437,
            0x3fb5_3ab1_53ab_153b,
        ];
        assert_eq!(base, want);
        assert_eq!(t.fit2[3][17], 584_417_802_367);
        assert_eq!(t.fit1[9], 4_400_195_044_351);
        assert_eq!(t.curse2[4][15], 137_506_095_120);
    }

    /// (options, players, seed, turns, actions, hash of the actions, returns) of greedy
    /// self-play on the Python engine (bench's loop, chance from `Random(seed + 1000)`),
    /// printed by CPython.
    type Golden = (&'static str, usize, i128, u64, usize, u64, &'static [f64]);

    #[rustfmt::skip]
    const GOLDEN: &[Golden] = &[
        (r#"{"preset": "standard", "curse": true, "fire_die": false, "max_turns": 1000, "first_player": 0}"#, 3, 0, 65, 92, 0x5525d252dc6dcc8, &[0.0, 1.0, 0.0]),
        (r#"{"preset": "basic", "curse": false, "fire_die": false, "max_turns": 1000, "first_player": 0}"#, 2, 1, 62, 78, 0x86b1a75aa2c19230, &[0.0, 1.0]),
        (r#"{"preset": "family", "curse": false, "fire_die": true, "max_turns": 1000, "first_player": 0}"#, 6, 2, 42, 58, 0xd6da64da455c00c, &[0.0, 0.0, 0.0, 0.0, 0.0, 1.0]),
        (r#"{"preset": "standard", "curse": true, "fire_die": false, "max_turns": 1000, "callout": "family", "first_player": 0}"#, 4, 3, 41, 101, 0x5f70412e5f6a1438, &[1.0, 0.0, 0.0, 0.0]),
        (r#"{"preset": "standard", "curse": true, "fire_die": true, "max_turns": 1000, "callout": "competitive", "first_player": 0}"#, 5, 4, 41, 88, 0x464f9c9827b4a45c, &[1.0, 0.0, 0.0, 0.0, 0.0]),
        (r#"{"preset": "standard", "curse": false, "fire_die": false, "max_turns": 1000, "first_player": 0}"#, 2, 5, 68, 93, 0x1114b649d8163768, &[0.0, 1.0]),
    ];

    #[test]
    fn greedy_self_play_repeats_python_games() {
        for &(options, players, seed, turns, count, hash, returns) in GOLDEN {
            let mut state = State::new_game(players, options, seed).expect("a game");
            state.set_record_events(false);
            let mut rng = PyRandom::new(seed);
            let mut chance = PyRandom::new(seed + 1000);
            let (mut t, mut n, mut h) = (0u64, 0usize, 0u64);
            let (mut legal, mut outcomes) = (Vec::new(), Vec::new());
            while !state.is_terminal() {
                let a = if state.current_player() == CHANCE {
                    state.chance_outcomes_into(&mut outcomes);
                    sample_chance(&outcomes, &mut chance)
                } else {
                    state.legal_actions_into(&mut legal);
                    let a = greedy(&state, &legal, &mut rng);
                    assert!(legal.contains(&a));
                    if (PLACE_BASE..CHECK_OK).contains(&a) {
                        t += 1;
                    }
                    a
                };
                h = h.wrapping_mul(1_000_003).wrapping_add(a);
                n += 1;
                state.apply(a).expect("a legal action");
            }
            assert_eq!(
                (t, n, h, state.returns()),
                (turns, count, hash, returns.to_vec()),
                "{options} {players} {seed}"
            );
        }
    }
}
