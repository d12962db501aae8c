"""The terminal interface's own words in English and French (a small dict catalogue).

Rules events already carry both languages (``Event.text(lang)``); this module holds
everything else the CLI says: seat names, the status lines under the pyramid, prompts,
the reasons an input is refused, results. ``tr(key, lang, **fields)`` formats one entry.
"""

from __future__ import annotations

from enum import StrEnum


class Lang(StrEnum):
    """The languages the terminal speaks."""

    EN = "en"
    FR = "fr"


LANGS = tuple(lang.value for lang in Lang)

MESSAGES: dict[str, dict[str, str]] = {
    # --- seats and status under the pyramid ------------------------------------------
    "seat": {"en": "seat {n}", "fr": "joueur {n}"},
    "seat_you": {"en": "seat {n} (you)", "fr": "joueur {n} (vous)"},
    "seat_kind": {"en": "seat {n} ({kind})", "fr": "joueur {n} ({kind})"},
    "human": {"en": "human", "fr": "humain"},
    "turn_line": {"en": "Turn {turn}: {who} to play", "fr": "Tour {turn} : au tour de {who}"},
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
    "hand_of": {"en": "Hand of {who}:", "fr": "Main de {who} :"},
    "your_hand": {"en": "Your hand ({who}):", "fr": "Votre main ({who}) :"},
    "empty": {"en": "(empty)", "fr": "(vide)"},
    "none": {"en": "none", "fr": "aucune"},
    "legend_tile": {"en": "[T] tile", "fr": "[T] tuile"},
    "legend_spot": {"en": "·r,c· spot to play", "fr": "·r,c· emplacement à jouer"},
    "legend_fall": {"en": "↓T↓ falling tile", "fr": "↓T↓ tuile qui tombe"},
    "legend_land": {"en": "·r,c· where it may land", "fr": "·r,c· où elle peut tomber"},
    "legend_die": {"en": "*T* ember awaiting the fire die", "fr": "*T* braise en attente du dé"},
    "last_events": {"en": "Events:", "fr": "Événements :"},
    # --- play ---------------------------------------------------------------------------
    "seed_line": {"en": "Seed: {seed}", "fr": "Graine : {seed}"},
    "game_line": {
        "en": "Flaming Pyramids, {players} players, preset {preset}, curse {curse}, fire die {die}",
        "fr": "Flaming Pyramids, {players} joueurs, variante {preset}, malédiction {curse}, "
        "dé de feu {die}",
    },
    "on": {"en": "on", "fr": "oui"},
    "off": {"en": "off", "fr": "non"},
    "seats_line": {"en": "Seats: {seats}", "fr": "Places : {seats}"},
    "hand_header": {"en": "Hand {n} of {total}", "fr": "Manche {n} sur {total}"},
    "whose_turn": {"en": "{who}, it is your turn.", "fr": "{who}, c'est à vous."},
    "actions_header": {"en": "Your options:", "fr": "Vos choix :"},
    "fall_left": {"en": "left → {spot}", "fr": "left (gauche) → {spot}"},
    "fall_right": {"en": "right → {spot}", "fr": "right (droite) → {spot}"},
    "prompt": {
        "en": "{who} > number or action (? help, q quit): ",
        "fr": "{who} > numéro ou action (? aide, q quitter) : ",
    },
    "help": {
        "en": "Type the number of an option, or an action: a tile and a spot like R40@1,1 "
        "(or just R40 when there is one spot), left or right for a fall. "
        "? lists the options again, q saves the game and quits.",
        "fr": "Tapez le numéro d'un choix, ou une action : une tuile et un emplacement comme "
        "R40@1,1 (ou juste R40 s'il n'y a qu'un emplacement), left/gauche ou right/droite "
        "pour une chute. ? affiche les choix, q enregistre la partie et quitte.",
    },
    "bad_number": {
        "en": "There is no option {n}: choose 1 to {count}.",
        "fr": "Il n'y a pas de choix {n} : choisissez entre 1 et {count}.",
    },
    "cannot_read": {
        "en": "Cannot read {text!r}: type a number, a tile and spot like R40@1,1, left or right "
        "(? for help).",
        "fr": "Impossible de lire {text!r} : tapez un numéro, une tuile et un emplacement comme "
        "R40@1,1, gauche ou droite (? pour l'aide).",
    },
    "refused": {"en": "Not allowed: {reason}.", "fr": "Interdit : {reason}."},
    "bot_thinks": {"en": "{who} plays.", "fr": "{who} joue."},
    "quit_saved": {
        "en": "Game left. Record so far saved to {path}",
        "fr": "Partie abandonnée. Partie enregistrée jusqu'ici dans {path}",
    },
    "eof_saved": {
        "en": "Input ended. Record so far saved to {path}",
        "fr": "Fin de l'entrée. Partie enregistrée jusqu'ici dans {path}",
    },
    "record_saved": {"en": "Record saved to {path}", "fr": "Partie enregistrée dans {path}"},
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
    "or": {"en": "or", "fr": "ou"},
    # --- replay -------------------------------------------------------------------------
    "replay_header": {
        "en": "Replay: {game}, {players} players, seed {seed}, {count} actions",
        "fr": "Relecture : {game}, {players} joueurs, graine {seed}, {count} actions",
    },
    "replay_step": {
        "en": "Action {i}/{count}, {who}: {action}",
        "fr": "Action {i}/{count}, {who} : {action}",
    },
    "replay_chance": {"en": "chance", "fr": "hasard"},
    "replay_prompt": {
        "en": "Enter: next action, q: quit > ",
        "fr": "Entrée : action suivante, q : quitter > ",
    },
    "replay_end": {"en": "End of the record.", "fr": "Fin de la partie enregistrée."},
    "replay_to_range": {
        "en": "--to {n}: the record has {count} actions (choose 0 to {count})",
        "fr": "--to {n} : la partie a {count} actions (choisissez entre 0 et {count})",
    },
    "setup": {"en": "Setup", "fr": "Mise en place"},
    "rules_mismatch": {
        "en": "Note: recorded under rules {recorded}; this program plays {current}.",
        "fr": "Attention : partie enregistrée avec les règles {recorded} ; ce programme joue {current}.",
    },
    # --- refusals of options and records (exit status 2) ---------------------------------
    "e_seats_count": {
        "en": "--seats lists {count} seats but --players is {players}",
        "fr": "--seats donne {count} places mais --players vaut {players}",
    },
    "e_players": {
        "en": "Flaming Pyramids is for 2 to 6 players, not {count}",
        "fr": "Flaming Pyramids se joue de 2 à 6 joueurs, pas {count}",
    },
    "e_bot": {
        "en": "--seats: {error}; or human for a player at the keyboard",
        "fr": "--seats : {error} ; ou human pour un joueur au clavier",
    },
    "e_save": {
        "en": "cannot save the record to {path}: {error}",
        "fr": "impossible d'enregistrer la partie dans {path} : {error}",
    },
    "e_not_flaming": {
        "en": "{source}: replay draws Flaming Pyramids records only, not {game!r}",
        "fr": "{source} : la relecture ne dessine que des parties de Flaming Pyramids, pas {game!r}",
    },
    "e_replay_action": {
        "en": "{source}: action {i} ({text}) does not apply: {error}",
        "fr": "{source} : l'action {i} ({text}) ne s'applique pas : {error}",
    },
}


def tr(key: str, lang: str = "en", /, **fields: object) -> str:
    """The catalogue entry ``key`` in ``lang`` (English if missing), formatted with ``fields``."""
    entry = MESSAGES[key]
    text = entry.get(lang) or entry["en"]
    return text.format(**fields) if fields else text


def seat_name(seat: int, lang: str = "en") -> str:
    """``seat 2`` / ``joueur 2``."""
    return tr("seat", lang, n=seat)


def join_words(items: list[str], lang: str = "en") -> str:
    """``a, b or c`` / ``a, b ou c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {tr('or', lang)} {items[-1]}"
