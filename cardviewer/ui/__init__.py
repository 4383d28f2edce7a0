"""Widgets and Qt models; they never build URLs or parse JSON."""
