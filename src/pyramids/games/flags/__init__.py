"""Pyramids and Flags on the host side: the registry entry, default policy, evaluation,
inference, terminal interface, RL encoding.

The rules are ``pyramids.flags``; the registry entry is ``descriptor.DESCRIPTOR`` here,
whose typed parts import the modules of this package on first use.
"""
