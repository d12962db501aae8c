//! Bindings of the native Pyramids and Flags engine (`pyramids_flags`): the `PyFlagsState`
//! class and the `flags_*` module functions that `pyramids.native.flags` wraps.
//!
//! Refusals are raised as the Python engine raises them (`crate::refusal::to_pyerr`: the
//! same `pyramids.core.errors` class, code and facts); misuse of the accessors (a piece or
//! card number out of range) is a `ValueError`. Raw events come back as the
//! Python rules' raw event named tuples (`pyramids.flags.events.RAW_EVENTS`), built by
//! field name, so the wrapper builds the very same typed events.
//!
//! Data crosses by field name (docs/NATIVE.md, "The boundary"): positions, views and
//! options arrive as Python dicts and leave as dicts keyed by the Python classes' field
//! names (`view`, `position_fields`) or as the classes themselves (`view_as`, `raw_events`);
//! never JSON text, never positional tuples.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyList, PyTuple, PyType};
use pyo3::{intern, IntoPyObjectExt};
use pyramids_core::{Action, GameState, PyRandom, Refusal};
use pyramids_flags::consts::{bits, piece_name};
use pyramids_flags::deck::CODES;
use pyramids_flags::state::{Ev, WinReason, GROUPS};
use pyramids_flags::{State, View};

use crate::convert::{py_to_text, py_to_value, Fields, Layout, NamedKind};
use crate::refusal::value_to_py;

/// A native Pyramids and Flags state (all hidden facts), recording events for Python.
#[pyclass(module = "pyramids._native")]
#[derive(Clone)]
pub struct PyFlagsState {
    /// The Rust state.
    pub inner: State,
}

/// A refusal of the rules, raised as the Python engine raises it.
fn err(refusal: Refusal) -> PyErr {
    crate::refusal::to_pyerr(refusal)
}

fn col(c: u8) -> String {
    (c as char).to_string()
}

fn tup<T: for<'a> IntoPyObject<'a> + Copy>(py: Python<'_>, xs: &[T]) -> PyResult<PyObject> {
    PyTuple::new(py, xs.iter().copied())?.into_py_any(py)
}

/// The raw event kinds, each built as its Python class (`pyramids.flags.events.RAW_EVENTS`).
static MOVE: NamedKind = NamedKind::new("move");
static TREE: NamedKind = NamedKind::new("tree");
static SWAP: NamedKind = NamedKind::new("swap");
static DRAW: NamedKind = NamedKind::new("draw");
static NO_DRAW: NamedKind = NamedKind::new("no_draw");
static FLAG: NamedKind = NamedKind::new("flag");
static NO_CAPTURE: NamedKind = NamedKind::new("no_capture");
static TAKE: NamedKind = NamedKind::new("take");
static CAPTURE_DONE: NamedKind = NamedKind::new("capture_done");
static WIN: NamedKind = NamedKind::new("win");
static ACTION: NamedKind = NamedKind::new("action");
static LAPSE: NamedKind = NamedKind::new("lapse");
static DECLINE: NamedKind = NamedKind::new("decline");
static ACTION_OVER: NamedKind = NamedKind::new("action_over");
static SPLIT: NamedKind = NamedKind::new("split");
static TRADE: NamedKind = NamedKind::new("trade");
static GROW: NamedKind = NamedKind::new("grow");
static NEWSTART: NamedKind = NamedKind::new("newstart");
static DEAL: NamedKind = NamedKind::new("deal");
static PIRATE: NamedKind = NamedKind::new("pirate");
static STEAL: NamedKind = NamedKind::new("steal");
static WILD: NamedKind = NamedKind::new("wild");
static DECK_OUT: NamedKind = NamedKind::new("deck_out");
static MAX_TURNS: NamedKind = NamedKind::new("max_turns");

/// One raw event as the instance of its class in `classes` (kind -> named tuple class),
/// built by field name.
fn ev_to_py<'py>(
    py: Python<'py>,
    e: &Ev,
    classes: &Bound<'py, PyAny>,
    plain: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (kind, f) = match e {
        Ev::Move {
            seat,
            lowest,
            target,
            group,
            len,
            old,
        } => {
            let mut f = Fields::of_kind(py, &MOVE, 5)?;
            f.add("seat", *seat)?;
            f.add("lowest", *lowest)?;
            f.add("target", *target)?;
            f.add("group", tup(py, &group[..*len as usize])?)?;
            f.add("old", *old)?;
            (&MOVE, f)
        }
        Ev::Tree {
            seat,
            colour,
            lowest,
        } => {
            let mut f = Fields::of_kind(py, &TREE, 3)?;
            f.add("seat", *seat)?;
            f.add("colour", col(*colour))?;
            f.add("lowest", *lowest)?;
            (&TREE, f)
        }
        Ev::Swap { seat, card } => {
            let mut f = Fields::of_kind(py, &SWAP, 2)?;
            f.add("seat", *seat)?;
            f.add("card", *card)?;
            (&SWAP, f)
        }
        Ev::Draw { seat, card, why } => {
            let mut f = Fields::of_kind(py, &DRAW, 3)?;
            f.add("seat", *seat)?;
            f.add("card", *card)?;
            f.add("why", *why)?;
            (&DRAW, f)
        }
        Ev::NoDraw { seat, why } => {
            let mut f = Fields::of_kind(py, &NO_DRAW, 2)?;
            f.add("seat", *seat)?;
            f.add("why", *why)?;
            (&NO_DRAW, f)
        }
        Ev::Flag { seat, card } => {
            let mut f = Fields::of_kind(py, &FLAG, 2)?;
            f.add("seat", *seat)?;
            f.add("card", *card)?;
            (&FLAG, f)
        }
        Ev::NoCapture { seat, card } => {
            let mut f = Fields::of_kind(py, &NO_CAPTURE, 2)?;
            f.add("seat", *seat)?;
            f.add("card", *card)?;
            (&NO_CAPTURE, f)
        }
        Ev::Take {
            seat,
            piece,
            source,
        } => {
            let mut f = Fields::of_kind(py, &TAKE, 3)?;
            f.add("seat", *seat)?;
            f.add("piece", *piece)?;
            f.add("source", *source)?;
            (&TAKE, f)
        }
        Ev::CaptureDone { seat, card } => {
            let mut f = Fields::of_kind(py, &CAPTURE_DONE, 2)?;
            f.add("seat", *seat)?;
            f.add("card", *card)?;
            (&CAPTURE_DONE, f)
        }
        Ev::Win { seat, reason } => {
            let mut f = Fields::of_kind(py, &WIN, 3)?;
            f.add("seat", *seat)?;
            match reason {
                WinReason::Flags(n) => {
                    f.add("condition", "flags")?;
                    f.add("detail", *n)?;
                }
                WinReason::Group(g) => {
                    f.add("condition", "group")?;
                    f.add("detail", GROUPS[*g])?;
                }
                WinReason::Points(p) => {
                    f.add("condition", "points")?;
                    f.add("detail", *p)?;
                }
            }
            (&WIN, f)
        }
        Ev::Action { seat, colour } => {
            let mut f = Fields::of_kind(py, &ACTION, 2)?;
            f.add("seat", *seat)?;
            f.add("colour", col(*colour))?;
            (&ACTION, f)
        }
        Ev::Lapse { seat, colour } => {
            let mut f = Fields::of_kind(py, &LAPSE, 2)?;
            f.add("seat", *seat)?;
            f.add("colour", col(*colour))?;
            (&LAPSE, f)
        }
        Ev::Decline { seat, colour } => {
            let mut f = Fields::of_kind(py, &DECLINE, 2)?;
            f.add("seat", *seat)?;
            f.add("colour", col(*colour))?;
            (&DECLINE, f)
        }
        Ev::ActionOver { seat, colour } => {
            let mut f = Fields::of_kind(py, &ACTION_OVER, 2)?;
            f.add("seat", *seat)?;
            f.add("colour", col(*colour))?;
            (&ACTION_OVER, f)
        }
        Ev::Split { seat, pieces, len } => {
            let mut f = Fields::of_kind(py, &SPLIT, 2)?;
            f.add("seat", *seat)?;
            f.add("pieces", tup(py, &pieces[..*len as usize])?)?;
            (&SPLIT, f)
        }
        Ev::Trade {
            seat,
            mine,
            theirs,
            with,
        } => {
            let mut f = Fields::of_kind(py, &TRADE, 4)?;
            f.add("seat", *seat)?;
            f.add("mine", *mine)?;
            f.add("theirs", *theirs)?;
            f.add("partner", *with)?;
            (&TRADE, f)
        }
        Ev::Grow { seat } => {
            let mut f = Fields::of_kind(py, &GROW, 1)?;
            f.add("seat", *seat)?;
            (&GROW, f)
        }
        Ev::NewStart { seat, cards } => {
            let mut f = Fields::of_kind(py, &NEWSTART, 2)?;
            f.add("seat", *seat)?;
            f.add("cards", *cards)?;
            (&NEWSTART, f)
        }
        Ev::Deal { dealer, hands } => {
            let hs: PyResult<Vec<PyObject>> = hands.iter().map(|h| tup(py, h)).collect();
            let mut f = Fields::of_kind(py, &DEAL, 2)?;
            f.add("dealer", *dealer)?;
            f.add("hands", PyTuple::new(py, hs?)?)?;
            (&DEAL, f)
        }
        Ev::Pirate { seat, victim } => {
            let mut f = Fields::of_kind(py, &PIRATE, 2)?;
            f.add("seat", *seat)?;
            f.add("victim", *victim)?;
            (&PIRATE, f)
        }
        Ev::Steal { seat, victim, card } => {
            let mut f = Fields::of_kind(py, &STEAL, 3)?;
            f.add("seat", *seat)?;
            f.add("victim", *victim)?;
            f.add("card", *card)?;
            (&STEAL, f)
        }
        Ev::Wild { seat, colour } => {
            let mut f = Fields::of_kind(py, &WILD, 2)?;
            f.add("seat", *seat)?;
            f.add("colour", col(*colour))?;
            (&WILD, f)
        }
        Ev::DeckOut { ranking } => {
            let mut f = Fields::of_kind(py, &DECK_OUT, 1)?;
            f.add("ranking", tup(py, ranking)?)?;
            (&DECK_OUT, f)
        }
        Ev::MaxTurns { ranking } => {
            let mut f = Fields::of_kind(py, &MAX_TURNS, 1)?;
            f.add("ranking", tup(py, ranking)?)?;
            (&MAX_TURNS, f)
        }
    };
    f.into_kind(kind, classes, plain)
}

/// The fields of a `FlagsView` but `options`, by name.
fn view_to_py<'py>(py: Python<'py>, v: &View) -> PyResult<Fields<'py>> {
    let n = v.players as usize;
    let table = v.as_table();
    let towers: PyResult<Vec<PyObject>> = table.towers().iter().map(|t| tup(py, t)).collect();
    let bank: Vec<usize> = bits(v.bank as u64).collect();
    let scored: PyResult<Vec<PyObject>> = (0..n).map(|s| tup(py, v.scored_cards(s))).collect();
    let hand = if v.has_hand {
        tup(py, v.hand_cards())?
    } else {
        py.None()
    };
    let known_hands: PyResult<Vec<PyObject>> = (0..n)
        .map(|s| {
            let k: Vec<usize> = v.known_hand(s).collect();
            tup(py, &k)
        })
        .collect();
    let known_deck: PyResult<Vec<PyObject>> = v
        .known_deck_cards()
        .iter()
        .map(|&(i, c)| (i, c).into_py_any(py))
        .collect();
    let pending = match v.pending_value() {
        Some(p) => value_to_py(py, &p)?.unbind(),
        None => PyDict::new(py).into_py_any(py)?,
    };
    let tree = if v.tree == 0 {
        String::new()
    } else {
        col(v.tree)
    };
    let winner = if v.winner >= 0 {
        v.winner.into_py_any(py)?
    } else {
        py.None()
    };
    let ranking = if v.ranked {
        tup(py, &v.ranking[..n])?
    } else {
        py.None()
    };
    let mut f = Fields::new(py, 18);
    f.add("player", v.player)?;
    f.add("players", v.players)?;
    f.add("to_move", v.to_move)?;
    f.add("turn", v.turn)?;
    f.add("towers", PyTuple::new(py, towers?)?)?;
    f.add("bank", tup(py, &bank)?)?;
    f.add("scoring", tup(py, &v.scoring[..n])?)?;
    f.add("scored", PyTuple::new(py, scored?)?)?;
    f.add("hand", hand)?;
    f.add("hand_sizes", tup(py, &v.hand_sizes[..n])?)?;
    f.add("deck_size", v.deck_size)?;
    f.add("known_hands", PyTuple::new(py, known_hands?)?)?;
    f.add("known_deck", PyTuple::new(py, known_deck?)?)?;
    f.add("last_moved", tup(py, v.last_moved())?)?;
    f.add("pending", pending)?;
    f.add("tree", tree)?;
    f.add("winner", winner)?;
    f.add("ranking", ranking)?;
    Ok(f)
}

/// How `FlagsView`'s fields are laid out from the names `view_to_py` sends.
static VIEW_LAYOUT: GILOnceCell<Layout> = GILOnceCell::new();

/// A view from the exchange form as a Python dict (`pyramids.native.flags.view_record`).
pub fn view_of(data: &Bound<'_, PyAny>) -> PyResult<View> {
    View::read_json(&py_to_text(data)?).map_err(err)
}

/// Bytes as ints (a `Vec<u8>` would reach Python as `bytes`).
fn ints(x: &[u8]) -> Vec<u32> {
    x.iter().map(|&b| b as u32).collect()
}

fn seat(s: &State, p: i64) -> PyResult<usize> {
    if (0..s.n() as i64).contains(&p) {
        Ok(p as usize)
    } else {
        Err(err(Refusal::position("flags.no_seat")
            .with("seat", p)
            .with("players", s.n())))
    }
}

fn piece(p: i64) -> PyResult<usize> {
    if (0..18).contains(&p) {
        Ok(p as usize)
    } else {
        Err(PyValueError::new_err(format!("{p} is not a flag piece")))
    }
}

#[pymethods]
impl PyFlagsState {
    /// An independent copy.
    fn clone(&self) -> Self {
        Clone::clone(self)
    }

    /// Position equality (the Python dataclass's).
    fn equals(&self, other: &PyFlagsState) -> bool {
        self.inner == other.inner
    }

    /// Number of seats.
    #[getter]
    fn players(&self) -> usize {
        self.inner.n()
    }

    /// The deciding seat, CHANCE (-1) or TERMINAL (-4).
    fn current_player(&self) -> i32 {
        self.inner.current_player()
    }

    /// Sorted legal actions (chance outcomes at a chance point).
    fn legal_actions(&self) -> Vec<Action> {
        self.inner.legal_actions()
    }

    /// Chance outcomes with their probabilities.
    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        let mut out = Vec::new();
        self.inner.chance_outcomes_into(&mut out);
        out
    }

    /// Apply an action; IllegalActionError (code and facts) changes nothing.
    fn apply(&mut self, action: Action) -> PyResult<()> {
        self.inner.apply_checked(action).map_err(err)
    }

    /// Why `action` is illegal here (the IllegalActionError, not raised), or None.
    fn illegal_reason(&self, py: Python<'_>, action: Action) -> Option<PyObject> {
        self.inner
            .illegal_reason(action)
            .map(|r| err(r).into_value(py).into_any())
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    /// Each seat's result.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }

    /// The position notation as a dict (the Python `position_to_json`'s keys in its order).
    fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        value_to_py(py, &pyramids_flags::position::position_value(&self.inner))
    }

    /// The rules options as the position notation's `rules` dict.
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item(intern!(py, "actions"), self.inner.actions)?;
        d.set_item(intern!(py, "max_turns"), self.inner.max_turns)?;
        Ok(d)
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
            .map(|e| ev_to_py(py, e, classes, plain))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// Switch event recording.
    fn set_record_events(&mut self, on: bool) {
        self.inner.set_record_events(on);
    }

    /// The view of `player` (None: public) as the `FlagsView` fields but `options`, by name.
    #[pyo3(signature = (player=None))]
    fn view<'py>(&self, py: Python<'py>, player: Option<i64>) -> PyResult<Bound<'py, PyDict>> {
        let p = match player {
            None => None,
            Some(p) => Some(seat(&self.inner, p)?),
        };
        view_to_py(py, &self.inner.view(p))?.into_dict()
    }

    /// The view as an instance of `cls` (the named tuple `FlagsView`) with `options`, its
    /// fields matched by name (a field on one side only: TypeError).
    #[pyo3(signature = (cls, options, player=None))]
    fn view_as<'py>(
        &self,
        py: Python<'py>,
        cls: &Bound<'py, PyType>,
        options: &Bound<'py, PyAny>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = match player {
            None => None,
            Some(p) => Some(seat(&self.inner, p)?),
        };
        view_to_py(py, &self.inner.view(p))?.into_named_tuple(&VIEW_LAYOUT, cls, "options", options)
    }

    /// The view of `player` in the exchange form (`View::from_json` reads it), as a dict.
    #[pyo3(signature = (player=None))]
    fn view_record<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = match player {
            None => None,
            Some(p) => Some(seat(&self.inner, p)?),
        };
        value_to_py(py, &self.inner.view(p).to_value())
    }

    /// `action` as `viewer` sees it (hidden cards as `?`).
    #[pyo3(signature = (action, viewer=None))]
    fn action_text_for(&self, action: Action, viewer: Option<i64>) -> PyResult<String> {
        let v = viewer.and_then(|v| usize::try_from(v).ok().or(Some(usize::MAX)));
        self.inner
            .action_text_for(action, v)
            .ok_or_else(|| err(Refusal::illegal("flags.not_an_action").with("value", action)))
    }

    /// The pending kind: 0 none, 1 capture, 2 action, 3 steal, 4 deal.
    #[getter]
    fn pending(&self) -> u8 {
        self.inner.pending
    }

    /// The pending decision as the notation's object, a dict (`{}` if none).
    fn pending_info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match pyramids_flags::position::pending_value(&self.inner) {
            Some(v) => value_to_py(py, &v),
            None => Ok(PyDict::new(py).into_any()),
        }
    }

    /// The seat whose turn it is.
    #[getter]
    fn to_move(&self) -> u8 {
        self.inner.to_move
    }

    /// The turn number.
    #[getter]
    fn turn(&self) -> i64 {
        self.inner.turn
    }

    /// The winner, or None.
    #[getter]
    fn winner(&self) -> Option<i8> {
        (self.inner.winner >= 0).then_some(self.inner.winner)
    }

    /// The ranking after a safeguard ending, or None.
    #[getter]
    fn ranking(&self) -> Option<Vec<u32>> {
        self.inner.ranking_slice().map(ints)
    }

    /// Bit mask of the bank.
    #[getter]
    fn bank_mask(&self) -> u32 {
        self.inner.bank
    }

    /// Bit mask of seat's scoring pieces.
    fn scoring_mask(&self, s: i64) -> PyResult<u32> {
        Ok(self.inner.scoring[seat(&self.inner, s)?])
    }

    /// Seat's points (best-trio scoring).
    fn points(&self, s: i64) -> PyResult<usize> {
        Ok(pyramids_flags::state::points(
            self.inner.scoring[seat(&self.inner, s)?],
        ))
    }

    /// Seat's hand in the order the cards came in.
    fn hand(&self, s: i64) -> PyResult<Vec<u32>> {
        Ok(ints(self.inner.hand(seat(&self.inner, s)?)))
    }

    /// Seat's face-up cards.
    fn scored(&self, s: i64) -> PyResult<Vec<u32>> {
        Ok(ints(self.inner.scored_cards(seat(&self.inner, s)?)))
    }

    /// The deck, top first.
    #[getter]
    fn deck(&self) -> Vec<u32> {
        ints(self.inner.deck_cards())
    }

    /// The cards left to deal, in card order.
    #[getter]
    fn to_deal(&self) -> Vec<usize> {
        bits(self.inner.to_deal).collect()
    }

    /// The last-moved pieces.
    #[getter]
    fn last_moved(&self) -> Vec<u32> {
        ints(self.inner.last_moved())
    }

    /// The piece under `p` (-1: the table).
    fn below(&self, p: i64) -> PyResult<i8> {
        Ok(self.inner.below[piece(p)?])
    }

    /// The piece on `p` (-1: a top).
    fn above(&self, p: i64) -> PyResult<i8> {
        Ok(self.inner.above[piece(p)?])
    }

    /// The towers, bottom to top.
    fn towers(&self) -> Vec<Vec<u32>> {
        self.inner.towers().iter().map(|t| ints(t)).collect()
    }

    /// Whether the card's flag stands.
    fn is_built(&self, card: i64) -> PyResult<bool> {
        if !(0..CODES.len() as i64).contains(&card) {
            return Err(PyValueError::new_err(format!("{card} is not a card")));
        }
        Ok(self.inner.is_built(card as usize))
    }

    /// Bit mask of the hidden cards whose place seat knows.
    fn known_cards(&self, s: i64) -> PyResult<u64> {
        Ok(self.inner.known[seat(&self.inner, s)?])
    }

    /// Set what each seat knows of the hidden cards (bit masks; for pickles and loaders).
    fn set_known(&mut self, known: Vec<u64>) -> PyResult<()> {
        if known.len() != self.inner.n() {
            return Err(PyValueError::new_err("one knowledge mask per seat"));
        }
        let all = (1u64 << CODES.len()) - 1;
        for (s, k) in known.iter().enumerate() {
            self.inner.known[s] = k & all;
        }
        Ok(())
    }

    /// Set the options' first seat (kept for equality with the Python position).
    fn set_first_player(&mut self, first: i64) {
        self.inner.first_player = first;
    }

    /// Restore the mover and colour a pirate's steal or a new start's deal leaves behind
    /// (not in the position notation; for pickles, so they equal the original).
    fn set_stale(&mut self, player: i8, colour: &str) {
        let st = &mut self.inner;
        if st.pending == pyramids_flags::state::STEAL || st.pending == pyramids_flags::state::DEAL {
            if (-1..st.n() as i8).contains(&player) {
                st.player = player;
            }
            st.colour = match colour.as_bytes() {
                [c @ (b'R' | b'B' | b'G' | b'Y' | b'K' | b'W')] => *c,
                _ => 0,
            };
        }
    }

    /// Every field of the Python `FlagsPosition` but the options, by name.
    fn position_fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = &self.inner;
        let n = s.n();
        let hands: Vec<Vec<u32>> = (0..n).map(|q| ints(s.hand(q))).collect();
        let scored: PyResult<Vec<PyObject>> = (0..n).map(|q| tup(py, s.scored_cards(q))).collect();
        let to_deal: Vec<usize> = bits(s.to_deal).collect();
        let taken: Vec<i8> = if s.taken >= 0 { vec![s.taken] } else { vec![] };
        let colour = if s.colour == 0 {
            String::new()
        } else {
            col(s.colour)
        };
        let tree = if s.tree == 0 {
            String::new()
        } else {
            col(s.tree)
        };
        let ranking = s.ranking_slice().map(ints);
        let d = PyDict::new(py);
        d.set_item(intern!(py, "below"), s.below.to_vec())?;
        d.set_item(intern!(py, "above"), s.above.to_vec())?;
        d.set_item(intern!(py, "bank"), s.bank)?;
        d.set_item(intern!(py, "scoring"), s.scoring[..n].to_vec())?;
        d.set_item(intern!(py, "hands"), hands)?;
        d.set_item(intern!(py, "scored"), PyList::new(py, scored?)?)?;
        d.set_item(intern!(py, "deck"), ints(s.deck_cards()))?;
        d.set_item(intern!(py, "known"), s.known[..n].to_vec())?;
        d.set_item(intern!(py, "last"), tup(py, s.last_moved())?)?;
        d.set_item(intern!(py, "last_mask"), s.last_mask)?;
        d.set_item(intern!(py, "to_move"), s.to_move)?;
        d.set_item(intern!(py, "turn"), s.turn)?;
        d.set_item(intern!(py, "pending"), s.pending)?;
        d.set_item(intern!(py, "player"), s.player)?;
        d.set_item(intern!(py, "card"), s.card)?;
        d.set_item(intern!(py, "taken"), tup(py, &taken)?)?;
        d.set_item(intern!(py, "colour"), colour)?;
        d.set_item(intern!(py, "victim"), s.victim)?;
        d.set_item(intern!(py, "tree"), tree)?;
        d.set_item(intern!(py, "to_deal"), tup(py, &to_deal)?)?;
        d.set_item(intern!(py, "winner"), s.winner)?;
        d.set_item(intern!(py, "ranking"), ranking)?;
        Ok(d)
    }

    /// The piece's code (for debugging).
    #[staticmethod]
    fn piece_name(p: usize) -> String {
        piece_name(p % 30)
    }
}

/// `FlagsGame(players, options).new_initial_state(seed)` (options: the record dict).
#[pyfunction]
fn flags_new_game(
    players: usize,
    options: &Bound<'_, PyAny>,
    seed: i128,
) -> PyResult<PyFlagsState> {
    let options = py_to_text(options)?;
    let mut inner = State::try_new_game(players, &options, seed).map_err(err)?;
    inner.set_record_events(true);
    Ok(PyFlagsState { inner })
}

/// A state from the position notation (a dict); PositionError (code and facts).
#[pyfunction]
fn flags_from_json(data: &Bound<'_, PyAny>) -> PyResult<PyFlagsState> {
    let value = py_to_value(data)?;
    let mut inner = pyramids_flags::position::read_position_value(&value).map_err(err)?;
    inner.set_record_events(true);
    Ok(PyFlagsState { inner })
}

/// `determinize(view, rng)`: the view in exchange form (a dict) and the generator's
/// 625-word state; returns the state and the generator's state after.
#[pyfunction]
fn flags_determinize(
    view: &Bound<'_, PyAny>,
    rng_state: Vec<u32>,
) -> PyResult<(PyFlagsState, Vec<u32>)> {
    let view = view_of(view)?;
    let mut rng = PyRandom::from_state(&rng_state)
        .ok_or_else(|| PyValueError::new_err("bad random state"))?;
    let mut inner = pyramids_flags::determinize_checked(&view, &mut rng).map_err(err)?;
    inner.set_record_events(true);
    Ok((PyFlagsState { inner }, rng.state()))
}

/// Test-only: switch a deliberately broken rule on (a name) or off (None).
#[pyfunction]
#[pyo3(signature = (name=None))]
fn flags_set_fault(name: Option<&str>) -> PyResult<()> {
    pyramids_flags::set_fault(name).map_err(PyValueError::new_err)
}

/// Adds this part's classes and functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyFlagsState>()?;
    m.add_function(wrap_pyfunction!(flags_new_game, m)?)?;
    m.add_function(wrap_pyfunction!(flags_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(flags_determinize, m)?)?;
    m.add_function(wrap_pyfunction!(flags_set_fault, m)?)?;
    Ok(())
}
