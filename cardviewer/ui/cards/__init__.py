"""The card table: its Qt model, columns and avatar delegate."""
