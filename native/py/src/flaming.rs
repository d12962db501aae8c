//! Bindings of the native Flaming Pyramids engine (`pyramids_flaming`) for the wrapper
//! `pyramids.native.flaming`. Refusals are raised as the Python engine raises them: the
//! `pyramids.core.errors` class with the same code and facts (`crate::refusal::to_pyerr`).
//! The internal exchange forms (snapshot, view) fail with a plain `ValueError`.
//!
//! Data crosses by field name (docs/NATIVE.md, "The boundary"): positions, snapshots,
//! views and options arrive as Python dicts and leave as dicts keyed by the Python
//! dataclasses' field names (`view`, `fields`) or as the classes themselves (`view_as`,
//! and `raw_events`: each raw event as its class in `pyramids.flaming.events.RAW_EVENTS`);
//! never JSON text, never positional tuples.

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyList, PyTuple, PyType};
use pyramids_core::{GameState, PyRandom, Refusal};
use pyramids_flaming::events::Cell;
use pyramids_flaming::{determinize, RawEvent, State, View};
use serde_json::Value;

use crate::convert::{py_to_text, py_to_value, Fields, Layout, NamedKind};
use crate::refusal::value_to_py;

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

/// The raw event kinds, each built as its Python class (`pyramids.flaming.events.RAW_EVENTS`).
static SETUP_REMOVED: NamedKind = NamedKind::new("setup_removed");
static PLACE: NamedKind = NamedKind::new("place");
static FREE_AIR: NamedKind = NamedKind::new("free_air");
static FIRE_FOUND: NamedKind = NamedKind::new("fire_found");
static QUENCH: NamedKind = NamedKind::new("quench");
static COLLAPSE: NamedKind = NamedKind::new("collapse");
static FALL: NamedKind = NamedKind::new("fall");
static EXPLOSION: NamedKind = NamedKind::new("explosion");
static FIRE: NamedKind = NamedKind::new("fire");
static DIE_EXPLOSION: NamedKind = NamedKind::new("die_explosion");
static CURSE: NamedKind = NamedKind::new("curse");
static CHECK_OK: NamedKind = NamedKind::new("check_ok");
static WIN: NamedKind = NamedKind::new("win");
static FALSE_ALARM: NamedKind = NamedKind::new("false_alarm");
static CALL: NamedKind = NamedKind::new("call");
static DRAW: NamedKind = NamedKind::new("draw");
static MAX_TURNS: NamedKind = NamedKind::new("max_turns");

/// One raw event as the instance of its class in `classes` (kind -> named tuple class),
/// built by field name.
fn raw_event<'py>(
    py: Python<'py>,
    e: &RawEvent,
    classes: &Bound<'py, PyAny>,
    plain: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (kind, f) = match e {
        RawEvent::SetupRemoved(t) => {
            let mut f = Fields::of_kind(py, &SETUP_REMOVED, 1)?;
            f.add("tile", *t)?;
            (&SETUP_REMOVED, f)
        }
        RawEvent::Place(s, t, k)
        | RawEvent::FreeAir(s, t, k)
        | RawEvent::FireFound(s, t, k)
        | RawEvent::Quench(s, t, k) => {
            let (kind, tile) = match e {
                RawEvent::Place(..) => (&PLACE, "tile"),
                RawEvent::FreeAir(..) => (&FREE_AIR, "tile"),
                RawEvent::FireFound(..) => (&FIRE_FOUND, "ember"),
                _ => (&QUENCH, "ember"),
            };
            let mut f = Fields::of_kind(py, kind, 3)?;
            f.add("seat", *s)?;
            f.add(tile, *t)?;
            f.add("at", *k)?;
            (kind, f)
        }
        RawEvent::Collapse(p, t, k, gone, out) => {
            let mut f = Fields::of_kind(py, &COLLAPSE, 5)?;
            f.add("seat", *p)?;
            f.add("tile", *t)?;
            f.add("at", *k)?;
            f.add("collapsed", cells(py, gone)?)?;
            f.add("out", *out)?;
            (&COLLAPSE, f)
        }
        RawEvent::Fall(p, t, a, b, side) => {
            let mut f = Fields::of_kind(py, &FALL, 5)?;
            f.add("seat", *p)?;
            f.add("tile", *t)?;
            f.add("at", *a)?;
            f.add("to", *b)?;
            f.add("side", *side)?;
            (&FALL, f)
        }
        RawEvent::Explosion(p, embers, victims, out) => {
            let mut f = Fields::of_kind(py, &EXPLOSION, 4)?;
            f.add("seat", *p)?;
            f.add("embers", cells(py, embers)?)?;
            f.add("victims", cells(py, victims)?)?;
            f.add("out", *out)?;
            (&EXPLOSION, f)
        }
        RawEvent::Fire(p, e, k, burnt, removed, roll, out) => {
            let mut f = Fields::of_kind(py, &FIRE, 7)?;
            f.add("seat", *p)?;
            f.add("ember", *e)?;
            f.add("at", *k)?;
            f.add("burnt", cells(py, burnt)?)?;
            f.add("ember_removed", *removed)?;
            f.add("roll", *roll)?;
            f.add("out", *out)?;
            (&FIRE, f)
        }
        RawEvent::DieExplosion(p, e, k, victims, out) => {
            let mut f = Fields::of_kind(py, &DIE_EXPLOSION, 5)?;
            f.add("seat", *p)?;
            f.add("ember", *e)?;
            f.add("at", *k)?;
            f.add("victims", cells(py, victims)?)?;
            f.add("out", *out)?;
            (&DIE_EXPLOSION, f)
        }
        RawEvent::Curse(p, target, trio, out) => {
            let mut f = Fields::of_kind(py, &CURSE, 4)?;
            f.add("seat", *p)?;
            f.add("target", *target)?;
            f.add("tiles", cells(py, trio)?)?;
            f.add("out", *out)?;
            (&CURSE, f)
        }
        RawEvent::CheckOk(s) | RawEvent::Win(s) => {
            let kind = if matches!(e, RawEvent::Win(_)) {
                &WIN
            } else {
                &CHECK_OK
            };
            let mut f = Fields::of_kind(py, kind, 1)?;
            f.add("seat", *s)?;
            (kind, f)
        }
        RawEvent::FalseAlarm(s, k) => {
            let mut f = Fields::of_kind(py, &FALSE_ALARM, 2)?;
            f.add("seat", *s)?;
            f.add("at", *k)?;
            (&FALSE_ALARM, f)
        }
        RawEvent::Call(s, t, k, found, overlooked) => {
            let mut f = Fields::of_kind(py, &CALL, 5)?;
            f.add("seat", *s)?;
            f.add("tile", *t)?;
            f.add("at", *k)?;
            f.add("found", *found)?;
            f.add("overlooked", *overlooked)?;
            (&CALL, f)
        }
        RawEvent::Draw(s, n) => {
            let mut f = Fields::of_kind(py, &DRAW, 2)?;
            f.add("seat", *s)?;
            f.add("drawn", *n)?;
            (&DRAW, f)
        }
        RawEvent::MaxTurns(r) => {
            let mut f = Fields::of_kind(py, &MAX_TURNS, 1)?;
            f.add("ranking", PyTuple::new(py, r)?)?;
            (&MAX_TURNS, f)
        }
    };
    f.into_kind(kind, classes, plain)
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

/// The Python `FlamingView` fields but `options` (which the wrapper supplies), by name.
fn view_fields<'py>(py: Python<'py>, v: &View) -> PyResult<Fields<'py>> {
    let n = usize::from(v.players);
    let quenched: Vec<(u8, u64)> = pyramids_flaming::board::bits(v.quenched)
        .map(|e| (e, v.quench_touch[pyramids_flaming::tiles::ember_slot(e)]))
        .collect();
    let mut f = Fields::new(py, 20);
    f.add("player", v.player)?;
    f.add("players", v.players)?;
    f.add("to_move", v.to_move)?;
    f.add("turn", v.turn)?;
    f.add("responsible", v.responsible)?;
    f.add("pending", v.pending)?;
    f.add("pending_key", v.pending_key)?;
    f.add("board", board_dict(py, &v.board)?)?;
    f.add("out", PyTuple::new(py, v.out.as_slice())?)?;
    match &v.hand {
        Some(h) => f.add("hand", PyTuple::new(py, h.as_slice())?)?,
        None => f.add("hand", py.None())?,
    }
    f.add("hand_sizes", PyTuple::new(py, &v.hand_sizes[..n])?)?;
    f.add("pile_sizes", PyTuple::new(py, &v.pile_sizes[..n])?)?;
    f.add(
        "pile_known",
        PyTuple::new(
            py,
            (0..n)
                .map(|s| PyTuple::new(py, v.pile_known[s].as_slice()))
                .collect::<PyResult<Vec<_>>>()?,
        )?,
    )?;
    f.add(
        "hand_known",
        PyTuple::new(
            py,
            (0..n)
                .map(|s| bits_tuple(py, v.hand_known[s]))
                .collect::<PyResult<Vec<_>>>()?,
        )?,
    )?;
    f.add("in_play", v.in_play)?;
    f.add("quenched", PyTuple::new(py, quenched)?)?;
    f.add("winner", if v.winner >= 0 { Some(v.winner) } else { None })?;
    if v.ranked {
        f.add("ranking", PyTuple::new(py, &v.ranking[..n])?)?;
    } else {
        f.add("ranking", py.None())?;
    }
    f.add("overlooked", v.overlooked)?;
    Ok(f)
}

/// How `FlamingView`'s fields are laid out from the names `view_fields` sends.
static VIEW_LAYOUT: GILOnceCell<Layout> = GILOnceCell::new();

/// A view from the exchange form as a Python dict (`pyramids.native.flaming.view_record`).
pub fn view_of(data: &Bound<'_, PyAny>) -> PyResult<View> {
    View::from_json(&py_to_text(data)?).map_err(internal)
}

/// The engine's options from the Python dict of rules options.
fn options_text(options: &Bound<'_, PyAny>) -> PyResult<String> {
    py_to_text(options)
}

impl PyFlamingState {
    /// The seat `player` names (None: a spectator); an error for a seat not in the game.
    fn seat_of(&self, player: Option<i64>) -> PyResult<Option<usize>> {
        let n = self.inner.n();
        match player {
            None => Ok(None),
            Some(p) if (0..n as i64).contains(&p) => Ok(Some(p as usize)),
            Some(p) => Err(to_pyerr(
                Refusal::position("flaming.no_such_seat")
                    .with("seat", p)
                    .with("players", n),
            )),
        }
    }
}

#[pymethods]
impl PyFlamingState {
    /// `FlamingGame(players, options).new_initial_state(seed)` (options: the game's dict).
    #[staticmethod]
    fn new_game(players: usize, options: &Bound<'_, PyAny>, seed: i128) -> PyResult<Self> {
        State::new_game(players, &options_text(options)?, seed)
            .map(|inner| PyFlamingState { inner })
            .map_err(to_pyerr)
    }

    /// A state from the position notation as a Python dict (events recorded).
    #[staticmethod]
    fn from_json(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let value = py_to_value(data)?;
        let mut inner = State::from_position_value(&value).map_err(to_pyerr)?;
        inner.set_record_events(true);
        Ok(PyFlamingState { inner })
    }

    /// The position notation as a dict (the Python `to_json()`'s keys in its order).
    fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        value_to_py(py, &Value::Object(self.inner.to_json_value()))
    }

    /// The rules options as the position notation's `rules` dict.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        value_to_py(py, &Value::Object(self.inner.opts.to_json()))
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

    /// The last apply's raw events, each an instance of its class in `classes` (the
    /// rules' `RAW_EVENTS`: kind -> named tuple) built by field name (a field on one side
    /// only: TypeError). With `plain`, plain tuples of the values in each class's field
    /// order, matched by name all the same (what `events()` reads at once: no instance).
    #[pyo3(signature = (classes, *, plain = false))]
    fn raw_events<'py>(
        &self,
        py: Python<'py>,
        classes: &Bound<'py, PyAny>,
        plain: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let items = self
            .inner
            .events
            .iter()
            .map(|e| raw_event(py, e, classes, plain))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// Switch event recording.
    fn set_record_events(&mut self, on: bool) {
        self.inner.set_record_events(on);
    }

    /// The view's `FlamingView` fields (all but `options`) by name.
    fn view<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyDict>> {
        let seat = self.seat_of(player)?;
        view_fields(py, &self.inner.view(seat))?.into_dict()
    }

    /// The view as an instance of `cls` (the named tuple `FlamingView`) with `options`,
    /// its fields matched by name (a field on one side only: TypeError).
    fn view_as<'py>(
        &self,
        py: Python<'py>,
        cls: &Bound<'py, PyType>,
        options: &Bound<'py, PyAny>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = self.seat_of(player)?;
        view_fields(py, &self.inner.view(seat))?.into_named_tuple(
            &VIEW_LAYOUT,
            cls,
            "options",
            options,
        )
    }

    /// The view in the exchange form `View::from_json` reads, as a dict.
    fn view_record<'py>(
        &self,
        py: Python<'py>,
        player: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match player {
            Some(p) if p >= self.inner.n() => Err(to_pyerr(
                Refusal::position("flaming.no_such_seat")
                    .with("seat", p)
                    .with("players", self.inner.n()),
            )),
            _ => {
                let text = self.inner.view(player).to_json();
                let value: Value =
                    serde_json::from_str(&text).map_err(|e| internal(e.to_string()))?;
                value_to_py(py, &value)
            }
        }
    }

    /// The position's fields for building a Python `FlamingPosition`, by its field names:
    /// board ({key: tile} in dict order), hands, piles, hidden, known, out, quenched
    /// ({ember: mask}), to_move, turn, responsible, pending, pending_key, winner, ranking,
    /// overlooked.
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = &self.inner;
        let n = s.n();
        let quenched = PyDict::new(py);
        for e in pyramids_flaming::board::bits(s.quenched) {
            quenched.set_item(e, s.quench_touch[pyramids_flaming::tiles::ember_slot(e)])?;
        }
        let d = PyDict::new(py);
        d.set_item(intern!(py, "board"), board_dict(py, &s.board)?)?;
        d.set_item(
            intern!(py, "hands"),
            (0..n)
                .map(|i| wide(s.hands[i].as_slice()))
                .collect::<Vec<_>>(),
        )?;
        d.set_item(
            intern!(py, "piles"),
            (0..n)
                .map(|i| wide(s.piles[i].as_slice()))
                .collect::<Vec<_>>(),
        )?;
        d.set_item(intern!(py, "hidden"), wide(&s.hidden[..n]))?;
        d.set_item(intern!(py, "known"), s.known[..n].to_vec())?;
        d.set_item(intern!(py, "out"), wide(s.out.as_slice()))?;
        d.set_item(intern!(py, "quenched"), quenched)?;
        d.set_item(intern!(py, "to_move"), s.to_move)?;
        d.set_item(intern!(py, "turn"), s.turn)?;
        d.set_item(intern!(py, "responsible"), s.responsible)?;
        d.set_item(intern!(py, "pending"), s.pending)?;
        d.set_item(intern!(py, "pending_key"), s.pending_key)?;
        d.set_item(
            intern!(py, "winner"),
            if s.winner >= 0 { Some(s.winner) } else { None },
        )?;
        d.set_item(
            intern!(py, "ranking"),
            if s.ranked {
                Some(wide(&s.ranking[..n]))
            } else {
                None
            },
        )?;
        d.set_item(intern!(py, "overlooked"), s.overlooked)?;
        Ok(d)
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

    /// The active player.
    #[getter]
    fn to_move(&self) -> u8 {
        self.inner.to_move
    }

    /// The turn number, from 1.
    #[getter]
    fn turn(&self) -> i64 {
        self.inner.turn
    }

    /// P: the player who suffers this turn's mayhem.
    #[getter]
    fn responsible(&self) -> u8 {
        self.inner.responsible
    }

    /// NONE, FALL, DIE or CHECK.
    #[getter]
    fn pending(&self) -> u8 {
        self.inner.pending
    }

    /// The key of the falling tile or the rolling ember.
    #[getter]
    fn pending_key(&self) -> i32 {
        self.inner.pending_key
    }

    /// Whether overlooked mayhem stands.
    #[getter]
    fn overlooked(&self) -> bool {
        self.inner.overlooked
    }

    /// Bit mask of the tiles still in the game.
    #[getter]
    fn in_play(&self) -> u64 {
        self.inner.in_play
    }

    /// The removed tiles, in order.
    #[getter]
    fn out(&self) -> Vec<u16> {
        wide(self.inner.out.as_slice())
    }

    /// Quenched ember -> bit mask of the tiles it touched at the roll.
    #[getter]
    fn quenched<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = &self.inner;
        let quenched = PyDict::new(py);
        for e in pyramids_flaming::board::bits(s.quenched) {
            quenched.set_item(e, s.quench_touch[pyramids_flaming::tiles::ember_slot(e)])?;
        }
        Ok(quenched)
    }

    /// Every field (`snapshot.rs`) as a dict, for pickling and Python positions.
    fn to_snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let value: Value =
            serde_json::from_str(&self.inner.to_snapshot()).map_err(|e| internal(e.to_string()))?;
        value_to_py(py, &value)
    }

    /// The placement spots in scan order.
    fn placement_spots(&self) -> Vec<i32> {
        self.inner.placement_spots()
    }
}

/// `PyFlamingState.new_game`.
#[pyfunction]
fn flaming_new_game(
    players: usize,
    options: &Bound<'_, PyAny>,
    seed: i128,
) -> PyResult<PyFlamingState> {
    PyFlamingState::new_game(players, options, seed)
}

/// A state from `to_snapshot`'s dict (events recorded).
#[pyfunction]
fn flaming_from_snapshot(data: &Bound<'_, PyAny>) -> PyResult<PyFlamingState> {
    let mut inner = State::from_snapshot(&py_to_text(data)?).map_err(internal)?;
    inner.set_record_events(true);
    Ok(PyFlamingState { inner })
}

/// The deal of already shuffled `tiles` (for seeds the native generator cannot take).
#[pyfunction]
fn flaming_deal(
    players: usize,
    options: &Bound<'_, PyAny>,
    tiles: Vec<u8>,
) -> PyResult<PyFlamingState> {
    let value = py_to_value(options)?;
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

/// `PyFlamingState.from_json`: a state from the position notation as a dict.
#[pyfunction]
fn flaming_from_json(data: &Bound<'_, PyAny>) -> PyResult<PyFlamingState> {
    PyFlamingState::from_json(data)
}

/// `determinize(view, rng)`: the view in exchange form (a dict) and `rng.getstate()[1]`;
/// returns the state and the generator's state after (for `rng.setstate((3, after, None))`).
#[pyfunction]
fn flaming_determinize(
    view: &Bound<'_, PyAny>,
    rng_state: Vec<u32>,
) -> PyResult<(PyFlamingState, Vec<u32>)> {
    let view = view_of(view)?;
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
