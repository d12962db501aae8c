//! Bindings of the native Flaming Pyramids engine (`pyramids_flaming`) for the wrapper
//! `pyramids.native.flaming`. Refusals are raised as the Python engine raises them: the
//! `pyramids.core.errors` class with the same code and facts (`crate::refusal::to_pyerr`).
//! The internal exchange forms (snapshot, view JSON) fail with a plain `ValueError`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use pyo3::IntoPyObjectExt;
use pyramids_core::{GameState, PyRandom, Refusal};
use pyramids_flaming::events::Cell;
use pyramids_flaming::{determinize, RawEvent, State, View};

use crate::refusal::to_pyerr;

/// A native Flaming Pyramids state (every hidden fact included).
#[pyclass(module = "pyramids._native", name = "FlamingState")]
#[derive(Clone)]
pub struct PyFlamingState {
    /// The Rust state.
    pub inner: State,
}

/// A malformed internal exchange form (snapshot, view JSON, fault name): a programming
/// error, not a refusal a player sees.
fn internal(text: String) -> PyErr {
    PyValueError::new_err(text)
}

/// Small ints as a list of ints (PyO3 turns `Vec<u8>` into bytes).
fn wide(items: &[u8]) -> Vec<u16> {
    items.iter().map(|&x| u16::from(x)).collect()
}

fn cells<'py>(py: Python<'py>, cells: &[Cell]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, cells.iter().map(|&(t, k)| (t, k)))
}

fn raw_event<'py>(py: Python<'py>, e: &RawEvent) -> PyResult<Bound<'py, PyAny>> {
    let kind = e.kind();
    let t = match e {
        RawEvent::SetupRemoved(t) => (kind, *t).into_bound_py_any(py)?,
        RawEvent::Place(s, t, k)
        | RawEvent::FreeAir(s, t, k)
        | RawEvent::FireFound(s, t, k)
        | RawEvent::Quench(s, t, k) => (kind, *s, *t, *k).into_bound_py_any(py)?,
        RawEvent::Collapse(p, t, k, gone, out) => {
            (kind, *p, *t, *k, cells(py, gone)?, *out).into_bound_py_any(py)?
        }
        RawEvent::Fall(p, t, a, b, side) => (kind, *p, *t, *a, *b, *side).into_bound_py_any(py)?,
        RawEvent::Explosion(p, embers, victims, out) => {
            (kind, *p, cells(py, embers)?, cells(py, victims)?, *out).into_bound_py_any(py)?
        }
        RawEvent::Fire(p, e, k, burnt, removed, roll, out) => {
            (kind, *p, *e, *k, cells(py, burnt)?, *removed, *roll, *out).into_bound_py_any(py)?
        }
        RawEvent::DieExplosion(p, e, k, victims, out) => {
            (kind, *p, *e, *k, cells(py, victims)?, *out).into_bound_py_any(py)?
        }
        RawEvent::Curse(p, target, trio, out) => {
            (kind, *p, *target, cells(py, trio)?, *out).into_bound_py_any(py)?
        }
        RawEvent::CheckOk(s) | RawEvent::Win(s) => (kind, *s).into_bound_py_any(py)?,
        RawEvent::FalseAlarm(s, k) => (kind, *s, *k).into_bound_py_any(py)?,
        RawEvent::Call(s, t, k, found, overlooked) => {
            (kind, *s, *t, *k, *found, *overlooked).into_bound_py_any(py)?
        }
        RawEvent::Draw(s, n) => (kind, *s, *n).into_bound_py_any(py)?,
        RawEvent::MaxTurns(r) => (kind, PyTuple::new(py, r)?).into_bound_py_any(py)?,
    };
    Ok(t)
}

fn board_dict<'py>(
    py: Python<'py>,
    board: &pyramids_flaming::board::Board,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, t) in board.in_order() {
        d.set_item(k, t)?;
    }
    Ok(d)
}

fn bits_tuple<'py>(py: Python<'py>, mask: u64) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, pyramids_flaming::board::bits(mask).collect::<Vec<u8>>())
}

/// The Python `FlamingView` fields after `options` (which the wrapper supplies), as a tuple.
fn view_tuple<'py>(py: Python<'py>, v: &View) -> PyResult<Bound<'py, PyTuple>> {
    let n = usize::from(v.players);
    let quenched: Vec<(u8, u64)> = pyramids_flaming::board::bits(v.quenched)
        .map(|e| (e, v.quench_touch[pyramids_flaming::tiles::ember_slot(e)]))
        .collect();
    let items: Vec<Bound<'py, PyAny>> = vec![
        v.player.into_bound_py_any(py)?,
        v.players.into_bound_py_any(py)?,
        v.to_move.into_bound_py_any(py)?,
        v.turn.into_bound_py_any(py)?,
        v.responsible.into_bound_py_any(py)?,
        v.pending.into_bound_py_any(py)?,
        v.pending_key.into_bound_py_any(py)?,
        board_dict(py, &v.board)?.into_any(),
        PyTuple::new(py, v.out.as_slice())?.into_any(),
        match &v.hand {
            Some(h) => PyTuple::new(py, h.as_slice())?.into_any(),
            None => py.None().into_bound(py),
        },
        PyTuple::new(py, &v.hand_sizes[..n])?.into_any(),
        PyTuple::new(py, &v.pile_sizes[..n])?.into_any(),
        PyTuple::new(
            py,
            (0..n)
                .map(|s| PyTuple::new(py, v.pile_known[s].as_slice()))
                .collect::<PyResult<Vec<_>>>()?,
        )?
        .into_any(),
        PyTuple::new(
            py,
            (0..n)
                .map(|s| bits_tuple(py, v.hand_known[s]))
                .collect::<PyResult<Vec<_>>>()?,
        )?
        .into_any(),
        v.in_play.into_bound_py_any(py)?,
        PyTuple::new(py, quenched)?.into_any(),
        (if v.winner >= 0 { Some(v.winner) } else { None }).into_bound_py_any(py)?,
        (if v.ranked {
            Some(PyTuple::new(py, &v.ranking[..n])?)
        } else {
            None
        })
        .into_bound_py_any(py)?,
        v.overlooked.into_bound_py_any(py)?,
    ];
    PyTuple::new(py, items)
}

#[pymethods]
impl PyFlamingState {
    /// `FlamingGame(players, options).new_initial_state(seed)` (options: `json.dumps(game.options)`).
    #[staticmethod]
    fn new_game(players: usize, options_json: &str, seed: i128) -> PyResult<Self> {
        State::new_game(players, options_json, seed)
            .map(|inner| PyFlamingState { inner })
            .map_err(to_pyerr)
    }

    /// A state from the position JSON text (events recorded).
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        let mut inner = State::from_position_json(text).map_err(to_pyerr)?;
        inner.set_record_events(true);
        Ok(PyFlamingState { inner })
    }

    /// The position JSON text (the Python `to_json()`'s keys in its order).
    fn to_json(&self) -> String {
        self.inner.to_position_json()
    }

    /// An independent copy.
    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    /// Whether the positions (and rules) are equal, as the Python position's `==`.
    fn same_position(&self, other: PyRef<'_, PyFlamingState>) -> bool {
        self.inner.same_position(&other.inner)
    }

    /// Number of seats.
    #[getter]
    fn num_players(&self) -> usize {
        self.inner.n()
    }

    /// The deciding seat, CHANCE (-1) or TERMINAL (-4).
    fn current_player(&self) -> i32 {
        self.inner.current_player()
    }

    /// The sorted legal actions.
    fn legal_actions(&self) -> Vec<u64> {
        self.inner.legal_actions()
    }

    /// The die faces with 1/6 each while a roll is pending.
    fn chance_outcomes(&self) -> Vec<(u64, f64)> {
        let mut out = Vec::new();
        self.inner.chance_outcomes_into(&mut out);
        out
    }

    /// Apply an action; the Python engine's `IllegalActionError` when illegal (nothing changes).
    fn apply(&mut self, action: i128) -> PyResult<()> {
        match u64::try_from(action) {
            Ok(a) => self.inner.try_apply(a).map_err(to_pyerr),
            Err(_) => Err(to_pyerr(
                self.inner
                    .illegal_reason_wide(action)
                    .unwrap_or_else(|| Refusal::illegal("flaming.illegal_action")),
            )),
        }
    }

    /// Why `action` is illegal (the `IllegalActionError` itself, not raised), or None.
    fn illegal_reason(&self, py: Python<'_>, action: i128) -> Option<PyObject> {
        self.inner
            .illegal_reason_wide(action)
            .map(|r| to_pyerr(r).value(py).clone().into_any().unbind())
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.inner.is_over()
    }

    /// Each seat's result.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns_vec()
    }

    /// The winner, if any.
    #[getter]
    fn winner(&self) -> Option<i8> {
        (self.inner.winner >= 0).then_some(self.inner.winner)
    }

    /// The max_turns ranking, if any.
    #[getter]
    fn ranking(&self) -> Option<Vec<u16>> {
        self.inner
            .ranked
            .then(|| wide(&self.inner.ranking[..self.inner.n()]))
    }

    /// The last apply's raw events as the Python rules' tuples.
    fn raw_events<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items = self
            .inner
            .events
            .iter()
            .map(|e| raw_event(py, e))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// Switch event recording.
    fn set_record_events(&mut self, on: bool) {
        self.inner.set_record_events(on);
    }

    /// The view's fields (all but `options`), in `FlamingView` order.
    fn view<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyTuple>> {
        let n = self.inner.n();
        let seat = match player {
            None => None,
            Some(p) if (0..n as i64).contains(&p) => Some(p as usize),
            Some(p) => {
                return Err(to_pyerr(
                    Refusal::position("flaming.no_such_seat")
                        .with("seat", p)
                        .with("players", n),
                ))
            }
        };
        view_tuple(py, &self.inner.view(seat))
    }

    /// The view in the exchange form `View::from_json` reads.
    fn view_json(&self, player: Option<usize>) -> PyResult<String> {
        match player {
            Some(p) if p >= self.inner.n() => Err(to_pyerr(
                Refusal::position("flaming.no_such_seat")
                    .with("seat", p)
                    .with("players", self.inner.n()),
            )),
            _ => Ok(self.inner.view(player).to_json()),
        }
    }

    /// The position's fields for building a Python `FlamingPosition`: (board pairs in dict
    /// order, hands, piles, hidden, known, out, quenched {ember: mask}, to_move, turn,
    /// responsible, pending, pending_key, winner, ranking, overlooked).
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let s = &self.inner;
        let n = s.n();
        let quenched = PyDict::new(py);
        for e in pyramids_flaming::board::bits(s.quenched) {
            quenched.set_item(e, s.quench_touch[pyramids_flaming::tiles::ember_slot(e)])?;
        }
        let items: Vec<Bound<'py, PyAny>> = vec![
            s.board
                .in_order()
                .into_iter()
                .map(|(k, t)| (k, u16::from(t)))
                .collect::<Vec<_>>()
                .into_bound_py_any(py)?,
            (0..n)
                .map(|i| wide(s.hands[i].as_slice()))
                .collect::<Vec<_>>()
                .into_bound_py_any(py)?,
            (0..n)
                .map(|i| wide(s.piles[i].as_slice()))
                .collect::<Vec<_>>()
                .into_bound_py_any(py)?,
            wide(&s.hidden[..n]).into_bound_py_any(py)?,
            s.known[..n].to_vec().into_bound_py_any(py)?,
            wide(s.out.as_slice()).into_bound_py_any(py)?,
            quenched.into_any(),
            s.to_move.into_bound_py_any(py)?,
            s.turn.into_bound_py_any(py)?,
            s.responsible.into_bound_py_any(py)?,
            s.pending.into_bound_py_any(py)?,
            s.pending_key.into_bound_py_any(py)?,
            (if s.winner >= 0 { Some(s.winner) } else { None }).into_bound_py_any(py)?,
            (if s.ranked {
                Some(wide(&s.ranking[..n]))
            } else {
                None
            })
            .into_bound_py_any(py)?,
            s.overlooked.into_bound_py_any(py)?,
        ];
        PyTuple::new(py, items)
    }

    /// The pyramid: key -> tile in the Python dict's order.
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        board_dict(py, &self.inner.board)
    }

    /// A seat's hand in order.
    fn hand(&self, seat: usize) -> Vec<u16> {
        self.inner
            .hands
            .get(seat)
            .map(|h| wide(h.as_slice()))
            .unwrap_or_default()
    }

    /// A seat's pile, top first.
    fn pile(&self, seat: usize) -> Vec<u16> {
        self.inner
            .piles
            .get(seat)
            .map(|p| wide(p.as_slice()))
            .unwrap_or_default()
    }

    /// (to_move, turn, responsible, pending, pending_key, overlooked, in_play).
    fn summary(&self) -> (u8, i64, u8, u8, i32, bool, u64) {
        let s = &self.inner;
        (
            s.to_move,
            s.turn,
            s.responsible,
            s.pending,
            s.pending_key,
            s.overlooked,
            s.in_play,
        )
    }

    /// Every field as JSON (`snapshot.rs`), for pickling and Python positions.
    fn to_snapshot(&self) -> String {
        self.inner.to_snapshot()
    }

    /// The placement spots in scan order.
    fn placement_spots(&self) -> Vec<i32> {
        self.inner.placement_spots()
    }
}

/// `PyFlamingState.new_game`.
#[pyfunction]
fn flaming_new_game(players: usize, options_json: &str, seed: i128) -> PyResult<PyFlamingState> {
    PyFlamingState::new_game(players, options_json, seed)
}

/// A state from `to_snapshot`'s JSON (events recorded).
#[pyfunction]
fn flaming_from_snapshot(text: &str) -> PyResult<PyFlamingState> {
    let mut inner = State::from_snapshot(text).map_err(internal)?;
    inner.set_record_events(true);
    Ok(PyFlamingState { inner })
}

/// The deal of already shuffled `tiles` (for seeds the native generator cannot take).
#[pyfunction]
fn flaming_deal(players: usize, options_json: &str, tiles: Vec<u8>) -> PyResult<PyFlamingState> {
    let value: serde_json::Value =
        serde_json::from_str(options_json).map_err(|e| internal(e.to_string()))?;
    let opts = pyramids_flaming::Options::from_json(&value).map_err(to_pyerr)?;
    let ok = (2..=6).contains(&players)
        && opts.first_player < players as i64
        && tiles.len() <= 45
        && tiles.iter().all(|&t| t < 45);
    if !ok {
        return Err(internal(
            "a deal needs 2 to 6 players and tiles 0..44".into(),
        ));
    }
    Ok(PyFlamingState {
        inner: State::from_deal(&tiles, players, opts),
    })
}

/// `PyFlamingState.from_json`.
#[pyfunction]
fn flaming_from_json(text: &str) -> PyResult<PyFlamingState> {
    PyFlamingState::from_json(text)
}

/// `determinize(view, rng)`: the view in exchange form and `rng.getstate()[1]`; returns the
/// state and the generator's state after (for `rng.setstate((3, after, None))`).
#[pyfunction]
fn flaming_determinize(
    view_json: &str,
    rng_state: Vec<u32>,
) -> PyResult<(PyFlamingState, Vec<u32>)> {
    let view = View::from_json(view_json).map_err(internal)?;
    let mut rng = PyRandom::from_state(&rng_state)
        .ok_or_else(|| internal("a random state is 625 numbers".into()))?;
    let mut inner = determinize(&view, &mut rng);
    inner.set_record_events(true);
    Ok((PyFlamingState { inner }, rng.state()))
}

/// Test-only: turn on a deliberately broken rule (`no_curse`, `quench_forever`) or none.
#[pyfunction]
#[pyo3(signature = (name=None))]
fn flaming_set_fault(name: Option<&str>) -> PyResult<()> {
    pyramids_flaming::set_fault(name).map_err(internal)
}

/// Adds this part's classes and functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyFlamingState>()?;
    m.add_function(wrap_pyfunction!(flaming_new_game, m)?)?;
    m.add_function(wrap_pyfunction!(flaming_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(flaming_determinize, m)?)?;
    m.add_function(wrap_pyfunction!(flaming_from_snapshot, m)?)?;
    m.add_function(wrap_pyfunction!(flaming_deal, m)?)?;
    m.add_function(wrap_pyfunction!(flaming_set_fault, m)?)?;
    Ok(())
}
