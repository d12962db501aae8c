//! Arbitrary JSON (shaped like positions) as a Pyramids and Flags position: never a panic;
//! what parses round-trips.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use pyramids_flags::State;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    if let Ok(value) = pyramids_fuzz::json_value(&mut u, 0) {
        let text = value.to_string();
        pyramids_fuzz::round_trip(State::from_position_json, State::to_position_json, &text);
    }
});
