"""Flaming Pyramids' own words at the terminal, in English and French.

The status lines under the pyramid, the legend, the reasons a human's input is refused,
the words of a check (call-out mode) and the match results; everything else comes from ``pyramids.cli.i18n``. ``tr`` looks
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
    "pending_check": {
        "en": "{who} checks the pyramid after {placer}'s placement",
        "fr": "{who} vérifie la pyramide après la pose de {placer}",
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
    "legend_materials": {
        "en": "Materials: straw {straw}, wood {wood}, stone {stone} ({never})",
        "fr": "Matériaux : paille {straw}, bois {wood}, pierre {stone} ({never})",
    },
    "legend_never": {"en": "never burns", "fr": "ne brûle jamais"},
    "legend_embers": {
        "en": "{ignites}; touching embers explode",
        "fr": "{ignites} ; des braises qui se touchent explosent",
    },
    "legend_ignites": {
        "en": "{embers} ignite {materials}",
        "fr": "{embers} enflamment {materials}",
    },
    "and": {"en": "and", "fr": "et"},
    "mat_straw": {"en": "straw", "fr": "la paille"},
    "mat_wood": {"en": "wood", "fr": "le bois"},
    "mat_stone": {"en": "stone", "fr": "la pierre"},
    # --- warnings before a placement (the engine's answers: fit hints, a trial placement) ---
    "w_collapses": {"en": "collapses", "fr": "s'effondre"},
    "w_burns": {"en": "burns", "fr": "brûle"},
    "w_explodes": {"en": "explodes", "fr": "explose"},
    "w_fire_die": {"en": "fire die", "fr": "dé de feu"},
    "w_curse": {"en": "curse", "fr": "malédiction"},
    "w_falls": {"en": "falls", "fr": "tombe"},
    "w_legend": {
        "en": "(!) marks a placement that sets off mayhem: it collapses, burns or explodes.",
        "fr": "(!) marque une pose qui déclenche le chaos : elle s'effondre, brûle ou explose.",
    },
    "w_careful": {
        "en": "Careful, {tile} at {at} sets off mayhem:",
        "fr": "Attention, {tile} en {at} déclenche le chaos :",
    },
    "w_confirm": {
        "en": "Place it anyway? (Enter: yes, n: choose again) ",
        "fr": "La poser quand même ? (Entrée : oui, n : choisir autre chose) ",
    },
    "w_again": {"en": "Choose again.", "fr": "Choisissez à nouveau."},
    # --- play ---------------------------------------------------------------------------
    "game_line": {
        "en": "Flaming Pyramids, {players} players, preset {preset}, curse {curse}, fire die {die}",
        "fr": "Flaming Pyramids, {players} joueurs, variante {preset}, malédiction {curse}, "
        "dé de feu {die}",
    },
    "callout_line": {"en": ", call-out {mode}", "fr": ", signalement {mode}"},
    "callout_family": {"en": "family", "fr": "famille"},
    "callout_competitive": {"en": "competitive", "fr": "compétitif"},
    "hand_header": {"en": "Hand {n} of {total}", "fr": "Manche {n} sur {total}"},
    "fall_left": {"en": "left → {spot}", "fr": "left (gauche) → {spot}"},
    "fall_right": {"en": "right → {spot}", "fr": "right (droite) → {spot}"},
    "help": {
        "en": "Type the number of an option, or an action: a tile and a spot like R40@1,1 "
        "(or just R40 when there is one spot), left or right for a fall. "
        "? lists the options again with a hint: the search's 3 best moves from what you see, "
        "each with your chance to win after it; h lists them alone; q saves the game and quits.",
        "fr": "Tapez le numéro d'un choix, ou une action : une tuile et un emplacement comme "
        "R40@1,1 (ou juste R40 s'il n'y a qu'un emplacement), left/gauche ou right/droite "
        "pour une chute. ? affiche les choix avec un conseil : les 3 meilleurs coups selon la "
        "recherche, d'après ce que vous voyez, chacun avec vos chances de gagner ; h affiche "
        "les choix seuls ; q enregistre la partie et quitte.",
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
    # --- a check (call-out mode, FP-CALL) -------------------------------------------
    "check_banner": {
        "en": "{who}, check the pyramid: {placer} has just placed a tile.",
        "fr": "{who}, vérifiez la pyramide : {placer} vient de poser une tuile.",
    },
    "check_prompt": {
        "en": "{who} > Everything OK? (Enter) or call a tile (r,c): ",
        "fr": "{who} > Tout va bien ? (Entrée) ou signalez une tuile (r,c) : ",
    },
    "check_help": {
        "en": "Press Enter (or type ok) if no tile breaks a rule. If one does, call it by its "
        "position, row then column, like 1,3 (or call:1,3, or its code like R40): a tile in "
        "free air, a tile that does not fit or one of its supports, an ember that explodes or "
        "burns or a tile it would send away or burn, a tile of a cursed trio. A wrong call is "
        "a false alarm: nothing happens. ? shows the pyramid again, q saves the game and quits.",
        "fr": "Appuyez sur Entrée (ou tapez ok) si aucune tuile n'enfreint une règle. Sinon, "
        "signalez-la par sa position, rangée puis colonne, comme 1,3 (ou call:1,3, ou son code "
        "comme R40) : une tuile dans le vide, une tuile qui ne tient pas ou l'un de ses "
        "supports, une braise qui explose ou brûle ou une tuile qu'elle chasserait ou "
        "brûlerait, une tuile d'un trio maudit. Un mauvais signalement est une fausse alerte : "
        "rien ne se passe. ? affiche la pyramide, q enregistre la partie et quitte.",
    },
    "replay_overlooked": {
        "en": "(replay) Mayhem overlooked: it stands on the pyramid; a right call would name "
        "{tiles}.",
        "fr": "(relecture) Chaos passé inaperçu : il reste sur la pyramide ; un bon signalement "
        "nommerait {tiles}.",
    },
    "c_cannot_read": {
        "en": "Cannot read {text!r}: press Enter if everything is OK, or call a tile by its "
        "position like 1,3 (? for help).",
        "fr": "Impossible de lire {text!r} : appuyez sur Entrée si tout va bien, ou signalez "
        "une tuile par sa position comme 1,3 (? pour l'aide).",
    },
    "c_empty": {
        "en": "There is no tile at {at}: call a tile on the pyramid, or press Enter if "
        "everything is OK.",
        "fr": "Il n'y a pas de tuile en {at} : signalez une tuile de la pyramide, ou appuyez "
        "sur Entrée si tout va bien.",
    },
    "c_no_row": {
        "en": "There is no position {at}: rows are numbered from 0, the base, upwards.",
        "fr": "La position {at} n'existe pas : les rangées sont numérotées à partir de 0, la "
        "base, vers le haut.",
    },
    "c_parity": {
        "en": "There is no position {at}: the tiles of row {row} sit on {parity} columns.",
        "fr": "La position {at} n'existe pas : les tuiles de la rangée {row} sont sur les "
        "colonnes {parity}.",
    },
    "even": {"en": "even", "fr": "paires"},
    "odd": {"en": "odd", "fr": "impaires"},
    "c_not_on_pyramid": {
        "en": "{tile} is not on the pyramid: call a tile on the pyramid by its position, like 1,3.",
        "fr": "{tile} n'est pas sur la pyramide : signalez une tuile de la pyramide par sa "
        "position, comme 1,3.",
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
    "r_no_check": {
        "en": "there is nothing to check now: ok and call:r,c answer a check of another "
        "player's placement (call-out mode)",
        "fr": "il n'y a rien à vérifier maintenant : ok et call:r,c répondent à la vérification "
        "de la pose d'un autre joueur (mode signalement)",
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
