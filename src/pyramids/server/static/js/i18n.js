// The front end's own words in English and French, and the language switch.
//
// Rules events are told with the shared message catalogue of pyramids.texts (served at
// /texts/<lang>.json, the same JSON the terminal and the server read, formatted by
// messageformat.js from the event's game, kind and data); until it has loaded, or for an
// event it lacks, the server's own text_en / text_fr (made from the same catalogue) stand
// in. This file's catalogue holds everything else the pages say. t(key, params) formats an entry;
// elements with data-i18n="key" (text) or data-i18n-attr="attr:key;attr:key" are
// translated in place by applyTranslations(), and again whenever the language changes.

import { formatMessage } from "./messageformat.js";

const CATALOGUE = {
  en: {
    app_name: "Pyramids",
    tagline: "Tile-stacking mayhem with friends and bots",
    nav_lobby: "Lobby",
    lang_label: "Language",
    game_flaming: "Flaming Pyramids",
    game_flags: "Pyramids and Flags",
    // lobby
    new_table: "New table",
    field_game: "Game",
    field_players: "Players",
    field_preset: "Rules",
    preset_basic: "Basic: no embers, no millstone",
    preset_family: "Family: embers and millstone",
    preset_standard: "Standard: embers, millstone and the curse",
    preset_default: "Standard rules",
    field_options: "Options",
    opt_curse: "Curse",
    opt_fire_die: "Fire die",
    opt_max_turns: "Turn limit",
    opt_actions: "Tree actions",
    opt_first_player: "First player",
    opt_callout: "Call-out",
    opt_callout_off: "off: the game resolves mayhem",
    opt_callout_family: "family",
    opt_callout_competitive: "competitive",
    callout_help: "The next player checks the pyramid after each placement and calls the tile that breaks a rule.",
    callout_help_family: "Family: overlooked mayhem found later puts the tiles out of the game.",
    callout_help_competitive: "Competitive: the player whose turn it is when it is found takes the tiles.",
    field_hints: "Fit hints (✓ / ⚠ on each spot)",
    hints_hint:
      "Tells the player who places whether a tile fits each spot. Off by default in call-out games, where spotting what breaks a rule is the game.",
    opt_default: "preset default",
    opt_on: "on",
    opt_off: "off",
    field_seats: "Seats",
    seat_label: "Seat {n}",
    kind_human: "Human",
    kind_random: "Random bot",
    kind_greedy: "Greedy bot",
    kind_ismcts: "ISMCTS (strongest)",
    field_name: "Name",
    name_placeholder: "Player {n}",
    field_bot_delay: "Bot delay (seconds)",
    field_public: "Public table (anyone can take a free seat)",
    public_hint:
      "A public table is listed in the lobby, where anyone may take a free seat. Otherwise only your invite links give its seats.",
    more_settings: "More settings",
    field_absent_after: "Bot takes over an absent player after (seconds, 0 = never)",
    field_turn_time: "Time per decision (seconds, 0 = unlimited)",
    field_takeover_bot: "Bot that stands in",
    field_seed: "Seed (optional; only when every other seat is a bot)",
    seed_placeholder: "random",
    create: "Create table",
    creating: "Creating…",
    created_title: "Table created",
    invites_hint:
      "Each human seat has its own secret link. Send each player theirs: the links are shown only once.",
    invite_for: "{name} (seat {n})",
    copy: "Copy",
    copied: "Copied",
    copy_failed: "Select the link and copy it by hand",
    open_link: "Open",
    watch_table: "Watch this table",
    tables_open: "Waiting for players",
    tables_running: "Games in progress",
    tables_finished: "Finished games",
    tables_none: "None at the moment.",
    refresh: "Refresh",
    show_all: "Show all {n}",
    watch: "Watch",
    replay: "Replay",
    join: "Join",
    join_seat: "Take seat {n}",
    join_name: "Your name",
    join_go: "Sit down",
    my_seats: "Your seats",
    my_seats_hint: "Seats you hold on this device.",
    resume: "Resume",
    forget: "Forget",
    status_open: "open",
    status_running: "running",
    status_finished: "finished",
    status_expired: "expired (never started)",
    seq_n: "{n} actions",
    free_seat: "free",
    bot: "bot",
    won_by: "won by {who}",
    created_ago: "{when}",
    // table
    loading: "Loading…",
    conn_connecting: "Connecting…",
    conn_online: "Connected",
    conn_offline: "Connection lost: reconnecting in {s} s…",
    conn_reconnecting: "Reconnecting…",
    conn_refused: "Not connected",
    watch_instead: "Watch as a spectator",
    turn_n: "Turn {n}",
    turn_of: "{who} to play",
    turn_you: "Your turn",
    turn_fall_you: "Your decision: where does {tile} fall?",
    turn_fall_other: "{who} chooses where {tile} falls",
    turn_die: "The fire die is rolling for {who}",
    turn_check_you: "Your check: does anything break a rule?",
    turn_check_other: "{who} is checking the pyramid",
    check_title: "Check the pyramid: does anything break a rule?",
    check_hint: "Click the tile that breaks a rule to call it, or say it looks fine.",
    check_ok: "Looks fine",
    call_tile: "Call {tile} at {spot}",
    false_alarm: "False alarm",
    overlooked_found: "Overlooked mayhem found",
    overlooked_cost_family: "the tiles go out of the game",
    overlooked_cost_competitive: "{who} takes the tiles",
    callout_title: "Call-out: {variant}",
    callout_no_hints: "No fit hints at this table: look before you place.",
    turn_waiting_players: "Waiting for every player to join",
    turn_chance: "Chance is being drawn…",
    turn_over: "Game over",
    clock_left: "{s} s left for {who}",
    clock_you: "you",
    you_watch: "You are watching",
    you_are: "You play {who}",
    your_hand: "Your hand",
    hand_hint: "Pick a tile, then a highlighted spot.",
    hand_hint_picked: "Now pick a highlighted spot for {tile}, or another tile.",
    hand_wait: "Wait for your turn.",
    hand_empty: "No tiles in hand.",
    spots_label: "Spots for {tile}:",
    fits: "fits",
    collapses: "will collapse",
    fit_heavy: "too heavy: {w} > {sum}",
    fit_mismatch: "no colour or number in common",
    fall_title: "{tile} has to fall. Which way?",
    fall_left: "Left to {spot}",
    fall_right: "Right to {spot}",
    seats: "Players",
    seat_hand: "hand",
    seat_pile: "pile",
    seat_known: "known: ",
    seat_you: "you",
    seat_bot: "bot",
    seat_offline: "offline",
    seat_taken_over: "bot stands in",
    seat_waiting: "not joined yet",
    seat_to_move: "to play",
    out_title: "Out of the game",
    none: "none",
    log: "Log",
    log_setup: "Setup",
    log_chance: "chance",
    all_actions: "All legal actions",
    no_actions: "Nothing to decide right now.",
    ranking: "Final ranking",
    winner: "{who} wins!",
    rank_line: "{who}",
    tiles_left: "{n} tiles left",
    points_flags: "{p} points, {f} flags",
    back_lobby: "Back to the lobby",
    view_replay: "Watch the replay",
    table_open_banner:
      "This table starts when every human seat has joined ({n} still free). Invite links were shown when the table was created.",
    speed: "Animations",
    speed_normal: "normal",
    speed_fast: "fast",
    speed_off: "off",
    event_none: "Waiting for the first move.",
    pending_die: "Rolling the fire die…",
    legend_title: "How to read a tile",
    legend_text:
      "Big number: weight. Letter: colour (Y yellow ◦ dots, R red ⁄ stripes, G green ▦ checks, B blue ≋ waves, W millstone: every colour). Corner mark: material (straw, wood, stone, ember).",
    mat_straw: "straw",
    mat_wood: "wood",
    mat_stone: "stone",
    mat_ember_coal: "ember (coal: sets straw on fire)",
    mat_ember_torch: "ember (blowtorch: sets straw and wood on fire)",
    mat_millstone: "millstone (stone, every colour)",
    colour_Y: "yellow",
    colour_R: "red",
    colour_G: "green",
    colour_B: "blue",
    colour_W: "white",
    tile_title: "{code}: {colour} {material}, weight {w}",
    keyboard_hint: "Keys: 1–5 pick a tile, ←/→ choose a fall, Esc cancels.",
    // errors
    err_generic: "Something went wrong: {message}",
    err_network: "The server cannot be reached.",
    err_out_of_turn: "Not your turn: {message}",
    err_stale: "The game moved on before your action arrived: {message}",
    err_illegal: "Not allowed: {message}",
    err_malformed: "The server did not understand: {message}",
    err_finished: "The game is over.",
    err_bad_token: "This link does not give a seat at this table: {message}",
    err_unknown_table: "There is no such table.",
    err_seat_taken: "That seat has already been taken.",
    err_private_table: "This table is invite-only: its seats are taken through their invite links.",
    err_bad_options: "The game refuses these options: {message}",
    err_too_large: "Message too large.",
    err_not_finished: "The game is not finished yet: replays open at the end.",
    // flags
    f_towers: "Table",
    f_bank: "Bank",
    f_deck: "Deck: {n} cards",
    f_your_cards: "Your cards",
    f_hand_n: "{n} cards",
    f_scored: "flags",
    f_scored_label: "flags: ",
    f_points: "{n} points",
    f_holds: "pieces",
    f_last_moved: "Moved last: {pieces}",
    f_group_move: "Moves",
    f_group_swap: "Exchange a card",
    f_group_take: "Capture",
    f_group_done: "Finish",
    f_group_tree: "Tree actions",
    f_group_other: "Other",
    f_desc_move: "move {piece} and what is on it onto {target}",
    f_desc_move_table: "move {piece} and what is on it to the table as a new tower",
    f_desc_swap: "put {card} under the deck and draw",
    f_desc_take: "capture {piece} from the bank",
    f_desc_take_from: "capture {piece} from {who}",
    f_desc_done: "stop here",
    f_desc_split: "destroy the tower on {piece} into single pyramids",
    f_desc_trade: "trade your {mine} for {theirs} of {who}",
    f_desc_grow: "draw two more cards",
    f_desc_newstart: "gather all hands, shuffle and deal again",
    f_desc_pirate: "steal a card at random from {who}",
    f_desc_wild: "use the {colour} tree's action",
    f_pick_piece: "Click a piece to move it, then its destination.",
    f_picked: "Moving {piece}: click the top piece to land on, or",
    f_to_table: "To the table",
    f_cancel: "Cancel",
    f_pending_capture: "{who} captures for {card}",
    f_pending_action: "{who} may use a tree action",
    f_tree_owed: "Tree action owed after scoring: {colour}",
    f_flag_of: "flag",
    f_groups: "groups",
    f_colour_K: "black",
    f_colour_W: "white",
    f_colour_Y: "yellow",
    f_colour_B: "blue",
    f_colour_G: "green",
    f_colour_R: "red",
    f_colour_O: "orange (highest point)",
    f_colour_P: "purple (population)",
    f_colour_C: "cyan (temperature)",
    f_colour_X: "clear (GDP per head)",
    f_table: "the table",
    group_EU: "EU",
    group_Africa: "Africa",
    group_Caribbean: "Caribbean",
    group_Oil: "Oil",
    // replay
    replay_title: "Replay",
    replay_prev: "Previous",
    replay_next: "Next",
    replay_first: "Start",
    replay_last: "End",
    replay_step_label: "Step",
    replay_start: "Starting position",
    replay_action: "{who}: {action}",
    replay_hint: "Use ← and → to step through the game.",
    replay_hands: "Hands",
    replay_piles: "Piles (top first)",
    replay_loading: "Loading the game…",
    replay_check: "{who} checks the pyramid",
    replay_overlooked_here: "Mayhem overlooked here: it stays on the pyramid",
    replay_overlooked_stands: "Overlooked mayhem stands on this pyramid",
    replay_found: "Overlooked mayhem found",
    replay_marks: "Call-out",
    replay_mark_overlooked: "{n}: mayhem overlooked",
    replay_mark_found: "{n}: overlooked mayhem found",
    seeded: "seeded",
    seeded_hint: "The creator chose this table's seed (allowed only when every other seat is a bot): a puzzle, an analysis or a bug report, not a fair game between people.",
    commitment_short: "commitment {hash}…",
    commitment_hint: "SHA-256 commitment to this table's secret seed: {hash}. Once the game is over its record reveals seed and salt, and the replay checks them against it.",
    fair_title: "Fair randomness",
    fair_commitment: "Commitment",
    fair_seed: "Seed",
    fair_salt: "Salt",
    fair_verified: "Verified: SHA-256 of seed and salt is the commitment published when the table was created.",
    fair_mismatch: "Does not match: SHA-256 of seed and salt is {hash}, not the commitment.",
    fair_unchecked: "This browser cannot compute SHA-256 here (the page is not served over HTTPS); check the record with pyramids verify.",
    fair_none: "This table was stored before commitments existed: nothing to check.",
    fair_note: "This page checks the commitment. `pyramids verify RECORD` (the record: /api/tables/<id>/record) also re-deals from the seed and checks every chance draw and every action.",
    err_seed_not_allowed: "A seed may be chosen only when every other seat is a bot.",
  },
  fr: {
    app_name: "Pyramides",
    tagline: "Empiler des tuiles, semer le chaos, entre amis et contre des robots",
    nav_lobby: "Accueil",
    lang_label: "Langue",
    game_flaming: "Flaming Pyramids",
    game_flags: "Pyramides et drapeaux",
    new_table: "Nouvelle table",
    field_game: "Jeu",
    field_players: "Joueurs",
    field_preset: "Règles",
    preset_basic: "Base : sans braises ni meule",
    preset_family: "Famille : braises et meule",
    preset_standard: "Standard : braises, meule et malédiction",
    preset_default: "Règles standard",
    field_options: "Options",
    opt_curse: "Malédiction",
    opt_fire_die: "Dé de feu",
    opt_max_turns: "Limite de tours",
    opt_actions: "Actions des arbres",
    opt_first_player: "Premier joueur",
    opt_callout: "Vérification",
    opt_callout_off: "non : le jeu règle le chaos",
    opt_callout_family: "famille",
    opt_callout_competitive: "compétition",
    callout_help: "Après chaque pose, le joueur suivant vérifie la pyramide et désigne la tuile qui enfreint une règle.",
    callout_help_family: "Famille : un chaos passé inaperçu et découvert plus tard met les tuiles hors du jeu.",
    callout_help_competitive: "Compétition : le joueur dont c'est le tour quand on le découvre prend les tuiles.",
    field_hints: "Indices (✓ / ⚠ sur chaque emplacement)",
    hints_hint:
      "Dit au joueur qui pose si une tuile tient sur chaque emplacement. Désactivés par défaut en mode vérification, où repérer ce qui enfreint une règle fait partie du jeu.",
    opt_default: "selon la variante",
    opt_on: "oui",
    opt_off: "non",
    field_seats: "Places",
    seat_label: "Place {n}",
    kind_human: "Humain",
    kind_random: "Robot au hasard",
    kind_greedy: "Robot glouton",
    kind_ismcts: "ISMCTS (le plus fort)",
    field_name: "Nom",
    name_placeholder: "Joueur {n}",
    field_bot_delay: "Délai des robots (secondes)",
    field_public: "Table publique (tout le monde peut prendre une place libre)",
    public_hint:
      "Une table publique est affichée dans le salon, où tout le monde peut prendre une place libre. Sinon, seuls vos liens d'invitation en donnent les places.",
    more_settings: "Autres réglages",
    field_absent_after: "Un robot remplace un joueur absent après (secondes, 0 = jamais)",
    field_turn_time: "Temps par décision (secondes, 0 = illimité)",
    field_takeover_bot: "Robot remplaçant",
    field_seed: "Graine (facultatif ; seulement si les autres places sont des robots)",
    seed_placeholder: "au hasard",
    create: "Créer la table",
    creating: "Création…",
    created_title: "Table créée",
    invites_hint:
      "Chaque place humaine a son lien secret. Envoyez à chacun le sien : les liens ne sont montrés qu'une fois.",
    invite_for: "{name} (place {n})",
    copy: "Copier",
    copied: "Copié",
    copy_failed: "Sélectionnez le lien et copiez-le à la main",
    open_link: "Ouvrir",
    watch_table: "Regarder cette table",
    tables_open: "En attente de joueurs",
    tables_running: "Parties en cours",
    tables_finished: "Parties terminées",
    tables_none: "Aucune pour l'instant.",
    refresh: "Actualiser",
    show_all: "Tout afficher ({n})",
    watch: "Regarder",
    replay: "Revoir",
    join: "Rejoindre",
    join_seat: "Prendre la place {n}",
    join_name: "Votre nom",
    join_go: "S'asseoir",
    my_seats: "Vos places",
    my_seats_hint: "Les places que vous tenez sur cet appareil.",
    resume: "Reprendre",
    forget: "Oublier",
    status_open: "ouverte",
    status_running: "en cours",
    status_finished: "terminée",
    status_expired: "expirée (jamais commencée)",
    seq_n: "{n} actions",
    free_seat: "libre",
    bot: "robot",
    won_by: "gagnée par {who}",
    created_ago: "{when}",
    loading: "Chargement…",
    conn_connecting: "Connexion…",
    conn_online: "Connecté",
    conn_offline: "Connexion perdue : nouvel essai dans {s} s…",
    conn_reconnecting: "Reconnexion…",
    conn_refused: "Non connecté",
    watch_instead: "Regarder en spectateur",
    turn_n: "Tour {n}",
    turn_of: "Au tour de {who}",
    turn_you: "À vous de jouer",
    turn_fall_you: "À vous de décider : de quel côté tombe {tile} ?",
    turn_fall_other: "{who} choisit où tombe {tile}",
    turn_die: "Le dé de feu roule pour {who}",
    turn_check_you: "À vous de vérifier : une règle est-elle enfreinte ?",
    turn_check_other: "{who} vérifie la pyramide",
    check_title: "Vérifiez la pyramide : une règle est-elle enfreinte ?",
    check_hint: "Cliquez sur la tuile fautive pour la signaler, ou dites que tout va bien.",
    check_ok: "Tout va bien",
    call_tile: "Signaler {tile} en {spot}",
    false_alarm: "Fausse alerte",
    overlooked_found: "Chaos passé inaperçu découvert",
    overlooked_cost_family: "les tuiles sortent du jeu",
    overlooked_cost_competitive: "{who} prend les tuiles",
    callout_title: "Vérification : {variant}",
    callout_no_hints: "Pas d'indices à cette table : regardez avant de poser.",
    turn_waiting_players: "En attente de tous les joueurs",
    turn_chance: "Tirage au hasard…",
    turn_over: "Partie terminée",
    clock_left: "encore {s} s pour {who}",
    clock_you: "vous",
    you_watch: "Vous regardez",
    you_are: "Vous jouez {who}",
    your_hand: "Votre main",
    hand_hint: "Choisissez une tuile, puis un emplacement en surbrillance.",
    hand_hint_picked: "Choisissez un emplacement pour {tile}, ou une autre tuile.",
    hand_wait: "Attendez votre tour.",
    hand_empty: "Aucune tuile en main.",
    spots_label: "Emplacements pour {tile} :",
    fits: "tient",
    collapses: "va s'effondrer",
    fit_heavy: "trop lourde : {w} > {sum}",
    fit_mismatch: "ni couleur ni nombre en commun",
    fall_title: "{tile} doit tomber. De quel côté ?",
    fall_left: "À gauche en {spot}",
    fall_right: "À droite en {spot}",
    seats: "Joueurs",
    seat_hand: "main",
    seat_pile: "pioche",
    seat_known: "connues : ",
    seat_you: "vous",
    seat_bot: "robot",
    seat_offline: "hors ligne",
    seat_taken_over: "remplacé par un robot",
    seat_waiting: "pas encore arrivé",
    seat_to_move: "joue",
    out_title: "Hors du jeu",
    none: "aucune",
    log: "Journal",
    log_setup: "Mise en place",
    log_chance: "hasard",
    all_actions: "Toutes les actions permises",
    no_actions: "Rien à décider pour l'instant.",
    ranking: "Classement final",
    winner: "{who} gagne !",
    rank_line: "{who}",
    tiles_left: "{n} tuiles restantes",
    points_flags: "{p} points, {f} drapeaux",
    back_lobby: "Retour à l'accueil",
    view_replay: "Revoir la partie",
    table_open_banner:
      "La partie commence quand toutes les places humaines sont prises ({n} encore libres). Les liens d'invitation ont été donnés à la création de la table.",
    speed: "Animations",
    speed_normal: "normales",
    speed_fast: "rapides",
    speed_off: "aucune",
    event_none: "En attente du premier coup.",
    pending_die: "Le dé de feu roule…",
    legend_title: "Lire une tuile",
    legend_text:
      "Grand nombre : le poids. Lettre : la couleur (Y jaune ◦ points, R rouge ⁄ rayures, G vert ▦ damier, B bleu ≋ vagues, W meule : toutes les couleurs). Marque du coin : la matière (paille, bois, pierre, braise).",
    mat_straw: "paille",
    mat_wood: "bois",
    mat_stone: "pierre",
    mat_ember_coal: "braise (charbon : enflamme la paille)",
    mat_ember_torch: "braise (chalumeau : enflamme la paille et le bois)",
    mat_millstone: "meule (pierre, toutes les couleurs)",
    colour_Y: "jaune",
    colour_R: "rouge",
    colour_G: "vert",
    colour_B: "bleu",
    colour_W: "blanc",
    tile_title: "{code} : {colour}, {material}, poids {w}",
    keyboard_hint: "Touches : 1–5 choisissent une tuile, ←/→ une chute, Échap annule.",
    err_generic: "Un problème est survenu : {message}",
    err_network: "Le serveur est injoignable.",
    err_out_of_turn: "Ce n'est pas votre tour : {message}",
    err_stale: "La partie a avancé avant l'arrivée de votre action : {message}",
    err_illegal: "Interdit : {message}",
    err_malformed: "Le serveur n'a pas compris : {message}",
    err_finished: "La partie est terminée.",
    err_bad_token: "Ce lien ne donne pas de place à cette table : {message}",
    err_unknown_table: "Cette table n'existe pas.",
    err_seat_taken: "Cette place est déjà prise.",
    err_private_table: "Cette table est sur invitation : on y prend place par son lien d'invitation.",
    err_bad_options: "Le jeu refuse ces options : {message}",
    err_too_large: "Message trop long.",
    err_not_finished: "La partie n'est pas finie : on la revoit à la fin.",
    f_towers: "Table",
    f_bank: "Banque",
    f_deck: "Pioche : {n} cartes",
    f_your_cards: "Vos cartes",
    f_hand_n: "{n} cartes",
    f_scored: "drapeaux",
    f_scored_label: "drapeaux : ",
    f_points: "{n} points",
    f_holds: "pièces",
    f_last_moved: "Déplacé en dernier : {pieces}",
    f_group_move: "Déplacements",
    f_group_swap: "Échanger une carte",
    f_group_take: "Capture",
    f_group_done: "Terminer",
    f_group_tree: "Actions des arbres",
    f_group_other: "Autres",
    f_desc_move: "déplacer {piece} et ce qui est dessus sur {target}",
    f_desc_move_table: "poser {piece} et ce qui est dessus sur la table, en nouvelle tour",
    f_desc_swap: "mettre {card} sous la pioche et piocher",
    f_desc_take: "capturer {piece} à la banque",
    f_desc_take_from: "capturer {piece} chez {who}",
    f_desc_done: "s'arrêter là",
    f_desc_split: "détruire la tour posée sur {piece} en pyramides seules",
    f_desc_trade: "échanger votre {mine} contre {theirs} de {who}",
    f_desc_grow: "piocher deux cartes de plus",
    f_desc_newstart: "réunir toutes les mains, mélanger et redistribuer",
    f_desc_pirate: "voler une carte au hasard à {who}",
    f_desc_wild: "utiliser l'action de l'arbre {colour}",
    f_pick_piece: "Cliquez sur une pièce pour la déplacer, puis sur sa destination.",
    f_picked: "Déplacement de {piece} : cliquez sur la pièce du sommet où la poser, ou",
    f_to_table: "Sur la table",
    f_cancel: "Annuler",
    f_pending_capture: "{who} capture pour {card}",
    f_pending_action: "{who} peut utiliser une action d'arbre",
    f_tree_owed: "Action d'arbre due après le décompte : {colour}",
    f_flag_of: "drapeau",
    f_groups: "groupes",
    f_colour_K: "noir",
    f_colour_W: "blanc",
    f_colour_Y: "jaune",
    f_colour_B: "bleu",
    f_colour_G: "vert",
    f_colour_R: "rouge",
    f_colour_O: "orange (point culminant)",
    f_colour_P: "violet (population)",
    f_colour_C: "cyan (température)",
    f_colour_X: "transparent (PIB par habitant)",
    f_table: "la table",
    group_EU: "UE",
    group_Africa: "Afrique",
    group_Caribbean: "Caraïbes",
    group_Oil: "OPEP",
    replay_title: "Relecture",
    replay_prev: "Précédent",
    replay_next: "Suivant",
    replay_first: "Début",
    replay_last: "Fin",
    replay_step_label: "Étape",
    replay_start: "Position de départ",
    replay_action: "{who} : {action}",
    replay_hint: "Utilisez ← et → pour parcourir la partie.",
    replay_hands: "Mains",
    replay_piles: "Pioches (dessus en premier)",
    replay_loading: "Chargement de la partie…",
    replay_check: "{who} vérifie la pyramide",
    replay_overlooked_here: "Chaos passé inaperçu ici : il reste sur la pyramide",
    replay_overlooked_stands: "Un chaos passé inaperçu reste sur cette pyramide",
    replay_found: "Chaos passé inaperçu découvert",
    replay_marks: "Vérification",
    replay_mark_overlooked: "{n} : chaos passé inaperçu",
    replay_mark_found: "{n} : chaos inaperçu découvert",
    seeded: "graine choisie",
    seeded_hint: "Le créateur a choisi la graine de cette table (permis seulement si toutes les autres places sont des robots) : un problème, une analyse ou un rapport de bogue, pas une partie équitable entre personnes.",
    commitment_short: "engagement {hash}…",
    commitment_hint: "Engagement SHA-256 sur la graine secrète de cette table : {hash}. À la fin de la partie, son enregistrement révèle la graine et le sel, et la relecture les vérifie.",
    fair_title: "Hasard équitable",
    fair_commitment: "Engagement",
    fair_seed: "Graine",
    fair_salt: "Sel",
    fair_verified: "Vérifié : le SHA-256 de la graine et du sel est l'engagement publié à la création de la table.",
    fair_mismatch: "Ne correspond pas : le SHA-256 de la graine et du sel est {hash}, pas l'engagement.",
    fair_unchecked: "Ce navigateur ne peut pas calculer SHA-256 ici (la page n'est pas servie en HTTPS) ; vérifiez l'enregistrement avec pyramids verify.",
    fair_none: "Cette table date d'avant les engagements : rien à vérifier.",
    fair_note: "Cette page vérifie l'engagement. `pyramids verify RECORD` (l'enregistrement : /api/tables/<id>/record) redistribue aussi depuis la graine et vérifie chaque tirage et chaque action.",
    err_seed_not_allowed: "On ne peut choisir la graine que si toutes les autres places sont des robots.",
  },
};

export const LANGS = ["en", "fr"];
const STORAGE_KEY = "pyramids.lang";
const listeners = new Set();

function initialLang() {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (LANGS.includes(saved)) return saved;
  } catch {
    // storage may be unavailable (private mode): fall back to the browser's language
  }
  return (navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
}

let current = initialLang();

/** The current language code ("en" or "fr"). */
export function lang() {
  return current;
}

/** The catalogue entry `key` in the current language, with {name} fields filled in. */
export function t(key, params = {}) {
  const entry = CATALOGUE[current][key] ?? CATALOGUE.en[key];
  if (entry === undefined) return key;
  return entry.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** Whether the catalogue has `key`. */
export function has(key) {
  return key in CATALOGUE.en;
}

const EVENT_MESSAGES = {}; // lang -> the shared catalogue (pyramids.texts), once fetched

/** Fetch the shared event catalogue of every language (once; failures keep server texts). */
export function loadEventMessages() {
  if (typeof fetch !== "function") return Promise.resolve();
  return Promise.all(
    LANGS.map((code) =>
      fetch(`/texts/${code}.json`)
        .then((r) => (r.ok ? r.json() : null))
        .then((entries) => {
          if (entries) EVENT_MESSAGES[code] = entries;
        })
        .catch(() => {}),
    ),
  );
}

/** An event's sentence in `code` from the shared catalogue, or null when it cannot. */
export function formatEvent(event, code = current) {
  const entries = EVENT_MESSAGES[code];
  const english = EVENT_MESSAGES.en || {};
  if (!entries || !event || !event.game) return null;
  const lookup = (key) => entries[key] ?? english[key];
  const text = lookup(`${event.game}.${event.kind}`);
  if (text === undefined) return null;
  try {
    return formatMessage(text, event.data || {}, lookup);
  } catch {
    return null;
  }
}

/** An event's one-line reason in the current language (catalogue, else the server's text). */
export function eventText(event) {
  if (!event) return "";
  const formatted = formatEvent(event);
  if (formatted !== null) return formatted;
  return (current === "fr" ? event.text_fr : event.text_en) || event.text_en || "";
}

/** Translate every element under `root` marked with data-i18n / data-i18n-attr. */
export function applyTranslations(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) el.setAttribute(attr.trim(), t(key.trim()));
    }
  }
  document.documentElement.lang = current;
}

/** Switch language, remember it, re-translate the page and tell the listeners. */
export function setLang(code) {
  if (!LANGS.includes(code)) return;
  current = code;
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // not remembered, still switched
  }
  applyTranslations();
  markLangButtons();
  for (const fn of listeners) fn(code);
}

/** Call `fn(lang)` after every language change. */
export function onLangChange(fn) {
  listeners.add(fn);
}

function markLangButtons() {
  for (const code of LANGS) {
    for (const btn of document.querySelectorAll(`[data-testid=lang-${code}]`)) {
      btn.setAttribute("aria-pressed", String(code === current));
    }
  }
}

/** Wire the lang-en / lang-fr buttons of the page and translate it once. */
export function initI18n() {
  for (const code of LANGS) {
    for (const btn of document.querySelectorAll(`[data-testid=lang-${code}]`)) {
      btn.addEventListener("click", () => setLang(code));
    }
  }
  applyTranslations();
  markLangButtons();
  loadEventMessages();
}
