//! Arbitrary JSON (shaped like positions) as a Flaming Pyramids position: never a panic;
//! what parses round-trips.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use pyramids_flaming::State;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok(value) = pyramids_fuzz::json_value(&mut u, 0) {
        let text = value.to_string();
        pyramids_fuzz::round_trip(
            |t| State::from_position_json(t).map_err(|r| r.to_string()),
            State::to_position_json,
            &text,
        );
    }
});
