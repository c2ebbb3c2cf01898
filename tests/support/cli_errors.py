"""The project's bad-input promise, checked: one line naming the entry and the fix, exit code 2."""

from __future__ import annotations


def assert_one_line_error(result, *words: str) -> None:
    """Exit code 2, one line on the screen, no traceback."""
    assert result.exit_code == 2, result.output
    text = result.output.strip()
    assert len(text.splitlines()) == 1, text
    assert text.startswith("error:")
    assert "Traceback" not in text
    for word in words:
        assert word in text
    assert isinstance(result.exception, SystemExit)
