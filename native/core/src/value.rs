//! The learned evaluation's value (`pyramids.games.value`): per seat
//! `p = sigmoid(w·f + b)` of the seat's features, the values normalised to add up to 1.
//!
//! Each game computes its features (`features.rs` of the game crate, the mirror of
//! `pyramids.games.<game>.features`); this is the part both games share. The float
//! operations are Python's, in Python's order, so the values are bit-equal.

/// The weights of a learned value: one per feature, and the bias.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueWeights {
    /// One weight per feature, in the features' order.
    pub weights: Vec<f64>,
    /// The bias `b`.
    pub bias: f64,
}

/// `z` is clamped to this size before the sigmoid (Python's `math.exp` would overflow).
pub const Z_LIMIT: f64 = 50.0;

impl ValueWeights {
    /// `sigmoid(b + w·f)`, the sum from `b` left to right (`value.seat_value`).
    pub fn seat_value(&self, features: &[f64]) -> f64 {
        let mut z = self.bias;
        for (w, f) in self.weights.iter().zip(features) {
            z += w * f;
        }
        let z = z.clamp(-Z_LIMIT, Z_LIMIT);
        1.0 / (1.0 + (-z).exp())
    }
}

/// Normalise the seat values in `out` to add up to 1 (`value.normalise`): the sum left to
/// right from 0, each divided by it (equal shares when it is 0).
pub fn normalise(out: &mut [f64]) {
    let mut total = 0.0;
    for &p in out.iter() {
        total += p;
    }
    if total > 0.0 {
        for p in out.iter_mut() {
            *p /= total;
        }
    } else {
        let share = 1.0 / out.len() as f64;
        out.fill(share);
    }
}
