"""CardViewer: browse and export the digital business cards of a space."""

__version__ = "0.1.0"
APP_NAME = "CardViewer"
APP_ID = "cardviewer"
ORGANIZATION = "CardViewer"
