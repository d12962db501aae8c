"""Build the Pyramids and Flags deck (src/pyramids/flags/deck.py) and its browser copy from the CSV.

Usage: ``python scripts/build_flags_deck.py [--csv PATH] [--out PATH] [--json PATH]``
(with no ``--out`` it writes both files; with ``--out`` only the deck, unless ``--json``
says where the browser's copy goes). The CSV is ``shared/data/flags-countries.csv`` (see its README for sources and licences). The
deck is written as a Python module of literals, so the rules package imports its cards and
reads no file, and needs nothing from ``shared/`` at run time. Ratings follow
``pyramids.flags.facts`` (contract section 8).

The browser's copy, ``static/data/flags-cards.json``, holds the same cards plus what only
the page shows: the ISO 3166 alpha-2 code (the flag picture's file name, see
``scripts/fetch_flag_images.sh``) and the French names. French country names come from
pycountry's ISO 3166 translations (needed only here: ``pip install pycountry``); French
capitals and the French names of highest points that are English phrases come from the
hand-checked tables below. The rules package never sees either.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any

from pyramids.flags.facts import FACT_COLOURS, FACT_KEYS, THRESHOLDS, rate

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CSV = ROOT.parent / "shared" / "data" / "flags-countries.csv"
DEFAULT_OUT = ROOT / "src" / "pyramids" / "flags" / "deck.py"
DEFAULT_JSON = ROOT / "src" / "pyramids" / "server" / "static" / "data" / "flags-cards.json"
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

CAPITALS_FR = {
    "ARG": "Buenos Aires",
    "AUT": "Vienne",
    "BEL": "Bruxelles",
    "BRA": "Brasilia",
    "BRB": "Bridgetown",
    "BWA": "Gaborone",
    "CHN": "Pékin",
    "CMR": "Yaoundé",
    "CUB": "La Havane",
    "CZE": "Prague",
    "DEU": "Berlin",
    "DNK": "Copenhague",
    "EGY": "Le Caire",
    "ESP": "Madrid",
    "FIN": "Helsinki",
    "FRA": "Paris",
    "GAB": "Libreville",
    "GHA": "Accra",
    "GRC": "Athènes",
    "HTI": "Port-au-Prince",
    "IRN": "Téhéran",
    "ITA": "Rome",
    "JAM": "Kingston",
    "JPN": "Tokyo",
    "KEN": "Nairobi",
    "KWT": "Koweït",
    "LBY": "Tripoli",
    "LTU": "Vilnius",
    "MAR": "Rabat",
    "NGA": "Abuja",
    "NOR": "Oslo",
    "ROU": "Bucarest",
    "SAU": "Riyad",
    "SWE": "Stockholm",
    "TTO": "Port-d'Espagne",
    "VEN": "Caracas",
}
"""Capitals in French (checked by hand against the French usage of the Quai d'Orsay's list)."""

HIGHEST_POINTS_FR = {
    "BRB": "mont Hillaby",
    "BWA": "colline de Manyelanong",
    "CHN": "mont Everest",
    "CMR": "Fako (mont Cameroun)",
    "EGY": "mont Sainte-Catherine",
    "GRC": "mont Olympe",
    "JAM": "pic Blue Mountain",
    "JPN": "mont Fuji",
    "KEN": "mont Kenya",
    "KWT": "point sans nom à 3,6 km à l'ouest du poste-frontière d'Al-Salmi",
    "SAU": "monts Sarawat",
    "SWE": "Kebnekaise (sommet sud)",
}
"""French names of the highest points whose CSV name is an English phrase; the others are
proper names, the same in both languages."""


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


def country_names_fr(codes: list[str]) -> dict[str, tuple[str, str]]:
    """ISO alpha-3 -> (alpha-2, French short name) from pycountry's ISO 3166 translations."""
    try:
        import gettext

        import pycountry
    except ImportError:
        sys.stderr.write(
            "build_flags_deck: the French names need pycountry (pip install pycountry)\n"
        )
        raise SystemExit(2) from None
    fr = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=["fr"])
    out = {}
    for code in codes:
        country = pycountry.countries.get(alpha_3=code)
        if country is None:
            raise ValueError(f"{code}: not an ISO 3166 alpha-3 code")
        # the common name ("Iran") when ISO has one, else the short name ("Tchéquie")
        name = getattr(country, "common_name", None) or country.name
        out[code] = (country.alpha_2.lower(), fr.gettext(name))
    return out


def browser_doc(doc: dict[str, Any]) -> dict[str, Any]:
    """The browser's copy of the deck: every card with its alpha-2 code and French names."""
    codes = [c["code"] for c in doc["cards"]]
    missing = sorted(set(codes) - set(CAPITALS_FR))
    if missing:
        raise ValueError(f"no French capital for {', '.join(missing)}")
    names = country_names_fr(codes)
    cards = []
    for card in doc["cards"]:
        iso2, country_fr = names[card["code"]]
        facts = {c: dict(f) for c, f in card["facts"].items()}
        facts["O"]["name_fr"] = HIGHEST_POINTS_FR.get(card["code"], facts["O"]["name"])
        cards.append(
            {
                "code": card["code"],
                "iso2": iso2,
                "country": card["country"],
                "country_fr": country_fr,
                "capital": card["capital"],
                "capital_fr": CAPITALS_FR[card["code"]],
                "groups": card["groups"],
                "tower": card["tower"],
                "pieces": card["pieces"],
                "facts": facts,
            }
        )
    return {
        "about": (
            "Goal cards of Pyramids and Flags for the browser, built with pyramids/flags/deck.py "
            "by scripts/build_flags_deck.py: code, ISO alpha-2 code (the flag picture "
            "static/data/flags/<iso2>.svg), names in English and French, groups, flag tower "
            "bottom to top, scoring pieces and facts; thresholds: the rating table of "
            "pyramids.flags.facts (small below the first, large from the second); tests/browser "
            "checks that it matches."
        ),
        "thresholds": {c: list(THRESHOLDS[c]) for c in FACT_COLOURS},
        "cards": cards,
    }


def json_text(doc: dict[str, Any]) -> str:
    """The browser copy as JSON, one card a line (readable diffs)."""
    cards = ",\n".join(
        json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in doc["cards"]
    )
    about = json.dumps(doc["about"], ensure_ascii=False)
    limits = json.dumps(doc["thresholds"], separators=(",", ":"))
    return f'{{"about":{about},\n"thresholds":{limits},\n"cards":[\n{cards}\n]}}\n'


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
    parser.add_argument(
        "--json",
        type=Path,
        default=None,
        help="the browser's copy (default: static/data/flags-cards.json, unless --out is given)",
    )
    args = parser.parse_args(argv)
    # a deck written elsewhere (a test's check) leaves the page's copy alone unless asked
    json_path = args.json or (DEFAULT_JSON if args.out == DEFAULT_OUT else None)
    doc = build(args.csv)
    browser = browser_doc(doc) if json_path else None
    args.out.write_text(module_text(doc), encoding="utf-8")
    wrote = str(args.out)
    if json_path and browser:
        json_path.write_text(json_text(browser), encoding="utf-8")
        wrote += f" and {json_path}"
    sys.stdout.write(f"wrote {len(doc['cards'])} cards to {wrote}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
