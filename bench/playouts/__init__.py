"""Random legal playouts, one module per game, driven by ``bench/engine_playout.py``.

Each module offers ``VARIANTS`` (the variant names it accepts) and
``play_round(rng, variant) -> int``: set up one round from a random deck order
drawn with ``rng``, play uniformly random legal moves (legal-move generation
included) until the round ends or hits the module's cap, and return the number of
moves applied.
"""
