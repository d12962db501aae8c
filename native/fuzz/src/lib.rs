//! Shared parts of the fuzz targets: a structured JSON value for `arbitrary`, and the
//! round-trip check every target makes on what parses.

use arbitrary::{Arbitrary, Unstructured};
use serde_json::{Map, Number, Value};

/// Depth beyond which a generated JSON value is a leaf (keeps inputs small and fast).
const MAX_DEPTH: usize = 6;

/// Object keys the generator favours: the position JSON's own (both games), so that the
/// fuzzer reaches past "missing key" quickly; any other string too.
const KEYS: &[&str] = &[
    "rules",
    "players",
    "to_move",
    "turn",
    "pyramid",
    "hands",
    "piles",
    "out",
    "pending",
    "preset",
    "curse",
    "fire_die",
    "max_turns",
    "first_player",
    "callout",
    "phase",
    "seed",
    "towers",
    "bank",
    "cards",
    "goals",
    "scores",
    "flags",
    "actions",
    "deck",
    "history",
    "captured",
    "stage",
    "check",
    "overlooked",
    "mayhem",
    "die",
    "winner",
    "ranking",
];

/// A JSON value drawn from fuzz input, leaning towards the shapes positions have.
pub fn json_value(u: &mut Unstructured<'_>, depth: usize) -> arbitrary::Result<Value> {
    let leaf = depth >= MAX_DEPTH;
    let kind = u.int_in_range(0..=if leaf { 4 } else { 6 })?;
    Ok(match kind {
        0 => Value::Null,
        1 => Value::Bool(bool::arbitrary(u)?),
        2 => Value::Number(Number::from(i64::arbitrary(u)? % 1000)),
        3 => match Number::from_f64(f64::arbitrary(u)?) {
            Some(n) => Value::Number(n),
            None => Value::Number(Number::from(u64::arbitrary(u)?)),
        },
        4 => Value::String(short_string(u)?),
        5 => {
            let n = u.int_in_range(0..=8)?;
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                items.push(json_value(u, depth + 1)?);
            }
            Value::Array(items)
        }
        _ => {
            let n = u.int_in_range(0..=10)?;
            let mut map = Map::new();
            for _ in 0..n {
                let key = if bool::arbitrary(u)? {
                    (*u.choose(KEYS)?).to_string()
                } else {
                    short_string(u)?
                };
                map.insert(key, json_value(u, depth + 1)?);
            }
            Value::Object(map)
        }
    })
}

/// A short string, often a tile / piece / action spelling (`R40@1,1`, `G2`, `W1>R2`).
fn short_string(u: &mut Unstructured<'_>) -> arbitrary::Result<String> {
    const PIECES: &[&str] = &[
        "R40",
        "G20@0,0",
        "Y120",
        "B100@2,2",
        "W1",
        "K3",
        "O2",
        "left",
        "right",
        "die:6",
        "W1>R2",
        "take:O2",
        "standard",
        "family",
        "basic",
        "off",
        "competitive",
    ];
    if bool::arbitrary(u)? {
        return Ok((*u.choose(PIECES)?).to_string());
    }
    let len = u.int_in_range(0..=12)?;
    let mut text = String::with_capacity(len);
    for _ in 0..len {
        text.push(char::arbitrary(u)?);
    }
    Ok(text)
}

/// The round trip of a parsed position: printing it and parsing the print gives the same
/// print (the parser and the printer agree on everything that parses).
pub fn round_trip<S>(
    parse: impl Fn(&str) -> Result<S, String>,
    print: impl Fn(&S) -> String,
    text: &str,
) {
    if let Ok(state) = parse(text) {
        let printed = print(&state);
        let again = match parse(&printed) {
            Ok(again) => again,
            Err(err) => panic!("the printed position does not parse: {err}\n{printed}"),
        };
        assert_eq!(
            printed,
            print(&again),
            "the position does not print the same twice"
        );
    }
}
