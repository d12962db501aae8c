"""Tests of the analysis layer: tournaments and their statistics."""
