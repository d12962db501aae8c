// The Pyramids and Flags rules page's content: sections in English and French, written
// for players, and the examples as data (towers bottom to top, piece codes colour letter +
// size) that rules-page.js draws with the flags table's own pieces (rules-flags-draw.js).

const L = (en, fr) => ({ en, fr });

/** A diagram of towers: `towers` bottom to top; `marks` piece -> class (picked, flag, between). */
function towers(caption, list, marks = {}) {
  return { kind: "towers", caption, towers: list, marks };
}

/** A diagram of a set of pieces (a bank, a player's scoring pyramids) with a label. */
function pieces(caption, list, marks = {}) {
  return { kind: "pieces", caption, pieces: list, marks };
}

export const NAME = L("Pyramids and Flags", "Pyramides et drapeaux");
export const TITLE = L("Pyramids and Flags: the rules", "Pyramides et drapeaux : les règles");
export const INTRO = L(
  "Stack pyramids into the flags on your secret goal cards, capture scoring pyramids, and be the first to win.",
  "Empilez des pyramides pour former les drapeaux de vos cartes objectif secrètes, capturez des pyramides de score, et soyez le premier à gagner.",
);

export const SECTIONS = [
  {
    id: "goal",
    title: L("How to win", "Comment gagner"),
    text: [L("You win at once when you have:", "Vous gagnez sur-le-champ quand vous avez :")],
    list: [
      L("5 flags scored, or", "5 drapeaux réussis, ou"),
      L(
        "3 flags scored from one group (EU, Africa, Caribbean, Oil: the oil exporters; a card in two groups counts for both), or",
        "3 drapeaux réussis d'un même groupe (UE, Afrique, Caraïbes, OPEP : les exportateurs de pétrole ; une carte de deux groupes compte pour les deux), ou",
      ),
      L("8 points of scoring pyramids (see Volcano scoring).", "8 points de pyramides de score (voir le décompte Volcano)."),
    ],
    after: [L("An easy way to remember it: 3 + 5 = 8.", "Pour s'en souvenir : 3 + 5 = 8.")],
  },
  {
    id: "pieces",
    title: L("The pyramids", "Les pyramides"),
    text: [
      L(
        "30 pyramids: a small, a medium and a large one (1, 2 and 3 pips) in each of ten colours. Black, white, yellow, blue, green and red build flags and always stay on the table. Orange, purple, cyan and clear are scoring pyramids: they start in the bank and players capture them.",
        "30 pyramides : une petite, une moyenne et une grande (1, 2 et 3 points) dans chacune de dix couleurs. Noir, blanc, jaune, bleu, vert et rouge servent aux drapeaux et restent toujours sur la table. Orange, violet, cyan et transparent sont les pyramides de score : elles commencent dans la banque et les joueurs les capturent.",
      ),
    ],
    figures: [
      pieces(L("The six flag colours, large ones.", "Les six couleurs de drapeau, en grand."), ["K3", "W3", "Y3", "B3", "G3", "R3"]),
      pieces(L("The bank: the twelve scoring pyramids.", "La banque : les douze pyramides de score."), ["O1", "O2", "O3", "P1", "P2", "P3", "C1", "C2", "C3", "X1", "X2", "X3"]),
    ],
  },
  {
    id: "cards",
    title: L("The goal cards", "Les cartes objectif"),
    text: [
      L(
        "36 goal cards, one country each. A card shows the country's flag as a tower of 2 or 3 pyramids (bottom to top), and four scoring pyramids rating four facts about the country:",
        "36 cartes objectif, un pays chacune. Une carte montre le drapeau du pays comme une tour de 2 ou 3 pyramides (de bas en haut), et quatre pyramides de score qui notent quatre faits sur le pays :",
      ),
    ],
    list: [
      L("orange: the highest point (small under 1,500 m, medium up to 2,999 m, large 3,000 m and more);", "orange : le point culminant (petite sous 1 500 m, moyenne jusqu'à 2 999 m, grande à partir de 3 000 m) ;"),
      L("purple: the population (small under 10 million, medium up to 39.9 million, large 40 million and more);", "violet : la population (petite sous 10 millions, moyenne jusqu'à 39,9 millions, grande à partir de 40 millions) ;"),
      L("cyan: the average temperature (small under 12 °C, medium up to 24.9 °C, large 25 °C and more);", "cyan : la température moyenne (petite sous 12 °C, moyenne jusqu'à 24,9 °C, grande à partir de 25 °C) ;"),
      L("clear: the GDP per head (small under $18,000, medium up to $47,499, large $47,500 and more).", "transparent : le PIB par habitant (petite sous 18 000 $, moyenne jusqu'à 47 499 $, grande à partir de 47 500 $)."),
    ],
    figures: [
      towers(L("The Czech Republic's flag: a large blue, a medium red on it, a small white on top.", "Le drapeau de la Tchéquie : une grande bleue, une moyenne rouge dessus, une petite blanche au sommet."), [["B3", "R2", "W1"]]),
      pieces(
        L("Its scoring pyramids: medium orange, medium purple, small cyan and large clear.", "Ses pyramides de score : orange moyenne, violette moyenne, cyan petite et transparente grande."),
        ["O2", "P2", "C1", "X3"],
      ),
    ],
  },
  {
    id: "setup",
    title: L("Setting up", "Mise en place"),
    text: [
      L(
        "The 18 flag pyramids stand on the table one by one; the 12 scoring pyramids form the bank. Each player is dealt 4 goal cards, kept secret; the rest is the deck. Seat 1 plays first unless the table chose another (the First player option), then play passes to the next seat.",
        "Les 18 pyramides de drapeau sont posées une par une sur la table ; les 12 pyramides de score forment la banque. Chaque joueur reçoit 4 cartes objectif, gardées secrètes ; le reste forme la pioche. La place 1 commence sauf si la table en a choisi une autre (l'option Premier joueur), puis le jeu passe à la place suivante.",
      ),
    ],
  },
  {
    id: "move",
    title: L("Your turn: a move", "Votre tour : un déplacement"),
    text: [
      L(
        "On your turn, do one thing: a move or an exchange. A move takes the top pyramid of a tower, or several from the top (even the whole tower), and puts them, in the same order, on the table as a new tower or on top of another tower.",
        "À votre tour, faites une seule chose : un déplacement ou un échange. Un déplacement prend la pyramide du haut d'une tour, ou plusieurs depuis le haut (même toute la tour), et les pose, dans le même ordre, sur la table comme nouvelle tour ou sur une autre tour.",
      ),
    ],
    list: [
      L(
        "Never on a smaller pyramid: the lowest pyramid you move may not be larger than the one it lands on (equal sizes are fine).",
        "Jamais sur une plus petite : la plus basse des pyramides déplacées ne peut pas être plus grande que celle sur laquelle elle arrive (même taille, c'est permis).",
      ),
      L(
        "You may not move exactly the same pyramids the previous player just moved; a bigger or smaller group is fine. After an exchange, anything may move.",
        "Vous ne pouvez pas déplacer exactement les pyramides que le joueur précédent vient de déplacer ; un groupe plus grand ou plus petit, c'est permis. Après un échange, tout peut bouger.",
      ),
      L("A whole tower may not be put back on the table (it would change nothing).", "Une tour entière ne peut pas être reposée sur la table (cela ne changerait rien)."),
    ],
    figures: [
      towers(L("Before: the medium red with the small white on it is moved…", "Avant : la moyenne rouge avec la petite blanche dessus est déplacée…"), [["B3"], ["R2", "W1"], ["G1"]], { R2: "picked", W1: "picked" }),
      towers(L("…onto the large blue. Not onto the small green: that one is smaller.", "…sur la grande bleue. Pas sur la petite verte : elle est plus petite."), [["B3", "R2", "W1"], ["G1"]]),
    ],
  },
  {
    id: "exchange",
    title: L("Your turn: an exchange", "Votre tour : un échange"),
    text: [
      L(
        "Instead of a move you may exchange a goal card: put one of your cards under the deck and draw the top one. Not possible when the deck is empty. No flag is scored after an exchange.",
        "Au lieu d'un déplacement, vous pouvez échanger une carte objectif : mettez une de vos cartes sous la pioche et prenez celle du dessus. Impossible quand la pioche est vide. Aucun drapeau n'est compté après un échange.",
      ),
    ],
  },
  {
    id: "flags",
    title: L("Building a flag", "Réussir un drapeau"),
    text: [
      L(
        "A card's flag is built when a tower holds its pyramids in order, each directly on the next. Other pyramids below or above do not matter; a pyramid in between breaks it. After every move, every player whose flag stands scores it, the mover first, then the others in turn: even a flag someone else built for you counts, out of turn. A built flag stays on the table as an ordinary tower; its pyramids may be moved later.",
        "Le drapeau d'une carte est réussi quand une tour contient ses pyramides dans l'ordre, chacune directement sur la suivante. D'autres pyramides dessous ou dessus ne comptent pas ; une pyramide intercalée le casse. Après chaque déplacement, chaque joueur dont un drapeau est debout le compte, celui qui a joué d'abord, puis les autres dans l'ordre : même un drapeau qu'un autre a construit pour vous compte, hors de votre tour. Un drapeau réussi reste sur la table comme une tour ordinaire ; ses pyramides pourront être déplacées.",
      ),
    ],
    figures: [
      towers(L("Built: a black pyramid underneath does not matter.", "Réussi : une pyramide noire dessous ne compte pas."), [["K3", "B3", "R2", "W1"]], { B3: "flag", R2: "flag", W1: "flag" }),
      towers(L("Not built: the small green sits between the red and the white.", "Pas réussi : la petite verte est entre la rouge et la blanche."), [["B3", "R2", "G1", "W1"]], { G1: "between" }),
    ],
  },
  {
    id: "capture",
    title: L("Scoring a card and capturing", "Compter une carte et capturer"),
    text: [
      L(
        "A scored card goes face up in front of you. Then you capture: either up to two of the card's four scoring pyramids from the bank, or exactly one of them from an opponent who holds it. Only the exact colour and size shown on the card; you may also take nothing. Then you draw a new goal card (if the deck has one).",
        "Une carte comptée est posée face visible devant vous. Puis vous capturez : soit jusqu'à deux des quatre pyramides de score de la carte dans la banque, soit exactement une d'entre elles chez un adversaire qui la possède. Seulement la couleur et la taille exactes de la carte ; vous pouvez aussi ne rien prendre. Puis vous piochez une nouvelle carte objectif (s'il en reste).",
      ),
    ],
    figures: [
      pieces(
        L("After the Czech flag: take any two of these from the bank, or one from an opponent.", "Après le drapeau tchèque : prenez deux de celles-ci dans la banque, ou une chez un adversaire."),
        ["O2", "P2", "C1", "X3"],
        { O2: "flag", P2: "flag", C1: "flag", X3: "flag" },
      ),
    ],
  },
  {
    id: "volcano",
    title: L("Volcano scoring: your points", "Le décompte Volcano : vos points"),
    text: [
      L(
        "Each scoring pyramid is worth 1 point. Three pyramids of the three sizes (a small, a medium and a large) make a tree, worth 5 instead of 3; a tree of one colour is worth 7. Your pyramids are always counted in the best way: as many trees as you can make, and as many one-colour trees as you can.",
        "Chaque pyramide de score vaut 1 point. Trois pyramides des trois tailles (une petite, une moyenne et une grande) forment un arbre, qui vaut 5 au lieu de 3 ; un arbre d'une seule couleur vaut 7. Vos pyramides sont toujours comptées au mieux : autant d'arbres que possible, et autant d'arbres d'une seule couleur que possible.",
      ),
    ],
    figures: [
      pieces(L("3 points: three mediums are no tree, so 1 point each.", "3 points : trois moyennes ne font pas d'arbre, donc 1 point chacune."), ["O2", "P2", "C2"]),
      pieces(L("5 points: a small, a medium and a large make a tree: 3 pyramids, plus 2 for the tree.", "5 points : une petite, une moyenne et une grande font un arbre : 3 pyramides, plus 2 pour l'arbre."), ["O1", "P2", "C3"]),
      pieces(L("7 points: a tree of one colour: 3 pyramids, plus 2 for the tree, plus 2 for the single colour.", "7 points : un arbre d'une seule couleur : 3 pyramides, plus 2 pour l'arbre, plus 2 pour la couleur unique."), ["O1", "O2", "O3"]),
      pieces(L("8 points, a win: the orange tree (7) and one more pyramid (1).", "8 points, la victoire : l'arbre orange (7) et une pyramide de plus (1)."), ["O1", "O2", "O3", "P1"]),
    ],
  },
  {
    id: "trees",
    title: L("Trees and their actions", "Les arbres et leurs actions"),
    text: [
      L(
        "With the advanced rules (the default preset), building a tree of one flag colour on the table (its large, medium and small stacked in that order; other pyramids may be below or above) earns an action of that colour. No flag is such a tree. The tree must be made by your move: the piece you move becomes its medium or its small. Moving a whole tree elsewhere earns nothing; building one again earns the action again. You use the action after all the scoring of your move, unless the game has ended; you may always decline it. An action with nothing to act on is skipped. No flag is scored after an action: a card you got through one scores after the next move if its flag still stands.",
        "Avec les règles avancées (le préréglage par défaut), construire sur la table un arbre d'une couleur de drapeau (sa grande, sa moyenne et sa petite empilées dans cet ordre ; d'autres pyramides peuvent être dessous ou dessus) donne une action de cette couleur. Aucun drapeau n'est un tel arbre. L'arbre doit être fait par votre déplacement : la pièce déplacée devient sa moyenne ou sa petite. Déplacer un arbre entier ailleurs ne donne rien ; en reconstruire un redonne l'action. Vous jouez l'action après tous les comptes de votre déplacement, sauf si la partie est finie ; vous pouvez toujours la refuser. Une action sans rien sur quoi agir est sautée. Aucun drapeau n'est compté après une action : une carte obtenue ainsi compte après le prochain déplacement si son drapeau est toujours debout.",
      ),
    ],
    list: [
      L("Red, destroy: take apart any number of towers into single pyramids.", "Rouge, destruction : démontez autant de tours que vous voulez en pyramides isolées."),
      L("Blue, trade: swap one of your scoring pyramids with one of an opponent's (you choose both).", "Bleu, échange : échangez une de vos pyramides de score contre une d'un adversaire (vous choisissez les deux)."),
      L("Green, grow: draw two more goal cards and keep them.", "Vert, croissance : piochez deux cartes objectif de plus et gardez-les."),
      L(
        "Yellow, new start: all goal cards in hands are gathered, shuffled and dealt out again one at a time, starting with you (the first seats served get the extra cards).",
        "Jaune, nouveau départ : toutes les cartes objectif en main sont rassemblées, mélangées et redistribuées une à une, en commençant par vous (les premières places servies ont les cartes en plus).",
      ),
      L("Black, pirate: choose an opponent who has a card and take one of their cards at random.", "Noir, pirate : choisissez un adversaire qui a une carte et prenez-lui une carte au hasard."),
      L("White, wild: choose one of the five actions above (only those that can do something are offered).", "Blanc, joker : choisissez une des cinq actions ci-dessus (seules celles qui peuvent agir sont proposées)."),
    ],
    figures: [
      towers(L("Putting the small red on the medium red completes a red tree: destroy.", "Poser la petite rouge sur la moyenne rouge complète un arbre rouge : destruction."), [["R3", "R2", "R1"], ["W2"]], { R3: "flag", R2: "flag", R1: "picked" }),
      towers(L("A tree on top of other pyramids counts too: a blue tree, trade.", "Un arbre posé sur d'autres pyramides compte aussi : un arbre bleu, échange."), [["K3", "B3", "B2", "B1"]], { B3: "flag", B2: "flag", B1: "flag" }),
    ],
  },
  {
    id: "presets",
    title: L("Rules presets", "Règles prédéfinies"),
    list: [
      L("Advanced (the default): with the trees' actions.", "Avancé (par défaut) : avec les actions des arbres."),
      L("Basic: trees earn nothing.", "Base : les arbres ne donnent rien."),
    ],
  },
  {
    id: "turn-limit",
    title: L("Turn limit", "Limite de tours"),
    text: [
      L(
        "A safeguard, not a rule of the game: a game nobody has won after this many turns ends, and players are ranked by points, then by flags scored.",
        "Une sécurité, pas une règle du jeu : une partie que personne n'a gagnée après ce nombre de tours s'arrête, et les joueurs sont classés aux points, puis aux drapeaux réussis.",
      ),
    ],
  },
];
