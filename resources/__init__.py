"""Images and icons the app shows, shipped as package data."""
