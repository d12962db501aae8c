//! Arbitrary bytes as a Flaming Pyramids position: never a panic; what parses round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pyramids_flaming::State;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        pyramids_fuzz::round_trip(
            |t| State::from_position_json(t).map_err(|r| r.to_string()),
            State::to_position_json,
            text,
        );
    }
});
