"""The rules a match is played under: ``domain.match_config``'s names, where they were."""

from domain.match_config import (
    DEALINGS,
    RECORDINGS,
    RULES_VERSION,
    Dealing,
    MatchConfig,
    Recording,
)

__all__ = ["DEALINGS", "RECORDINGS", "RULES_VERSION", "Dealing", "MatchConfig", "Recording"]
