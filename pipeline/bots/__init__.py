"""Bots: hand evaluation and decision helpers for the simulated players."""
