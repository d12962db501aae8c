//! Bindings of the learned evaluation (`pyramids.games.<game>.learned`): each game's
//! features and learned value of a native state, and the training positions of
//! `pyramids train-eval` (native self-play, sampled and labelled, with the GIL released).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyramids_core::{sample_chance, Action, GameState, PyRandom, ValueWeights, CHANCE};
use pyramids_search::MIXED_GREEDY_SHARE;

use crate::flags::PyFlagsState;
use crate::flaming::PyFlamingState;

/// The weights of a learned value, checked against the game's number of features.
pub fn value_weights(weights: Vec<f64>, bias: f64, features: usize) -> PyResult<ValueWeights> {
    if weights.len() != features {
        return Err(PyValueError::new_err(format!(
            "the learned value needs {features} weights (one per feature), not {}",
            weights.len()
        )));
    }
    if !bias.is_finite() || weights.iter().any(|w| !w.is_finite()) {
        return Err(PyValueError::new_err(
            "the learned value's weights and bias must be finite numbers",
        ));
    }
    Ok(ValueWeights { weights, bias })
}

/// The features of every seat of `state`, one list per seat (`features.features`).
fn rows(flat: &[f64], width: usize) -> Vec<Vec<f64>> {
    flat.chunks(width).map(<[f64]>::to_vec).collect()
}

/// `pyramids.games.flaming.features.features(state)` natively: one list per seat.
#[pyfunction]
fn flaming_features(state: PyRef<'_, PyFlamingState>) -> Vec<Vec<f64>> {
    let mut out = Vec::new();
    pyramids_flaming::features::features(&state.inner, &mut out);
    rows(&out, pyramids_flaming::features::NUM_FEATURES)
}

/// `pyramids.games.flags.features.features(state)` natively: one list per seat.
#[pyfunction]
fn flags_features(state: PyRef<'_, PyFlagsState>) -> Vec<Vec<f64>> {
    let mut out = Vec::new();
    pyramids_flags::features::features(&state.inner, &mut out);
    rows(&out, pyramids_flags::features::NUM_FEATURES)
}

/// The learned evaluation of `state` with these weights, as the native search computes it.
#[pyfunction]
fn flaming_learned(
    state: PyRef<'_, PyFlamingState>,
    weights: Vec<f64>,
    bias: f64,
) -> PyResult<Vec<f64>> {
    let value = value_weights(weights, bias, pyramids_flaming::features::NUM_FEATURES)?;
    let mut out = Vec::new();
    pyramids_flaming::features::learned_evaluate(&state.inner, &value, &mut out);
    Ok(out)
}

/// The learned evaluation of `state` with these weights, as the native search computes it.
#[pyfunction]
fn flags_learned(
    state: PyRef<'_, PyFlagsState>,
    weights: Vec<f64>,
    bias: f64,
) -> PyResult<Vec<f64>> {
    let value = value_weights(weights, bias, pyramids_flags::features::NUM_FEATURES)?;
    let mut out = Vec::new();
    pyramids_flags::features::learned_evaluate(&state.inner, &value, &mut out);
    Ok(out)
}

/// Labelled positions, a row per seat of each: (its features, its result, its hand-made
/// evaluation), a position's seats in consecutive rows.
type Samples = (Vec<Vec<f64>>, Vec<f64>, Vec<f64>);

/// A game's parts that `sample_game` uses: its greedy bot, features and hand-made evaluation.
struct Parts<S> {
    greedy: fn(&S, &[Action], &mut PyRandom) -> Action,
    features: fn(&S, &mut Vec<f64>),
    evaluate: fn(&S, &mut Vec<f64>),
    width: usize,
}

/// Play one `mixed` self-play game from `state` (each move the greedy bot's with chance
/// 0.8, else uniformly random; chance from `chance`) and keep `per_game` of its decision
/// positions, drawn uniformly (reservoir sampling with `rng`); every seat of a kept
/// position becomes a row labelled with the seat's result.
fn sample_game<S: GameState>(
    mut state: S,
    parts: &Parts<S>,
    per_game: usize,
    rng: &mut PyRandom,
    chance: &mut PyRandom,
    out: &mut Samples,
) -> Result<(), String> {
    let mut kept: Vec<S> = Vec::with_capacity(per_game);
    let mut seen = 0usize;
    let (mut legal, mut outcomes) = (Vec::new(), Vec::new());
    while !state.is_terminal() {
        let action = if state.current_player() == CHANCE {
            state.chance_outcomes_into(&mut outcomes);
            sample_chance(&outcomes, chance)
        } else {
            seen += 1;
            if kept.len() < per_game {
                kept.push(state.clone());
            } else {
                let j = rng.below(seen);
                if j < per_game {
                    kept[j] = state.clone();
                }
            }
            state.legal_actions_into(&mut legal);
            if rng.random() < MIXED_GREEDY_SHARE {
                (parts.greedy)(&state, &legal, rng)
            } else {
                legal[rng.below(legal.len())]
            }
        };
        state.apply(action)?;
    }
    let result = state.returns();
    let (mut f, mut e) = (Vec::new(), Vec::new());
    for s in &kept {
        (parts.features)(s, &mut f);
        (parts.evaluate)(s, &mut e);
        for (seat, row) in f.chunks(parts.width).enumerate() {
            out.0.push(row.to_vec());
            out.1.push(result[seat]);
            out.2.push(e[seat]);
        }
    }
    Ok(())
}

/// value_samples(game, players, options, seeds, per_game) -> (rows, labels,
/// handmade), `options` the game's options dict: the training positions of `pyramids train-eval`, one `mixed` self-play game per seed (the
/// deal from `seed`, moves from `Random(seed)`, chance from `Random(seed + 2**32)`).
#[pyfunction]
fn value_samples(
    py: Python<'_>,
    game: &str,
    players: usize,
    options: &Bound<'_, PyAny>,
    seeds: Vec<i128>,
    per_game: usize,
) -> PyResult<Samples> {
    let game = game.to_string();
    let options_json = crate::convert::py_to_text(options)?;
    py.allow_threads(move || {
        let mut out: Samples = (Vec::new(), Vec::new(), Vec::new());
        for &seed in &seeds {
            let mut rng = PyRandom::new(seed);
            let mut chance = PyRandom::new(seed + (1i128 << 32));
            match game.as_str() {
                "flaming" => {
                    let mut state = pyramids_flaming::State::new_game(players, &options_json, seed)
                        .map_err(|r| r.to_string())?;
                    state.set_record_events(false);
                    sample_game(
                        state,
                        &Parts {
                            greedy: pyramids_flaming::policy::greedy,
                            features: pyramids_flaming::features::features,
                            evaluate: pyramids_flaming::policy::evaluate,
                            width: pyramids_flaming::features::NUM_FEATURES,
                        },
                        per_game,
                        &mut rng,
                        &mut chance,
                        &mut out,
                    )?;
                }
                "flags" => {
                    let mut state = pyramids_flags::State::new_game(players, &options_json, seed)?;
                    state.set_record_events(false);
                    sample_game(
                        state,
                        &Parts {
                            greedy: pyramids_flags::policy::greedy,
                            features: pyramids_flags::features::features,
                            evaluate: pyramids_flags::policy::evaluate,
                            width: pyramids_flags::features::NUM_FEATURES,
                        },
                        per_game,
                        &mut rng,
                        &mut chance,
                        &mut out,
                    )?;
                }
                _ => return Err(format!("no learned evaluation for game {game:?}")),
            }
        }
        Ok(out)
    })
    .map_err(PyValueError::new_err)
}

/// Adds this part's functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(flaming_features, m)?)?;
    m.add_function(wrap_pyfunction!(flags_features, m)?)?;
    m.add_function(wrap_pyfunction!(flaming_learned, m)?)?;
    m.add_function(wrap_pyfunction!(flags_learned, m)?)?;
    m.add_function(wrap_pyfunction!(value_samples, m)?)?;
    Ok(())
}
