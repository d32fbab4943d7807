"""Kozel: the four-player partnership game to 12 loss points."""
