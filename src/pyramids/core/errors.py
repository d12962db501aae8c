"""Errors shared by every game: unparseable text, illegal actions, inconsistent positions."""


class PyramidsError(ValueError):
    """Base class of every error the rules raise; its message says what is wrong."""


class ActionParseError(PyramidsError):
    """The text is not an action in the game's notation at all."""


class IllegalActionError(PyramidsError):
    """The action parses but is not legal in this state (wrong turn, not in hand, bad spot...)."""


class PositionError(PyramidsError):
    """A position (JSON or record) breaks the rules of the notation or of the game."""
