//! Properties of `PyRandom` over arbitrary seeds (proptest); the exact CPython values are
//! the unit tests in `src/pyrandom.rs`.

use proptest::prelude::*;
use pyramids_core::PyRandom;

proptest! {
    #[test]
    fn randbelow_stays_below_its_bound(seed in any::<i64>(), n in 1u64..u64::MAX) {
        let mut r = PyRandom::new(i128::from(seed));
        for _ in 0..8 {
            prop_assert!(r.randbelow(n) < n);
        }
    }

    #[test]
    fn random_is_in_the_unit_interval(seed in any::<i64>()) {
        let mut r = PyRandom::new(i128::from(seed));
        for _ in 0..8 {
            let x = r.random();
            prop_assert!((0.0..1.0).contains(&x));
        }
    }

    #[test]
    fn shuffle_is_a_permutation(seed in any::<i64>(), len in 0usize..64) {
        let mut r = PyRandom::new(i128::from(seed));
        let mut x: Vec<usize> = (0..len).collect();
        r.shuffle(&mut x);
        x.sort_unstable();
        prop_assert_eq!(x, (0..len).collect::<Vec<_>>());
    }

    #[test]
    fn a_saved_state_continues_draw_for_draw(seed in any::<i64>(), skip in 0usize..1500) {
        let mut r = PyRandom::new(i128::from(seed));
        for _ in 0..skip {
            r.next_u32();
        }
        let mut back = PyRandom::from_state(&r.state()).expect("a state it wrote itself");
        for _ in 0..700 {
            prop_assert_eq!(back.next_u32(), r.next_u32());
        }
    }
}
