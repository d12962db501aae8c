"""Pyramids and Flags on the host side: default policy, evaluation, terminal interface, RL encoding.

The rules are ``pyramids.flags``; the registry entry is ``pyramids.flags.DESCRIPTOR``,
which names the modules here by dotted path.
"""
