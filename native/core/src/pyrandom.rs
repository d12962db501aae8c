//! A mirror of CPython's `random.Random` (Mersenne Twister MT19937, `_randommodule.c` and
//! `random.py` of Python 3.11): same seeding from an int, same `getrandbits`, `random()`,
//! `randrange(n)` (`_randbelow` by rejection), `shuffle`, and the same state as
//! `getstate()`/`setstate()`.
//!
//! Why hand-written: the native engines must deal exactly as `random.Random(seed).shuffle`
//! does (a game record is (options, seed, actions)), and the native search continues the
//! caller's own generator (its state in, its state back), so every draw must be the very
//! draw Python would make. MT19937 crates generate the same words but neither CPython's
//! int seeding nor its state index, which this needs; the whole mirror is ~100 lines and is
//! checked against values printed by CPython (tests below, and tests/native/).

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// CPython's `random.Random`, draw for draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PyRandom {
    mt: [u32; N],
    index: usize,
}

impl PyRandom {
    /// `random.Random(seed)` for an int seed (negative seeds use their absolute value).
    pub fn new(seed: i128) -> Self {
        let mut n = seed.unsigned_abs();
        let mut key = Vec::new();
        while n > 0 {
            key.push(n as u32);
            n >>= 32;
        }
        if key.is_empty() {
            key.push(0);
        }
        Self::from_key(&key)
    }

    /// `init_by_array(key)`: the seeding CPython uses for ints (32-bit words, low first).
    pub fn from_key(key: &[u32]) -> Self {
        static BASE: std::sync::OnceLock<[u32; N]> = std::sync::OnceLock::new();
        let mut mt = *BASE.get_or_init(|| Self::from_u32(19_650_218).mt);
        let (mut i, mut j) = (1usize, 0usize);
        // the previous word is carried in a register (not re-read: a store-to-load
        // forward on the serial chain)
        let mut last = mt[0];
        for _ in 0..N.max(key.len()) {
            last = (mt[i] ^ (last ^ (last >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            mt[i] = last;
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            last =
                (mt[i] ^ (last ^ (last >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            mt[i] = last;
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        PyRandom { mt, index: N }
    }

    fn from_u32(s: u32) -> Self {
        let mut mt = [0u32; N];
        mt[0] = s;
        let mut last = s;
        for (i, w) in mt.iter_mut().enumerate().skip(1) {
            last = 1_812_433_253u32
                .wrapping_mul(last ^ (last >> 30))
                .wrapping_add(i as u32);
            *w = last;
        }
        PyRandom { mt, index: N }
    }

    /// From `getstate()[1]`: 624 words and the index (625 numbers); None when malformed.
    pub fn from_state(state: &[u32]) -> Option<Self> {
        if state.len() != N + 1 || state[N] as usize > N {
            return None;
        }
        let mut mt = [0u32; N];
        mt.copy_from_slice(&state[..N]);
        Some(PyRandom {
            mt,
            index: state[N] as usize,
        })
    }

    /// What `getstate()[1]` would hold: 624 words and the index.
    pub fn state(&self) -> Vec<u32> {
        let mut out = self.mt.to_vec();
        out.push(self.index as u32);
        out
    }

    fn regenerate(&mut self) {
        let mt = &mut self.mt;
        let mag = |y: u32| if y & 1 == 1 { MATRIX_A } else { 0 };
        for kk in 0..N - M {
            let y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
            mt[kk] = mt[kk + M] ^ (y >> 1) ^ mag(y);
        }
        for kk in N - M..N - 1 {
            let y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
            mt[kk] = mt[kk + M - N] ^ (y >> 1) ^ mag(y);
        }
        let y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
        mt[N - 1] = mt[M - 1] ^ (y >> 1) ^ mag(y);
        self.index = 0;
    }

    /// `genrand_uint32`: the next 32-bit word.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.regenerate();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for 0 <= k <= 64 (words low first, as CPython fills them).
    #[inline]
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        match k {
            0 => 0,
            1..=32 => u64::from(self.next_u32() >> (32 - k)),
            33..=64 => {
                let low = u64::from(self.next_u32());
                let high = u64::from(self.next_u32() >> (64 - k));
                low | (high << 32)
            }
            _ => panic!("getrandbits is mirrored up to 64 bits, not {k}"),
        }
    }

    /// `random()`: a float in [0, 1) from 53 random bits.
    #[inline]
    pub fn random(&mut self) -> f64 {
        let a = f64::from(self.next_u32() >> 5);
        let b = f64::from(self.next_u32() >> 6);
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `_randbelow(n)` (`randrange(n)`, `choice`, `shuffle`): an int in [0, n), by rejection.
    /// `n` must be at least 1.
    #[inline]
    pub fn randbelow(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0, "randbelow(0)");
        let k = 64 - n.leading_zeros();
        let mut r = self.getrandbits(k);
        while r >= n {
            r = self.getrandbits(k);
        }
        r
    }

    /// `randrange(n)` as a usize index (for `seq[rng.randrange(len(seq))]`).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        self.randbelow(n as u64) as usize
    }

    /// `shuffle(x)`: Fisher-Yates from the end, exactly as `random.py`.
    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        for i in (1..x.len()).rev() {
            let j = self.below(i + 1);
            x.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Each expected value was printed by CPython 3.11's random module.

    #[test]
    fn seed_zero_words_match_cpython() {
        let mut r = PyRandom::new(0);
        let words: Vec<u64> = (0..3).map(|_| r.getrandbits(32)).collect();
        assert_eq!(words, vec![3_626_764_237, 1_654_615_998, 3_255_389_356]);
    }

    #[test]
    fn big_seed_randrange_and_random_match_cpython() {
        let mut r = PyRandom::new(12_345_678_901_234_567_890);
        let draws: Vec<u64> = (0..8).map(|_| r.randbelow(10)).collect();
        assert_eq!(draws, vec![8, 8, 7, 5, 5, 8, 3, 9]);
        assert_eq!(r.random(), 0.476_852_024_821_174_84);
    }

    #[test]
    fn shuffle_matches_cpython() {
        let mut r = PyRandom::new(7);
        let mut x: Vec<u32> = (0..20).collect();
        r.shuffle(&mut x);
        assert_eq!(
            x,
            vec![17, 15, 11, 18, 7, 6, 19, 3, 14, 0, 9, 5, 16, 8, 13, 2, 1, 12, 4, 10]
        );
    }

    #[test]
    fn state_matches_cpython_getstate() {
        let mut r = PyRandom::new(7);
        r.random();
        let s = r.state();
        assert_eq!((s[624], s[0], s[1]), (2, 2_209_797_851, 1_310_782_419));
        let mut back = PyRandom::from_state(&s).unwrap();
        assert_eq!(back.next_u32(), r.next_u32());
    }

    #[test]
    fn negative_seeds_use_their_absolute_value() {
        let mut r = PyRandom::new(-5);
        assert_eq!(r.randbelow(1000), 637);
    }

    #[test]
    fn malformed_states_are_refused() {
        assert!(PyRandom::from_state(&[0; 10]).is_none());
        let mut s = PyRandom::new(1).state();
        s[624] = 625;
        assert!(PyRandom::from_state(&s).is_none());
    }
}
