"""What happened and why: raw mayhem events turned into Events with English and French text.

The rules record events as cheap tuples; this module explains them, e.g.
"B100 at 1,1 is too heavy: 100 > 20 + 6; G20 and R6 collapse under seat 0's pile".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pyramids.core.game import Event, LegacyEvent
from pyramids.flaming.tiles import COLOUR, MATERIAL, NAMES, WEIGHT, Material, spot_name

_MATERIAL_EN = {Material.STRAW: "straw", Material.WOOD: "wood"}
_MATERIAL_FR = {Material.STRAW: "à la paille", Material.WOOD: "au bois"}


def _go_en(names: Sequence[str]) -> str:
    return "goes" if len(names) == 1 else "go"


def _go_fr(names: Sequence[str]) -> str:
    return "va" if len(names) == 1 else "vont"


def _en(tile: int, key: int) -> str:
    return f"{NAMES[tile]} at {spot_name(key)}"


def _fr(tile: int, key: int) -> str:
    return f"{NAMES[tile]} en {spot_name(key)}"


def _names(pairs: Sequence[tuple[int, int]]) -> list[str]:
    return [NAMES[t] for t, _ in pairs]


def _join(items: Sequence[str], word: str) -> str:
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


def _cells(pairs: Sequence[tuple[int, int]]) -> list[dict[str, Any]]:
    return [{"tile": NAMES[t], "at": spot_name(k)} for t, k in pairs]


def collapse_reason(tile: int, supports: Sequence[int]) -> tuple[str, str]:
    """Why ``tile`` does not fit on ``supports`` (FP-FIT), as a predicate in English and French.

    E.g. ("is too heavy: 100 > 20 + 6", "est trop lourde : 100 > 20 + 6").
    """
    w = WEIGHT[tile]
    heavy = w > sum(WEIGHT[s] for s in supports)
    colours = 0
    for s in supports:
        colours |= COLOUR[s]
    mismatch = COLOUR[tile] & colours == 0 and all(w != WEIGHT[s] for s in supports)
    sum_text = " + ".join(str(WEIGHT[s]) for s in supports)
    names = [NAMES[s] for s in supports]
    if len(names) == 1:
        match_en = f"does not match {names[0]} in colour or number"
        match_fr = f"n'a ni couleur ni nombre en commun avec {names[0]}"
    else:
        match_en = f"matches neither {names[0]} nor {names[1]} in colour or number"
        match_fr = f"n'a ni couleur ni nombre en commun avec {names[0]} ou {names[1]}"
    if heavy and mismatch:
        return (
            f"is too heavy ({w} > {sum_text}) and {match_en}",
            f"est trop lourde ({w} > {sum_text}) et {match_fr}",
        )
    if heavy:
        return f"is too heavy: {w} > {sum_text}", f"est trop lourde : {w} > {sum_text}"
    return match_en, match_fr


def describe(raw: tuple[Any, ...]) -> Event:
    """The Event for one raw event tuple recorded by the rules."""
    kind = raw[0]
    if kind == "setup_removed":
        t = raw[1]
        return LegacyEvent(
            kind,
            {"tile": NAMES[t]},
            f"{NAMES[t]} is an ember among the leftover tiles: it is removed from the game",
            f"{NAMES[t]} est une braise parmi les tuiles restantes : elle est retirée du jeu",
        )
    if kind == "place":
        _, seat, t, k = raw
        return LegacyEvent(
            kind,
            {"seat": seat, "tile": NAMES[t], "at": spot_name(k)},
            f"seat {seat} plays {_en(t, k)}",
            f"le joueur {seat} pose {_fr(t, k)}",
        )
    if kind == "free_air":
        _, p, t, k = raw
        return LegacyEvent(
            kind,
            {"seat": p, "tile": NAMES[t], "at": spot_name(k)},
            f"{_en(t, k)} has nothing under it: seat {p} chooses whether it falls left or right",
            f"{_fr(t, k)} ne repose sur rien : le joueur {p} choisit si elle tombe à gauche ou à droite",
        )
    if kind == "collapse":
        _, p, t, k, gone = raw
        why_en, why_fr = collapse_reason(t, [g for g, _ in gone])
        names = _names(gone)
        verb_en = "collapses" if len(names) == 1 else "collapse"
        verb_fr = "s'effondre" if len(names) == 1 else "s'effondrent"
        return LegacyEvent(
            kind,
            {"seat": p, "tile": NAMES[t], "at": spot_name(k), "collapsed": _cells(gone)},
            f"{_en(t, k)} {why_en}; {_join(names, 'and')} {verb_en} under seat {p}'s pile",
            f"{_fr(t, k)} {why_fr} ; {_join(names, 'et')} {verb_fr} sous la pioche du joueur {p}",
        )
    if kind == "fall":
        _, p, t, src, dst, side = raw
        side_en = "left" if side == 0 else "right"
        side_fr = "à gauche" if side == 0 else "à droite"
        return LegacyEvent(
            kind,
            {
                "seat": p,
                "tile": NAMES[t],
                "from": spot_name(src),
                "to": spot_name(dst),
                "side": side_en,
            },
            f"seat {p} lets {NAMES[t]} fall {side_en}, from {spot_name(src)} to {spot_name(dst)}",
            f"le joueur {p} fait tomber {NAMES[t]} {side_fr}, de {spot_name(src)} en {spot_name(dst)}",
        )
    if kind == "explosion":
        _, p, embers, victims = raw
        e_names = _names(embers)
        v_names = _names(victims)
        en = f"embers {_join(e_names, 'and')} touch: they explode and leave the game"
        fr = f"les braises {_join(e_names, 'et')} se touchent : elles explosent et quittent le jeu"
        if v_names:
            en += f"; {_join(v_names, 'and')} {_go_en(v_names)} under seat {p}'s pile"
            fr += f" ; {_join(v_names, 'et')} {_go_fr(v_names)} sous la pioche du joueur {p}"
        return LegacyEvent(
            kind,
            {"seat": p, "embers": _cells(embers), "victims": _cells(victims)},
            en,
            fr,
        )
    if kind == "fire_found":
        _, p, e, k = raw
        return LegacyEvent(
            kind,
            {"seat": p, "ember": NAMES[e], "at": spot_name(k)},
            f"{_en(e, k)} touches what it ignites: seat {p} rolls the fire die",
            f"{_fr(e, k)} touche ce qu'elle enflamme : le joueur {p} lance le dé de feu",
        )
    if kind == "fire":
        _, p, e, k, victims, removed, roll = raw
        mats = sorted({MATERIAL[t] for t, _ in victims})
        mat_en = _join([_MATERIAL_EN[m] for m in mats], "and")
        mat_fr = _join([_MATERIAL_FR[m] for m in mats], "et")
        v_names = _names(victims)
        burn_en = "burns and goes" if len(v_names) == 1 else "burn and go"
        burn_fr = "brûle et va" if len(v_names) == 1 else "brûlent et vont"
        en = f"{_en(e, k)} sets fire to {mat_en}: {_join(v_names, 'and')} {burn_en} under seat {p}'s pile"
        fr = (
            f"{_fr(e, k)} met le feu {mat_fr} : {_join(v_names, 'et')} {burn_fr} sous "
            f"la pioche du joueur {p}"
        )
        if roll:
            en = f"die {roll}: " + en
            fr = f"dé {roll} : " + fr
        if removed:
            en += f"; {NAMES[e]} leaves the game"
            fr += f" ; {NAMES[e]} quitte le jeu"
        else:
            en += f"; {NAMES[e]} stays"
            fr += f" ; {NAMES[e]} reste en place"
        return LegacyEvent(
            kind,
            {
                "seat": p,
                "ember": NAMES[e],
                "at": spot_name(k),
                "burnt": _cells(victims),
                "ember_removed": removed,
                "roll": roll or None,
            },
            en,
            fr,
        )
    if kind == "die_explosion":
        _, p, e, k, victims = raw
        v_names = _names(victims)
        en = f"die 5: {_en(e, k)} explodes and leaves the game"
        fr = f"dé 5 : {_fr(e, k)} explose et quitte le jeu"
        if v_names:
            en += f"; {_join(v_names, 'and')} {_go_en(v_names)} under seat {p}'s pile"
            fr += f" ; {_join(v_names, 'et')} {_go_fr(v_names)} sous la pioche du joueur {p}"
        return LegacyEvent(
            kind,
            {"seat": p, "ember": NAMES[e], "at": spot_name(k), "victims": _cells(victims)},
            en,
            fr,
        )
    if kind == "quench":
        _, p, e, k = raw
        return LegacyEvent(
            kind,
            {"seat": p, "ember": NAMES[e], "at": spot_name(k)},
            f"die 6: the fire goes out; {_en(e, k)} stays, quenched until it moves or meets a new tile it ignites",
            f"dé 6 : le feu s'éteint ; {_fr(e, k)} reste, éteinte jusqu'à ce qu'elle bouge ou touche une "
            "nouvelle tuile inflammable",
        )
    if kind == "curse":
        _, p, target, trio = raw
        names = _names(trio)
        (top, top_k) = trio[0]
        return LegacyEvent(
            kind,
            {"seat": p, "target": target, "tiles": _cells(trio)},
            f"curse: {_join(names, 'and')} all weigh {WEIGHT[top]} (top at {spot_name(top_k)}); "
            f"they go under seat {target}'s pile, the player to seat {p}'s right, who now suffers "
            "the mayhem",
            f"malédiction : {_join(names, 'et')} pèsent tous {WEIGHT[top]} (sommet en {spot_name(top_k)}) ; "
            f"ils vont sous la pioche du joueur {target}, à droite du joueur {p}, qui subit désormais le chaos",
        )
    if kind == "draw":
        _, seat, n = raw
        return LegacyEvent(
            kind,
            {"seat": seat, "count": n},
            f"seat {seat} draws {n} tile{'s' if n != 1 else ''}",
            f"le joueur {seat} pioche {n} tuile{'s' if n != 1 else ''}",
        )
    if kind == "win":
        seat = raw[1]
        return LegacyEvent(
            kind,
            {"seat": seat},
            f"seat {seat} has no tiles left: seat {seat} wins",
            f"le joueur {seat} n'a plus de tuiles : le joueur {seat} gagne",
        )
    if kind == "max_turns":
        ranking = list(raw[1])
        return LegacyEvent(
            kind,
            {"ranking": ranking},
            f"the turn limit is reached: ranking by tiles left {ranking}",
            f"limite de tours atteinte : classement par tuiles restantes {ranking}",
        )
    return LegacyEvent(str(kind), {"raw": list(raw[1:])}, str(raw), str(raw))  # pragma: no cover
