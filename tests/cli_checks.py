"""Checks that several CLI test modules share."""


def one_line(result, *phrases):
    """Exit 2 with exactly one line, `Error: ...`, holding every phrase; returns the line."""
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    for phrase in phrases:
        assert phrase in lines[0], lines[0]
    return lines[0]
