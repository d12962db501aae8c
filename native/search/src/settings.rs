//! What one search may spend and how it plays out positions: the mirror of
//! `pyramids.bots.ismcts.SearchSettings` (same defaults, same checks, same messages).

/// In a `mixed` rollout, the chance that a move is the policy's (else uniformly random).
pub const MIXED_GREEDY_SHARE: f64 = 0.8;
/// UCB1 exploration constant `c` for rewards in [0, 1].
pub const EXPLORATION: f64 = 0.7;
/// Most actions in one rollout.
pub const ROLLOUT_CAP: usize = 200;
/// Progressive widening constant of guided search.
pub const WIDENING: f64 = 1.0;
/// Progressive bias weight of guided search.
pub const BIAS: f64 = 10.0;
/// Iterations when no budget is given (the `normal` level).
pub const DEFAULT_ITERATIONS: u64 = 1000;

/// How a rollout chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// Uniformly random legal actions.
    Random,
    /// The game's default policy (the greedy bot) for every move.
    Greedy,
    /// The policy with chance [`MIXED_GREEDY_SHARE`], else a random move.
    Mixed,
}

impl Rollout {
    /// The rollout named as in Python (`random`, `greedy`, `mixed`).
    pub fn parse(name: &str) -> Result<Rollout, String> {
        match name {
            "random" => Ok(Rollout::Random),
            "greedy" => Ok(Rollout::Greedy),
            "mixed" => Ok(Rollout::Mixed),
            _ => Err(format!(
                "unknown rollout '{name}' (choose random, greedy, mixed)"
            )),
        }
    }

    /// The share of rollout moves the policy makes (Python's `_rollout_policy`).
    pub fn share(self) -> f64 {
        match self {
            Rollout::Random => 0.0,
            Rollout::Greedy => 1.0,
            Rollout::Mixed => MIXED_GREEDY_SHARE,
        }
    }
}

/// Which evaluation scores a cut rollout (Python's `SearchSettings.evaluation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The game's hand-made evaluation (its descriptor's `evaluation`).
    Handmade,
    /// The learned evaluation (its descriptor's `learned_evaluation`): the game's search
    /// part carries the weights (`value_weights` of the Python settings).
    Learned,
}

impl Evaluation {
    /// The evaluation named as in Python (`handmade`, `learned`).
    pub fn parse(name: &str) -> Result<Evaluation, String> {
        match name {
            "handmade" => Ok(Evaluation::Handmade),
            "learned" => Ok(Evaluation::Learned),
            _ => Err(format!(
                "unknown evaluation '{name}' (choose handmade, learned)"
            )),
        }
    }
}

/// The search's settings (Python's `SearchSettings` without `overlook`, which only the
/// bot's root answer uses, plus `threads` for the root-parallel search).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Iterations budget (None: time only).
    pub iterations: Option<u64>,
    /// Seconds budget (None: iterations only); the first budget to run out stops.
    pub seconds: Option<f64>,
    /// Rollout policy.
    pub rollout: Rollout,
    /// UCB1 exploration constant.
    pub exploration: f64,
    /// Most actions in one rollout.
    pub rollout_cap: usize,
    /// Expand the policy's favourite untried action first, widening progressively.
    pub guided: bool,
    /// With `guided`: a node visited n times may have `ceil(widening * sqrt(n))` children.
    pub widening: f64,
    /// With `guided`: the progressive bias weight.
    pub bias: f64,
    /// The evaluation that scores cut rollouts (a rollout cut at `rollout_cap` is always
    /// scored by an evaluation, never `1/players`).
    pub evaluation: Evaluation,
    /// Key other seats' decisions and chance outcomes by what the searching seat observes
    /// ([`pyramids_core::SearchGame::observation`]).
    pub observe: bool,
    /// Root-parallel trees (1: the search identical to Python's; see [`crate::run_search_parallel`]).
    pub threads: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            iterations: Some(DEFAULT_ITERATIONS),
            seconds: None,
            rollout: Rollout::Random,
            exploration: EXPLORATION,
            rollout_cap: ROLLOUT_CAP,
            guided: false,
            widening: WIDENING,
            bias: BIAS,
            evaluation: Evaluation::Handmade,
            observe: false,
            threads: 1,
        }
    }
}

impl Settings {
    /// The checks of Python's `SearchSettings.__post_init__` (same messages), and threads.
    pub fn check(&self) -> Result<(), String> {
        if self.iterations.is_none() && self.seconds.is_none() {
            return Err("a search needs a budget: iterations or seconds".into());
        }
        if self.iterations == Some(0) {
            return Err("iterations must be at least 1, not 0".into());
        }
        if let Some(s) = self.seconds {
            if s.is_nan() || s <= 0.0 {
                return Err(format!("seconds must be positive, not {s}"));
            }
        }
        if self.widening.is_nan() || self.widening < 0.0 {
            return Err(format!(
                "widening must be at least 0, not {}",
                self.widening
            ));
        }
        if self.bias.is_nan() || self.bias < 0.0 {
            return Err(format!("bias must be at least 0, not {}", self.bias));
        }
        if !self.exploration.is_finite() {
            return Err(format!(
                "exploration must be a finite number, not {}",
                self.exploration
            ));
        }
        if self.threads < 1 {
            return Err("threads must be at least 1, not 0".into());
        }
        Ok(())
    }
}
