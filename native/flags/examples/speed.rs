//! Speed probe of the native Pyramids and Flags engine (not a test; nothing depends on it).
//!
//! `cargo run --release -p pyramids-flags --example flags-speed [-- SECONDS] [--digest]`
//!
//! Seeded self-play as `bench.play_timed` plays it (random and greedy bots, 2-4 players,
//! tree actions on and off; chance outcomes drawn with `sample_chance`), printing turns/s
//! and ns per decision, then the cost of each part on the states those games visit:
//! `legal_actions_into`, `apply` (checked, recording off), the greedy policy, `clone`.
//! `--digest` prints a hash of every game's actions and returns per configuration (and of
//! the position JSON after every action for a few seeds): compare it before and after a
//! change to see that the games are the same.

use std::hint::black_box;
use std::time::Instant;

use pyramids_core::{sample_chance, Action, GameState, PyRandom, CHANCE};
use pyramids_flags::consts::{MOVE_BASE, TAKE_BASE};
use pyramids_flags::policy::greedy;
use pyramids_flags::State;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Policy {
    Random,
    Greedy,
}

fn options(actions: bool) -> String {
    format!("{{\"actions\": {actions}, \"max_turns\": 3000, \"first_player\": 0}}")
}

/// The rng pair of `play_timed` for `seed`: Python's `random.Random(seed)` and a second
/// generator (the bench seeds it with a string; any distinct seed will do here).
fn rngs(seed: i128) -> (PyRandom, PyRandom) {
    (PyRandom::new(seed), PyRandom::new(seed + 1_000_003))
}

/// One self-play game; (turns, decisions, actions) and, when `visit` is given, every
/// decision state with its legal actions.
fn play(
    players: usize,
    actions_on: bool,
    seed: i128,
    policy: Policy,
    mut visit: Option<&mut Vec<(State, Vec<Action>)>>,
    mut json: Option<&mut u64>,
) -> (u64, u64, Vec<Action>, Vec<f64>) {
    let mut state = State::new_game(players, &options(actions_on), seed).expect("new game");
    state.set_record_events(false);
    let (mut rng, mut chance) = rngs(seed);
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    let mut history = Vec::new();
    let (mut turns, mut decisions) = (0u64, 0u64);
    while !state.is_terminal() {
        let action = if state.current_player() == CHANCE {
            state.chance_outcomes_into(&mut outcomes);
            sample_chance(&outcomes, &mut chance)
        } else {
            state.legal_actions_into(&mut legal);
            if let Some(v) = visit.as_deref_mut() {
                v.push((state.clone(), legal.clone()));
            }
            decisions += 1;
            let a = match policy {
                Policy::Random => legal[rng.below(legal.len())],
                Policy::Greedy => greedy(&state, &legal, &mut rng),
            };
            if (MOVE_BASE..TAKE_BASE).contains(&a) {
                turns += 1;
            }
            a
        };
        history.push(action);
        state.apply(action).expect("legal");
        if let Some(h) = json.as_deref_mut() {
            *h = fnv(*h, state.to_position_json().as_bytes());
        }
    }
    (turns, decisions, history, state.returns())
}

fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

const CONFIGS: [(usize, bool); 6] = [
    (2, true),
    (3, true),
    (4, true),
    (2, false),
    (3, false),
    (4, false),
];

fn digest() {
    for policy in [Policy::Random, Policy::Greedy] {
        for &(n, on) in &CONFIGS {
            let mut h = 0xcbf2_9ce4_8422_2325u64;
            let mut jh = 0xcbf2_9ce4_8422_2325u64;
            let games = if policy == Policy::Random { 400 } else { 100 };
            let mut total = 0;
            for seed in 0..games {
                let json = if seed < 5 { Some(&mut jh) } else { None };
                let (_, _, acts, rets) = play(n, on, seed, policy, None, json);
                total += acts.len();
                for a in acts {
                    h = fnv(h, &a.to_le_bytes());
                }
                for r in rets {
                    h = fnv(h, &r.to_bits().to_le_bytes());
                }
            }
            let name = if policy == Policy::Random {
                "random"
            } else {
                "greedy"
            };
            println!(
                "digest {name} players={n} actions={on}: {h:016x} json {jh:016x} ({total} actions)"
            );
        }
    }
}

/// (turns/s, ns per decision) of seeded self-play for `seconds`: the same seeds in each of
/// 5 rounds, the best round kept (the machine is shared).
fn time_selfplay(policy: Policy, n: usize, on: bool, seconds: f64) -> (f64, f64) {
    let mut best = (0.0, 0.0);
    let mut games = 0;
    for round in 0..5 {
        let start = Instant::now();
        let (mut turns, mut decisions) = (0u64, 0u64);
        let mut seed = 0;
        while if round == 0 {
            seed == 0 || start.elapsed().as_secs_f64() < seconds / 5.0
        } else {
            seed < games
        } {
            let (t, d, _, _) = play(n, on, seed, policy, None, None);
            turns += t;
            decisions += d;
            seed += 1;
        }
        games = seed;
        let s = start.elapsed().as_secs_f64();
        if turns as f64 / s > best.0 {
            best = (turns as f64 / s, s * 1e9 / decisions as f64);
        }
    }
    best
}

/// ns per item of `f` over `items`, the best of 7 rounds of `reps` passes (the machine is
/// shared: the best round is the least disturbed).
fn per_item<T>(items: &[T], reps: usize, mut f: impl FnMut(&T)) -> f64 {
    let mut best = f64::INFINITY;
    for _ in 0..7 {
        let start = Instant::now();
        for _ in 0..reps {
            for x in items {
                f(x);
            }
        }
        best = best.min(start.elapsed().as_secs_f64() * 1e9 / (reps * items.len()) as f64);
    }
    best
}

fn parts(policy: Policy, n: usize, on: bool) {
    let mut visited = Vec::new();
    for seed in 0..if policy == Policy::Random { 20 } else { 4 } {
        play(n, on, 1000 + seed, policy, Some(&mut visited), None);
    }
    // a sample small enough to stay in the cache (the bulk loops would time memory)
    let step = visited.len().div_ceil(300);
    let visited: Vec<_> = visited.into_iter().step_by(step).collect();
    let mut legal = Vec::new();
    let legal_ns = per_item(&visited, 50, |(s, _)| {
        s.legal_actions_into(&mut legal);
        black_box(&legal);
    });
    for kind in 0..3u8 {
        let some: Vec<_> = visited
            .iter()
            .filter(|(s, _)| s.pending == kind)
            .cloned()
            .collect();
        if !some.is_empty() {
            let ns = per_item(&some, 50, |(s, _)| {
                s.legal_actions_into(&mut legal);
                black_box(&legal);
            });
            print!("[pending {kind}: {} states, legal {ns:.0} ns] ", some.len());
        }
    }
    println!();
    let mut rng = PyRandom::new(5);
    let picks: Vec<(State, Action)> = visited
        .iter()
        .map(|(s, l)| (s.clone(), l[rng.below(l.len())]))
        .collect();
    let clone_ns = per_item(&picks, 50, |(s, _)| {
        black_box(s.clone());
    });
    let apply_ns = per_item(&picks, 50, |(s, a)| {
        let mut c = s.clone();
        c.apply(*a).expect("legal");
        black_box(&c);
    }) - clone_ns;
    let greedy_ns = per_item(&visited, 5, |(s, l)| {
        black_box(greedy(s, l, &mut rng));
    });
    let mean_legal =
        visited.iter().map(|(_, l)| l.len()).sum::<usize>() as f64 / visited.len() as f64;
    println!(
        "    parts on {} states (mean {mean_legal:.0} legal): legal_actions {legal_ns:.0} ns, apply {apply_ns:.0} ns, greedy {greedy_ns:.0} ns, clone {clone_ns:.1} ns",
        visited.len()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--digest") {
        digest();
        return;
    }
    if args.iter().any(|a| a == "--legal") {
        // legal_actions alone on the decision states of random games (in the cache)
        let mut visited = Vec::new();
        for seed in 0..12 {
            let (n, on) = CONFIGS[seed % 6];
            play(
                n,
                on,
                1000 + seed as i128,
                Policy::Random,
                Some(&mut visited),
                None,
            );
        }
        let step = visited.len().div_ceil(400);
        let visited: Vec<_> = visited.into_iter().step_by(step).collect();
        let reps = args.iter().find_map(|a| a.parse().ok()).unwrap_or(200);
        let mut legal = Vec::new();
        for _ in 0..3 {
            let ns = per_item(&visited, reps, |(s, _)| {
                s.legal_actions_into(&mut legal);
                black_box(&legal);
            });
            println!("legal_actions {ns:.1} ns over {} states", visited.len());
        }
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--fixed") {
        // a fixed workload for `perf stat -e instructions:u` (load-independent counts)
        let policy = if args.get(i + 1).map(String::as_str) == Some("greedy") {
            Policy::Greedy
        } else {
            Policy::Random
        };
        let games = if policy == Policy::Random { 100 } else { 50 };
        let mut turns = 0;
        for &(n, on) in &CONFIGS {
            for seed in 0..games {
                turns += play(n, on, seed, policy, None, None).0;
            }
        }
        println!("{turns} turns");
        return;
    }
    let seconds: f64 = args.iter().find_map(|a| a.parse().ok()).unwrap_or(1.0);
    let only = |p: &str| args.iter().any(|a| a == p);
    let policies: Vec<Policy> = if only("random") {
        vec![Policy::Random]
    } else if only("greedy") {
        vec![Policy::Greedy]
    } else {
        vec![Policy::Random, Policy::Greedy]
    };
    for policy in policies {
        let name = if policy == Policy::Random {
            "random"
        } else {
            "greedy"
        };
        for &(n, on) in &CONFIGS {
            let (tps, ns) = time_selfplay(policy, n, on, seconds);
            println!(
                "{name} players={n} actions={on}: {tps:>10.0} turns/s, {ns:>7.0} ns per decision"
            );
            parts(policy, n, on);
        }
    }
}
