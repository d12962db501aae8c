"""Simulation, benchmarks and statistics over many games (above the bots layer)."""
