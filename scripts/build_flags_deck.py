"""Build the Pyramids and Flags deck (src/pyramids/flags/deck.py) from the CSV.

Usage: ``python scripts/build_flags_deck.py [--csv PATH] [--out PATH]``. The CSV is
``shared/data/flags-countries.csv`` (see its README for sources and licences). The deck
is written as a Python module of literals, so the rules package imports its cards and
reads no file, and needs nothing from ``shared/`` at run time. Ratings follow
``pyramids.flags.facts`` (contract section 8).
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path
from typing import Any

from pyramids.flags.facts import FACT_COLOURS, FACT_KEYS, rate

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CSV = ROOT.parent / "shared" / "data" / "flags-countries.csv"
DEFAULT_OUT = ROOT / "src" / "pyramids" / "flags" / "deck.py"
COLOUR_LETTERS = {
    "black": "K",
    "white": "W",
    "yellow": "Y",
    "blue": "B",
    "green": "G",
    "red": "R",
}
SIZE_NUMBERS = {"S": 1, "M": 2, "L": 3}
GROUPS = ("EU", "Africa", "Caribbean", "Oil")


def parse_tower(text: str) -> list[str]:
    """``"L-blue M-red S-white"`` -> ``["B3", "R2", "W1"]`` (bottom to top)."""
    out = []
    for part in text.split():
        size, _, colour = part.partition("-")
        out.append(f"{COLOUR_LETTERS[colour]}{SIZE_NUMBERS[size]}")
    return out


def number(text: str) -> int | float:
    """A CSV number as an int when it has no fraction, else a float."""
    value = float(text)
    return int(value) if value.is_integer() and "." not in text else value


def card_from_row(row: dict[str, str]) -> dict[str, Any]:
    """One card of the deck from one CSV row."""
    groups = [g for g in row["groups"].split(";") if g]
    for g in groups:
        if g not in GROUPS:
            raise ValueError(f"{row['iso3']}: unknown group {g!r}")
    values = {c: number(row[FACT_KEYS[c]]) for c in FACT_COLOURS}
    facts: dict[str, Any] = {
        "O": {"name": row["highest_point"], "value": values["O"], "unit": "m"},
        "P": {"value": values["P"], "unit": "million"},
        "C": {"value": values["C"], "unit": "°C"},
        "X": {
            "value": values["X"],
            "unit": "USD (PPP, 2021 dollars)",
            "year": int(row["gdp_year"]),
        },
    }
    for c in FACT_COLOURS:
        facts[c]["size"] = rate(c, float(values[c]))
    return {
        "code": row["iso3"],
        "country": row["country"],
        "capital": row["capital"],
        "groups": groups,
        "tower": parse_tower(row["tower_bottom_to_top"]),
        "facts": facts,
        "pieces": [f"{c}{facts[c]['size']}" for c in FACT_COLOURS],
    }


def build(csv_path: Path) -> dict[str, Any]:
    """The deck (its provenance and its cards) from the CSV at ``csv_path``."""
    with csv_path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    cards = sorted((card_from_row(r) for r in rows), key=lambda c: c["code"])
    return {
        "about": (
            "The 36 goal cards of Pyramids and Flags (PF-CARD-1), built by "
            "scripts/build_flags_deck.py from shared/data/flags-countries.csv; sources and "
            "licences in data/README.md beside this module."
        ),
        "cards": cards,
    }


def module_text(doc: dict[str, Any]) -> str:
    """The deck module's source: the provenance and one card literal per line."""
    cards = "".join(f"    {card!r},\n" for card in doc["cards"])
    return (
        f'"""{doc["about"]}\n\nGenerated: do not edit by hand. Read through ``pyramids.flags.cards``.\n"""\n\n'
        "from typing import Any\n\n"
        "# fmt: off\n"
        f"CARD_DATA: tuple[dict[str, Any], ...] = (\n{cards})\n"
        "# fmt: on\n"
    )


def main(argv: list[str] | None = None) -> int:
    """Write the deck module; print a one-line summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--csv", type=Path, default=DEFAULT_CSV)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    doc = build(args.csv)
    args.out.write_text(module_text(doc), encoding="utf-8")
    sys.stdout.write(f"wrote {len(doc['cards'])} cards to {args.out}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
