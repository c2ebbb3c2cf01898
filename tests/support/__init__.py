"""Helpers shared by the test modules: plain functions, agents and constants that several
test files build their situations with (a test module imports them from here, never from
another test module)."""
