// The Flaming Pyramids rules page's content: sections in English and French, written for
// players, and the rulebook's examples as positions (tiles as "TILE@row,col", row 0 the
// base) that rules-page.js draws with the table's own drawing (flaming-draw.js).
//
// The positions are the worked examples of docs/RULES.md (FP-EX-A … FP-EX-CURSE) as the
// engine's tests play them; marks only say what the caption tells (placed, burning, gone).

const L = (en, fr) => ({ en, fr });

/** One diagram: a position and what to mark on it. */
function fig(caption, pyramid, marks = {}) {
  return { caption, pyramid, ...marks };
}

const STRAW = ["R6@0,0", "B100@0,2", "Y30@0,4", "Y1@1,3"];
const STRAW_PLAYED = [...STRAW, "B2@1,1"];
const COLLAPSE = [
  "R20@0,0",
  "Y120@0,2",
  "R40@0,4",
  "G60@0,6",
  "B20@1,1",
  "R6@1,3",
  "R60@1,5",
  "R30@2,4",
];
const WOOD = ["R100@0,0", "Y30@0,2", "Y1@0,4", "R40@0,6", "B20@0,8", "B100@0,10", "R10@1,5", "B10@1,9"];
const EXPLODE = ["G20@0,0", "R100@0,2", "B100@0,4", "Y30@0,6", "R60@1,1", "B7@1,3", "B60@2,2"];

export const NAME = L("Flaming Pyramids", "Pyramides en flammes");
export const TITLE = L("Flaming Pyramids: the rules", "Pyramides en flammes : les règles");
export const INTRO = L(
  "Everyone builds one pyramid together. Play your tiles on it, survive the mayhem, and be the first with no tile left.",
  "Tout le monde construit ensemble une seule pyramide. Posez vos tuiles, survivez au chaos, et soyez le premier à ne plus avoir de tuile.",
);

export const SECTIONS = [
  {
    id: "goal",
    title: L("Goal", "But du jeu"),
    text: [
      L(
        "Be the first to get rid of all your tiles. You win when your turn ends (after all the mayhem and your draw) with no tile in your hand and none in your draw pile. Emptying your hand is not enough if mayhem gave you tiles back.",
        "Soyez le premier à vous débarrasser de toutes vos tuiles. Vous gagnez quand votre tour se termine (après tout le chaos et votre pioche) sans tuile en main ni dans votre pioche. Vider sa main ne suffit pas si le chaos vous a rendu des tuiles.",
      ),
    ],
  },
  {
    id: "tiles",
    title: L("The tiles", "Les tuiles"),
    text: [
      L(
        "There are 45 tiles, all different. Each has a colour (yellow, red, green or blue) and a number, its weight. The weight also tells the material:",
        "Il y a 45 tuiles, toutes différentes. Chacune a une couleur (jaune, rouge, vert ou bleu) et un nombre, son poids. Le poids indique aussi la matière :",
      ),
    ],
    list: [
      L("Straw: 2, 4 and 6. Straw burns in every fire.", "Paille : 2, 4 et 6. La paille brûle dans tous les incendies."),
      L("Wood: 10, 20, 30 and 40. Wood burns only in a blowtorch's fire.", "Bois : 10, 20, 30 et 40. Le bois ne brûle que dans l'incendie d'un chalumeau."),
      L("Stone: 60, 100 and 120. Stone never burns.", "Pierre : 60, 100 et 120. La pierre ne brûle jamais."),
      L(
        "The millstone 200: stone (it never burns) with every colour at once. Its number is not wild: it only matches another 200, and there is none.",
        "La meule 200 : de la pierre (elle ne brûle jamais) qui a toutes les couleurs à la fois. Son nombre n'est pas joker : il ne va qu'avec un autre 200, et il n'y en a pas.",
      ),
      L(
        "Four embers, which never burn themselves: the coals (yellow 1 and green 1) light straw; the blowtorches (red 7 and blue 7) light straw and wood.",
        "Quatre braises, qui ne brûlent jamais elles-mêmes : les feux de charbon (1 jaune et 1 vert) allument la paille ; les chalumeaux (7 rouge et 7 bleu) allument la paille et le bois.",
      ),
    ],
    figures: [
      fig(
        L("Straw, wood, stone, the millstone, a coal and a blowtorch. The band at the bottom of each tile shows its material.", "Paille, bois, pierre, la meule, un feu de charbon et un chalumeau. La bande en bas de chaque tuile montre sa matière."),
        ["Y2@0,0", "R20@0,2", "G100@0,4", "W200@0,6", "Y1@0,8", "B7@0,10"],
      ),
    ],
  },
  {
    id: "setup",
    title: L("Setting up", "Mise en place"),
    text: [
      L(
        "The tiles are shuffled face down and dealt evenly: each player gets a draw pile and draws a hand of 5 from it. Your hand is hidden from the others.",
        "Les tuiles sont mélangées face cachée et distribuées à parts égales : chaque joueur reçoit une pioche et y pioche une main de 5. Votre main est cachée aux autres.",
      ),
      L(
        "Tiles left over after the deal start the pyramid's bottom row, side by side. An ember among them is removed from the game first. With all 45 tiles: 2 players get 22 each (1 left over), 3 get 15, 4 get 11 (1 left over), 5 get 9, 6 get 7 (3 left over). With the 40 tiles of the basic game: 2 get 20, 3 get 13 (1 left over), 4 get 10, 5 get 8, 6 get 6 (4 left over).",
        "Les tuiles restant après la distribution commencent la rangée du bas de la pyramide, côte à côte. Une braise parmi elles est d'abord retirée du jeu. Avec les 45 tuiles : à 2 joueurs 22 chacun (1 reste), à 3 15, à 4 11 (1 reste), à 5 9, à 6 7 (3 restent). Avec les 40 tuiles du jeu de base : à 2 20, à 3 13 (1 reste), à 4 10, à 5 8, à 6 6 (4 restent).",
      ),
    ],
  },
  {
    id: "first-player",
    title: L("Who plays first, and the order of play", "Qui commence, et l'ordre du jeu"),
    text: [
      L(
        "Seat 1 plays first unless the table chose another seat (the First player option). Then play passes to the left: to the next seat in the list. The player to your right is the one who played just before you.",
        "La place 1 commence, sauf si la table en a choisi une autre (l'option Premier joueur). Ensuite le jeu passe à gauche : à la place suivante de la liste. Le joueur à votre droite est celui qui a joué juste avant vous.",
      ),
    ],
  },
  {
    id: "turn",
    title: L("Your turn", "Votre tour"),
    text: [
      L(
        "Play exactly one tile of your hand on the pyramid; you cannot pass. Then the mayhem, if any, is resolved, and you draw back up to 5 tiles (as long as your pile has some).",
        "Posez exactement une tuile de votre main sur la pyramide ; vous ne pouvez pas passer. Puis le chaos éventuel est résolu, et vous repiochez jusqu'à 5 tuiles (tant que votre pioche en a).",
      ),
    ],
  },
  {
    id: "placement",
    title: L("Where to play", "Où poser sa tuile"),
    text: [
      L(
        "Build a pyramid shape. The dashed outlines show where a tile may go.",
        "On construit une forme de pyramide. Les contours en pointillés montrent où une tuile peut aller.",
      ),
    ],
    list: [
      L("On an empty table there is one place (A).", "Sur une table vide il y a une seule place (A)."),
      L(
        "Wherever two tiles stand side by side with nothing on top, a tile must go on top of them; a gap in the bottom row between two tiles must be filled too. If there are several such places, choose any (C, D, E, H, I).",
        "Partout où deux tuiles sont côte à côte sans rien dessus, il faut poser dessus ; un trou dans la rangée du bas entre deux tuiles doit aussi être comblé. S'il y a plusieurs places de ce genre, choisissez-en une (C, D, E, H, I).",
      ),
      L(
        "When there is no such place (a single tile, or a complete pyramid), extend the bottom row at either end (B, F, G).",
        "Quand il n'y a aucune place de ce genre (une seule tuile, ou une pyramide complète), prolongez la rangée du bas à l'un des deux bouts (B, F, G).",
      ),
      L(
        "You may play any tile of your hand on any of these places, even one that will not fit there: it then collapses (see below), which is sometimes exactly what you want.",
        "Vous pouvez poser n'importe quelle tuile de votre main sur n'importe laquelle de ces places, même une qui n'y tient pas : elle s'effondre alors (voir plus bas), ce qui est parfois exactement ce que vous voulez.",
      ),
    ],
    figures: [
      fig(L("A: an empty table: one place.", "A : une table vide : une place."), [], { spots: ["0,0"] }),
      fig(L("B: one tile: a place on each side.", "B : une tuile : une place de chaque côté."), ["R100@0,0"], { spots: ["0,-2", "0,2"] }),
      fig(L("C: two tiles side by side: the place on top is the only one.", "C : deux tuiles côte à côte : la place au-dessus est la seule."), ["R100@0,0", "B120@0,2"], { spots: ["1,1"] }),
      fig(
        L("D: three tiles: both places on top are open; choose one.", "D : trois tuiles : les deux places du dessus sont ouvertes ; choisissez-en une."),
        ["R100@0,0", "B120@0,2", "Y30@0,4"],
        { spots: ["1,1", "1,3"] },
      ),
      fig(
        L("E: once one is taken, the other is the only place.", "E : une fois l'une prise, l'autre est la seule place."),
        ["R100@0,0", "B120@0,2", "Y30@0,4", "R40@1,1"],
        { spots: ["1,3"] },
      ),
      fig(
        L("F: a complete pyramid: extend the bottom row at either end.", "F : une pyramide complète : prolongez la rangée du bas à un bout."),
        ["R100@0,0", "B120@0,2", "R40@1,1"],
        { spots: ["0,-2", "0,4"] },
      ),
      fig(
        L("G: a bigger complete pyramid: again only the two ends.", "G : une pyramide complète plus grande : encore seulement les deux bouts."),
        ["R100@0,0", "B120@0,2", "Y30@0,4", "R40@1,1", "Y2@1,3", "R4@2,2"],
        { spots: ["0,-2", "0,6"] },
      ),
      fig(
        L("H: after mayhem: the place on top and the gap in the bottom row; choose one.", "H : après un chaos : la place du dessus et le trou de la rangée du bas ; choisissez."),
        ["R100@0,0", "B120@0,2", "R6@0,6"],
        { spots: ["1,1", "0,4"] },
      ),
      fig(
        L("I: four tiles in a row with the middle one covered: two places.", "I : quatre tuiles en rangée, celle du milieu couverte : deux places."),
        ["R40@0,0", "Y2@0,2", "Y30@0,4", "R6@0,6", "Y4@1,3"],
        { spots: ["1,1", "1,5"] },
      ),
    ],
  },
  {
    id: "fit",
    title: L("When a tile fits", "Quand une tuile tient"),
    text: [
      L(
        "A tile in the bottom row always fits, whatever its colour and weight. A tile played on top of two others fits when both are true:",
        "Une tuile de la rangée du bas tient toujours, quels que soient sa couleur et son poids. Une tuile posée sur deux autres tient quand les deux conditions sont vraies :",
      ),
    ],
    list: [
      L("it has the colour or the number of at least one of the two tiles below it, and", "elle a la couleur ou le nombre d'au moins une des deux tuiles en dessous, et"),
      L("its weight is at most the two weights below it added together.", "son poids ne dépasse pas la somme des deux poids en dessous."),
    ],
    after: [
      L(
        "The millstone has every colour, so it never fails on colour; on top it fits when the two tiles below weigh 200 or more together. Any tile fits on a millstone. A tile left resting on only one tile (after mayhem) fits when it has that tile's colour or number and weighs no more than it.",
        "La meule a toutes les couleurs, elle n'échoue donc jamais sur la couleur ; posée dessus, elle tient quand les deux tuiles en dessous pèsent 200 ou plus ensemble. Toute tuile tient sur une meule. Une tuile qui ne repose plus que sur une seule tuile (après un chaos) tient si elle a la couleur ou le nombre de celle-ci et ne pèse pas plus qu'elle.",
      ),
    ],
    figures: [
      fig(L("J: the red 40 fits: red like the 100, and 40 is no more than 120 + 100.", "J : le 40 rouge tient : rouge comme le 100, et 40 ne dépasse pas 120 + 100."), ["B120@0,0", "R100@0,2", "R40@1,1"], { placed: "1,1" }),
      fig(L("K: the red 100 fits: same number as the yellow 100, and 100 is no more than 220.", "K : le 100 rouge tient : même nombre que le 100 jaune, et 100 ne dépasse pas 220."), ["B120@0,0", "Y100@0,2", "R100@1,1"], { placed: "1,1" }),
      fig(L("L: the red 40 fits: red like both, and 40 is no more than 100 + 6 = 106.", "L : le 40 rouge tient : rouge comme les deux, et 40 ne dépasse pas 100 + 6 = 106."), ["R100@0,0", "R6@0,2", "R40@1,1"], { placed: "1,1" }),
    ],
  },
  {
    id: "collapse",
    title: L("Collapses", "Effondrements"),
    text: [
      L(
        "A tile that does not fit (too heavy, or matching neither tile below in colour or number) collapses: the tiles under it go to the bottom of the draw pile of the player who caused it (the left one first), then the tile falls one row down, to the left or to the right: that player chooses. Then the whole pyramid is checked again, from the top row down and from left to right, and every tile that no longer fits collapses the same way, until everything fits.",
        "Une tuile qui ne tient pas (trop lourde, ou sans couleur ni nombre commun avec les tuiles du dessous) s'effondre : les tuiles en dessous vont sous la pioche du joueur qui l'a causé (celle de gauche d'abord), puis la tuile tombe d'une rangée, à gauche ou à droite : ce joueur choisit. Puis toute la pyramide est revérifiée, de la rangée du haut vers le bas et de gauche à droite, et chaque tuile qui ne tient plus s'effondre de même, jusqu'à ce que tout tienne.",
      ),
    ],
    steps: [
      fig(
        L("1. The blue 100 is placed on the 20 and the 6: too heavy (100 is more than 26).", "1. Le 100 bleu est posé sur le 20 et le 6 : trop lourd (100 dépasse 26)."),
        [...COLLAPSE, "B100@2,2"],
        { placed: "2,2", gone: ["1,1", "1,3"] },
      ),
      fig(
        L("2. The 20 and the 6 go under the player's pile. The 100 must fall: left or right?", "2. Le 20 et le 6 vont sous la pioche du joueur. Le 100 doit tomber : à gauche ou à droite ?"),
        ["R20@0,0", "Y120@0,2", "R40@0,4", "G60@0,6", "R60@1,5", "R30@2,4", "B100@2,2"],
        { fall: "2,2" },
      ),
      fig(
        L(
          "3–4. Left: the 100 is not too heavy for the red 20 and the yellow 120, but matches neither in colour or number. They go under the pile too.",
          "3–4. À gauche : le 100 n'est pas trop lourd pour le 20 rouge et le 120 jaune, mais n'a ni leur couleur ni leur nombre. Ils vont aussi sous la pioche.",
        ),
        ["R20@0,0", "Y120@0,2", "R40@0,4", "G60@0,6", "R60@1,5", "R30@2,4", "B100@1,1"],
        { placed: "1,1", gone: ["0,0", "0,2"] },
      ),
      fig(
        L(
          "5. Left again: the 100 lands in the bottom row, where every tile fits. Four tiles went back to the player, and the next player must fill the gap. The red 30 stays: it now rests on the red 60 alone, same colour and lighter.",
          "5. À gauche encore : le 100 arrive dans la rangée du bas, où toute tuile tient. Quatre tuiles sont revenues au joueur, et le suivant doit combler le trou. Le 30 rouge reste : il repose maintenant sur le seul 60 rouge, même couleur et plus léger.",
        ),
        ["B100@0,0", "R40@0,4", "G60@0,6", "R60@1,5", "R30@2,4"],
        { spots: ["0,2"] },
      ),
    ],
  },
  {
    id: "free-air",
    title: L("A tile in free air", "Une tuile dans le vide"),
    text: [
      L(
        "When mayhem takes away both tiles under a tile, it falls one row down, left or right, chosen by the player responsible for the mayhem, and is then checked like any other tile. In the bottom row it always fits.",
        "Quand un chaos retire les deux tuiles sous une tuile, elle tombe d'une rangée, à gauche ou à droite, au choix du joueur responsable du chaos, puis elle est vérifiée comme toute autre tuile. Dans la rangée du bas, elle tient toujours.",
      ),
    ],
  },
  {
    id: "straw-fire",
    title: L("Straw fires", "Incendies de paille"),
    text: [
      L(
        "An ember touching a tile it can light starts a fire. Tiles touch when they stand side by side, or when one rests on the other. A coal's fire spreads from straw to touching straw, as far as it goes; the burnt tiles go under the pile of the player who caused it, and the ember leaves the game. It does not matter whether the ember or the straw came last.",
        "Une braise qui touche une tuile qu'elle peut allumer déclenche un incendie. Des tuiles se touchent quand elles sont côte à côte, ou quand l'une repose sur l'autre. Le feu d'un charbon passe de paille en paille qui se touchent, aussi loin que possible ; les tuiles brûlées vont sous la pioche du joueur qui l'a causé, et la braise quitte le jeu. Peu importe qui, de la braise ou de la paille, est arrivé en dernier.",
      ),
      L(
        "An ember leaves the game only through its own fire or an explosion: an ember under a collapsing tile goes under the pile like any tile.",
        "Une braise ne quitte le jeu que par son propre incendie ou une explosion : une braise sous une tuile qui s'effondre va sous la pioche comme toute tuile.",
      ),
    ],
    steps: [
      fig(L("1. The place on the 6 and the 100 must be filled; the yellow 1 is a coal.", "1. La place sur le 6 et le 100 doit être prise ; le 1 jaune est un feu de charbon."), STRAW, { spots: ["1,1"] }),
      fig(
        L("2–3. A blue 2 fits (blue like the 100, not too heavy) but catches fire beside the coal, and the fire spreads down to the 6.", "2–3. Un 2 bleu tient (bleu comme le 100, pas trop lourd) mais prend feu à côté du charbon, et le feu descend jusqu'au 6."),
        STRAW_PLAYED,
        { placed: "1,1", burn: ["1,1", "0,0"], burning: "1,3" },
      ),
      fig(L("4. The 2 and the 6 go under the player's pile; the coal leaves the game.", "4. Le 2 et le 6 vont sous la pioche du joueur ; le charbon quitte le jeu."), ["B100@0,2", "Y30@0,4"]),
    ],
  },
  {
    id: "wood-fire",
    title: L("Wood fires", "Incendies de bois"),
    text: [
      L(
        "A blowtorch (a 7) lights straw and wood, and its fire spreads through touching straw and wood. Stone, the millstone and other embers do not carry fire: they shield what lies behind them.",
        "Un chalumeau (un 7) allume la paille et le bois, et son feu passe par la paille et le bois qui se touchent. La pierre, la meule et les autres braises ne transmettent pas le feu : elles protègent ce qui est derrière elles.",
      ),
    ],
    steps: [
      fig(
        L("1. The blue 7 is placed on the red 40 and the blue 20: it fits (blue, 7 is no more than 60)…", "1. Le 7 bleu est posé sur le 40 rouge et le 20 bleu : il tient (bleu, 7 ne dépasse pas 60)…"),
        [...WOOD, "B7@1,7"],
        { placed: "1,7", burning: "1,7", burn: ["1,5", "1,9", "0,6", "0,8"] },
      ),
      fig(
        L(
          "2–3. …but four wooden tiles burn and go under the player's pile, and the 7 leaves the game. The yellow 30 is shielded by the coal and the stone 100.",
          "2–3. …mais quatre tuiles de bois brûlent et vont sous la pioche du joueur, et le 7 quitte le jeu. Le 30 jaune est protégé par le charbon et le 100 en pierre.",
        ),
        ["R100@0,0", "Y30@0,2", "Y1@0,4", "B100@0,10"],
      ),
    ],
  },
  {
    id: "explosion",
    title: L("Explosions", "Explosions"),
    text: [
      L(
        "When two or more embers touch, they explode: every tile touching them, whatever its material (stone and millstone too), goes under the pile of the player who caused it, and the embers leave the game. Then the pyramid is checked again.",
        "Quand deux braises ou plus se touchent, elles explosent : toutes les tuiles qui les touchent, quelle que soit leur matière (pierre et meule comprises), vont sous la pioche du joueur qui l'a causé, et les braises quittent le jeu. Puis la pyramide est revérifiée.",
      ),
    ],
    steps: [
      fig(L("1. The yellow 1 is placed beside the blue 7.", "1. Le 1 jaune est posé à côté du 7 bleu."), [...EXPLODE, "Y1@1,5"], {
        placed: "1,5",
        boom: ["1,3", "1,5"],
        gone: ["2,2", "1,1", "0,2", "0,4", "0,6"],
      }),
      fig(L("2–3. The five tiles touching them go under the player's pile, both embers leave the game: only the green 20 remains.", "2–3. Les cinq tuiles qui les touchent vont sous la pioche du joueur, les deux braises quittent le jeu : seul le 20 vert reste."), ["G20@0,0"]),
    ],
  },
  {
    id: "curse",
    title: L("The curse", "La malédiction"),
    text: [
      L(
        "With the curse on (the standard rules, or the Curse option), three tiles with the same number forming a small pyramid (two side by side, one resting on both; colours do not matter) are cursed. They go under the pile of the player to the right of the one responsible, who becomes responsible for the rest of this turn's mayhem: they choose where tiles fall and receive the tiles that follow. Another curse in the same turn passes one more seat to the right. The curse is checked last, and it never changes the order of play: the player whose turn it was still draws, and the player on their left plays next.",
        "Avec la malédiction (règles standard, ou l'option Malédiction), trois tuiles de même nombre formant une petite pyramide (deux côte à côte, une posée sur les deux ; les couleurs ne comptent pas) sont maudites. Elles vont sous la pioche du joueur à droite du responsable, qui devient responsable du reste du chaos de ce tour : il choisit où tombent les tuiles et reçoit les tuiles suivantes. Une autre malédiction dans le même tour passe encore d'une place vers la droite. La malédiction est vérifiée en dernier, et ne change jamais l'ordre du jeu : le joueur dont c'était le tour pioche quand même, et son voisin de gauche joue ensuite.",
      ),
    ],
    figures: [
      fig(
        L("The yellow 6 fits on the red 6 and the blue 6 (same number, 6 is no more than 12), but three 6s make a curse: all three go to the player on the right.", "Le 6 jaune tient sur le 6 rouge et le 6 bleu (même nombre, 6 ne dépasse pas 12), mais trois 6 font une malédiction : les trois vont au joueur de droite."),
        ["R6@0,0", "B6@0,2", "Y6@1,1"],
        { placed: "1,1", curse: ["1,1", "0,0", "0,2"] },
      ),
    ],
  },
  {
    id: "order",
    title: L("In what order mayhem is checked", "Dans quel ordre on vérifie le chaos"),
    text: [
      L(
        "After each tile is played the pyramid is checked in this order: 1 a tile in free air, 2 a collapse, 3 an explosion, 4 a fire, 5 the curse (when it is on). Each check looks at the whole pyramid, from the top row down and left to right. The first problem found is resolved, then checking starts again from 1. So a tile that does not fit collapses before a fire beside it is looked at. When nothing is found, the mayhem is over.",
        "Après chaque tuile posée, la pyramide est vérifiée dans cet ordre : 1 une tuile dans le vide, 2 un effondrement, 3 une explosion, 4 un incendie, 5 la malédiction (si elle est en jeu). Chaque vérification regarde toute la pyramide, de la rangée du haut vers le bas et de gauche à droite. Le premier problème trouvé est résolu, puis on recommence à 1. Ainsi une tuile qui ne tient pas s'effondre avant qu'on regarde un incendie à côté. Quand on ne trouve plus rien, le chaos est fini.",
      ),
    ],
  },
  {
    id: "fire-die",
    title: L("The fire die", "Le dé de feu"),
    text: [
      L(
        "With the Fire die option, a fire does not burn at once: the player responsible rolls a die.",
        "Avec l'option Dé de feu, un incendie ne brûle pas tout de suite : le joueur responsable lance un dé.",
      ),
    ],
    list: [
      L("1, 2 or 3: the fire burns as usual, but the ember stays where it is.", "1, 2 ou 3 : l'incendie brûle comme d'habitude, mais la braise reste en place."),
      L("4: the fire burns and the ember leaves the game, as without the die.", "4 : l'incendie brûle et la braise quitte le jeu, comme sans le dé."),
      L("5: the ember explodes alone: it leaves the game and every tile touching it goes under the pile; nothing burns.", "5 : la braise explose seule : elle quitte le jeu et toutes les tuiles qui la touchent vont sous la pioche ; rien ne brûle."),
      L(
        "6: the fire goes out. Nothing burns and the ember stays, quenched: it lights no fire until it moves or a new tile it can light comes to touch it. A quenched ember still explodes.",
        "6 : le feu s'éteint. Rien ne brûle et la braise reste, éteinte : elle n'allume plus rien jusqu'à ce qu'elle bouge ou qu'une nouvelle tuile qu'elle peut allumer vienne la toucher. Une braise éteinte explose quand même.",
      ),
    ],
    steps: [
      fig(L("The straw fire again, with the die: the roll decides.", "L'incendie de paille, avec le dé : le lancer décide."), STRAW_PLAYED, { burning: "1,3", burn: ["1,1", "0,0"] }),
      fig(L("1–3: the 2 and the 6 burn, the coal stays.", "1–3 : le 2 et le 6 brûlent, le charbon reste."), ["B100@0,2", "Y30@0,4", "Y1@1,3"]),
      fig(L("4: they burn and the coal leaves the game.", "4 : ils brûlent et le charbon quitte le jeu."), ["B100@0,2", "Y30@0,4"]),
      fig(L("5: the coal explodes alone: the 2, the 100 and the 30 touching it go; the 6 stays.", "5 : le charbon explose seul : le 2, le 100 et le 30 qui le touchent partent ; le 6 reste."), ["R6@0,0"]),
      fig(L("6: the fire goes out; the coal stays, quenched.", "6 : le feu s'éteint ; le charbon reste, éteint."), STRAW_PLAYED, { quenched: ["Y1"] }),
    ],
  },
  {
    id: "callout",
    title: L("Call-out mode: family or competitive", "Vérification : famille ou compétition"),
    text: [
      L(
        "Without call-out the game resolves every mayhem itself. With call-out, as in the rulebook's family and competitive games, nothing is resolved for you: after each tile is played, the next player (on the left) checks the pyramid. They answer that it looks fine, or call a tile that breaks a rule: a tile in free air, a tile that does not fit or one under it, an ember that will explode or light a fire or a tile it would take, a cursed tile. Any tile can be called, so the buttons never give the answer away.",
        "Sans vérification, le jeu résout lui-même tout chaos. Avec la vérification, comme dans les jeux famille et compétitif du livret, rien n'est résolu pour vous : après chaque tuile posée, le joueur suivant (à gauche) vérifie la pyramide. Il répond que tout va bien, ou signale une tuile qui enfreint une règle : une tuile dans le vide, une tuile qui ne tient pas ou une de celles en dessous, une braise qui va exploser ou allumer un incendie ou une tuile qu'elle emporterait, une tuile maudite. Toute tuile peut être signalée, les boutons ne trahissent donc jamais la réponse.",
      ),
      L(
        "A right call resolves the mayhem at once, as usual, with the player who placed the tile responsible. A wrong call is a false alarm: nothing moves. Mayhem nobody called stays on the pyramid, overlooked, until a later right call finds it. The player whose turn it was still draws, and can win, even when their mayhem was overlooked.",
        "Un signalement juste résout le chaos tout de suite, comme d'habitude, avec comme responsable le joueur qui a posé la tuile. Un signalement faux est une fausse alerte : rien ne bouge. Un chaos que personne n'a signalé reste sur la pyramide, passé inaperçu, jusqu'à ce qu'un signalement juste le trouve. Le joueur dont c'était le tour pioche quand même, et peut gagner, même si son chaos est passé inaperçu.",
      ),
    ],
    list: [
      L(
        "Family: overlooked mayhem found later puts every tile it would send under a pile out of the game instead.",
        "Famille : un chaos passé inaperçu et trouvé plus tard met hors du jeu toutes les tuiles qu'il enverrait sous une pioche.",
      ),
      L(
        "Competitive: overlooked mayhem found later sends its tiles under the pile of the player whose turn it is then, who also makes the fall choices and the die rolls. Look carefully before you play!",
        "Compétition : un chaos passé inaperçu et trouvé plus tard envoie ses tuiles sous la pioche du joueur dont c'est alors le tour, qui fait aussi les choix de chute et les lancers de dé. Regardez bien avant de jouer !",
      ),
    ],
    figures: [
      fig(
        L("The yellow 100 was played on a 20 and a 6: too heavy and no match. The checker should call it (or one of the tiles under it).", "Le 100 jaune a été posé sur un 20 et un 6 : trop lourd et rien en commun. Le vérificateur devrait le signaler (ou une des tuiles en dessous)."),
        ["B20@0,0", "R6@0,2", "Y100@1,1"],
        { call: "1,1" },
      ),
    ],
  },
  {
    id: "presets",
    title: L("Rules presets", "Règles prédéfinies"),
    list: [
      L("Basic: 40 tiles, without the four embers and the millstone; no curse. Good for a first game. 2–6 players.", "Base : 40 tuiles, sans les quatre braises ni la meule ; sans malédiction. Idéal pour une première partie. 2 à 6 joueurs."),
      L("Family: all 45 tiles, without the curse. 2–6 players.", "Famille : les 45 tuiles, sans la malédiction. 2 à 6 joueurs."),
      L("Standard: all 45 tiles and the curse. Best with 2–4 players.", "Standard : les 45 tuiles et la malédiction. Idéal à 2 à 4 joueurs."),
    ],
    after: [
      L(
        "The Curse option turns the curse on or off whatever the preset; the Fire die and Call-out options add those variants to any preset.",
        "L'option Malédiction active ou coupe la malédiction quel que soit le préréglage ; les options Dé de feu et Vérification ajoutent ces variantes à n'importe quel préréglage.",
      ),
    ],
  },
  {
    id: "fit-hints",
    title: L("Fit hints", "Indices"),
    text: [
      L(
        "A table setting: when it is on, each place you may play shows ✓ if the tile you picked fits there and ⚠ (with the reason) if it will collapse. It is off by default in call-out games, where spotting what breaks a rule is the game.",
        "Un réglage de la table : activé, chaque place où vous pouvez jouer montre ✓ si la tuile choisie y tient et ⚠ (avec la raison) si elle va s'effondrer. Il est désactivé par défaut dans les parties avec vérification, où repérer ce qui enfreint une règle est le jeu.",
      ),
    ],
  },
  {
    id: "turn-limit",
    title: L("Turn limit", "Limite de tours"),
    text: [
      L(
        "A safeguard, not a rule of the box: a game nobody has won after this many turns ends, and players are ranked by the tiles they have left, fewest first.",
        "Une sécurité, pas une règle de la boîte : une partie que personne n'a gagnée après ce nombre de tours s'arrête, et les joueurs sont classés selon les tuiles qui leur restent, du moins au plus.",
      ),
    ],
  },
];
