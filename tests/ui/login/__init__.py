"""Tests of the sign-in dialog."""
