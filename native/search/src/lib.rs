//! SO-ISMCTS over any [`SearchGame`]: the very algorithm of `pyramids.bots.ismcts.run_search`.
//!
//! Read the Python module's docstring for what the search does (tree keyed by deciding
//! seat then action, or with `observe` by what the searcher observes of other seats'
//! actions and chance ([`SearchGame::observation`]), UCB1 with availability, expansion of
//! one untried action, guided expansion with progressive widening and bias, chance
//! branches, rollouts scored by the returns or, cut at the horizon, by the game's
//! evaluation, reflexes below the root and in rollouts). This file is its line-for-line mirror, and more: it makes the *same draws*
//! from the caller's [`PyRandom`] (CPython's `random.Random`, draw for draw) in the same
//! order, and the same float operations in the same order, so that for an iteration
//! budget and the same generator state the statistics ([`ActionStats`]: visits and reward
//! totals) are identical to Python's and the generator ends in the same state:
//!
//! - a determinization per iteration: `sample(rng)` (the game's `determinize`);
//! - chance: [`sample_chance`] (one `random()`);
//! - expansion: `untried[randrange(len(untried))]` when two or more are untried, or the
//!   policy's choice among them with `guided`;
//! - UCB ties: `best[randrange(len(best))]`, drawn only when two or more tie;
//! - with `observe`, at another seat's node: UCB over keys, then the concrete action
//!   `group[randrange(len(group))]` among the chosen key's actions, drawn only when two
//!   or more;
//! - rollouts: `legal[randrange(len(legal))]` for random; the policy for greedy; for
//!   mixed one `random()` per move (`>= 0.8`: random move, else the policy's); reflex
//!   decisions take the careful answer without drawing.
//!
//! [`run_search_parallel`] is the root-parallel variant (issue 11, point 7): several
//! independent trees on threads, statistics summed. It is *not* the same search as the
//! one-thread one (other trees, other draws); see its documentation.

mod settings;
mod tree;

use std::time::{Duration, Instant};

pub use settings::{
    Evaluation, Rollout, Settings, BIAS, DEFAULT_ITERATIONS, EXPLORATION, MIXED_GREEDY_SHARE,
    ROLLOUT_CAP, WIDENING,
};
pub use tree::{Node, NodeId, Tree, ROOT};

use pyramids_core::{sample_chance, Action, GameState, PyRandom, SearchGame, CHANCE};

/// What the search found about one legal root action (Python's `ActionStats`, with the
/// reward total kept so results can be summed).
#[derive(Clone, Debug, PartialEq)]
pub struct ActionStats {
    /// The root action.
    pub action: Action,
    /// Visits of the root child of the deciding seat for this action.
    pub visits: u64,
    /// Sum of the deciding seat's rewards over those visits.
    pub total: f64,
    /// Share of the root's visits (over the legal actions) that went to this action.
    pub share: f64,
    /// Mean reward (`total / visits`, 0 without visits).
    pub win: f64,
}

/// A finished search: the legal root actions (most visited first) and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// Statistics of every legal root action, most visited first (then best mean, action).
    pub stats: Vec<ActionStats>,
    /// Iterations run (summed over threads).
    pub iterations: u64,
    /// Wall seconds.
    pub seconds: f64,
}

/// Why a search could not run: bad settings, or an engine refusing its own action.
pub type SearchError = String;

/// Reused buffers of one search (no allocation per iteration once warm).
#[derive(Default)]
struct Scratch {
    actions: Vec<Action>,
    untried: Vec<Action>,
    best: Vec<Action>,
    outcomes: Vec<(Action, f64)>,
    rewards: Vec<f64>,
    path: Vec<(NodeId, usize)>,
    /// With `observe`: the key of each legal action, the keys in order of first appearance.
    keys: Vec<Action>,
    groups: Vec<Action>,
}

/// Draw a chance outcome of `state` (`state.sample_chance(rng)`).
#[inline]
fn draw_chance<S: GameState>(
    state: &S,
    out: &mut Vec<(Action, f64)>,
    rng: &mut PyRandom,
) -> Action {
    state.chance_outcomes_into(out);
    if out.is_empty() {
        // Python's sample_chance would raise IndexError; the search stops with an error.
        return Action::MAX;
    }
    sample_chance(out, rng)
}

fn apply<S: GameState>(state: &mut S, action: Action) -> Result<(), SearchError> {
    state
        .apply(action)
        .map_err(|e| format!("the engine refused its own action {action}: {e}"))
}

/// Python's `_rollout`: play `state` out; the rewards into `scratch.rewards`.
fn rollout<G: SearchGame>(
    game: &G,
    state: &mut G::State,
    rng: &mut PyRandom,
    settings: &Settings,
    reflex: bool,
    scratch: &mut Scratch,
) -> Result<(), SearchError> {
    let share = settings.rollout.share();
    let policy = settings.rollout != Rollout::Random;
    let cap = settings.rollout_cap;
    let mut steps = 0usize;
    while !state.is_terminal() {
        if steps >= cap {
            // the horizon: always the game's judgement, never 1/players
            game.evaluate(state, &mut scratch.rewards);
            return Ok(());
        }
        let player = state.current_player();
        let action = if player == CHANCE {
            draw_chance(state, &mut scratch.outcomes, rng)
        } else {
            let legal = &mut scratch.actions;
            state.legal_actions_into(legal);
            if legal.is_empty() {
                return Err("a state that is not over has no legal action".into());
            }
            if reflex && game.reflex_applies(legal) {
                game.reflex_careful(state, legal)
            } else if !policy || (share < 1.0 && rng.random() >= share) {
                legal[rng.below(legal.len())]
            } else {
                game.policy(state, legal, rng)
            }
        };
        apply(state, action)?;
        steps += 1;
    }
    state.returns_into(&mut scratch.rewards);
    Ok(())
}

/// One tree grown from `sample` until the budget runs out: (tree, iterations).
fn grow<G: SearchGame>(
    game: &G,
    mut sample: impl FnMut(&mut PyRandom) -> G::State,
    player: usize,
    settings: &Settings,
    iterations: Option<u64>,
    deadline: Option<Instant>,
    rng: &mut PyRandom,
) -> Result<(Tree, u64), SearchError> {
    let c = settings.exploration;
    let widening = if settings.guided {
        settings.widening
    } else {
        0.0
    };
    let bias = if settings.guided { settings.bias } else { 0.0 };
    let mut tree = Tree::new();
    let mut scratch = Scratch::default();
    let mut done: u64 = 0;
    let mut reflex = false;
    let mut first = true;
    loop {
        if let Some(limit) = iterations {
            if done >= limit {
                break;
            }
        }
        if let Some(deadline) = deadline {
            if done > 0 && Instant::now() >= deadline {
                break;
            }
        }
        let mut state = sample(rng);
        if first {
            first = false;
            reflex = game.reflex_in_play(&state);
        }
        let mut node = ROOT;
        tree.node_mut(ROOT).visits += 1;
        scratch.path.clear();
        while !state.is_terminal() {
            let seat = state.current_player();
            if seat == CHANCE {
                let action = draw_chance(&state, &mut scratch.outcomes, rng);
                let key = if settings.observe {
                    game.observation(&state, player, action)
                } else {
                    action
                };
                apply(&mut state, action)?;
                let kids = tree.kids_or_add(node, CHANCE);
                let child = tree.child_or_add(kids, key);
                tree.node_mut(child).visits += 1; // counted for widening only
                node = child;
                continue;
            }
            if seat < 0 {
                return Err(format!(
                    "a state that is not over has current player {seat}"
                ));
            }
            let actions = &mut scratch.actions;
            state.legal_actions_into(actions);
            if actions.is_empty() {
                return Err("a state that is not over has no legal action".into());
            }
            if reflex && node != ROOT && game.reflex_applies(actions) {
                let answer = game.reflex_careful(&state, actions);
                apply(&mut state, answer)?;
                continue;
            }
            let kids = tree.kids_or_add(node, seat);
            if settings.observe && seat as usize != player {
                let step = Observed {
                    widening,
                    bias,
                    c,
                    guided: settings.guided,
                    player,
                };
                let (child, expanded) =
                    step.select(game, &mut tree, &mut state, node, kids, &mut scratch, rng)?;
                scratch.path.push((child, seat as usize));
                if expanded {
                    break;
                }
                node = child;
                continue;
            }
            let untried = &mut scratch.untried;
            untried.clear();
            let mut tried: u64 = 0;
            for &a in actions.iter() {
                match tree.child(kids, a) {
                    None => untried.push(a),
                    Some(kid) => {
                        tree.node_mut(kid).avail += 1;
                        tried += 1;
                    }
                }
            }
            if !untried.is_empty()
                && widening != 0.0
                && tried != 0
                && tried as f64 >= (widening * (tree.node(node).visits as f64).sqrt()).ceil()
            {
                untried.clear(); // progressive widening: choose among the children tried
            }
            let seat = seat as usize;
            if !untried.is_empty() {
                let action = if untried.len() == 1 {
                    untried[0]
                } else if settings.guided {
                    let pick = game.policy(&state, untried, rng);
                    if tree.child(kids, pick).is_some() {
                        // a policy that answered outside `untried` (a reflex's answer)
                        untried[rng.below(untried.len())]
                    } else {
                        pick
                    }
                } else {
                    untried[rng.below(untried.len())]
                };
                let bonus = if bias != 0.0 {
                    bias / (tree.count(kids) + 1) as f64
                } else {
                    0.0
                };
                let child = tree.add(kids, action, bonus);
                apply(&mut state, action)?;
                scratch.path.push((child, seat));
                break;
            }
            let mut best_score = f64::NEG_INFINITY;
            let best = &mut scratch.best;
            best.clear();
            for &a in actions.iter() {
                let Some(id) = tree.child(kids, a) else {
                    continue;
                };
                let kid = tree.node(id);
                let visits = kid.visits as f64;
                let mut score = kid.total / visits + c * ((kid.avail as f64).ln() / visits).sqrt();
                if kid.bonus != 0.0 {
                    score += kid.bonus / (kid.visits + 1) as f64;
                }
                if score > best_score {
                    best_score = score;
                    best.clear();
                    best.push(a);
                } else if score == best_score {
                    best.push(a);
                }
            }
            let action = match best.len() {
                0 => return Err("no child to select (a score is not a number)".into()),
                1 => best[0],
                n => best[rng.below(n)],
            };
            node = tree.child(kids, action).unwrap_or(ROOT);
            apply(&mut state, action)?;
            scratch.path.push((node, seat));
        }
        if state.is_terminal() {
            state.returns_into(&mut scratch.rewards);
        } else {
            rollout(game, &mut state, rng, settings, reflex, &mut scratch)?;
        }
        for &(child, seat) in scratch.path.iter() {
            let reward = *scratch
                .rewards
                .get(seat)
                .ok_or_else(|| format!("no reward for seat {seat}"))?;
            let kid = tree.node_mut(child);
            kid.visits += 1;
            kid.total += reward;
        }
        done += 1;
    }
    Ok((tree, done))
}

/// One step of another seat's decision keyed by what the searcher observes (Python's
/// `_select_observed`, draw for draw).
struct Observed {
    widening: f64,
    bias: f64,
    c: f64,
    guided: bool,
    player: usize,
}

impl Observed {
    /// Expansion among the actions whose key is untried (with widening over keys), else
    /// UCB over the keys in order of first appearance, then the concrete action drawn among
    /// that key's actions; the action applied. (The child, whether it was just expanded.)
    #[allow(clippy::too_many_arguments)]
    fn select<G: SearchGame>(
        &self,
        game: &G,
        tree: &mut Tree,
        state: &mut G::State,
        node: NodeId,
        kids: tree::Kids,
        scratch: &mut Scratch,
        rng: &mut PyRandom,
    ) -> Result<(NodeId, bool), SearchError> {
        let actions = &scratch.actions;
        let keys = &mut scratch.keys;
        let groups = &mut scratch.groups;
        keys.clear();
        groups.clear();
        for &a in actions.iter() {
            let k = game.observation(state, self.player, a);
            keys.push(k);
            // a key equal to its action is unique (the trait's contract): only merged keys
            // may repeat, and they are few
            if k == a || !groups.contains(&k) {
                groups.push(k);
            }
        }
        let mut tried: u64 = 0;
        for &k in groups.iter() {
            if let Some(kid) = tree.child(kids, k) {
                tree.node_mut(kid).avail += 1;
                tried += 1;
            }
        }
        let untried = &mut scratch.untried;
        untried.clear();
        let widened = self.widening != 0.0
            && tried != 0
            && tried as f64 >= (self.widening * (tree.node(node).visits as f64).sqrt()).ceil();
        if !widened {
            for (&a, &k) in actions.iter().zip(keys.iter()) {
                if tree.child(kids, k).is_none() {
                    untried.push(a);
                }
            }
        }
        if !untried.is_empty() {
            let action = if untried.len() == 1 {
                untried[0]
            } else if self.guided {
                let pick = game.policy(state, untried, rng);
                if tree
                    .child(kids, game.observation(state, self.player, pick))
                    .is_some()
                {
                    // a policy that answered outside `untried` (a reflex's answer)
                    untried[rng.below(untried.len())]
                } else {
                    pick
                }
            } else {
                untried[rng.below(untried.len())]
            };
            let bonus = if self.bias != 0.0 {
                self.bias / (tree.count(kids) + 1) as f64
            } else {
                0.0
            };
            let key = game.observation(state, self.player, action);
            let child = tree.add(kids, key, bonus);
            apply(state, action)?;
            return Ok((child, true));
        }
        let mut best_score = f64::NEG_INFINITY;
        let best = &mut scratch.best;
        best.clear();
        for &k in groups.iter() {
            let Some(id) = tree.child(kids, k) else {
                continue;
            };
            let kid = tree.node(id);
            let visits = kid.visits as f64;
            let mut score = kid.total / visits + self.c * ((kid.avail as f64).ln() / visits).sqrt();
            if kid.bonus != 0.0 {
                score += kid.bonus / (kid.visits + 1) as f64;
            }
            if score > best_score {
                best_score = score;
                best.clear();
                best.push(k);
            } else if score == best_score {
                best.push(k);
            }
        }
        let key = match best.len() {
            0 => return Err("no child to select (a score is not a number)".into()),
            1 => best[0],
            n => best[rng.below(n)],
        };
        // the concrete action: one of the key's actions, drawn when several
        untried.extend(
            actions
                .iter()
                .zip(keys.iter())
                .filter(|&(_, &k)| k == key)
                .map(|(&a, _)| a),
        );
        let action = match untried.len() {
            0 => return Err("no action behind a selected key".into()),
            1 => untried[0],
            n => untried[rng.below(n)],
        };
        untried.clear();
        let child = tree
            .child(kids, key)
            .ok_or_else(|| SearchError::from("a selected key has no child"))?;
        apply(state, action)?;
        Ok((child, false))
    }
}

/// (visits, total, has a child) of each action of `legal` among the root's children of `player`.
fn root_edges(tree: &Tree, player: usize, legal: &[Action]) -> Vec<(Action, u64, f64, bool)> {
    let kids = tree.kids(ROOT, player as i32);
    legal
        .iter()
        .map(|&a| match kids.and_then(|k| tree.child(k, a)) {
            Some(id) => (a, tree.node(id).visits, tree.node(id).total, true),
            None => (a, 0, 0.0, false),
        })
        .collect()
}

/// Python's `_root_stats`: every legal root action, most visited first (then best mean,
/// then action), from (action, visits, total, has a child) in the order of `legal`.
pub fn root_stats(edges: &[(Action, u64, f64, bool)]) -> Vec<ActionStats> {
    let sum: u64 = edges.iter().filter(|e| e.3).map(|e| e.1).sum();
    let total = if sum == 0 { 1 } else { sum };
    let mut stats: Vec<ActionStats> = edges
        .iter()
        .map(|&(action, visits, t, kid)| ActionStats {
            action,
            visits,
            total: t,
            share: visits as f64 / total as f64,
            win: if kid && visits != 0 {
                t / visits as f64
            } else {
                0.0
            },
        })
        .collect();
    stats.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(
                b.win
                    .partial_cmp(&a.win)
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
            .then(a.action.cmp(&b.action))
    });
    stats
}

fn deadline_of(start: Instant, seconds: Option<f64>) -> Option<Instant> {
    let s = seconds?;
    // A budget too long to represent never runs out (the iteration budget may still stop it).
    Duration::try_from_secs_f64(s)
        .ok()
        .and_then(|d| start.checked_add(d))
}

/// Search from the states `sample(rng)` draws, `player` deciding at the root: Python's
/// `run_search`, draw for draw (see the crate documentation). `settings.threads` is
/// ignored here (one tree on this thread); the statistics cover exactly `legal`.
pub fn run_search<G: SearchGame>(
    game: &G,
    sample: impl FnMut(&mut PyRandom) -> G::State,
    player: usize,
    legal: &[Action],
    settings: &Settings,
    rng: &mut PyRandom,
) -> Result<SearchResult, SearchError> {
    settings.check()?;
    let start = Instant::now();
    let deadline = deadline_of(start, settings.seconds);
    let (tree, done) = grow(
        game,
        sample,
        player,
        settings,
        settings.iterations,
        deadline,
        rng,
    )?;
    let seconds = start.elapsed().as_secs_f64();
    Ok(SearchResult {
        stats: root_stats(&root_edges(&tree, player, legal)),
        iterations: done,
        seconds,
    })
}

/// Root-parallel search (issue 11, point 7): `settings.threads` independent trees, one per
/// thread, their root statistics summed (visits and reward totals per legal action, in
/// thread order), iterations summed.
///
/// Thread 0 draws from `rng` itself; before the search, one 128-bit key per other thread
/// is drawn from `rng` (four `getrandbits(32)`) to seed that thread's own generator
/// (`PyRandom::from_key`). An iteration budget is split between the threads (the first
/// ones take the remainder; never more threads than iterations); a time budget gives each
/// thread the whole time. So for an iteration budget and a generator state the result is
/// reproducible, but it is **not** the one-thread search's: other trees, other draws, and
/// each tree sees only its share of the iterations. With `threads == 1` this is exactly
/// [`run_search`].
pub fn run_search_parallel<G: SearchGame>(
    game: &G,
    sample: impl Fn(&mut PyRandom) -> G::State + Sync,
    player: usize,
    legal: &[Action],
    settings: &Settings,
    rng: &mut PyRandom,
) -> Result<SearchResult, SearchError> {
    settings.check()?;
    let threads = match settings.iterations {
        Some(n) => settings
            .threads
            .min(usize::try_from(n).unwrap_or(usize::MAX)),
        None => settings.threads,
    }
    .max(1);
    if threads == 1 {
        return run_search(game, sample, player, legal, settings, rng);
    }
    let start = Instant::now();
    let deadline = deadline_of(start, settings.seconds);
    let mut others: Vec<PyRandom> = (1..threads)
        .map(|_| {
            let key: Vec<u32> = (0..4).map(|_| rng.next_u32()).collect();
            PyRandom::from_key(&key)
        })
        .collect();
    let share = |i: usize| {
        settings
            .iterations
            .map(|n| n / threads as u64 + u64::from((i as u64) < n % threads as u64))
    };
    let sample = &sample;
    let grown: Vec<Result<(Tree, u64), SearchError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = others
            .iter_mut()
            .enumerate()
            .map(|(k, r)| {
                let budget = share(k + 1);
                scope.spawn(move || grow(game, sample, player, settings, budget, deadline, r))
            })
            .collect();
        let mut out = vec![grow(
            game,
            sample,
            player,
            settings,
            share(0),
            deadline,
            rng,
        )];
        for h in handles {
            out.push(
                h.join()
                    .unwrap_or_else(|_| Err("a search thread panicked".into())),
            );
        }
        out
    });
    let mut edges = vec![(0, 0u64, 0.0f64, false); legal.len()];
    for (i, &a) in legal.iter().enumerate() {
        edges[i].0 = a;
    }
    let mut done = 0;
    for g in grown {
        let (tree, n) = g?;
        done += n;
        for (e, (_, v, t, kid)) in edges.iter_mut().zip(root_edges(&tree, player, legal)) {
            e.1 += v;
            e.2 += t;
            e.3 |= kid;
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    Ok(SearchResult {
        stats: root_stats(&edges),
        iterations: done,
        seconds,
    })
}
