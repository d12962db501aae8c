"""Flaming Pyramids on the host side: default policy, evaluation, terminal interface, RL encoding.

The rules are ``pyramids.flaming``; the registry entry is ``pyramids.flaming.DESCRIPTOR``,
which names the modules here by dotted path.
"""
