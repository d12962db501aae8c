"""Flaming Pyramids' own words at the terminal, in English and French.

The status lines under the pyramid, the legend, the reasons a human's input is refused
and the match results; everything else comes from ``pyramids.cli.i18n``. ``tr`` looks
here first, then in the shared catalogue.
"""

from __future__ import annotations

from pyramids.cli.i18n import catalogue

WORDS: dict[str, dict[str, str]] = {
    # --- seats and status under the pyramid ------------------------------------------
    "seat_line": {
        "en": "{mark} {who:<{width}}  hand {hand:>2}  pile {pile:>2}",
        "fr": "{mark} {who:<{width}}  main {hand:>2}  pioche {pile:>2}",
    },
    "out_line": {"en": "Out of the game: {tiles}", "fr": "Hors du jeu : {tiles}"},
    "quenched_line": {
        "en": "Quenched: {ember} (touching {tiles} at the roll)",
        "fr": "Éteinte : {ember} (touchait {tiles} au lancer)",
    },
    "pending_fall": {
        "en": "{who} must choose where {tile} falls: left to {left} or right to {right}",
        "fr": "{who} doit choisir où tombe {tile} : à gauche en {left} ou à droite en {right}",
    },
    "pending_die": {
        "en": "{who} rolls the fire die: {tile} touches what it ignites",
        "fr": "{who} lance le dé de feu : {tile} touche ce qu'elle enflamme",
    },
    "spots_line": {"en": "Spots to play: {spots}", "fr": "Emplacements à jouer : {spots}"},
    "winner_line": {"en": "{who} wins!", "fr": "{who} gagne !"},
    "ranking_line": {
        "en": "Turn limit reached. Ranking by tiles left: {ranking}",
        "fr": "Limite de tours atteinte. Classement par tuiles restantes : {ranking}",
    },
    "rank_item": {"en": "{rank}. {who} ({left} left)", "fr": "{rank}. {who} ({left} restantes)"},
    "legend_tile": {"en": "[T] tile", "fr": "[T] tuile"},
    "legend_spot": {"en": "·r,c· spot to play", "fr": "·r,c· emplacement à jouer"},
    "legend_fall": {"en": "↓T↓ falling tile", "fr": "↓T↓ tuile qui tombe"},
    "legend_land": {"en": "·r,c· where it may land", "fr": "·r,c· où elle peut tomber"},
    "legend_die": {"en": "*T* ember awaiting the fire die", "fr": "*T* braise en attente du dé"},
    # --- play ---------------------------------------------------------------------------
    "game_line": {
        "en": "Flaming Pyramids, {players} players, preset {preset}, curse {curse}, fire die {die}",
        "fr": "Flaming Pyramids, {players} joueurs, variante {preset}, malédiction {curse}, "
        "dé de feu {die}",
    },
    "hand_header": {"en": "Hand {n} of {total}", "fr": "Manche {n} sur {total}"},
    "fall_left": {"en": "left → {spot}", "fr": "left (gauche) → {spot}"},
    "fall_right": {"en": "right → {spot}", "fr": "right (droite) → {spot}"},
    "help": {
        "en": "Type the number of an option, or an action: a tile and a spot like R40@1,1 "
        "(or just R40 when there is one spot), left or right for a fall. "
        "? lists the options again, q saves the game and quits.",
        "fr": "Tapez le numéro d'un choix, ou une action : une tuile et un emplacement comme "
        "R40@1,1 (ou juste R40 s'il n'y a qu'un emplacement), left/gauche ou right/droite "
        "pour une chute. ? affiche les choix, q enregistre la partie et quitte.",
    },
    "cannot_read": {
        "en": "Cannot read {text!r}: type a number, a tile and spot like R40@1,1, left or right "
        "(? for help).",
        "fr": "Impossible de lire {text!r} : tapez un numéro, une tuile et un emplacement comme "
        "R40@1,1, gauche ou droite (? pour l'aide).",
    },
    "hand_scores": {
        "en": "Hand {n} scores (tiles left): {scores}",
        "fr": "Points de la manche {n} (tuiles restantes) : {scores}",
    },
    "totals": {"en": "Totals: {scores}", "fr": "Totaux : {scores}"},
    "match_winner": {
        "en": "Match won by {who} (lowest total).",
        "fr": "Match gagné par {who} (plus petit total).",
    },
    "match_tie": {
        "en": "Match shared by {who} (lowest total).",
        "fr": "Match partagé entre {who} (plus petit total).",
    },
    # --- reasons a human's action is refused (from the player's point of view) ---------
    "r_game_over": {"en": "the game is over", "fr": "la partie est terminée"},
    "r_falling": {
        "en": "{tile} at {at} is falling: choose left or right first",
        "fr": "{tile} en {at} tombe : choisissez d'abord gauche ou droite",
    },
    "r_die_pending": {
        "en": "the fire die is rolled automatically",
        "fr": "le dé de feu est lancé automatiquement",
    },
    "r_no_fall": {
        "en": "no tile is falling: left and right are only chosen during mayhem",
        "fr": "aucune tuile ne tombe : gauche et droite ne se choisissent que pendant le chaos",
    },
    "r_not_in_hand": {"en": "{tile} is not in your hand", "fr": "{tile} n'est pas dans votre main"},
    "r_on_pyramid": {
        "en": "{tile} is not in your hand: it is on the pyramid at {at}",
        "fr": "{tile} n'est pas dans votre main : elle est sur la pyramide en {at}",
    },
    "r_taken": {
        "en": "{at} is taken by {other}; you must play on {spots}",
        "fr": "{at} est occupé par {other} ; vous devez jouer en {spots}",
    },
    "r_wrong_spot": {
        "en": "{tile} cannot go at {at}: you must play on {spots}",
        "fr": "{tile} ne peut pas aller en {at} : vous devez jouer en {spots}",
    },
    "r_which_spot": {
        "en": "{tile} can go on {spots}: write it with a spot, e.g. {example}",
        "fr": "{tile} peut aller en {spots} : précisez l'emplacement, par ex. {example}",
    },
}

tr = catalogue(WORDS)
"""``tr(key, lang, **fields)``: a Flaming Pyramids word, or a shared one."""
