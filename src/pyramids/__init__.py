"""pyramids: play, study and build AI for pyramid tile games."""

__version__ = "0.1.0"
