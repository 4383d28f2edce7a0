"""Start CardViewer from a checkout: `python main.py [--demo]`."""

from cardviewer.entry_point import main

if __name__ == "__main__":
    raise SystemExit(main())
