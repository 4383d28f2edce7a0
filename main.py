"""Start CardViewer from a checkout: `python main.py [--demo]`."""

from cardviewer.app import main

if __name__ == "__main__":
    raise SystemExit(main())
