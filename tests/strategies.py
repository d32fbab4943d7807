"""Hypothesis strategies shared by the test suite, one section per area."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

# --- Event store: JSON event data -------------------------------------------------

# I-JSON values (RFC 7493), which RFC 8785 canonicalises: integers within ±(2**53 - 1) and
# finite floats. Text excludes NUL, which jsonb refuses.
json_scalars: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")),
)
json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
event_data: st.SearchStrategy[dict[str, Any]] = st.dictionaries(
    st.text(max_size=8), json_values, max_size=5
)
stream_names: st.SearchStrategy[str] = st.builds(
    lambda game, rest: f"{game}-{rest}",
    st.sampled_from(["cuttle", "kozel"]),
    st.text(min_size=1, max_size=12).filter(lambda s: "\x00" not in s),
)
