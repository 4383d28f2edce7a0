"""Benchmarks: each prints its figure as a ratio against a baseline measured in the same run."""
