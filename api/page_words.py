"""Every word the pages' scripts show, by key, in English; the ``pages`` catalog translates them.

The scripts under ``api/static`` hold no words: the page's shell carries
``page_words(lang)`` as JSON (``<script type="application/json" id="words">``), and
``MatchTable.w(key, params)`` puts ``{name}`` placeholders in (``wn`` picks a count's
form with the language's plural rules). ``N_`` and ``Nn_`` only mark the English
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


def Nn_(singular: str, plural: str) -> tuple[str, str]:
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
    # TRANSLATORS: what the table waits for: who acts, the game's words for what they do.
    "caption.acting": N_("{who} {doing}{extras}."),
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
    # signing in (the pad and the desk)
    "sign_in.title": N_("Sign in"),
    "sign_in.hint": N_("Kept in this tab only, until you sign out or close it."),
    "sign_in.refused": N_("That token was refused ({status})."),
    "sign_in.button": N_("Sign in"),
    "sign_out": N_("Sign out"),
    "unreachable": N_("The server cannot be reached."),
    "ok": N_("OK"),
    "cancel": N_("Cancel"),
    # the scorer's pad
    "pad.token": N_("Scorer token"),
    "pad.no_live": N_("No live match this token may record."),
    "pad.fixtures": N_("fixtures"),
    "pad.fixtures_title": N_("Fixtures"),
    "pad.live": N_("Live matches"),
    "pad.all_matches": N_("All matches"),
    "pad.round_table": N_("round {round}, table {table}"),
    "pad.started": N_("started {time}"),
    "pad.match_id": N_("match {id}"),
    "dealing.physical": N_("Physical cards (the table deals)"),
    "dealing.scorer": N_("Scorer's deck order"),
    "dealing.server": N_("Server shuffles"),
    "recording.moves": N_("Move by move"),
    "recording.results": N_("Score sheet (results only)"),
    "pad.fixture_dealing": N_("Dealing of the matches started here"),
    "pad.fixture_recording": N_("Recording of the matches started here"),
    "pad.start": N_("Start"),
    "pad.start_who": N_("start {who}"),
    "pad.open": N_("Open"),
    "pad.viewer": N_("Viewer"),
    "pad.round_of": N_("round {round} of {rounds}"),
    "pad.dealing": N_("Dealing"),
    "pad.player_in_seat": N_("player in seat {seat}"),
    "pad.pick_player": N_("— pick a player —"),
    "pad.new_player": N_("New player…"),
    "pad.name": N_("name"),
    "pad.new_player_in_seat": N_("new player's name in seat {seat}"),
    "pad.seat": N_("Seat {seat}"),
    "pad.pick_every_seat": N_("Pick a player for every seat."),
    "pad.new_match": N_("New match"),
    "pad.game": N_("Game"),
    "pad.variant": N_("Variant"),
    "pad.recording": N_("Recording"),
    "pad.players": N_("Players"),
    "pad.start_match": N_("Start the match"),
    "undo.wrong_card": N_("the wrong card was entered"),
    "undo.wrong_player": N_("the wrong player was entered"),
    "undo.taken_back": N_("the players took the move back"),
    "undo.other": N_("another reason…"),
    "undo.reason": N_("reason"),
    "undo.label": N_("Take back “{sentence}”"),
    "undo.because": N_("Take back “{sentence}”, because"),
    "undo.confirm": N_("Take it back"),
    "undo.button": N_("Undo the last ply"),
    "pad.moves": N_("moves"),
    "pad.pending": N_("moves waiting for the server"),
    "pad.corrections": N_("corrections"),
    "pad.corrections_title": N_("Corrections and endings"),
    "pad.not_recorded_why": N_("Not recorded: {label} — {why}"),
    "pad.not_recorded": N_("Not recorded: “{label}”."),
    "pad.dropped": N_("“{label}” was dropped, and the next entry was made after it."),
    "pad.another_device": N_("Another device recorded first."),
    "pad.match_changed": N_("The match changed (a correction or a note)."),
    "pad.still_record": N_("Still record “{label}”?"),
    "pad.no_longer": N_("“{label}” no longer applies."),
    "pad.record_it": N_("Record it"),
    "pad.drop_it": N_("Drop it"),
    "pad.move_corrected": N_("the move, corrected"),
    "pad.send_instead": N_("Send this instead"),
    "pad.example": N_("e.g. {example}"),
    "pad.next_move_label": N_("the next move, in the move notation"),
    "pad.next_move": N_("Next move"),
    "pad.queue_it": N_("Queue it"),
    "pad.notation_hint": N_(
        "Written in the move notation (docs/notation.md: {examples}). The server checks it "
        "when it is sent; if it refuses, you are asked."
    ),
    "pad.deals": N_("deals"),
    "pad.document_title": N_("Pad · {title}"),
    "pad.online": N_("Online · version {version}"),
    "pad.no_cards": N_("No cards on the table yet."),
    "pad.key": N_("key {key}"),
    "pad.over": N_("The match is over."),
    "pad.over_result": N_("The match is over: {result}"),
    "pad.resolve_first": N_("Resolve the conflict above first."),
    "pad.waiting_check": N_("Waiting for the server to check the last entry…"),
    "pad.next_from_server": N_(
        "The next moves come from the server once it has the pending entry."
    ),
    "pad.server_deals": N_(
        "The server shuffles the next deal: it appears once the moves above are sent."
    ),
    "pad.enter_deal": N_("Enter the deal."),
    "pad.enter_result": N_("Enter the result of {round}."),
    "pad.to_act": N_("{who} to act."),
    "pad.nobody": N_("Nobody can act."),
    "pad.moves_with": N_("Moves with "),
    "pad.at_target": N_(" at the target picked"),
    "pad.tap_one": N_(": tap one, or tap its target on the table"),
    "pad.show_all": N_("Show all"),
    "pad.without_card": N_("Without a card"),
    "pad.team_points": N_("{team}: {points}"),
    "pad.record_round": N_("Record {round}"),
    "pad.pack": N_("the pack"),
    "pad.cards_drawn": N_("Cards drawn: {cards}"),
    "pad.drawn_so_far": N_("Drawn so far: "),
    "pad.clear": N_("Clear"),
    "pad.slot": N_("{label} ({count})"),
    "pad.unpick": N_("take back {card}"),
    "pad.dealer": N_("{name}, dealer"),
    "pad.deck": N_("Deck, top card first"),
    "pad.dealt": N_("{round} dealt"),
    "pad.deal_hint_physical": N_("Tap a hand, then its cards; tap a placed card to take it back."),
    "pad.deal_hint_deck": N_("Tap the cards in the deck's order, top first."),
    "pad.record_deal": N_("Record the deal"),
    "pad.waiting_server": N_("Waiting for the server"),
    "pad.pending_badge": N_("pending"),
    "pad.tap_again": N_("Tap again: {label}"),
    "note.label": N_("note"),
    "note.placeholder": N_("a note on this ply"),
    "note.on_ply": N_("Note on ply {ply}"),
    "note.add": N_("Add"),
    "note.button": N_("Note"),
    # the organiser's desk and its print page
    "desk.refresh": N_("Refresh"),
    "desk.competitions": N_("Competitions"),
    "desk.noCompetitions": N_("No competition this token may run yet."),
    "desk.open": N_("Open"),
    "desk.allCompetitions": N_("All competitions"),
    "desk.viewer": N_("Public page"),
    "desk.newCompetition": N_("New competition"),
    "desk.adminCreates": N_("Only an admin token creates competitions."),
    "desk.name": N_("Name"),
    "desk.game": N_("Game"),
    "desk.variant": N_("Variant"),
    "desk.tiebreaks": N_("Tiebreaks, in order"),
    "desk.none": N_("(none)"),
    "desk.bye": N_("A bye in a Swiss round scores"),
    "desk.publicReads": N_("Anyone may read its matches and standings"),
    "desk.create": N_("Create"),
    "desk.yes": N_("yes"),
    "desk.no": N_("no"),
    "desk.entrants": N_("Entrants"),
    "desk.noEntrants": N_("No entrant yet."),
    "desk.playerHint": N_("Type a name: a known player is picked, a new name creates the player."),
    "desk.lateEntrant": N_("A Swiss entrant added now is paired from the next round."),
    "desk.addEntrant": N_("Add entrant"),
    "desk.withdraw": N_("Withdraw"),
    "desk.withdrawn": N_("withdrawn"),
    "desk.withdrawReason": N_("Why they withdraw"),
    "desk.confirmWithdraw": N_("Withdraw them"),
    "desk.rounds": N_("Rounds"),
    "desk.noRounds": N_("No round yet."),
    "desk.makeRoundRobin": N_("Make the round robin"),
    "desk.legs": N_("Legs"),
    "desk.print": N_("Print pairings and slips"),
    "desk.table": N_("Table"),
    "desk.seats": N_("Seats"),
    "desk.state": N_("Result"),
    "desk.dealsFirst": N_("deals first"),
    "desk.notStarted": N_("not started"),
    "desk.live": N_("live"),
    "desk.watch": N_("watch"),
    "desk.voided": N_("void"),
    "desk.byeLine": N_("Bye: "),
    "desk.enterSheet": N_("Enter score sheet"),
    "desk.continueSheet": N_("Continue score sheet"),
    "desk.onThePad": N_("Open on the pad"),
    "desk.sheetLabel": N_("Results, one round per line"),
    "desk.recordSheet": N_("Record"),
    "desk.entered": N_("Entered so far"),
    "desk.takeBackResult": N_("Take back the last result"),
    "desk.takeBackReason": N_("Why (e.g. the wrong winner was entered)"),
    "desk.correctResult": N_("Correct this result"),
    "desk.correctReason": N_("Why (e.g. the wrong winner was entered)"),
    "desk.confirmCorrect": N_("Void it and enter the right result"),
    "desk.correctHint": N_(
        "The match stays on record, marked void; the result entered next replaces it."
    ),
    "desk.forfeit": N_("Forfeit"),
    "desk.forfeitedBy": N_("Forfeited by"),
    "desk.everyone": N_("all of them (double forfeit)"),
    "desk.confirmForfeit": N_("Record the forfeit"),
    "desk.swap": N_("Swap two entrants"),
    "desk.swapReason": N_("Why"),
    "desk.confirmSwap": N_("Swap"),
    "desk.takeBackRound": N_("Take back this round"),
    "desk.takeBackRoundReason": N_("Why (e.g. made by mistake)"),
    "desk.confirmTakeBackRound": N_("Take it back"),
    "desk.standings": N_("Standings"),
    "desk.pairs": N_("Pairs"),
    "desk.swissScore": N_("Swiss score"),
    "desk.swissHint": N_("The Swiss score counts byes; standings points do not."),
    "desk.exports": N_("Exports"),
    "desk.records": N_("Records"),
    "desk.noRecords": N_("No withdrawal, swap, round taken back or corrected result."),
    "desk.printPage": N_("Print"),
    "desk.backToDesk": N_("Back to the desk"),
    "desk.slipResult": N_("Result"),
    "desk.slipWinner": N_("Winner"),
    "desk.slipSignature": N_("Signature"),
    "desk.slipRounds": N_("Rounds won / points"),
    "desk.token": N_("Organiser's token"),
    "desk.token_hint": N_(
        "An admin token runs everything; a scorer's token adds entrants, "
        "makes rounds and enters results. Kept in this tab only."
    ),
    "desk.tiebreak_n": N_("Tiebreak {n}"),
    "desk.bye_win": N_("a win (1)"),
    "desk.bye_draw": N_("a draw (½)"),
    "desk.bye_loss": N_("a loss (0)"),
    "desk.player_n": N_("Player {n}"),
    "desk.same_name": N_("{count} players are called “{name}”: rename one on the pad first."),
    "desk.make_swiss": N_("Make round {n} (Swiss)"),
    "desk.make_tables": N_("Make round {n}'s tables"),
    "desk.sheet_hint": N_("As the score sheet says, e.g. {examples}"),
    "desk.export_standings_csv": N_("Standings (CSV)"),
    "desk.export_standings_md": N_("Standings (Markdown)"),
    "desk.export_logs_jsonl": N_("Game logs (JSON Lines)"),
    "desk.export_logs_text": N_("Game logs (text)"),
    "desk.kind_withdrawal": N_("Withdrawn"),
    "desk.kind_swap": N_("Swapped"),
    "desk.kind_takeback": N_("Round taken back"),
    "desk.kind_correction": N_("Result corrected"),
    "desk.pairings_title": N_("{name} · round {n}"),
    "desk.no_such_round": N_("There is no round {n} yet."),
    "desk.slip": N_("{name} · round {n} · table {k}"),
    "desk.entrants_count": N_("{title} ({n})"),
    "desk.table_n": N_("Table {n}"),
    "desk.by_name": N_("by {name}"),
    "desk.slip_result": N_("{label}: "),
    "tiebreak.head-to-head": N_("head to head"),
    "tiebreak.sonneborn-berger": N_("Sonneborn–Berger"),
    "tiebreak.round-difference": N_("round difference"),
    "tiebreak.loss-point-difference": N_("loss point difference"),
    "tiebreak.wins": N_("wins"),
}
"""The pages' words by the key the scripts ask for, in English (the message ids)."""

PLURALS: Final[dict[str, tuple[str, str]]] = {
    "matches": Nn_("{n} match", "{n} matches"),
    "finished_matches": Nn_("{n} finished match", "{n} finished matches"),
    "fixtures.rematches": Nn_("{n} rematch", "{n} rematches"),
    "pad.cards": Nn_("{n} card", "{n} cards"),
    "desk.entrants": Nn_("{n} entrant", "{n} entrants"),
    "pad.kept": Nn_(
        "{n} entry is kept on this device and sent once it answers.",
        "{n} entries are kept on this device and sent once it answers.",
    ),
    "pad.more_queued": Nn_("{n} more queued after it.", "{n} more queued after it."),
    "pad.name_cards": Nn_("Name the card drawn.", "Name the {n} cards drawn, in order."),
    "pad.offline": Nn_(
        "Offline: {n} waiting on this device, retried every few seconds.",
        "Offline: {n} waiting on this device, retried every few seconds.",
    ),
    "pad.sending": Nn_("Sending {n}…", "Sending {n}…"),
    "pad.waiting_answer": Nn_(
        "Waiting for your answer: {n} not sent.", "Waiting for your answer: {n} not sent."
    ),
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


__all__ = ["N_", "PLURALS", "WORDS", "Nn_", "page_words", "page_words_json"]
