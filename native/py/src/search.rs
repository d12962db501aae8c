//! Bindings of the native search (`pyramids_search`): `search` from a seat's view (ISMCTS),
//! `search_views` from weighted views (inference's particles) and `search_state` from a full
//! state (the oracle), all with the GIL released.
//!
//! The caller's generator travels as `random.Random.getstate()[1]` (625 ints) and comes
//! back after the search, so `pyramids.bots.ismcts` continues it exactly as after the
//! Python search. `pyramids.bots.native_search` is the only caller.

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use pyramids_core::ValueWeights;
use pyramids_core::{Action, PyRandom, SearchGame};
use pyramids_search::{
    run_search, run_search_parallel, Evaluation, Rollout, SearchResult, Settings,
};

use crate::learned::value_weights;

use crate::flags::PyFlagsState;
use crate::flaming::PyFlamingState;

/// (stats as (action, visits, total), iterations, seconds, generator state after).
type Answer = (Vec<(Action, u64, f64)>, u64, f64, Vec<u32>);

fn get<'py, T: FromPyObject<'py>>(d: &Bound<'py, PyDict>, key: &str) -> PyResult<Option<T>> {
    match d.get_item(key)? {
        None => Ok(None),
        Some(v) if v.is_none() => Ok(None),
        Some(v) => v
            .extract()
            .map(Some)
            .map_err(|e| PyValueError::new_err(format!("search setting {key}: {e}"))),
    }
}

/// `Settings` from the dict `pyramids.bots.native_search` builds: `iterations` and `seconds`
/// as given (missing or None: no such budget), the other keys default when missing.
/// and the learned value's weights (`value_weights`: (weights, bias)) when `evaluation`
/// is `learned`, checked against the game's number of features (`features`).
fn settings_of(
    d: &Bound<'_, PyDict>,
    features: usize,
) -> PyResult<(Settings, Option<ValueWeights>)> {
    let mut s = Settings {
        iterations: get::<u64>(d, "iterations")?,
        seconds: get::<f64>(d, "seconds")?,
        ..Settings::default()
    };
    if let Some(r) = get::<String>(d, "rollout")? {
        s.rollout = Rollout::parse(&r).map_err(PyValueError::new_err)?;
    }
    if let Some(v) = get::<f64>(d, "exploration")? {
        s.exploration = v;
    }
    if let Some(v) = get::<usize>(d, "rollout_cap")? {
        s.rollout_cap = v;
    }
    if let Some(v) = get::<bool>(d, "guided")? {
        s.guided = v;
    }
    if let Some(v) = get::<f64>(d, "widening")? {
        s.widening = v;
    }
    if let Some(v) = get::<f64>(d, "bias")? {
        s.bias = v;
    }
    if let Some(v) = get::<String>(d, "evaluation")? {
        s.evaluation = Evaluation::parse(&v).map_err(PyValueError::new_err)?;
    }
    if let Some(v) = get::<bool>(d, "observe")? {
        s.observe = v;
    }
    if let Some(v) = get::<usize>(d, "threads")? {
        s.threads = v;
    }
    s.check().map_err(PyValueError::new_err)?;
    let value = match s.evaluation {
        Evaluation::Handmade => None,
        Evaluation::Learned => {
            let (weights, bias) = get::<(Vec<f64>, f64)>(d, "value_weights")?.ok_or_else(|| {
                PyValueError::new_err("the learned evaluation needs value_weights: (weights, bias)")
            })?;
            Some(value_weights(weights, bias, features)?)
        }
    };
    Ok((s, value))
}

/// The number of features of `game`'s learned value (ValueError for a game without one).
fn features_of(game: &str) -> PyResult<usize> {
    match game {
        "flaming" => Ok(pyramids_flaming::features::NUM_FEATURES),
        "flags" => Ok(pyramids_flags::features::NUM_FEATURES),
        _ => Err(PyValueError::new_err(format!(
            "no native search for game {game:?}"
        ))),
    }
}

fn rng_of(state: &[u32]) -> PyResult<PyRandom> {
    PyRandom::from_state(state).ok_or_else(|| {
        PyValueError::new_err("rng_state must be random.Random.getstate()[1] (625 ints)")
    })
}

fn answer(result: Result<SearchResult, String>, rng: &PyRandom) -> PyResult<Answer> {
    let r = result.map_err(PyRuntimeError::new_err)?;
    let stats = r
        .stats
        .iter()
        .map(|a| (a.action, a.visits, a.total))
        .collect();
    Ok((stats, r.iterations, r.seconds, rng.state()))
}

fn check_player(player: i64, players: usize) -> PyResult<usize> {
    usize::try_from(player)
        .ok()
        .filter(|&p| p < players)
        .ok_or_else(|| PyValueError::new_err(format!("player {player} is not a seat of this game")))
}

/// One search, on this thread or root-parallel (`settings.threads`), without the GIL.
fn run<G, F>(
    py: Python<'_>,
    game: &G,
    sample: F,
    player: usize,
    legal: &[Action],
    settings: &Settings,
    rng: &mut PyRandom,
) -> Result<SearchResult, String>
where
    G: SearchGame,
    F: Fn(&mut PyRandom) -> G::State + Sync + Send,
{
    py.allow_threads(|| {
        if settings.threads > 1 {
            run_search_parallel(game, sample, player, legal, settings, rng)
        } else {
            run_search(game, sample, player, legal, settings, rng)
        }
    })
}

fn no_legal(legal: &[Action]) -> PyResult<()> {
    if legal.is_empty() {
        return Err(PyValueError::new_err("no legal action to choose from"));
    }
    Ok(())
}

/// search(game, view, player, legal, settings, rng_state) -> (stats, iterations,
/// seconds, rng_state_after): ISMCTS from a seat's view (the dict `view_record(view)` of
/// the game's wrapper builds by field name), determinizing with the game's `determinize`. `stats` are
/// (action, visits, reward total), most visited first.
#[pyfunction]
fn search(
    py: Python<'_>,
    game: &str,
    view: &Bound<'_, PyAny>,
    player: i64,
    legal: Vec<Action>,
    settings: &Bound<'_, PyDict>,
    rng_state: Vec<u32>,
) -> PyResult<Answer> {
    let (settings, value) = settings_of(settings, features_of(game)?)?;
    let mut rng = rng_of(&rng_state)?;
    no_legal(&legal)?;
    let result = match game {
        "flaming" => {
            let view = crate::flaming::view_of(view)?;
            let g = pyramids_flaming::policy::Search {
                value: value.clone(),
            };
            let seat = check_player(player, usize::MAX)?;
            if g.view_player(&view) != seat {
                return Err(PyValueError::new_err("the view is not the deciding seat's"));
            }
            let sample = |r: &mut PyRandom| pyramids_flaming::determinize(&view, r);
            run(py, &g, sample, seat, &legal, &settings, &mut rng)
        }
        "flags" => {
            let view = crate::flags::view_of(view)?;
            let g = pyramids_flags::policy::Search {
                value: value.clone(),
            };
            let seat = check_player(player, usize::MAX)?;
            if g.view_player(&view) != seat {
                return Err(PyValueError::new_err("the view is not the deciding seat's"));
            }
            // an inconsistent view is an error here, never a search of a wrong table
            pyramids_flags::try_determinize(&view, &mut rng.clone())
                .map_err(PyValueError::new_err)?;
            let sample = |r: &mut PyRandom| pyramids_flags::determinize(&view, r);
            run(py, &g, sample, seat, &legal, &settings, &mut rng)
        }
        _ => {
            return Err(PyValueError::new_err(format!(
                "no native search for game {game:?}"
            )))
        }
    };
    answer(result, &rng)
}

/// search_views(game, views, player, legal, settings, rng_state): `search`, each
/// iteration first drawing one of the views uniformly (`randrange(len(views))`) and
/// determinizing it (inference's particles, `pyramids.bots.inference.pick_particle`).
#[pyfunction]
fn search_views(
    py: Python<'_>,
    game: &str,
    views: Vec<Bound<'_, PyAny>>,
    player: i64,
    legal: Vec<Action>,
    settings: &Bound<'_, PyDict>,
    rng_state: Vec<u32>,
) -> PyResult<Answer> {
    let (settings, value) = settings_of(settings, features_of(game)?)?;
    let mut rng = rng_of(&rng_state)?;
    no_legal(&legal)?;
    if views.is_empty() {
        return Err(PyValueError::new_err(
            "search_views needs at least one view",
        ));
    }
    let seat = check_player(player, usize::MAX)?;
    let result = match game {
        "flaming" => {
            let views = views
                .iter()
                .map(crate::flaming::view_of)
                .collect::<PyResult<Vec<_>>>()?;
            let g = pyramids_flaming::policy::Search {
                value: value.clone(),
            };
            if views.iter().any(|v| g.view_player(v) != seat) {
                return Err(PyValueError::new_err("a view is not the deciding seat's"));
            }
            let sample = |r: &mut PyRandom| {
                let i = r.below(views.len());
                pyramids_flaming::determinize(&views[i], r)
            };
            run(py, &g, sample, seat, &legal, &settings, &mut rng)
        }
        "flags" => {
            let views = views
                .iter()
                .map(crate::flags::view_of)
                .collect::<PyResult<Vec<_>>>()?;
            let g = pyramids_flags::policy::Search {
                value: value.clone(),
            };
            for view in &views {
                if g.view_player(view) != seat {
                    return Err(PyValueError::new_err("a view is not the deciding seat's"));
                }
                pyramids_flags::try_determinize(view, &mut rng.clone())
                    .map_err(PyValueError::new_err)?;
            }
            let sample = |r: &mut PyRandom| {
                let i = r.below(views.len());
                pyramids_flags::determinize(&views[i], r)
            };
            run(py, &g, sample, seat, &legal, &settings, &mut rng)
        }
        _ => {
            return Err(PyValueError::new_err(format!(
                "no native search for game {game:?}"
            )))
        }
    };
    answer(result, &rng)
}

/// search_state(game, state, player, legal, settings, rng_state): the same search from a
/// full state (the oracle's plain MCTS: every iteration starts from a copy of `state`, a
/// `FlamingState` or `FlagsState` pyclass, which is never changed).
#[pyfunction]
fn search_state(
    py: Python<'_>,
    game: &str,
    state: &Bound<'_, PyAny>,
    player: i64,
    legal: Vec<Action>,
    settings: &Bound<'_, PyDict>,
    rng_state: Vec<u32>,
) -> PyResult<Answer> {
    let (settings, value) = settings_of(settings, features_of(game)?)?;
    let mut rng = rng_of(&rng_state)?;
    no_legal(&legal)?;
    let result = match game {
        "flaming" => {
            let cell = state.downcast::<PyFlamingState>().map_err(|_| {
                PyTypeError::new_err("search_state('flaming') needs a native flaming state")
            })?;
            let mut root = cell
                .try_borrow()
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?
                .inner
                .clone();
            root.set_record_events(false);
            let seat = check_player(player, pyramids_core::GameState::num_players(&root))?;
            let g = pyramids_flaming::policy::Search {
                value: value.clone(),
            };
            let sample = |_: &mut PyRandom| root.clone();
            run(py, &g, sample, seat, &legal, &settings, &mut rng)
        }
        "flags" => {
            let cell = state.downcast::<PyFlagsState>().map_err(|_| {
                PyTypeError::new_err("search_state('flags') needs a native flags state")
            })?;
            let mut root = cell
                .try_borrow()
                .map_err(|e| PyRuntimeError::new_err(e.to_string()))?
                .inner
                .clone();
            root.set_record_events(false);
            let seat = check_player(player, pyramids_core::GameState::num_players(&root))?;
            let g = pyramids_flags::policy::Search {
                value: value.clone(),
            };
            let sample = |_: &mut PyRandom| root.clone();
            run(py, &g, sample, seat, &legal, &settings, &mut rng)
        }
        _ => {
            return Err(PyValueError::new_err(format!(
                "no native search for game {game:?}"
            )))
        }
    };
    answer(result, &rng)
}

/// Adds `search` and `search_state` to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(search, m)?)?;
    m.add_function(wrap_pyfunction!(search_views, m)?)?;
    m.add_function(wrap_pyfunction!(search_state, m)?)?;
    Ok(())
}
