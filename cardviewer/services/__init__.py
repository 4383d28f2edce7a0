"""Small services beside the widgets: session store, settings, avatars, export."""
