//! Bindings of the native greedy bots, evaluations and call-out reflex, and native
//! self-play for `pyramids bench` (`pyramids.analysis.bench.play_timed`, entirely in Rust).
//!
//! Generators cross the boundary as `random.Random.getstate()[1]` (625 ints): the caller
//! passes its generator's state in and sets the state returned, so its generator goes on
//! exactly as if the Python bot had drawn (`rng.setstate((3, tuple(after), None))`).
//! The rules options come as the game's options dict (never JSON text; read into the
//! engines' option readers in Rust). Everything that comes from Python is checked: a bad generator state, an action that is
//! not legal or a state with no seat to decide raise ValueError, never a panic.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyramids_core::{sample_chance, Action, GameState, PyRandom, CHANCE};

use crate::convert::{py_to_text, py_to_value};
use crate::flags::PyFlagsState;
use crate::flaming::PyFlamingState;

/// A generator from `getstate()[1]`; ValueError when it is not one.
fn rng_from(state: &[u32], what: &str) -> PyResult<PyRandom> {
    PyRandom::from_state(state).ok_or_else(|| {
        PyValueError::new_err(format!(
            "{what} must be the 625 numbers of random.Random().getstate()[1]"
        ))
    })
}

/// ValueError unless `state` has a seat to decide and every action of `legal` is legal there.
fn check_decision<S: GameState>(state: &S, legal: &[Action]) -> PyResult<()> {
    if state.current_player() < 0 {
        return Err(PyValueError::new_err(
            "no seat decides here (a chance point or the end)",
        ));
    }
    if legal.is_empty() {
        return Err(PyValueError::new_err("legal must list at least one action"));
    }
    let all = state.legal_actions();
    if let Some(a) = legal.iter().find(|a| all.binary_search(a).is_err()) {
        return Err(PyValueError::new_err(format!(
            "action {a} is not legal here"
        )));
    }
    Ok(())
}

/// The greedy choice of `policy` for `state` among `legal`, with the generator's state after.
fn greedy_with<S: GameState>(
    state: &S,
    legal: &[Action],
    rng_state: &[u32],
    policy: fn(&S, &[Action], &mut PyRandom) -> Action,
) -> PyResult<(Action, Vec<u32>)> {
    check_decision(state, legal)?;
    let mut rng = rng_from(rng_state, "rng_state")?;
    let action = policy(state, legal, &mut rng);
    Ok((action, rng.state()))
}

/// The self-play policies of the benchmark.
#[derive(Clone, Copy)]
enum Policy {
    Random,
    Greedy,
}

fn parse_policy(name: &str) -> PyResult<Policy> {
    match name {
        "random" => Ok(Policy::Random),
        "greedy" => Ok(Policy::Greedy),
        _ => Err(PyValueError::new_err(format!(
            "unknown self-play policy {name:?} (random or greedy)"
        ))),
    }
}

/// A generator seeded on first use (the chance generator of a game with no chance point
/// is never seeded: the same draws, less work).
struct Lazy {
    seed: i128,
    rng: Option<PyRandom>,
}

impl Lazy {
    /// A generator ready now.
    fn ready(rng: PyRandom) -> Self {
        Lazy {
            seed: 0,
            rng: Some(rng),
        }
    }

    /// `PyRandom::new(seed)`, seeded when first drawn from.
    fn seeded(seed: i128) -> Self {
        Lazy { seed, rng: None }
    }

    fn get(&mut self) -> &mut PyRandom {
        let seed = self.seed;
        self.rng.get_or_insert_with(|| PyRandom::new(seed))
    }
}

/// The self-play loop of `bench.play_timed` on `state`: (turns, actions applied), each
/// action given to `record`.
///
/// Chance outcomes are drawn with `sample_chance` from `chance`; the random bot plays
/// `legal[rng.randrange(len(legal))]`, the greedy bot `greedy(state, legal, rng)`; a turn
/// is a decision whose action lies in [lo, hi).
#[allow(clippy::too_many_arguments)] // the loop's every input
fn play_out<S: GameState>(
    state: &mut S,
    policy: Policy,
    greedy: fn(&S, &[Action], &mut PyRandom) -> Action,
    rng: &mut PyRandom,
    chance: &mut Lazy,
    lo: i128,
    hi: i128,
    mut record: impl FnMut(Action),
) -> Result<(u64, u64), String> {
    let mut turns = 0u64;
    let mut count = 0u64;
    let mut legal = Vec::with_capacity(64);
    let mut outcomes = Vec::new();
    while !state.is_terminal() {
        let action = if state.current_player() == CHANCE {
            state.chance_outcomes_into(&mut outcomes);
            if outcomes.is_empty() {
                return Err("a chance point with no outcome".to_string());
            }
            sample_chance(&outcomes, chance.get())
        } else {
            state.legal_actions_into(&mut legal);
            if legal.is_empty() {
                return Err("a decision with no legal action".to_string());
            }
            let action = match policy {
                Policy::Random => legal[rng.below(legal.len())],
                Policy::Greedy => greedy(state, &legal, rng),
            };
            if lo <= i128::from(action) && i128::from(action) < hi {
                turns += 1;
            }
            action
        };
        record(action);
        count += 1;
        state.apply(action)?;
    }
    Ok((turns, count))
}

/// One self-play game, as `bench.play_timed` plays it: (turns, actions applied, returns).
fn self_play<S: GameState>(
    mut state: S,
    policy: Policy,
    greedy: fn(&S, &[Action], &mut PyRandom) -> Action,
    mut rng: PyRandom,
    chance: PyRandom,
    lo: i128,
    hi: i128,
) -> Result<(u64, Vec<Action>, Vec<f64>), String> {
    let mut actions = Vec::new();
    let (turns, _) = play_out(
        &mut state,
        policy,
        greedy,
        &mut rng,
        &mut Lazy::ready(chance),
        lo,
        hi,
        |a| actions.push(a),
    )?;
    Ok((turns, actions, state.returns()))
}

/// `2**32`: the chance generator of seed `s` in a batch is `Random(s + 2**32)`.
const CHANCE_SEED_OFFSET: i128 = 1 << 32;

/// Self-play of one game per seed, timed in Rust around the whole batch: (games, turns,
/// actions, seconds). Per seed `s` the game `<game>_self_play` plays with
/// `rng = Random(s)` and `chance = Random(s + 2**32)`; `deal(s, rng)` makes the new game
/// (given the fresh `rng`, untouched after).
#[allow(clippy::too_many_arguments)] // the loop's every input
fn self_play_batch<S: GameState>(
    seeds: &[i128],
    policy: Policy,
    greedy: fn(&S, &[Action], &mut PyRandom) -> Action,
    lo: i128,
    hi: i128,
    mut deal: impl FnMut(i128, &PyRandom) -> Result<S, String>,
) -> Result<(u64, u64, u64, f64), String> {
    let start = std::time::Instant::now();
    let (mut turns, mut actions) = (0u64, 0u64);
    for &seed in seeds {
        let mut rng = PyRandom::new(seed);
        let mut state = deal(seed, &rng)?;
        let mut chance = Lazy::seeded(seed + CHANCE_SEED_OFFSET);
        let (t, a) = play_out(
            &mut state,
            policy,
            greedy,
            &mut rng,
            &mut chance,
            lo,
            hi,
            |_| {},
        )?;
        turns += t;
        actions += a;
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok((seeds.len() as u64, turns, actions, seconds))
}

// --- Flaming Pyramids ---------------------------------------------------------------------

/// `GreedyFlamingBot().act(state.view(seat), legal, rng)` natively: (action, rng state after).
#[pyfunction]
fn flaming_greedy(
    state: PyRef<'_, PyFlamingState>,
    legal: Vec<Action>,
    rng_state: Vec<u32>,
) -> PyResult<(Action, Vec<u32>)> {
    greedy_with(
        &state.inner,
        &legal,
        &rng_state,
        pyramids_flaming::policy::greedy,
    )
}

/// `pyramids.games.flaming.evaluation.evaluate(state)` natively (bit-equal floats).
#[pyfunction]
fn flaming_evaluate(state: PyRef<'_, PyFlamingState>) -> Vec<f64> {
    let mut out = Vec::new();
    pyramids_flaming::policy::evaluate(&state.inner, &mut out);
    out
}

/// `CheckReflex().careful(state, legal)` natively: the right call or `ok` (like the Python
/// reflex it reads the state's pyramid, not `legal`).
#[pyfunction]
fn flaming_careful(state: PyRef<'_, PyFlamingState>, legal: Vec<Action>) -> Action {
    pyramids_flaming::policy::careful(&state.inner, &legal)
}

/// One Flaming Pyramids self-play game of `bench.play_timed`, entirely in Rust with the GIL
/// released: (turns, actions, returns).
#[pyfunction]
#[allow(clippy::too_many_arguments)] // the loop's every input, as bench passes them
#[pyo3(signature = (players, options, seed, policy, rng_state, chance_state, turn_lo, turn_hi))]
fn flaming_self_play(
    py: Python<'_>,
    players: usize,
    options: &Bound<'_, PyAny>,
    seed: i128,
    policy: &str,
    rng_state: Vec<u32>,
    chance_state: Vec<u32>,
    turn_lo: i128,
    turn_hi: i128,
) -> PyResult<(u64, Vec<Action>, Vec<f64>)> {
    let policy = parse_policy(policy)?;
    let rng = rng_from(&rng_state, "rng_state")?;
    let chance = rng_from(&chance_state, "chance_state")?;
    let options_json = py_to_text(options)?;
    py.allow_threads(move || {
        let mut state = pyramids_flaming::State::new_game(players, &options_json, seed)
            .map_err(|r| r.to_string())?;
        state.set_record_events(false);
        self_play(
            state,
            policy,
            pyramids_flaming::policy::greedy,
            rng,
            chance,
            turn_lo,
            turn_hi,
        )
    })
    .map_err(PyValueError::new_err)
}

/// `flaming_self_play` for every seed of `seeds` (rng `Random(seed)`, chance
/// `Random(seed + 2**32)`), entirely in Rust with the GIL released, timed in Rust around
/// the whole batch: (games, turns, actions applied, seconds).
#[pyfunction]
#[pyo3(signature = (players, options, seeds, policy, turn_lo, turn_hi))]
fn flaming_self_play_batch(
    py: Python<'_>,
    players: usize,
    options: &Bound<'_, PyAny>,
    seeds: Vec<i128>,
    policy: &str,
    turn_lo: i128,
    turn_hi: i128,
) -> PyResult<(u64, u64, u64, f64)> {
    let policy = parse_policy(policy)?;
    let value = py_to_value(options)?;
    py.allow_threads(move || {
        let opts = pyramids_flaming::Options::from_json(&value).map_err(|r| r.to_string())?;
        self_play_batch(
            &seeds,
            policy,
            pyramids_flaming::policy::greedy,
            turn_lo,
            turn_hi,
            |_, rng| {
                // the deal draws from Random(seed), a copy of the fresh rng
                let mut state =
                    pyramids_flaming::State::new_game_with(players, opts, &mut rng.clone())
                        .map_err(|r| r.to_string())?;
                state.set_record_events(false);
                Ok(state)
            },
        )
    })
    .map_err(PyValueError::new_err)
}

// --- Pyramids and Flags -------------------------------------------------------------------

/// `GreedyFlagsBot().act(state.view(seat), legal, rng)` natively: (action, rng state after).
#[pyfunction]
fn flags_greedy(
    state: PyRef<'_, PyFlagsState>,
    legal: Vec<Action>,
    rng_state: Vec<u32>,
) -> PyResult<(Action, Vec<u32>)> {
    greedy_with(
        &state.inner,
        &legal,
        &rng_state,
        pyramids_flags::policy::greedy,
    )
}

/// `pyramids.games.flags.evaluation.evaluate(state)` natively (bit-equal floats).
#[pyfunction]
fn flags_evaluate(state: PyRef<'_, PyFlagsState>) -> Vec<f64> {
    let mut out = Vec::new();
    pyramids_flags::policy::evaluate(&state.inner, &mut out);
    out
}

/// One Pyramids and Flags self-play game of `bench.play_timed`, entirely in Rust with the
/// GIL released: (turns, actions, returns).
#[pyfunction]
#[allow(clippy::too_many_arguments)] // the loop's every input, as bench passes them
#[pyo3(signature = (players, options, seed, policy, rng_state, chance_state, turn_lo, turn_hi))]
fn flags_self_play(
    py: Python<'_>,
    players: usize,
    options: &Bound<'_, PyAny>,
    seed: i128,
    policy: &str,
    rng_state: Vec<u32>,
    chance_state: Vec<u32>,
    turn_lo: i128,
    turn_hi: i128,
) -> PyResult<(u64, Vec<Action>, Vec<f64>)> {
    let policy = parse_policy(policy)?;
    let rng = rng_from(&rng_state, "rng_state")?;
    let chance = rng_from(&chance_state, "chance_state")?;
    let options_json = py_to_text(options)?;
    py.allow_threads(move || {
        let mut state = pyramids_flags::State::new_game(players, &options_json, seed)?;
        state.set_record_events(false);
        self_play(
            state,
            policy,
            pyramids_flags::policy::greedy,
            rng,
            chance,
            turn_lo,
            turn_hi,
        )
    })
    .map_err(PyValueError::new_err)
}

/// `flags_self_play` for every seed of `seeds` (rng `Random(seed)`, chance
/// `Random(seed + 2**32)`), entirely in Rust with the GIL released, timed in Rust around
/// the whole batch: (games, turns, actions applied, seconds).
#[pyfunction]
#[pyo3(signature = (players, options, seeds, policy, turn_lo, turn_hi))]
fn flags_self_play_batch(
    py: Python<'_>,
    players: usize,
    options: &Bound<'_, PyAny>,
    seeds: Vec<i128>,
    policy: &str,
    turn_lo: i128,
    turn_hi: i128,
) -> PyResult<(u64, u64, u64, f64)> {
    let policy = parse_policy(policy)?;
    let options_json = py_to_text(options)?;
    py.allow_threads(move || {
        self_play_batch(
            &seeds,
            policy,
            pyramids_flags::policy::greedy,
            turn_lo,
            turn_hi,
            |seed, _| {
                let mut state = pyramids_flags::State::new_game(players, &options_json, seed)?;
                state.set_record_events(false);
                Ok(state)
            },
        )
    })
    .map_err(PyValueError::new_err)
}

/// Adds this part's functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(flaming_greedy, m)?)?;
    m.add_function(wrap_pyfunction!(flaming_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(flaming_careful, m)?)?;
    m.add_function(wrap_pyfunction!(flaming_self_play, m)?)?;
    m.add_function(wrap_pyfunction!(flaming_self_play_batch, m)?)?;
    m.add_function(wrap_pyfunction!(flags_greedy, m)?)?;
    m.add_function(wrap_pyfunction!(flags_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(flags_self_play, m)?)?;
    m.add_function(wrap_pyfunction!(flags_self_play_batch, m)?)?;
    Ok(())
}
