"""The accessibility walk on the real bus (`make a11y`); not part of the pytest run."""
