//! Speed probe of the native engine: seeded self-play (random and greedy) over every preset
//! and player count, in turns/s and ns per decision, with a split of where a decision's time
//! goes, and the cost of a `clone()`.
//!
//! `cargo run --release -p pyramids-flaming --example flaming-speed [seconds per figure]`

use std::hint::black_box;
use std::time::Instant;

use pyramids_core::{sample_chance, Action, GameState, PyRandom, CHANCE};
use pyramids_flaming::policy::greedy;
use pyramids_flaming::{Options, State};

const PLACE_BASE: Action = 8;
const CHECK_OK: Action = 1 << 40;

const PRESETS: [&str; 3] = ["basic", "family", "standard"];

fn options(preset: &str) -> String {
    let (curse, fire) = match preset {
        "basic" => (false, false),
        "family" => (false, true),
        _ => (true, false),
    };
    format!(
        r#"{{"preset": "{preset}", "curse": {curse}, "fire_die": {fire}, "max_turns": 1000, "first_player": 0}}"#
    )
}

/// One game: (turns, decisions).
/// One game as the batch self-play plays it (`flaming_self_play_batch`): (turns, decisions).
fn play(players: usize, opts: Options, seed: i128, greedy_bot: bool) -> (u64, u64) {
    let mut rng = PyRandom::new(seed);
    let mut state = State::new_game_with(players, opts, &mut rng.clone()).expect("a game");
    state.set_record_events(false);
    let mut chance: Option<PyRandom> = None;
    let (mut legal, mut outcomes) = (Vec::new(), Vec::new());
    let (mut turns, mut decisions) = (0, 0);
    while !state.is_terminal() {
        let a = if state.current_player() == CHANCE {
            state.chance_outcomes_into(&mut outcomes);
            let chance = chance.get_or_insert_with(|| PyRandom::new(seed + (1 << 32)));
            sample_chance(&outcomes, chance)
        } else {
            state.legal_actions_into(&mut legal);
            let a = if greedy_bot {
                greedy(&state, &legal, &mut rng)
            } else {
                legal[rng.below(legal.len())]
            };
            decisions += 1;
            if (PLACE_BASE..CHECK_OK).contains(&a) {
                turns += 1;
            }
            a
        };
        state.apply(a).expect("legal");
    }
    (turns, decisions)
}

/// Mid-game states of seeded random games (for the split timings).
fn sample_states(n: usize) -> Vec<State> {
    let mut out = Vec::new();
    let mut seed = 0i128;
    while out.len() < n {
        for preset in PRESETS {
            for players in 2..=6 {
                let opts = options(preset);
                let mut state = State::new_game(players, &opts, seed).expect("a game");
                state.set_record_events(false);
                let mut rng = PyRandom::new(seed);
                let mut legal = Vec::new();
                let mut outcomes = Vec::new();
                let stop = 10 + (seed as usize % 20);
                let mut turns = 0;
                while !state.is_terminal() {
                    if state.current_player() == CHANCE {
                        state.chance_outcomes_into(&mut outcomes);
                        let a = sample_chance(&outcomes, &mut rng);
                        state.apply(a).expect("legal");
                        continue;
                    }
                    state.legal_actions_into(&mut legal);
                    if turns >= stop && (PLACE_BASE..CHECK_OK).contains(&legal[0]) {
                        out.push(state.clone());
                        break;
                    }
                    let a = legal[rng.below(legal.len())];
                    if (PLACE_BASE..CHECK_OK).contains(&a) {
                        turns += 1;
                    }
                    state.apply(a).expect("legal");
                }
                seed += 1;
            }
        }
    }
    out
}

fn time_per<F: FnMut() -> u64>(seconds: f64, mut f: F) -> f64 {
    let start = Instant::now();
    let mut n = 0u64;
    loop {
        for _ in 0..64 {
            n += f();
        }
        let el = start.elapsed().as_secs_f64();
        if el >= seconds {
            return el * 1e9 / n as f64;
        }
    }
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1.0);
    let only = std::env::args().nth(2).unwrap_or_default();
    // a fixed number of games per configuration (for instruction counts), else timed
    let games: i128 = std::env::args()
        .nth(3)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    for greedy_bot in [false, true] {
        if (only == "random" && greedy_bot) || (only == "greedy" && !greedy_bot) {
            continue;
        }
        let label = if greedy_bot { "greedy" } else { "random" };
        let (mut all_t, mut all_d, mut all_s) = (0u64, 0u64, 0.0f64);
        for preset in PRESETS {
            let value = serde_json::from_str(&options(preset)).expect("json");
            let opts = Options::from_json(&value).expect("options");
            let mut line = format!("{label:6} {preset:8}");
            for players in 2..=6 {
                let start = Instant::now();
                let (mut t, mut d, mut seed) = (0u64, 0u64, 0i128);
                while if games > 0 {
                    seed < games
                } else {
                    start.elapsed().as_secs_f64() < seconds / 15.0
                } {
                    let (gt, gd) = play(players, opts, seed, greedy_bot);
                    t += gt;
                    d += gd;
                    seed += 1;
                }
                let s = start.elapsed().as_secs_f64();
                all_t += t;
                all_d += d;
                all_s += s;
                line += &format!("  {players}p {:5.2}M", t as f64 / s / 1e6);
            }
            println!("{line}  (turns/s)");
        }
        println!(
            "{label:6} all       {:.3}M turns/s, {:.0} ns/decision, {:.0} ns/turn",
            all_t as f64 / all_s / 1e6,
            all_s * 1e9 / all_d as f64,
            all_s * 1e9 / all_t as f64
        );
    }
    if games > 0 {
        return; // a fixed workload (for instruction counts): no timed split
    }
    // split of one decision's work on mid-game placement states
    let states = sample_states(120);
    let mut legal = Vec::new();
    let mut i = 0usize;
    let legal_ns = time_per(seconds / 4.0, || {
        i = (i + 1) % states.len();
        black_box(&states[i]).legal_actions_into(&mut legal);
        black_box(&legal);
        1
    });
    let clone_ns = time_per(seconds / 4.0, || {
        i = (i + 1) % states.len();
        let c = black_box(&states[i]).clone();
        black_box(&c);
        1
    });
    let lists: Vec<Vec<Action>> = states.iter().map(|s| s.legal_actions()).collect();
    let mut rng = PyRandom::new(7);
    let apply_ns = time_per(seconds / 4.0, || {
        i = (i + 1) % states.len();
        let mut c = black_box(&states[i]).clone();
        let l = &lists[i];
        c.apply(l[rng.below(l.len())]).expect("legal");
        black_box(&c);
        1
    }) - clone_ns;
    let greedy_ns = time_per(seconds / 4.0, || {
        i = (i + 1) % states.len();
        black_box(greedy(&states[i], &lists[i], &mut rng));
        1
    });
    let n_legal: usize = lists.iter().map(|l| l.len()).sum();
    println!(
        "split (placement states, {:.1} actions avg): legal {legal_ns:.0} ns, apply {apply_ns:.0} ns, greedy {greedy_ns:.0} ns, clone {clone_ns:.1} ns (size {} B)",
        n_legal as f64 / lists.len() as f64,
        std::mem::size_of::<State>()
    );
}
