"""What happened and why: raw events of a Pyramids and Flags turn as English and French text.

The rules record events as cheap tuples; ``describe`` explains one, e.g. "the tower
B3 R2 W1 shows the flag of CZE (Czech Republic): seat 1 scores it". With
``masked=True`` cards hidden from the viewer appear as ``?`` (PF-VIEW-4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pyramids.core.game import Event, LegacyEvent
from pyramids.flags.actions import TABLE
from pyramids.flags.cards import CARDS, CODES
from pyramids.flags.pieces import NAMES

ACTION_EN = {
    "R": "destroy",
    "B": "trade",
    "G": "grow",
    "Y": "new start",
    "K": "pirate",
    "W": "wild",
}
ACTION_FR = {
    "R": "destruction",
    "B": "échange",
    "G": "croissance",
    "Y": "nouveau départ",
    "K": "pirate",
    "W": "joker",
}
COLOUR_EN = {"R": "red", "B": "blue", "G": "green", "Y": "yellow", "K": "black", "W": "white"}
COLOUR_FR = {"R": "rouge", "B": "bleu", "G": "vert", "Y": "jaune", "K": "noir", "W": "blanc"}
_GROUP_FR = {"EU": "UE", "Africa": "Afrique", "Caribbean": "Caraïbes", "Oil": "OPEP"}
_WHY_EN = {"flag": "after a flag", "swap": "for the exchanged card", "grow": "to grow"}
_WHY_FR = {"flag": "après un drapeau", "swap": "pour la carte échangée", "grow": "pour croître"}


def _pieces(pieces: Sequence[int]) -> str:
    return " ".join(NAMES[p] for p in pieces)


def _card(card: int) -> str:
    return f"{CODES[card]} ({CARDS[card].country})"


def _hidden(card: int, visible: bool) -> str:
    return CODES[card] if visible else "?"


def describe(raw: tuple[Any, ...], viewer: int | None, *, masked: bool = False) -> Event:
    """The Event for one raw event tuple, as ``viewer`` may see it when ``masked``."""
    kind = raw[0]
    if kind == "move":
        _, seat, lowest, target, group, old = raw
        onto_en = "onto the table" if target == TABLE else f"onto {NAMES[target]}"
        onto_fr = "sur la table" if target == TABLE else f"sur {NAMES[target]}"
        what = _pieces(group)
        from_en = "" if old < 0 else f" (off {NAMES[old]})"
        from_fr = "" if old < 0 else f" (de {NAMES[old]})"
        return LegacyEvent(
            kind,
            {
                "seat": seat,
                "pieces": [NAMES[p] for p in group],
                "onto": "table" if target == TABLE else NAMES[target],
            },
            f"seat {seat} moves {what}{from_en} {onto_en}",
            f"le joueur {seat} déplace {what}{from_fr} {onto_fr}",
        )
    if kind == "tree":
        _, seat, colour, lowest = raw
        c3, c2, c1 = (f"{colour}3", f"{colour}2", f"{colour}1")
        return LegacyEvent(
            kind,
            {"seat": seat, "colour": colour, "piece": NAMES[lowest]},
            f"{NAMES[lowest]} completes the {COLOUR_EN[colour]} tree {c3} {c2} {c1}: seat {seat} "
            f"earns the {ACTION_EN[colour]} action after scoring",
            f"{NAMES[lowest]} complète l'arbre {COLOUR_FR[colour]} {c3} {c2} {c1} : le joueur "
            f"{seat} gagne l'action {ACTION_FR[colour]} après le décompte",
        )
    if kind == "swap":
        _, seat, card = raw
        code = _hidden(card, not masked or viewer == seat)
        return LegacyEvent(
            kind,
            {"seat": seat, "card": code},
            f"seat {seat} exchanges {code}: it goes under the deck",
            f"le joueur {seat} échange {code} : elle va sous la pioche",
        )
    if kind == "draw":
        _, seat, card, why = raw
        code = _hidden(card, not masked or viewer == seat)
        return LegacyEvent(
            kind,
            {"seat": seat, "card": code, "why": why},
            f"seat {seat} draws {code} {_WHY_EN[why]}",
            f"le joueur {seat} pioche {code} {_WHY_FR[why]}",
        )
    if kind == "no_draw":
        _, seat, why = raw
        return LegacyEvent(
            kind,
            {"seat": seat, "why": why},
            f"the deck is empty: seat {seat} draws nothing {_WHY_EN[why]}",
            f"la pioche est vide : le joueur {seat} ne pioche rien {_WHY_FR[why]}",
        )
    if kind == "flag":
        _, seat, card = raw
        tower = _pieces(CARDS[card].tower)
        shown = _pieces(CARDS[card].pieces)
        return LegacyEvent(
            kind,
            {"seat": seat, "card": CODES[card], "tower": [NAMES[p] for p in CARDS[card].tower]},
            f"{tower} stands on the table: the flag of {_card(card)}; seat {seat} lays it "
            f"face up and may capture {shown}",
            f"{tower} se dresse sur la table : le drapeau de {_card(card)} ; le joueur {seat} "
            f"la pose face visible et peut capturer {shown}",
        )
    if kind == "no_capture":
        _, seat, card = raw
        shown = _pieces(CARDS[card].pieces)
        return LegacyEvent(
            kind,
            {"seat": seat, "card": CODES[card]},
            f"none of {shown} is in the bank or with an opponent: seat {seat} captures nothing",
            f"aucune de {shown} n'est à la banque ni chez un adversaire : le joueur {seat} "
            "ne capture rien",
        )
    if kind == "take":
        _, seat, piece, source = raw
        src_en = "the bank" if source < 0 else f"seat {source}"
        src_fr = "la banque" if source < 0 else f"le joueur {source}"
        return LegacyEvent(
            kind,
            {"seat": seat, "piece": NAMES[piece], "from": None if source < 0 else source},
            f"seat {seat} captures {NAMES[piece]} from {src_en}",
            f"le joueur {seat} capture {NAMES[piece]} chez {src_fr}",
        )
    if kind == "capture_done":
        _, seat, card = raw
        return LegacyEvent(
            kind,
            {"seat": seat, "card": CODES[card]},
            f"seat {seat} ends the capture for {CODES[card]}",
            f"le joueur {seat} termine la capture pour {CODES[card]}",
        )
    if kind == "win":
        _, seat, how, detail = raw
        if how == "flags":
            en, fr = f"{detail} flags", f"{detail} drapeaux"
        elif how == "group":
            en = f"3 flags of the group {detail}"
            fr = f"3 drapeaux du groupe {_GROUP_FR.get(str(detail), detail)}"
        else:
            en, fr = f"{detail} points", f"{detail} points"
        return LegacyEvent(
            kind,
            {"seat": seat, "condition": how, "detail": detail},
            f"seat {seat} has {en}: seat {seat} wins",
            f"le joueur {seat} a {fr} : le joueur {seat} gagne",
        )
    if kind in ("action", "lapse", "decline", "action_over"):
        _, seat, colour = raw
        a_en, a_fr = ACTION_EN[colour], ACTION_FR[colour]
        texts = {
            "action": (
                f"seat {seat} may use the {a_en} action (or decline with done)",
                f"le joueur {seat} peut utiliser l'action {a_fr} (ou refuser : done)",
            ),
            "lapse": (
                f"the {a_en} action has nothing to act on: it lapses",
                f"l'action {a_fr} n'a rien sur quoi agir : elle est perdue",
            ),
            "decline": (
                f"seat {seat} ends the {a_en} action",
                f"le joueur {seat} termine l'action {a_fr}",
            ),
            "action_over": (
                f"every tower is a single pyramid: the {a_en} action is over",
                f"toutes les tours sont des pyramides seules : l'action {a_fr} est finie",
            ),
        }
        en, fr = texts[kind]
        return LegacyEvent(kind, {"seat": seat, "colour": colour}, en, fr)
    if kind == "split":
        _, seat, group = raw
        return LegacyEvent(
            kind,
            {"seat": seat, "pieces": [NAMES[p] for p in group]},
            f"seat {seat} destroys the tower {_pieces(group)} into single pyramids",
            f"le joueur {seat} détruit la tour {_pieces(group)} en pyramides seules",
        )
    if kind == "trade":
        _, seat, mine, theirs, other = raw
        return LegacyEvent(
            kind,
            {"seat": seat, "gives": NAMES[mine], "gets": NAMES[theirs], "with": other},
            f"seat {seat} trades {NAMES[mine]} for seat {other}'s {NAMES[theirs]}",
            f"le joueur {seat} échange {NAMES[mine]} contre {NAMES[theirs]} du joueur {other}",
        )
    if kind == "grow":
        seat = raw[1]
        return LegacyEvent(
            kind,
            {"seat": seat},
            f"seat {seat} grows: two more goal cards",
            f"le joueur {seat} croît : deux cartes objectif de plus",
        )
    if kind == "newstart":
        _, seat, count = raw
        return LegacyEvent(
            kind,
            {"seat": seat, "cards": count},
            f"new start: the {count} cards of all hands are gathered and shuffled; seat {seat} "
            "deals them one at a time, starting with themself",
            f"nouveau départ : les {count} cartes de toutes les mains sont réunies et mélangées ; "
            f"le joueur {seat} les distribue une à une, en commençant par lui-même",
        )
    if kind == "deal":
        _, seat, hands = raw
        dealt = [
            [CODES[c] if not masked or viewer == s else "?" for c in h] for s, h in enumerate(hands)
        ]
        listing = "; ".join(f"seat {s}: {' '.join(h) or '-'}" for s, h in enumerate(dealt))
        listing_fr = "; ".join(f"joueur {s} : {' '.join(h) or '-'}" for s, h in enumerate(dealt))
        return LegacyEvent(
            kind,
            {"dealer": seat, "hands": dealt},
            f"the cards are dealt: {listing}",
            f"les cartes sont distribuées : {listing_fr}",
        )
    if kind == "pirate":
        _, seat, victim = raw
        return LegacyEvent(
            kind,
            {"seat": seat, "victim": victim},
            f"seat {seat}, the pirate, steals a card at random from seat {victim}",
            f"le joueur {seat}, pirate, vole une carte au hasard au joueur {victim}",
        )
    if kind == "steal":
        _, thief, victim, card = raw
        code = _hidden(card, not masked or viewer in (thief, victim))
        return LegacyEvent(
            kind,
            {"seat": thief, "victim": victim, "card": code},
            f"seat {thief} steals {code} from seat {victim}",
            f"le joueur {thief} vole {code} au joueur {victim}",
        )
    if kind == "wild":
        _, seat, colour = raw
        return LegacyEvent(
            kind,
            {"seat": seat, "colour": colour},
            f"the white tree stands for {COLOUR_EN[colour]}: seat {seat} uses {ACTION_EN[colour]}",
            f"l'arbre blanc vaut {COLOUR_FR[colour]} : le joueur {seat} utilise {ACTION_FR[colour]}",
        )
    if kind in ("deck_out", "max_turns"):
        ranking = list(raw[1])
        if kind == "deck_out":
            en = "the deck and every hand are empty"
            fr = "la pioche et toutes les mains sont vides"
        else:
            en = "the turn limit is reached"
            fr = "la limite de tours est atteinte"
        return LegacyEvent(
            kind,
            {"ranking": ranking},
            f"{en}: ranking by points, then flags {ranking}",
            f"{fr} : classement aux points, puis aux drapeaux {ranking}",
        )
    return LegacyEvent(str(kind), {"raw": [str(x) for x in raw[1:]]}, str(raw), str(raw))
