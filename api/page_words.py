"""Every word the pages' scripts show, by key, in English; the ``pages`` catalog translates them.

The scripts under ``api/static`` hold no words: the page's shell carries
``page_words(lang)`` as JSON (``<script type="application/json" id="words">``), and
``MatchTable.w(key, params)`` puts ``{name}`` placeholders in (``wn`` picks a count's
form with the language's plural rules). ``N_`` and ``N_plural`` only mark the English
for extraction (``pybabel extract``, docs/languages.md); a key a script asks for that is
missing here shows as the key itself, which the pseudo-language check catches.

    >>> page_words("ja")["locale"], page_words("x-pseudo")["words"]["home.live"]
    ('ja', '⟦Live now⟧')
    >>> page_words("ru")["plurals"]["matches"]["few"]
    '{n} матча'
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Final

from babel import Locale

from service.i18n import babel_locale, translations


def N_(message: str) -> str:
    """Mark ``message`` for extraction; translated later, when a page asks."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:
    """Mark a count's English forms for extraction (``{n}`` is the count)."""
    return singular, plural


WORDS: Final[dict[str, str]] = {
    # shared
    "brand": N_("matchlog"),
    "and": N_(" & "),
    "or": N_(" or "),
    "versus": N_(" v "),
    "comma": N_(", "),
    "seat": N_("seat {n}"),
    "loading": N_("Loading…"),
    "error.answered": N_("The server answered {status}."),
    "error.undescribed": N_("This page cannot draw {game}: the server does not describe it."),
    "status.live": N_("live"),
    "status.finished": N_("finished"),
    "status.void": N_("void"),
    "outcome.won": N_("won"),
    "outcome.lost": N_("lost"),
    "outcome.drawn": N_("drawn"),
    "outcome.live": N_("live"),
    "outcome.void": N_("void"),
    "role.admin": N_("admin"),
    "role.scorer": N_("scorer"),
    "note.by": N_("{text} ({role})"),
    "taken_back": N_("Taken back: {reason}"),
    "taken_back.by": N_("Taken back by the {role}: {reason}"),
    "result.drawn": N_("Drawn"),
    "result.won_by": N_("Won by {winners}"),
    "result.reason": N_(" ({reason})"),
    # cards
    "card.joker": N_("joker {n}"),
    "card.name": N_("{rank} of {suit}"),
    "card.face_down": N_("face-down card"),
    "rank.A": N_("ace"),
    "rank.J": N_("jack"),
    "rank.Q": N_("queen"),
    "rank.K": N_("king"),
    "suit.C": N_("clubs"),
    "suit.D": N_("diamonds"),
    "suit.H": N_("hearts"),
    "suit.S": N_("spades"),
    "stack.played_by": N_("played by {seat}"),
    "stock.empty": N_("empty"),
    "sheet.empty": N_("No {round} entered yet."),
    # fixtures and standings
    "fixture.not_started": N_("not started"),
    "fixture.draw": N_("draw"),
    "fixture.forfeit": N_("{score} ff"),
    "fixtures.round": N_("Round {n}"),
    "fixtures.rounds": N_("Rounds"),
    "fixtures.col.table": N_("Table"),
    "fixtures.col.entrants": N_("Entrants"),
    "fixtures.col.result": N_("Result"),
    "fixtures.col.match": N_("Match"),
    "fixtures.view": N_("view"),
    "fixtures.bye": N_("Bye: "),
    "standings.empty": N_("No finished matches yet."),
    "standings.rank": N_("#"),
    "standings.player": N_("Player"),
    "standings.pair": N_("Pair"),
    "standings.played": N_("played"),
    "standings.won": N_("won"),
    "standings.drawn": N_("drawn"),
    "standings.lost": N_("lost"),
    "standings.points": N_("points"),
    "standings.forfeits_won": N_("forfeits won"),
    "standings.forfeits_lost": N_("forfeits lost"),
    "standings.rounds_won": N_("rounds won"),
    "standings.rounds_lost": N_("rounds lost"),
    "standings.loss_points_given": N_("loss points given"),
    "standings.loss_points_taken": N_("loss points taken"),
    "standings.rating": N_("rating"),
    "standings.mu": N_("mu"),
    "standings.sigma": N_("sigma"),
    "standings.ordinal": N_("ordinal"),
    # the home page
    "home.ways": N_("where to go"),
    "home.pad": N_("Scorer's pad"),
    "home.desk": N_("Organiser's desk"),
    "home.api_docs": N_("API docs"),
    "home.live": N_("Live now"),
    "home.no_live": N_("No live match."),
    "home.results": N_("Recent results"),
    "home.no_finished": N_("No finished match yet."),
    "home.competitions": N_("Competitions"),
    "home.no_competition": N_("No competition yet."),
    "home.outside": N_("Outside any competition"),
    "home.since": N_("since {time}"),
    "home.watch": N_("watch"),
    "home.replay": N_("replay"),
    # a player's page
    "player.chart": N_("rating after each match, {first} to {last}"),
    "player.point": N_("after match {n}: {ordinal} (mu {mu}, sigma {sigma})"),
    "player.rating": N_("rating {rating}"),
    "player.record": N_("{won} won · {lost} lost · {drawn} drawn"),
    "player.ratings": N_("Rating history"),
    "player.no_rating": N_("No rating yet: no finished match in a competition."),
    "player.matches": N_("Matches"),
    "player.no_match": N_("No match yet."),
    "player.head_to_head": N_("Head to head"),
    "player.no_competition": N_("No competition entered."),
    "player.pages": N_("pages of matches"),
    "player.newer": N_("Newer"),
    "player.older": N_("Older"),
    "player.page_of": N_("Page {page} / {pages}"),
    "player.col.date": N_("Date"),
    "player.col.game": N_("Game"),
    "player.col.with": N_("With"),
    "player.col.result": N_("Result"),
    "player.col.series": N_("Series"),
    "player.col.replay": N_("Replay"),
    "player.col.opponent": N_("Opponent"),
    "player.col.played": N_("Played"),
    "player.col.won": N_("Won"),
    "player.col.lost": N_("Lost"),
    "player.col.drawn": N_("Drawn"),
    # the viewer
    "viewer.competition": N_("Competition"),
    "viewer.ply": N_("ply"),
    "viewer.controls": N_("step through the match"),
    "viewer.first": N_("first position (Home)"),
    "viewer.prev": N_("previous ply (left arrow)"),
    "viewer.next": N_("next ply (right arrow)"),
    "viewer.last": N_("last position (End)"),
    "viewer.table": N_("the table"),
    "viewer.timeline": N_("Timeline"),
    "viewer.this_ply": N_("this ply"),
    "viewer.ply_of": N_("Ply {ply} / {plies}"),
    "viewer.ply_n": N_("Ply {ply}"),
    "viewer.before_first": N_("Before the first move."),
    "viewer.taken_back_sentence": N_("(taken back) {sentence}"),
    "viewer.taken_back": N_("taken back"),
    "viewer.no_round": N_("No {round} on the table yet."),
    "viewer.start": N_("Start"),
    "competition.standings": N_("Standings"),
    "competition.pairs": N_("Pairs"),
    "competition.matches": N_("Matches"),
    "competition.no_matches": N_("No matches yet."),
    "competition.col.date": N_("Date"),
    "competition.col.players": N_("Players"),
    "competition.col.status": N_("Status"),
    "competition.col.series": N_("Series"),
}
"""The pages' words by the key the scripts ask for, in English (the message ids)."""

PLURALS: Final[dict[str, tuple[str, str]]] = {
    "matches": N_plural("{n} match", "{n} matches"),
    "finished_matches": N_plural("{n} finished match", "{n} finished matches"),
    "fixtures.rematches": N_plural("{n} rematch", "{n} rematches"),
}
"""Counts with their words by key: the English singular and plural (``{n}`` the count)."""


@cache
def page_words(lang: str) -> dict[str, Any]:
    """Return the pages' words in ``lang``: ``{"locale", "words", "plurals"}``.

    ``plurals`` gives each count key's text per CLDR plural category of the language
    (``one``, ``few``, ``many``, ``other``), as ``Intl.PluralRules`` names them.
    """
    pages = translations(lang, "pages")
    locale = babel_locale(lang)
    rules = Locale.parse(locale)
    samples: dict[str, int] = {}
    for n in range(200):
        samples.setdefault(rules.plural_form(n), n)
    return {
        "locale": locale,
        "words": {key: pages.gettext(text) for key, text in WORDS.items()},
        "plurals": {
            key: {form: pages.ngettext(one, many, n) for form, n in samples.items()}
            for key, (one, many) in PLURALS.items()
        },
    }


@cache
def page_words_json(lang: str) -> str:
    """Return ``page_words(lang)`` as JSON safe inside a ``<script>`` element."""
    return json.dumps(page_words(lang), ensure_ascii=False).replace("</", "<\\/")


__all__ = ["N_", "PLURALS", "WORDS", "N_plural", "page_words", "page_words_json"]
