"""Which match contexts a match can reach (R24-R26): loss points, deals and eggs together.

Before deal ``n`` a match has played ``n - 1`` deals: ``eggs`` of them ended 60-60 and
gave nobody anything (R25), and each other, *decided*, deal gave its losing team alone
2, 4 or 6 loss points (R24). With ``eggs_double_next`` a decided deal's points are
doubled once for each eggs deal in the run just before it, so a run of ``r`` eggs
makes it ``2 << r``, ``4 << r`` or ``6 << r``; the ``carried`` eggs just before deal
``n`` double nothing yet. The match ends as soon as a team reaches the loss limit
(R26), so a context with a team there has no deal ``n``.

>>> from domain.kozel.options import KozelOptions
>>> why_unreachable(2, (6, 6), 0, 0, KozelOptions()) is not None  # one deal, two losers
True
>>> why_unreachable(3, (0, 8), 1, 0, KozelOptions(eggs_double_next=True)) is None  # 4 doubled
True
"""

from __future__ import annotations

from domain.kozel.options import KozelOptions

_BASES = (1, 2, 3)
"""A decided deal's loss points (R24) in halves: 2, 4 and 6 are 1, 2 and 3 halves."""
EXACT_HALVES = 128
"""The largest team total (in halves of loss points: 256) for which the egg runs behind
doubled deals are searched exactly; above it (a loss limit over 256), only the count of
deals is checked, because the search grows with the square of the totals."""


def why_unreachable(
    deal: int, loss: tuple[int, int], eggs: int, carried: int, options: KozelOptions
) -> str | None:
    """Return the rule that no sequence of deals reaches this context by, or ``None``.

    ``deal`` is the deal in progress, ``loss`` the teams' loss points before it, ``eggs``
    the eggs deals before it and ``carried`` those in a row just before it (the caller
    has checked ``0 <= carried <= eggs <= deal - 1``).
    """
    limit = options.loss_limit
    if max(loss) >= limit:
        return f"R26: a team at the loss limit ({limit}) has lost the match: no deal follows"
    decided = deal - 1 - eggs
    if decided == 0 and carried != eggs:
        return "R25: with no decided deal before this one, every egg is in the run before it"
    if any(total % 2 for total in loss):
        return "R24: a deal gives 2, 4 or 6 loss points, so a team's total is even"
    halves = (loss[0] // 2, loss[1] // 2)
    spent = eggs - carried
    if options.eggs_double_next and max(halves) <= EXACT_HALVES:
        if _doubled_reach(halves, decided, spent):
            return None
    else:
        # Undoubled, a team losing k deals has 2k to 6k loss points, every even total
        # between; doubled, a single deal may give a team all of its total.
        doubled = options.eggs_double_next
        fewest = sum(bool(half) if doubled else -(-half // 3) for half in halves)
        if fewest <= decided <= sum(halves):
            return None
        if not doubled:
            return (
                f"R24: the {decided} decided deals before this one each give one team 2, 4"
                f" or 6 loss points: no {decided} give {loss[0]}/{loss[1]}"
            )
    return (
        f"R24, R25: the {decided} decided deals before this one each give one team 2, 4 or 6"
        f" loss points, doubled for each egg in the run before it ({spent} eggs in such runs):"
        f" none give {loss[0]}/{loss[1]}"
    )


def _doubled_reach(halves: tuple[int, int], decided: int, spent: int) -> bool:
    """Whether the totals split into ``decided`` doubled deals with ``spent`` eggs behind them.

    Each team's reachable (deals, eggs) pairs are a table of bits; a pair of rows, one
    per team, whose deals add up to ``decided`` and whose eggs can add up to ``spent``
    is a way there.
    """
    longest = max(h.bit_length() for h in halves)
    # Every deal is at least a half and a run behind it at most ``longest`` eggs: the
    # bounds that keep the tables small whatever the deal number says.
    if decided > sum(halves) or spent > decided * longest:
        return False
    stride = spent + 1 + longest
    row = (1 << (spent + 1)) - 1
    a, b = (_reach(half, decided, spent, stride) for half in halves)
    for deals_a in range(decided + 1):
        eggs_a = (a >> (deals_a * stride)) & row
        eggs_b = (b >> ((decided - deals_a) * stride)) & row
        for egg in range(spent + 1):
            if eggs_a >> egg & 1 and eggs_b >> (spent - egg) & 1:
                return True
    return False


def _reach(total: int, decided: int, spent: int, stride: int) -> int:
    """Return bit ``k * stride + s`` set when ``total`` halves are ``k`` deals with ``s`` eggs.

    A deal of base ``q`` behind a run of ``r`` eggs gives ``q << r`` halves (R24, R25).
    """
    valid = 0
    for deals in range(min(decided, total) + 1):
        valid |= ((1 << (spent + 1)) - 1) << (deals * stride)
    terms = sorted(
        (base << run, run)
        for base in _BASES
        for run in range(min(spent, total.bit_length()) + 1)
        if base << run <= total
    )
    table = [1] + [0] * total
    for value in range(1, total + 1):
        reached = 0
        for size, run in terms:
            if size > value:
                break
            reached |= table[value - size] << (stride + run)
        table[value] = reached & valid
    return table[total]


__all__ = ["EXACT_HALVES", "why_unreachable"]
