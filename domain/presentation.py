"""How the pages draw a game: its presentation descriptor, served as JSON to the scripts.

A game's ``Presentation`` says what the viewer and the scorer's pad need to draw its
table from the engine's public view (``GameRules.view``) and to offer its forms: its
label and round word, its variants with their seats and packs, how seats pair into
teams, the zones of cards the table shows and where each zone's data sits in the
view, the running score and the score sheet, the new-match settings, and example
notation. The scripts (``api/static``) know no game: they draw what this describes.

Paths name data in a view, a score or a score sheet's row: keys and list indexes
joined by dots (``hands.{seat}.cards``), where ``{seat}`` and ``{team}`` stand for
the seat or team being drawn. Texts are templates: ``{path}`` is replaced by the
value there, ``{path|filter}`` by the value through a filter (``name``: the
player in that seat; ``team``: the team's word and label, "team A"; ``players``:
its players' names; ``suit``: a suit's symbol; ``card``: a card as the table
writes it, the form ``domain.cards.table_text`` gives the sentences (``10♣``, ``★1``);
``word``: the caption's word for a value, else the game's ``words``).

Words are written in English, each marked for the ``moves`` catalog (``N_``, see
``domain.words``) where the game defines it; ``in_words`` gives the descriptor in a
reader's language: every text, template and word translated (a template keeps its
placeholders), the counts' nouns in each plural form the language has, and the
ranks as its decks print them. Paths, codes and notation are never translated.

    >>> Pack(ranks="6789TJQKA").cards()[:3]
    ('6C', '7C', '8C')
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass, replace
from typing import Any, Literal

from domain.cards import JOKERS, rank_text
from domain.words import ENGLISH, Words

ZoneKind = Literal["hand", "stacks", "stock", "cards", "plays", "pile"]
"""How a zone's data is read and drawn (``Zone``)."""
ZonePlace = Literal["seat", "team", "centre"]
"""Where a zone is drawn: once per seat in its panel, once per team, or once in the centre."""


@dataclass(frozen=True, slots=True)
class Pack:
    """The cards of a variant, for the pad's card pickers: a row per suit, jokers last."""

    ranks: str
    """The ranks in the order the picker shows them (``T`` is the ten)."""
    suits: str = "CDHS"
    jokers: tuple[str, ...] = ()
    """The jokers' codes (``X1``, ``X2``), if the pack has any."""

    def cards(self) -> tuple[str, ...]:
        """Return every card's code, suit by suit, then the jokers."""
        return tuple(r + s for s in self.suits for r in self.ranks) + self.jokers


@dataclass(frozen=True, slots=True)
class Variant:
    """A variant a match may be created with: its name, how many seats, its pack."""

    name: str
    seats: int
    pack: Pack
    dealt: tuple[int, ...] = ()
    """Each seat's dealt hand size, the dealer first, then the seats after it in order
    (empty: the pad does not say)."""


@dataclass(frozen=True, slots=True)
class Team:
    """Seats that play as one side, and the side's label (``A``)."""

    label: str
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Extra:
    """A piece of text added when a number at ``path`` lies within bounds (and is present)."""

    path: str
    text: str
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True, slots=True)
class Case:
    """One way to write a value: ``text`` when ``when`` holds (the first that holds wins).

    ``when`` is a path whose value must be truthy (with ``null``: must be missing or
    null); no ``when`` always holds. ``extras`` follow the text.
    """

    text: str
    when: str | None = None
    null: bool = False
    extras: tuple[Extra, ...] = ()


@dataclass(frozen=True, slots=True)
class Count:
    """A count written with its noun ("1 trick", "2 tricks"); left out when missing."""

    path: str
    one: str
    many: str
    forms: Mapping[str, str] = field(default_factory=dict)
    """The noun by plural category (``Intl.PluralRules``: ``one``, ``few``, ``many``,
    ``other``) in the descriptor's language (``in_words`` fills it)."""


@dataclass(frozen=True, slots=True)
class Zone:
    """A place on the table where cards lie, and where its cards are in the public view.

    Kinds and the fields each reads:

    - ``hand``: ``count`` cards, face up where ``cards`` (public view) or ``own`` (the
      seat's own view, in a full replay) lists them; cards listed at ``flagged`` get
      the CSS class ``flag``.
    - ``stacks``: the ``items`` whose ``owner`` field is the seat, each a stack's text
      (``TH[JS:P1]``: a base card and what is attached to it) in its ``stack`` field.
    - ``stock``: a face-down pile of ``count`` cards, with the cards seen on top (``top``).
    - ``cards``: the face-up card or cards at ``cards``.
    - ``plays``: the ``items`` played (``seat``, ``kind``, ``cards`` or ``card``, or a
      ``count`` of face-down cards), each under its ``caption``; a play of
      ``hidden_kind`` shown face up is marked as having been face down, unless the
      view's ``open_flag`` says such plays are open.
    - ``pile``: a side's taken cards: ``cards`` face up, ``count`` face down (or their
      cards at ``opened``, marked as face down), the label followed by ``counts``.

    ``label`` is a template (``{count}``: the zone's number of cards); ``row``: centre
    zones sharing a row are drawn side by side; ``optional``: not drawn when empty.
    """

    name: str
    label: str
    kind: ZoneKind
    place: ZonePlace = "centre"
    cards: str | None = None
    count: str | None = None
    own: str | None = None
    top: str | None = None
    opened: str | None = None
    flagged: str | None = None
    flag: str | None = None
    items: str | None = None
    owner: str | None = None
    caption: str | None = None
    caption_below: bool = False
    hidden_kind: str | None = None
    open_flag: str | None = None
    counts: tuple[Count, ...] = ()
    small: bool = False
    optional: bool = False
    row: str | None = None
    up_label: str | None = None
    """A ``pile``'s label over its face-up cards (its face-down part has ``down_label``)."""
    down_label: str | None = None


@dataclass(frozen=True, slots=True)
class Tally:
    """A seat's running total beside its name: ``value`` of ``goal`` (a count's nouns)."""

    value: str
    goal: str
    one: str
    many: str
    forms: Mapping[str, str] = field(default_factory=dict)
    """The noun by plural category, as ``Count.forms``."""


@dataclass(frozen=True, slots=True)
class Caption:
    """The line under the table saying what it waits for, from the public view.

    While the view has ``over`` (a round's result), the first of ``result``'s cases
    that holds; else the ``phase``'s fixed sentence if it has one; else the seats to
    act (``Presentation.acting``), the phase's doing (``doings``, else ``doing``) and
    the ``extras``.
    """

    over: str
    result: tuple[Case, ...]
    phase: str
    sentences: Mapping[str, str]
    doings: Mapping[str, str]
    doing: str
    extras: tuple[Extra, ...] = ()
    words: Mapping[str, str] = field(default_factory=dict)
    """What the ``word`` filter writes for a value (the ways a round ends)."""


@dataclass(frozen=True, slots=True)
class Score:
    """The running score line (``GET /matches/{id}`` ``score``).

    ``template``'s ``{values}`` is each seat's or team's name and value at ``values``,
    ``{extras}`` the ``extras`` that hold, each after " · ".
    """

    template: str
    values: str
    by: Literal["seat", "team"]
    extras: tuple[Extra, ...] = ()


@dataclass(frozen=True, slots=True)
class Column:
    """A score sheet column (``GET /matches/{id}/series`` rounds): once, or per seat or team."""

    header: str
    cells: tuple[Case, ...]
    by: Literal["once", "seat", "team"] = "once"


@dataclass(frozen=True, slots=True)
class Setting:
    """A setting a form offers: the match's ``format``, or one of its ``options``.

    In a competition's form (``Presentation.competition_settings``) a ``format`` setting
    is the competition's format text and ``options`` settings are the fields of its
    format object; ``flag`` is a yes-or-no setting.
    """

    name: str
    label: str
    field: Literal["format", "options"]
    kind: Literal["text", "number", "flag"]
    default: str | int | bool
    choices: tuple[str, ...] = ()
    minimum: int | None = None


@dataclass(frozen=True, slots=True)
class Indicator:
    """A card dealt apart (Kozel's trump indicator): its slot, and where in the stock it may lie."""

    label: str
    position_label: str
    positions: int


@dataclass(frozen=True, slots=True)
class ResultForm:
    """A round's result entered as each team's points (when results are too many to list).

    The move is ``verb``, each team's points (they add up to ``total``), and
    ``blank`` and a team's label for each team that took no trick.
    """

    verb: str
    total: int
    points: str
    blank: str
    blank_text: str


@dataclass(frozen=True, slots=True)
class Examples:
    """Example notation, for the pad's typed moves: moves, and score-sheet results."""

    moves: tuple[str, ...]
    results: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Presentation:
    """What the pages need to draw a game and offer its forms (see the module's docstring)."""

    game: str
    label: str
    round_word: str
    seat_letter: str
    variants: tuple[Variant, ...]
    """The default first."""
    zones: tuple[Zone, ...]
    score: Score
    sheet: tuple[Column, ...]
    settings: tuple[Setting, ...]
    examples: Examples
    acting: str
    """Where the view says which seat or seats are to act (a seat or a list)."""
    acting_word: str
    teams: tuple[Team, ...] = ()
    team_word: str = "team"
    layout: Literal["across", "around"] = "across"
    """``across``: the other seats side by side across the table, seat 0 nearest the
    reader; ``around`` (four seats): the partner across, the opponents either side."""
    tally: Tally | None = None
    caption: Caption | None = None
    indicator: Indicator | None = None
    result_form: ResultForm | None = None
    reasons: Mapping[str, str] = field(default_factory=dict)
    """How a match ended, in words, by its result's ``reason`` code ("rounds": "on rounds")."""
    dealer: str | None = None
    """Where the view says which seat dealt the round, if the game has a dealer."""
    competition_settings: tuple[Setting, ...] = ()
    """What the organiser's new-competition form offers for the competition's format."""
    tiebreaks: tuple[str, ...] = ()
    """The standings tiebreaks a competition may list (the rules', ``domain.games``)."""
    round_title: str | None = None
    """The round word as a column heads it ("Round"); ``None``: the round word."""
    round_number: str | None = None
    """A round by its number (``{number}``: "Round 3"); ``None``: the title and the number."""
    words: Mapping[str, str] = field(default_factory=dict)
    """What the ``word`` filter writes for a value the caption's ``words`` lack (a play's
    kind), and the names of the variants and of the formats offered."""
    ranks: Mapping[str, str] = field(default_factory=dict)
    """Each rank letter of the packs as the reader's decks print it (``T``: ``10``,
    ``X``: ``★``; Russian ``Q``: ``Д``); ``in_words`` fills it."""

    def variant(self, name: str) -> Variant:
        """Return a variant by name.

        Raises:
            KeyError: the game has no such variant.
        """
        for variant in self.variants:
            if variant.name == name:
                return variant
        raise KeyError(name)

    def sides(self, names: Sequence[str]) -> list[str]:
        """Return the sides of a match: each team's label and players ("A: Ann & Cy"),
        else each player (``names``: one per seat)."""
        if not self.teams or any(s >= len(names) for t in self.teams for s in t.seats):
            return list(names)
        return [f"{t.label}: {' & '.join(names[s] for s in t.seats)}" for t in self.teams]

    def score_parts(self, score: Mapping[str, Any], names: Sequence[str]) -> tuple[str, str]:
        """Return the running score briefly: what it counts, and each side's value.

        The label is the score template's text before ``{values}`` ("Loss points");
        the values are each side and its value, a team by its label ("A 14 · B 6"),
        a seat by its player's name ("Ann 2 · Bob 1"), then the extras that hold
        ("eggs 1"), each after " · ".
        """
        values = _at(score, self.score.values)
        sides = [t.label for t in self.teams] if self.score.by == "team" else list(names)
        shown = [
            f"{sides[i] if i < len(sides) else i} {value}"
            for i, value in enumerate(values if isinstance(values, list) else [])
        ]
        shown += [_fill(x.text, score) for x in self.score.extras if _holds(x, score)]
        label = _fill(self.score.template.partition("{values}")[0], score)
        return label.strip().rstrip(":"), " · ".join(shown)


_TEXTS: dict[type, tuple[str, ...]] = {}
"""Each descriptor part's fields that people read (texts, templates, word maps); filled
below, once the classes exist."""


def in_words(presentation: Presentation, words: Words = ENGLISH) -> Presentation:
    """Return ``presentation`` in ``words``' language (``ENGLISH``: as the game wrote it).

    Besides the translations, the ranks of its packs are given as printed and each
    count's nouns by plural category.

    >>> from domain.cuttle.presentation import PRESENTATION
    >>> shown = in_words(PRESENTATION)
    >>> shown.ranks['T'], shown.ranks['X'], shown.tally.forms['one'], shown.tally.forms['other']
    ('10', '★', 'point', 'points')
    """
    shown: Presentation = _translated(presentation, words)
    letters = {r for v in presentation.variants for r in v.pack.ranks}
    if any(v.pack.jokers for v in presentation.variants):
        letters.add(JOKERS[0][0])
    ranks = {letter: rank_text(letter, words) for letter in sorted(letters)}
    return replace(shown, ranks=ranks)


def _translated(value: Any, words: Words) -> Any:
    if isinstance(value, tuple):
        return tuple(_translated(item, words) for item in value)
    if not is_dataclass(value) or isinstance(value, type):
        return value
    texts = _TEXTS.get(type(value), ())
    changes: dict[str, Any] = {}
    for part in fields(value):
        item = getattr(value, part.name)
        if part.name in texts and isinstance(item, str):
            changes[part.name] = words.gettext(item)
        elif part.name in texts and isinstance(item, Mapping):
            changes[part.name] = {key: words.gettext(text) for key, text in item.items()}
        elif isinstance(item, tuple) or is_dataclass(item):
            changes[part.name] = _translated(item, words)
    if isinstance(value, Count | Tally):
        changes.update(_plurals(value.one, value.many, words))
    return replace(value, **changes)


def _plurals(one: str, many: str, words: Words) -> dict[str, Any]:
    # gettext picks a form by number, the scripts by category: a number of each category
    # (``ru``: 1 one, 2 few, 5 many; an English or Japanese 2 is "other") gives its form.
    forms = {
        "one": words.ngettext(one, many, 1),
        "few": words.ngettext(one, many, 2),
        "many": words.ngettext(one, many, 5),
        "other": words.ngettext(one, many, 2),
    }
    return {"one": forms["one"], "many": forms["many"], "forms": forms}


def _at(data: Any, path: str) -> Any:
    for key in path.split("."):
        if isinstance(data, Mapping):
            data = data.get(key)
        elif isinstance(data, list) and key.isdigit() and int(key) < len(data):
            data = data[int(key)]
        else:
            return None
    return data


def _fill(template: str, data: Mapping[str, Any]) -> str:
    # Filters name seats and cards for the pages; a score's extras use none.
    def value(found: re.Match[str]) -> str:
        at = _at(data, found.group(1))
        return "" if at is None else str(at)

    return re.sub(r"\{([^{}|]+)(?:\|\w+)?\}", value, template)


def _holds(extra: Extra, data: Mapping[str, Any]) -> bool:
    value = _at(data, extra.path)
    if value is None or value is False:
        return False
    low, high = extra.minimum, extra.maximum
    return (low is None or value >= low) and (high is None or value <= high)


_TEXTS.update(
    {
        Presentation: (
            *("label", "acting_word", "team_word", "round_title", "round_number"),
            *("reasons", "words"),
        ),
        Zone: ("label", "caption", "up_label", "down_label"),
        Score: ("template",),
        Extra: ("text",),
        Case: ("text",),
        Column: ("header",),
        Setting: ("label",),
        Indicator: ("label", "position_label"),
        ResultForm: ("points", "blank_text"),
        Caption: ("doing", "sentences", "doings", "words"),
    }
)


__all__ = [
    "Caption",
    "Case",
    "Column",
    "Count",
    "Examples",
    "Extra",
    "Indicator",
    "Pack",
    "Presentation",
    "ResultForm",
    "Score",
    "Setting",
    "Tally",
    "Team",
    "Variant",
    "Zone",
    "ZoneKind",
    "ZonePlace",
    "in_words",
]
