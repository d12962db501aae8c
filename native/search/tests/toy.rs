//! The search on a tiny game that has everything the real ones have: two or more seats,
//! hidden facts (the determinization draws them), chance, a reflex decision, a policy that
//! draws, an evaluation. The identity with the Python search is tested in
//! tests/native/test_search.py on the real games; here: the algorithm's own properties and
//! its draws counted by hand.

use pyramids_core::{Action, GameState, PyRandom, SearchGame, CHANCE, TERMINAL};
use pyramids_search::{run_search, run_search_parallel, Evaluation, Rollout, Settings};

const CHECK_OK: Action = 100;
const CHECK_CALL: Action = 101;

/// Take-away: seats in turn take 1-3 stones; whoever takes the last wins. After every
/// second take, chance adds 0, 1 or 2 stones. A seat facing exactly 5 stones first
/// answers a check (ok or call: the careful answer is call, which adds nothing).
#[derive(Clone, Debug, PartialEq)]
struct Nim {
    players: usize,
    pile: u64,
    seat: usize,
    takes: u64,
    chance: bool,
    check: bool,
    checked: bool,
    winner: Option<usize>,
}

impl GameState for Nim {
    fn num_players(&self) -> usize {
        self.players
    }
    fn current_player(&self) -> i32 {
        if self.winner.is_some() {
            TERMINAL
        } else if self.chance {
            CHANCE
        } else {
            self.seat as i32
        }
    }
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        if self.winner.is_some() {
            return;
        }
        if self.chance {
            out.extend([0, 1, 2]);
        } else if self.check {
            out.extend([CHECK_OK, CHECK_CALL]);
        } else {
            out.extend((1..=3).filter(|&n| n <= self.pile));
        }
    }
    fn chance_outcomes_into(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        if self.chance && self.winner.is_none() {
            out.extend([(0, 0.5), (1, 0.3), (2, 0.2)]);
        }
    }
    fn apply(&mut self, action: Action) -> Result<(), String> {
        if !self.legal_actions().contains(&action) {
            return Err(format!("illegal {action}"));
        }
        if self.chance {
            self.pile += action;
            self.chance = false;
        } else if self.check {
            self.check = false;
            self.checked = true;
            return Ok(());
        } else {
            self.pile -= action;
            self.takes += 1;
            if self.pile == 0 {
                self.winner = Some(self.seat);
                return Ok(());
            }
            self.seat = (self.seat + 1) % self.players;
            self.chance = self.takes & 1 == 0;
            self.checked = false;
        }
        self.check = self.pile == 5 && !self.chance && !self.checked;
        Ok(())
    }
    fn is_terminal(&self) -> bool {
        self.winner.is_some()
    }
    fn returns_into(&self, out: &mut Vec<f64>) {
        out.clear();
        out.resize(self.players, 0.0);
        if let Some(w) = self.winner {
            out[w] = 1.0;
        }
    }
}

/// What a seat sees: the pile up to one hidden stone.
struct NimView {
    players: usize,
    seen: u64,
    seat: usize,
}

struct NimGame {
    reflex: bool,
}

impl SearchGame for NimGame {
    type State = Nim;
    type View = NimView;

    fn view_player(&self, view: &NimView) -> usize {
        view.seat
    }
    fn determinize(&self, view: &NimView, rng: &mut PyRandom) -> Nim {
        let hidden = rng.below(2) as u64;
        nim(view.players, view.seen + hidden, view.seat)
    }
    fn policy(&self, state: &Nim, legal: &[Action], rng: &mut PyRandom) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let want = state.pile % 4;
        if legal.contains(&want) {
            want
        } else {
            legal[rng.below(legal.len())]
        }
    }
    fn evaluate(&self, state: &Nim, out: &mut Vec<f64>) {
        out.clear();
        let good = if state.pile & 3 == 0 { 0.2 } else { 0.8 };
        for s in 0..state.players {
            out.push(if s == state.seat {
                good
            } else {
                (1.0 - good) / (state.players - 1) as f64
            });
        }
    }
    fn reflex_in_play(&self, _state: &Nim) -> bool {
        self.reflex
    }
    fn reflex_applies(&self, legal: &[Action]) -> bool {
        legal.first() == Some(&CHECK_OK)
    }
    fn reflex_careful(&self, _state: &Nim, _legal: &[Action]) -> Action {
        CHECK_CALL
    }
}

fn nim(players: usize, pile: u64, seat: usize) -> Nim {
    let mut s = Nim {
        players,
        pile,
        seat,
        takes: 0,
        chance: false,
        check: false,
        checked: false,
        winner: None,
    };
    s.check = s.pile == 5;
    s
}

fn settings(iterations: u64) -> Settings {
    Settings {
        iterations: Some(iterations),
        ..Settings::default()
    }
}

fn search(
    game: &NimGame,
    view: &NimView,
    s: &Settings,
    seed: i128,
) -> (pyramids_search::SearchResult, PyRandom) {
    let mut rng = PyRandom::new(seed);
    let legal: Vec<Action> = vec![1, 2, 3];
    let r = run_search(
        game,
        |r| game.determinize(view, r),
        view.seat,
        &legal,
        s,
        &mut rng,
    )
    .unwrap();
    (r, rng)
}

fn all_settings() -> Vec<Settings> {
    let mut out = Vec::new();
    for rollout in [Rollout::Random, Rollout::Greedy, Rollout::Mixed] {
        for guided in [false, true] {
            for cap in [200, 0, 2, 1] {
                out.push(Settings {
                    rollout,
                    guided,
                    evaluation: Evaluation::Handmade,
                    rollout_cap: cap,
                    ..settings(300)
                });
            }
        }
    }
    out
}

#[test]
fn every_iteration_visits_one_root_child() {
    let game = NimGame { reflex: true };
    for players in [2, 3] {
        let view = NimView {
            players,
            seen: 12,
            seat: 0,
        };
        for s in all_settings() {
            let (r, _) = search(&game, &view, &s, 7);
            assert_eq!(r.iterations, 300);
            assert_eq!(r.stats.iter().map(|a| a.visits).sum::<u64>(), 300, "{s:?}");
            let shares: f64 = r.stats.iter().map(|a| a.share).sum();
            assert!((shares - 1.0).abs() < 1e-12);
            for a in &r.stats {
                assert!((0.0..=1.0).contains(&a.win));
            }
        }
    }
}

#[test]
fn same_generator_same_statistics_and_same_generator_after() {
    let game = NimGame { reflex: true };
    let view = NimView {
        players: 2,
        seen: 15,
        seat: 1,
    };
    for s in all_settings() {
        let (a, ra) = search(&game, &view, &s, 42);
        let (b, rb) = search(&game, &view, &s, 42);
        assert_eq!(a.stats, b.stats);
        assert_eq!(ra, rb);
        let (c, _) = search(&game, &view, &s, 43);
        assert_eq!(c.stats.iter().map(|x| x.visits).sum::<u64>(), 300);
    }
}

#[test]
fn stats_are_sorted_most_visited_then_best_mean_then_action() {
    let game = NimGame { reflex: false };
    let view = NimView {
        players: 2,
        seen: 9,
        seat: 0,
    };
    let (r, _) = search(&game, &view, &settings(50), 3);
    for w in r.stats.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        assert!(
            a.visits > b.visits
                || (a.visits == b.visits
                    && (a.win > b.win || (a.win == b.win && a.action < b.action)))
        );
    }
}

/// Two iterations on a pile of 1 or 2 (hidden stone): the draws counted by hand.
#[test]
fn draws_are_python_draws_counted_by_hand() {
    let game = NimGame { reflex: false };
    // pile 2 for sure: seen 2 and... the hidden stone can make it 3; with seen=2 the legal
    // root actions are 1, 2 (and 3 when the hidden stone is there).
    let view = NimView {
        players: 2,
        seen: 2,
        seat: 0,
    };
    let mut rng = PyRandom::new(5);
    let legal = vec![1, 2];
    let r = run_search(
        &game,
        |r| game.determinize(&view, r),
        0,
        &legal,
        &settings(1),
        &mut rng,
    )
    .unwrap();
    // Iteration 1: determinize (randrange(2)), expansion among 2 or 3 untried (randrange),
    // then a rollout of at least one random move (pile >= 1 left) unless the take won.
    let mut mirror = PyRandom::new(5);
    let hidden = mirror.below(2) as u64;
    let pile = 2 + hidden;
    let n = pile.min(3) as usize;
    let take = (1 + mirror.below(n)) as u64;
    let mut state = nim(2, pile, 0);
    state.apply(take).unwrap();
    while !state.is_terminal() {
        let action = if state.current_player() == CHANCE {
            let x = mirror.random();
            if x < 0.5 {
                0
            } else if x < 0.8 {
                1
            } else {
                2
            }
        } else {
            let legal = state.legal_actions();
            legal[mirror.below(legal.len())]
        };
        state.apply(action).unwrap();
    }
    assert_eq!(rng, mirror);
    let visited: u64 = r
        .stats
        .iter()
        .filter(|a| a.action == take)
        .map(|a| a.visits)
        .sum();
    assert_eq!(visited, u64::from(take <= 2));
}

#[test]
fn the_reflex_is_played_below_the_root_and_searched_at_the_root() {
    // At the root (pile 5, a check), both answers are searched.
    let game = NimGame { reflex: true };
    let view = NimView {
        players: 2,
        seen: 5,
        seat: 0,
    };
    let mut rng = PyRandom::new(1);
    let legal = vec![CHECK_OK, CHECK_CALL];
    let sample = |_: &mut PyRandom| nim(2, 5, 0);
    let r = run_search(&game, sample, 0, &legal, &settings(20), &mut rng).unwrap();
    assert!(r.stats.iter().all(|a| a.visits > 0));
    let _ = view;
}

#[test]
fn evaluation_with_cap_zero_scores_every_new_leaf() {
    let game = NimGame { reflex: false };
    let sample = |_: &mut PyRandom| nim(2, 20, 0);
    let s = Settings {
        evaluation: Evaluation::Handmade,
        rollout_cap: 0,
        ..settings(3)
    };
    let mut rng = PyRandom::new(0);
    let r = run_search(&game, sample, 0, &[1, 2, 3], &s, &mut rng).unwrap();
    // Each action tried once; after take t the seat to move is 1, pile 20 - t.
    for a in &r.stats {
        assert_eq!(a.visits, 1);
        let good = if (20 - a.action) % 4 == 0 { 0.2 } else { 0.8 };
        assert_eq!(a.win, 1.0 - good);
    }
}

#[test]
fn guided_widening_limits_the_children_tried() {
    let game = NimGame { reflex: false };
    let sample = |_: &mut PyRandom| nim(2, 30, 0);
    let s = Settings {
        guided: true,
        widening: 0.5,
        ..settings(3)
    };
    let mut rng = PyRandom::new(0);
    let r = run_search(&game, sample, 0, &[1, 2, 3], &s, &mut rng).unwrap();
    // ceil(0.5 * sqrt(n)) = 1 for n <= 4: only the policy's choice (30 % 4 = 2) is tried.
    let tried: Vec<Action> = r
        .stats
        .iter()
        .filter(|a| a.visits > 0)
        .map(|a| a.action)
        .collect();
    assert_eq!(tried, vec![2]);
}

#[test]
fn a_time_budget_runs_at_least_one_iteration_and_stops() {
    let game = NimGame { reflex: true };
    let view = NimView {
        players: 2,
        seen: 40,
        seat: 0,
    };
    let s = Settings {
        iterations: None,
        seconds: Some(0.02),
        ..Settings::default()
    };
    let (r, _) = search(&game, &view, &s, 9);
    assert!(r.iterations >= 1);
    assert!(r.seconds >= 0.02 && r.seconds < 1.0);
    let both = Settings {
        iterations: Some(5),
        seconds: Some(10.0),
        ..Settings::default()
    };
    let (r, _) = search(&game, &view, &both, 9);
    assert_eq!(r.iterations, 5);
}

#[test]
fn bad_settings_are_errors() {
    let game = NimGame { reflex: false };
    let view = NimView {
        players: 2,
        seen: 4,
        seat: 0,
    };
    for s in [
        Settings {
            iterations: None,
            seconds: None,
            ..Settings::default()
        },
        Settings {
            iterations: Some(0),
            ..Settings::default()
        },
        Settings {
            seconds: Some(-1.0),
            ..Settings::default()
        },
        Settings {
            widening: -1.0,
            ..Settings::default()
        },
        Settings {
            threads: 0,
            ..Settings::default()
        },
    ] {
        let mut rng = PyRandom::new(0);
        let r = run_search(
            &game,
            |r| game.determinize(&view, r),
            0,
            &[1, 2, 3],
            &s,
            &mut rng,
        );
        assert!(r.is_err(), "{s:?}");
    }
}

#[test]
fn parallel_search_sums_independent_trees_reproducibly() {
    let game = NimGame { reflex: true };
    let view = NimView {
        players: 2,
        seen: 14,
        seat: 0,
    };
    let legal = vec![1, 2, 3];
    let sample = |r: &mut PyRandom| game.determinize(&view, r);
    for threads in [1, 2, 3] {
        let s = Settings {
            threads,
            ..settings(301)
        };
        let mut a = PyRandom::new(11);
        let mut b = PyRandom::new(11);
        let ra = run_search_parallel(&game, sample, 0, &legal, &s, &mut a).unwrap();
        let rb = run_search_parallel(&game, sample, 0, &legal, &s, &mut b).unwrap();
        assert_eq!(ra.stats, rb.stats);
        assert_eq!(a, b);
        assert_eq!(ra.iterations, 301);
        assert_eq!(ra.stats.iter().map(|x| x.visits).sum::<u64>(), 301);
        if threads == 1 {
            let mut c = PyRandom::new(11);
            let rc = run_search(&game, sample, 0, &legal, &s, &mut c).unwrap();
            assert_eq!(rc.stats, ra.stats);
            assert_eq!(c, a);
        }
    }
    let timed = Settings {
        iterations: None,
        seconds: Some(0.02),
        threads: 2,
        ..Settings::default()
    };
    let mut r = PyRandom::new(0);
    let res = run_search_parallel(&game, sample, 0, &legal, &timed, &mut r).unwrap();
    assert!(res.iterations >= 2);
}

/// Nim where the searcher cannot tell the other seats' takes of 2 and 3 apart, nor chance's
/// 1 and 2 (the keys of `SearchGame::observation`).
struct BlindNim;

impl SearchGame for BlindNim {
    type State = Nim;
    type View = NimView;

    fn view_player(&self, view: &NimView) -> usize {
        view.seat
    }
    fn determinize(&self, view: &NimView, rng: &mut PyRandom) -> Nim {
        NimGame { reflex: false }.determinize(view, rng)
    }
    fn policy(&self, state: &Nim, legal: &[Action], rng: &mut PyRandom) -> Action {
        NimGame { reflex: false }.policy(state, legal, rng)
    }
    fn evaluate(&self, state: &Nim, out: &mut Vec<f64>) {
        NimGame { reflex: false }.evaluate(state, out);
    }
    fn observation(&self, state: &Nim, _searcher: usize, action: Action) -> Action {
        match (state.chance, action) {
            (false, 2 | 3) | (true, 1 | 2) => 1000,
            _ => action,
        }
    }
}

#[test]
fn observation_keys_are_reproducible_and_leave_the_root_keyed_by_action() {
    let game = BlindNim;
    let view = NimView {
        players: 3,
        seen: 17,
        seat: 0,
    };
    let legal = vec![1, 2, 3];
    for guided in [false, true] {
        let s = Settings {
            observe: true,
            guided,
            rollout: Rollout::Mixed,
            rollout_cap: 4,
            ..settings(400)
        };
        let run = |seed| {
            let mut rng = PyRandom::new(seed);
            let r = run_search(
                &game,
                |r| game.determinize(&view, r),
                0,
                &legal,
                &s,
                &mut rng,
            );
            (r.unwrap(), rng)
        };
        let (a, ra) = run(5);
        let (b, rb) = run(5);
        assert_eq!(a.stats, b.stats);
        assert_eq!(ra, rb);
        // the searcher's own three takes are three root children
        assert_eq!(a.stats.len(), 3);
        assert!(a.stats.iter().all(|x| x.visits > 0));
        assert_eq!(a.stats.iter().map(|x| x.visits).sum::<u64>(), 400);
        // and merging the others' moves changes the search (it is not the plain one)
        let plain = Settings {
            observe: false,
            ..s.clone()
        };
        let mut rng = PyRandom::new(5);
        let p = run_search(
            &game,
            |r| game.determinize(&view, r),
            0,
            &legal,
            &plain,
            &mut rng,
        )
        .unwrap();
        assert_ne!(p.stats, a.stats);
    }
}
