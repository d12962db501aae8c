"""The terminal interface's own words in English and French (a small dict catalogue).

Events are put into words by the message catalogue; this module holds what the CLI
says about every game alike: seat names, prompts, saving, replay, refusals of options.
A game's own words (its status lines, its reasons for refusing an input) live with its
terminal interface (``pyramids.games.<g>``), which makes its ``tr`` with ``catalogue``.
``tr(key, lang, **fields)`` formats one entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
    "hand_of": {"en": "Hand of {who}:", "fr": "Main de {who} :"},
    "your_hand": {"en": "Your hand ({who}):", "fr": "Votre main ({who}) :"},
    "empty": {"en": "(empty)", "fr": "(vide)"},
    "none": {"en": "none", "fr": "aucune"},
    "last_events": {"en": "Events:", "fr": "Événements :"},
    # --- play ---------------------------------------------------------------------------
    "seed_line": {"en": "Seed: {seed}", "fr": "Graine : {seed}"},
    "on": {"en": "on", "fr": "oui"},
    "off": {"en": "off", "fr": "non"},
    "seats_line": {"en": "Seats: {seats}", "fr": "Places : {seats}"},
    "whose_turn": {"en": "{who}, it is your turn.", "fr": "{who}, c'est à vous."},
    "pass_to": {
        "en": "Pass the keyboard to {who}, then press Enter: ",
        "fr": "Passez le clavier à {who}, puis appuyez sur Entrée : ",
    },
    "actions_header": {"en": "Your options:", "fr": "Vos choix :"},
    "prompt": {
        "en": "{who} > number or action (? help, q quit): ",
        "fr": "{who} > numéro ou action (? aide, q quitter) : ",
    },
    "bad_number": {
        "en": "There is no option {n}: choose 1 to {count}.",
        "fr": "Il n'y a pas de choix {n} : choisissez entre 1 et {count}.",
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
    # --- reasons a human's action is refused (from the player's point of view) ---------
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
        "en": "Enter: next action, b: back, a number: that action, q: quit > ",
        "fr": "Entrée : action suivante, r : retour, un numéro : cette action, q : quitter > ",
    },
    "replay_help": {
        "en": "Enter (or n) shows the next action, b (or back) the previous one, a number N "
        "the position after action N (0: the start); q quits.",
        "fr": "Entrée (ou s) montre l'action suivante, r (ou retour) la précédente, un numéro "
        "N la position après l'action N (0 : le début) ; q quitte.",
    },
    "replay_at_start": {
        "en": "This is the start: there is no action before.",
        "fr": "C'est le début : il n'y a pas d'action avant.",
    },
    "replay_cannot_read": {
        "en": "Cannot read {text!r}: Enter, b, a number or q (? for help).",
        "fr": "Impossible de lire {text!r} : Entrée, r, un numéro ou q (? pour l'aide).",
    },
    "replay_hands_shown": {
        "en": "The game is over: every hand is shown.",
        "fr": "La partie est finie : toutes les mains sont montrées.",
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
        "en": "{game} is for {low} to {high} players, not {count}",
        "fr": "{game} se joue de {low} à {high} joueurs, pas {count}",
    },
    "e_option_of": {
        "en": "{option} is an option of {owner}, not of {game}",
        "fr": "{option} est une option de {owner}, pas de {game}",
    },
    "n_bot_fallback": {
        "en": "Note: the {bot} bot does not play {game} yet; {seat} plays {fallback} instead.",
        "fr": "Attention : le robot {bot} ne joue pas encore à {game} ; {seat} joue {fallback} "
        "à la place.",
    },
    "e_bot": {
        "en": "--seats: {error}; or human for a player at the keyboard",
        "fr": "--seats : {error} ; ou human pour un joueur au clavier",
    },
    "e_save": {
        "en": "cannot save the record to {path}: {error}",
        "fr": "impossible d'enregistrer la partie dans {path} : {error}",
    },
    "e_no_renderer": {
        "en": "{source}: replay cannot draw {game!r} games",
        "fr": "{source} : la relecture ne sait pas dessiner les parties de {game!r}",
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


def catalogue(words: Mapping[str, Mapping[str, str]]) -> Callable[..., str]:
    """A ``tr`` that looks a key up in ``words`` first, then in the shared ``MESSAGES``."""

    def translate(key: str, lang: str = "en", /, **fields: object) -> str:
        entry = words.get(key) or MESSAGES[key]
        text = entry.get(lang) or entry["en"]
        return text.format(**fields) if fields else text

    return translate


def seat_name(seat: int, lang: str = "en") -> str:
    """``seat 2`` / ``joueur 2``."""
    return tr("seat", lang, n=seat)


def join_words(items: list[str], lang: str = "en") -> str:
    """``a, b or c`` / ``a, b ou c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {tr('or', lang)} {items[-1]}"
