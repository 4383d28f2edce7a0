"""The sign-in dialog."""
