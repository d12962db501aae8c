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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_weights_value_every_seat_alike() {
        let v = ValueWeights {
            weights: vec![0.0; 3],
            bias: 0.0,
        };
        let mut out = [
            v.seat_value(&[1.0, 2.0, 3.0]),
            v.seat_value(&[4.0, 5.0, 6.0]),
        ];
        assert_eq!(out, [0.5, 0.5]);
        normalise(&mut out);
        assert_eq!(out, [0.5, 0.5]);
    }

    #[test]
    fn a_higher_score_is_worth_more_and_the_values_add_up_to_one() {
        let v = ValueWeights {
            weights: vec![-1.0],
            bias: 0.5,
        };
        // fewer tiles left (a negative weight) is worth more; a huge z does not overflow
        let mut out = [
            v.seat_value(&[0.2]),
            v.seat_value(&[1.2]),
            v.seat_value(&[1e300]),
        ];
        assert!(out[0] > out[1] && out[1] > out[2]);
        normalise(&mut out);
        assert!((out.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
