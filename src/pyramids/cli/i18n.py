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
    # --- Pyramids and Flags: the table and the status under it -----------------------------
    "f_legend": {
        "en": "[ K3 ] large  [K2] medium  K1 small · O orange P purple C cyan X clear\n"
        "K black W white Y yellow B blue G green R red",
        "fr": "[ K3 ] grande [K2] moyenne K1 petite · O orange P violet C cyan X transparent\n"
        "K noir W blanc Y jaune B bleu G vert R rouge",
    },
    "f_table_empty": {"en": "(no tower)", "fr": "(aucune tour)"},
    "f_bank": {"en": "Bank: ", "fr": "Banque : "},
    "f_seat_line": {
        "en": "{mark} {who:<{width}}  hand {hand}  flags {flags}  points {points}",
        "fr": "{mark} {who:<{width}}  main {hand}  drapeaux {flags}  points {points}",
    },
    "f_holds": {"en": "pyramids ", "fr": "pyramides "},
    "f_scored": {"en": "flags ", "fr": "drapeaux "},
    "f_deck": {"en": "Deck: {n} cards", "fr": "Pioche : {n} cartes"},
    "f_last_moved": {"en": "Last moved: ", "fr": "Dernier groupe déplacé : "},
    "f_none": {"en": "none", "fr": "aucun"},
    "f_pending_capture": {
        "en": "{who} captures for {card}: up to two of {shown} from the bank, or one from an "
        "opponent (done to stop)",
        "fr": "{who} capture pour {card} : jusqu'à deux de {shown} à la banque, ou une chez un "
        "adversaire (done pour arrêter)",
    },
    "f_taken": {"en": "; already taken: {pieces}", "fr": " ; déjà prise : {pieces}"},
    "f_pending_action": {
        "en": "{who} may use the {action} action of the {colour} tree, or decline with done",
        "fr": "{who} peut utiliser l'action {action} de l'arbre {colour}, ou refuser avec done",
    },
    "f_pending_steal": {
        "en": "Chance: {who}, the pirate, steals a card at random from {victim}",
        "fr": "Hasard : {who}, pirate, vole une carte au hasard à {victim}",
    },
    "f_pending_deal": {
        "en": "Chance: the new start deals the gathered cards",
        "fr": "Hasard : le nouveau départ distribue les cartes réunies",
    },
    "f_tree_owed": {
        "en": "After the scoring {who} earns the {action} action ({colour} tree)",
        "fr": "Après le décompte, {who} gagne l'action {action} (arbre {colour})",
    },
    "f_winner": {"en": "{who} wins with {how}!", "fr": "{who} gagne avec {how} !"},
    "f_win_flags": {"en": "{n} flags", "fr": "{n} drapeaux"},
    "f_win_group": {"en": "3 flags of the group {group}", "fr": "3 drapeaux du groupe {group}"},
    "f_win_points": {"en": "{n} points", "fr": "{n} points"},
    "f_ranking": {
        "en": "Game over ({why}). Ranking by points, then flags:",
        "fr": "Partie finie ({why}). Classement aux points, puis aux drapeaux :",
    },
    "f_why_turns": {"en": "turn limit reached", "fr": "limite de tours atteinte"},
    "f_why_cards": {"en": "no cards left", "fr": "plus aucune carte"},
    "f_rank_item": {
        "en": "  {rank}. {who} ({points} points, {flags} flags)",
        "fr": "  {rank}. {who} ({points} points, {flags} drapeaux)",
    },
    "f_card": {
        "en": "{code} {country}{groups}: flag ",
        "fr": "{code} {country}{groups} : drapeau ",
    },
    "f_facts": {
        "en": "{o} highest point {peak} {height} m · {p} population {people} million\n"
        "{c} average temperature {temp} °C · {x} GDP per head ${gdp}",
        "fr": "{o} point culminant {peak} {height} m · {p} population {people} millions\n"
        "{c} température moyenne {temp} °C · {x} PIB par habitant {gdp} $",
    },
    # --- Pyramids and Flags: play -----------------------------------------------------------
    "f_game_line": {
        "en": "Pyramids and Flags, {players} players, tree actions {actions}, at most {turns} turns",
        "fr": "Pyramides et drapeaux, {players} joueurs, actions des arbres {actions}, "
        "{turns} tours au plus",
    },
    "f_help": {
        "en": "Type the number of an option, or an action: LOWEST>TARGET moves LOWEST and "
        "everything on it onto the top piece TARGET or the table (W1>R2, B3>table); "
        "swap:CZE exchanges a card; take:O2 captures from the bank, take:O2@1 from seat 1, "
        "done stops; tree actions: split:R3, trade:O2:P1@1, grow, newstart, pirate:1, wild:R. "
        "? lists the options again, q saves the game and quits.",
        "fr": "Tapez le numéro d'un choix, ou une action : BAS>CIBLE déplace BAS et tout ce qui "
        "est dessus sur la pièce du sommet CIBLE ou sur la table (W1>R2, B3>table) ; "
        "swap:CZE échange une carte ; take:O2 capture à la banque, take:O2@1 chez le joueur 1, "
        "done arrête ; actions des arbres : split:R3, trade:O2:P1@1, grow, newstart, pirate:1, "
        "wild:R. ? affiche les choix, q enregistre la partie et quitte.",
    },
    "f_cannot_read": {
        "en": "Cannot read {text!r}: type a number or an action such as W1>R2, B3>table, "
        "swap:CZE, take:O2 or done (? for help).",
        "fr": "Impossible de lire {text!r} : tapez un numéro ou une action comme W1>R2, "
        "B3>table, swap:CZE, take:O2 ou done (? pour l'aide).",
    },
    # --- Pyramids and Flags: why a human's action is refused --------------------------------
    "rf_bottom": {
        "en": "{piece} is the bottom of its tower: a whole tower may not be put back on the table",
        "fr": "{piece} est à la base de sa tour : une tour entière ne se repose pas sur la table",
    },
    "rf_itself": {
        "en": "{target} moves with {piece}: a group cannot land on itself",
        "fr": "{target} se déplace avec {piece} : un groupe ne peut pas se poser sur lui-même",
    },
    "rf_not_top": {
        "en": "{target} is not the top of its tower ({above} is on it)",
        "fr": "{target} n'est pas au sommet de sa tour ({above} est dessus)",
    },
    "rf_larger": {
        "en": "{piece} is larger than {target}: a piece may not be put on a smaller one",
        "fr": "{piece} est plus grande que {target} : une pièce ne se pose pas sur une plus petite",
    },
    "rf_same_group": {
        "en": "{pieces} is exactly the group the previous turn moved",
        "fr": "{pieces} est exactement le groupe déplacé au tour précédent",
    },
    "rf_not_in_hand": {
        "en": "{card} is not in your hand",
        "fr": "{card} n'est pas dans votre main",
    },
    "rf_deck_empty": {
        "en": "the deck is empty: no card can be exchanged",
        "fr": "la pioche est vide : aucune carte ne peut être échangée",
    },
    "rf_turn": {
        "en": "move pyramids (LOWEST>TARGET) or exchange a card (swap:CARD)",
        "fr": "déplacez des pyramides (BAS>CIBLE) ou échangez une carte (swap:CARTE)",
    },
    "rf_capture": {
        "en": "you are capturing for {card}: {options}",
        "fr": "vous capturez pour {card} : {options}",
    },
    "rf_action": {
        "en": "you are using the {action} action: {options}",
        "fr": "vous utilisez l'action {action} : {options}",
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
