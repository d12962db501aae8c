"""Pyramids and Flags' own words at the terminal, in English and French.

The table, the status under it, the cards' facts, the play help and the reasons a
human's input is refused; everything else comes from ``pyramids.cli.i18n``. ``tr``
looks here first, then in the shared catalogue.
"""

from __future__ import annotations

from pyramids.cli.i18n import catalogue
from pyramids.texts import message

WORDS: dict[str, dict[str, str]] = {
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
        "? lists the options again with a hint: the search's 3 best moves from what you see, "
        "each with your chance to win after it; h lists them alone; q saves the game and quits.",
        "fr": "Tapez le numéro d'un choix, ou une action : BAS>CIBLE déplace BAS et tout ce qui "
        "est dessus sur la pièce du sommet CIBLE ou sur la table (W1>R2, B3>table) ; "
        "swap:CZE échange une carte ; take:O2 capture à la banque, take:O2@1 chez le joueur 1, "
        "done arrête ; actions des arbres : split:R3, trade:O2:P1@1, grow, newstart, pirate:1, "
        "wild:R. ? affiche les choix avec un conseil : les 3 meilleurs coups selon la "
        "recherche, d'après ce que vous voyez, chacun avec vos chances de gagner ; h affiche "
        "les choix seuls ; q enregistre la partie et quitte.",
    },
    "f_overview": {
        "en": "Your options: {moves} moves (LOWEST>TARGET) and {count} in all.",
        "fr": "Vos choix : {moves} déplacements (BAS>CIBLE), {count} en tout.",
    },
    "f_can_move": {"en": "Pieces that can move: ", "fr": "Pièces qui peuvent bouger : "},
    "f_filter_help": {
        "en": "Type a piece ({piece}) to see its moves and the moves onto it, >{piece} for "
        "the moves onto it only, >table, or ? for every option with its number.",
        "fr": "Tapez une pièce ({piece}) pour voir ses déplacements et ceux qui vont dessus, "
        ">{piece} pour ceux qui vont dessus seulement, >table, ou ? pour tous les choix "
        "numérotés.",
    },
    "f_moves_of": {
        "en": "{piece} moves (with what is on it):",
        "fr": "{piece} se déplace (avec ce qui est dessus) :",
    },
    "f_moves_onto": {"en": "Onto {piece}:", "fr": "Sur {piece} :"},
    "f_other_options": {"en": "Other options:", "fr": "Autres choix :"},
    "f_no_moves": {
        "en": "No move of {piece} or onto it now: ? lists every option.",
        "fr": "Aucun déplacement de {piece} ni sur {piece} maintenant : ? affiche tous les choix.",
    },
    "f_no_moves_onto": {
        "en": "No move onto {piece} now: ? lists every option.",
        "fr": "Aucun déplacement sur {piece} maintenant : ? affiche tous les choix.",
    },
    "f_table_word": {"en": "table", "fr": "table"},
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

tr = catalogue(WORDS)
"""``tr(key, lang, **fields)``: a Pyramids and Flags word, or a shared one."""


def tree_words(colour: str, lang: str = "en") -> tuple[str, str]:
    """(action name, colour name) of the tree of ``colour`` in ``lang``, from the catalogue."""
    return message(f"flags.action.{colour}", lang), message(f"flags.colour.{colour}", lang)
