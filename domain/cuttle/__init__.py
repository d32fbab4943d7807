"""Cuttle: classic, standard and cutthroat as parameters of one engine."""
