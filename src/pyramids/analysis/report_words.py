"""The words of the workbench's report (``pyramids.analysis.report``), English and French.

``TEXTS`` holds every sentence, heading and column name; ``text`` picks one and fills it in;
the functions below write numbers, intervals and p-values into those sentences and cells
(decimal comma, thin no-break spaces and a true minus in French, as ``charts.num`` does).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pyramids.analysis.charts import num, pct
from pyramids.cli.i18n import catalogue

SIGNIFICANCE = 0.05
"""The p-value below which the seat-advantage test counts as significant."""

TEXTS: dict[str, dict[str, str]] = {
    # --- header ---------------------------------------------------------------------------
    "title": {"en": "{title}: balance report", "fr": "{title} : rapport d'équilibre"},
    "h.rules": {"en": "Rules version", "fr": "Version des règles"},
    "h.engine": {"en": "Engine", "fr": "Moteur"},
    "h.version": {"en": "pyramids version", "fr": "Version de pyramids"},
    "h.bots": {"en": "Bots", "fr": "Bots"},
    "h.players": {"en": "Players", "fr": "Joueurs"},
    "h.games": {"en": "Games per cell", "fr": "Parties par configuration"},
    "h.options": {"en": "Base options", "fr": "Options de base"},
    "h.total": {"en": "Total games", "fr": "Parties jouées"},
    "h.time": {"en": "Run time", "fr": "Durée du calcul"},
    "h.created": {"en": "Date", "fr": "Date"},
    "h.seeds": {"en": "Seeds", "fr": "Graines"},
    "h.turn": {"en": "Turn unit", "fr": "Unité de tour"},
    "time": {"en": "{s} s with {jobs} processes", "fr": "{s} s avec {jobs} processus"},
    "time.cluster": {"en": "{s} s on the cluster {cluster}", "fr": "{s} s sur la grappe {cluster}"},
    "seed_rule": {
        "en": "game i (from 0) of every cell uses seed {seed} + i: seeds {first} to {last}",
        "fr": "la partie i (à partir de 0) de chaque configuration utilise la graine {seed} + i : graines {first} à {last}",
    },
    "regenerate": {
        "en": "To regenerate this report (the rules version and the engine above must match):",
        "fr": "Pour régénérer ce rapport (avec la même version des règles et le même moteur) :",
    },
    "intervals": {
        "en": "Every interval is a 95% confidence interval; a difference is called significant when its interval excludes no change.",
        "fr": "Chaque intervalle est un intervalle de confiance à 95\u202f% ; un écart est dit significatif quand son intervalle exclut l'absence de changement.",
    },
    "contents": {"en": "Contents", "fr": "Sommaire"},
    "footer": {
        "en": "Written by pyramids {version}. The same data is in analysis.json.",
        "fr": "Écrit par pyramids {version}. Les mêmes données sont dans analysis.json.",
    },
    "none": {"en": "none", "fr": "aucune"},
    "to": {"en": "{a} to {b}", "fr": "{a} à {b}"},
    "ci": {"en": "95%: {range}", "fr": "95\u202f% : {range}"},
    # --- section titles -------------------------------------------------------------------
    "s.seat_advantage": {"en": "Seat advantage", "fr": "Avantage selon la place"},
    "s.length": {"en": "Game length", "fr": "Durée des parties"},
    "s.options": {"en": "Options", "fr": "Effet des options"},
    "s.events": {"en": "Events", "fr": "Événements"},
    "s.conditions": {"en": "How games end", "fr": "Fins de partie"},
    "s.skill": {"en": "Skill against luck", "fr": "Talent ou chance"},
    "s.holdings": {"en": "Each {what}'s effect", "fr": "Effet de chaque {what}"},
    # --- seat advantage -------------------------------------------------------------------
    "seat.read": {
        "en": "{Seat} wins {rate} of {p}-player games ({ci}), the fair share being {fair}: {verdict}.",
        "fr": "Le {seat} gagne {rate} des parties à {p} joueurs ({ci}), la part équitable étant {fair} : {verdict}.",
    },
    "seat.advantage": {"en": "a significant advantage", "fr": "un avantage significatif"},
    "seat.differ": {
        "en": "the seats differ significantly, though this one's interval includes the fair share",
        "fr": "les places diffèrent significativement, mais l'intervalle de celle-ci contient la part équitable",
    },
    "seat.chance": {
        "en": "no significant difference between the seats",
        "fr": "aucun écart significatif entre les places",
    },
    "seat.who": {
        "en": "{bot} plays every seat; {decided} of {games} games had a winner.",
        "fr": "{bot} joue à chaque place ; {decided} parties sur {games} ont eu un vainqueur.",
    },
    "seat.who_all": {"en": "{bot} plays every seat.", "fr": "{bot} joue à chaque place."},
    "col.players": {"en": "Players", "fr": "Joueurs"},
    "col.games_decided": {"en": "Games (decided)", "fr": "Parties (décidées)"},
    "col.games": {"en": "Games", "fr": "Parties"},
    "col.seat": {"en": "Seat", "fr": "Place"},
    "col.wins": {"en": "Wins", "fr": "Victoires"},
    "col.win_rate": {"en": "Win rate (95%)", "fr": "Taux de victoire (95\u202f%)"},
    "col.fair": {"en": "Fair share", "fr": "Part équitable"},
    "col.test": {"en": "χ² (p)", "fr": "χ² (p)"},
    # --- length ---------------------------------------------------------------------------
    "length.read": {
        "en": "With {p} players a game lasts {mean} turns on average ({ci}); half the games last {median} turns or fewer, 80% between {p10} and {p90} (from {min} to {max}), and {actions} actions on average.",
        "fr": "À {p} joueurs, une partie dure {mean} tours en moyenne ({ci}) ; la moitié des parties dure {median} tours ou moins, 80\u202f% entre {p10} et {p90} (de {min} à {max}), et {actions} actions en moyenne.",
    },
    "col.turns_mean": {"en": "Turns: mean (95%)", "fr": "Tours : moyenne (95\u202f%)"},
    "col.actions_mean": {"en": "Actions: mean (95%)", "fr": "Actions : moyenne (95\u202f%)"},
    "col.median": {"en": "median", "fr": "médiane"},
    "col.p10_p90": {"en": "10%–90%", "fr": "10\u202f%–90\u202f%"},
    "col.min_max": {"en": "min–max", "fr": "min–max"},
    # --- options --------------------------------------------------------------------------
    "options.read": {
        "en": "{variant} changes the mean length by {turns} turns (significant for {k} of {n} player counts) and seat 1's win rate by {seat} points (significant for {k2} of {n}).",
        "fr": "{variant} modifie la durée moyenne de {turns} tours (significatif pour {k} des {n} nombres de joueurs) et le taux de victoire du joueur 1 de {seat} points (significatif pour {k2} sur {n}).",
    },
    "options.what": {"en": "{variant}: {options}.", "fr": "{variant} : {options}."},
    "baseline": {"en": "base options", "fr": "options de base"},
    "col.variant": {"en": "Variant", "fr": "Variante"},
    "col.turns": {"en": "Mean turns (95%)", "fr": "Tours en moyenne (95\u202f%)"},
    "col.delta_turns": {"en": "Δ turns (95%)", "fr": "Δ tours (95\u202f%)"},
    "col.seat0": {"en": "Seat 1 win rate (95%)", "fr": "Victoires du joueur 1 (95\u202f%)"},
    "col.delta_seat0": {"en": "Δ seat 1, points (95%)", "fr": "Δ joueur 1, points (95\u202f%)"},
    "col.no_winner": {"en": "No winner", "fr": "Sans vainqueur"},
    # --- events ---------------------------------------------------------------------------
    "events.note": {
        "en": "The win-rate difference is an association, not a cause: a seat that triggers an event also tends to be one that plays more, or is already behind. The direct cost, when the game has one, is the event's own effect on its trigger.",
        "fr": "L'écart de victoires est une association, pas une cause : une place à l'origine d'un événement est souvent aussi celle qui joue le plus, ou qui est déjà en retard. Le coût direct, quand le jeu en a un, est l'effet propre de l'événement sur son auteur.",
    },
    "events.never": {
        "en": "Never seen in these games: {kinds}.",
        "fr": "Jamais vu dans ces parties : {kinds}.",
    },
    "events.read": {
        "en": "{kind} happens {per_game} times per game depending on the player count, in {games_with} of games. Players who trigger at least one win {trigger} of the time against {other} for the others: {diff} points (significant for {k} of {n} player counts).",
        "fr": "{kind} : {per_game} fois par partie selon le nombre de joueurs, dans {games_with} des parties. Les joueurs à l'origine d'au moins un tel événement gagnent {trigger} du temps, contre {other} pour les autres : {diff} points (significatif pour {k} des {n} nombres de joueurs).",
    },
    "events.cost": {
        "en": " Each costs its trigger {cost}{unit} on average.",
        "fr": " Chacun coûte en moyenne {cost}{unit} à son auteur.",
    },
    "col.event": {"en": "Event", "fr": "Événement"},
    "col.per_game": {"en": "Per game (95%)", "fr": "Par partie (95\u202f%)"},
    "col.games_with": {"en": "Games with it", "fr": "Parties concernées"},
    "col.trigger": {"en": "Trigger's win rate (95%)", "fr": "Victoires de l'auteur (95\u202f%)"},
    "col.other": {"en": "Others' win rate (95%)", "fr": "Victoires des autres (95\u202f%)"},
    "col.diff": {"en": "Difference, points (95%)", "fr": "Écart, points (95\u202f%)"},
    "col.cost": {"en": "Cost: {unit} (95%)", "fr": "Coût : {unit} (95\u202f%)"},
    "col.cost_plain": {"en": "Cost (95%)", "fr": "Coût (95\u202f%)"},
    # --- conditions -----------------------------------------------------------------------
    "conditions.read": {"en": "With {p} players: {items}.", "fr": "À {p} joueurs : {items}."},
    "conditions.item": {"en": "{name} {rate} ({ci})", "fr": "{name} {rate} ({ci})"},
    "col.ending": {"en": "Ending", "fr": "Fin"},
    "col.count": {"en": "Count", "fr": "Nombre"},
    "col.share": {"en": "Share (95%)", "fr": "Part (95\u202f%)"},
    # --- skill ----------------------------------------------------------------------------
    "skill.read": {
        "en": "{strong} wins {rate} of {p}-player games against {weak} ({ci}), chance alone giving {chance}: a skill index of {skill} ({skill_ci}).",
        "fr": "{strong} gagne {rate} des parties à {p} joueurs contre {weak} ({ci}), le hasard seul donnant {chance} : un indice de talent de {skill} ({skill_ci}).",
    },
    "skill.scale": {
        "en": "The index is 0 when luck alone decides and 1 when the stronger bot always wins.",
        "fr": "L'indice vaut 0 quand seul le hasard décide et 1 quand le bot le plus fort gagne toujours.",
    },
    "col.strong_wins": {"en": "Wins of {strong}", "fr": "Victoires de {strong}"},
    "col.chance": {"en": "Chance", "fr": "Hasard"},
    "col.skill": {"en": "Skill index (95%)", "fr": "Indice de talent (95\u202f%)"},
    # --- holdings -------------------------------------------------------------------------
    "holdings.read": {
        "en": "Of {n} {whats}, {k} change their holder's chances significantly (interval excluding 1). {best} helps most: its holders win {best_lift} times the games chance would give them ({best_ci}); {worst} hurts most: {worst_lift} ({worst_ci}).",
        "fr": "Sur {n} {whats}, {k} modifient significativement les chances de leur détenteur (intervalle excluant 1). {best} aide le plus : ses détenteurs gagnent {best_lift} fois les parties que le hasard leur donnerait ({best_ci}) ; {worst} nuit le plus : {worst_lift} ({worst_ci}).",
    },
    "holdings.shown": {
        "en": "The table shows the {k} best and the {k} worst of {n}; analysis.json has them all.",
        "fr": "Le tableau montre les {k} meilleures et les {k} pires sur {n} ; analysis.json les contient toutes.",
    },
    "col.item": {"en": "{What}", "fr": "{What}"},
    "col.held": {"en": "Held", "fr": "Détentions"},
    "col.rate": {"en": "Holder's win rate (95%)", "fr": "Victoires du détenteur (95\u202f%)"},
    "col.expected": {"en": "Expected wins", "fr": "Victoires attendues"},
    "col.lift": {"en": "Lift (95%)", "fr": "Effet (95\u202f%)"},
    "col.kind": {"en": "Kind", "fr": "Sorte"},
    "col.items": {"en": "How many", "fr": "Nombre"},
    "holdings.kinds": {
        "en": "By kind, {best} help their holders most ({best_lift}, {best_ci}) and {worst} least ({worst_lift}, {worst_ci}).",
        "fr": "Par sorte, les {best} aident le plus leurs détenteurs ({best_lift}, {best_ci}) et les {worst} le moins ({worst_lift}, {worst_ci}).",
    },
    "col.done": {"en": "{Done} (95%)", "fr": "{Done} (95\u202f%)"},
    "holdings.done": {
        "en": "{hardest} is the hardest: its holders {done} it {hardest_rate} of the time ({hardest_ci}); {easiest} the easiest: {easiest_rate} ({easiest_ci}); over every {what}, {mean}.",
        "fr": "{hardest} est la plus difficile : ses détenteurs l'ont {done} {hardest_rate} du temps ({hardest_ci}) ; {easiest} la plus facile : {easiest_rate} ({easiest_ci}) ; sur toutes, {mean}.",
    },
}
"""Every word of the report in English and French (the charts' words are in ``charts.WORDS``)."""


text = catalogue(TEXTS)
"""``text(key, lang, **fields)``: the entry of ``TEXTS`` in ``lang`` (English if missing),
formatted with ``fields``."""


# --- numbers in words ------------------------------------------------------------------------


def interval_text(ci: Sequence[float | None] | None, lang: str, fmt: Callable[[float], str]) -> str:
    """An interval's text: ``59.4–63.7%``, ``−5.5 to +3.1`` (signed ends), ``–`` when absent."""
    if not ci or ci[0] is None or ci[1] is None:
        return "–"
    low, high = fmt(ci[0]), fmt(ci[1])
    percent = "\u202f%" if lang == "fr" else "%"
    if low.endswith(percent) and high.endswith(percent):
        low = low[: -len(percent)]
    if low.startswith(("+", "−")) or high.startswith(("+", "−")):
        return text("to", lang, a=low, b=high)
    return f"{low}–{high}"


def ci_text(ci: Sequence[float | None] | None, lang: str, fmt: Callable[[float], str]) -> str:
    """``95%: 59.4–63.7%``: an interval for a sentence."""
    return text("ci", lang, range=interval_text(ci, lang, fmt))


def pct_ci(ci: Sequence[float | None] | None, lang: str) -> str:
    """``95%: 59.4–63.7%``: a rate's interval for a sentence."""
    return ci_text(ci, lang, lambda v: pct(v, lang))


def cell_pct(value: float | None, ci: Sequence[float | None] | None, lang: str) -> str:
    """``61.6% (59.4–63.7%)``: a table cell with a rate and its interval."""
    return f"{pct(value, lang)} ({interval_text(ci, lang, lambda v: pct(v, lang))})"


def cell(
    value: float | None,
    ci: Sequence[float | None] | None,
    lang: str,
    digits: int = 1,
    *,
    sign: bool = False,
    scale: float = 1.0,
) -> str:
    """``49.2 (48.1–50.3)``: a table cell with a number and its interval."""

    def fmt(v: float) -> str:
        return num(v * scale, lang, digits, sign=sign)

    return f"{'–' if value is None else fmt(value)} ({interval_text(ci, lang, fmt)})"


def share(value: float | None, lang: str) -> str:
    """A fair share or chance 1/P: ``50%``, ``33.3%`` (no needless ``.0``)."""
    if value is not None and abs(100 * value - round(100 * value)) < 1e-9:
        return pct(value, lang, 0)
    return pct(value, lang)


def p_text(p: float | None, lang: str) -> str:
    """``p < 0.001`` or ``p = 0.18`` (decimal comma in French)."""
    if p is None:
        return "p –"
    if p < 0.001:
        return f"p < {num(0.001, lang, 3)}"
    digits = 2 if p >= 0.01 else 3
    return f"p = {num(p, lang, digits)}"


def span(values: Sequence[float], lang: str, fmt: Callable[[float], str]) -> str:
    """One value, or ``lowest to highest`` when they differ."""
    if not values:
        return "–"
    low, high = fmt(min(values)), fmt(max(values))
    return low if low == high else text("to", lang, a=low, b=high)


def excludes(ci: Sequence[float | None] | None, value: float) -> bool:
    """Whether the interval ``ci`` lies wholly on one side of ``value`` (a significant effect)."""
    if not ci or ci[0] is None or ci[1] is None:
        return False
    return bool(ci[0] > value or ci[1] < value)


def plural(word: str, lang: str) -> str:
    """A noun's plural by the regular rule of both languages (``tile``/``tiles``, ``tuile``/``tuiles``)."""
    return word if word.endswith(("s", "x", "z")) else f"{word}s"


def int_text(value: object) -> str:
    return "–" if value is None else str(value)


def upper_first(value: str) -> str:
    return value[:1].upper() + value[1:]
