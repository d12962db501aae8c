"""Flaming Pyramids on the host side: the registry entry, default policy, evaluation,
terminal interface, RL encoding.

The rules are ``pyramids.flaming``; the registry entry is ``descriptor.DESCRIPTOR`` here,
whose typed parts import the modules of this package on first use.
"""
