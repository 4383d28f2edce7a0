"""`python -m cardviewer` starts the app."""

from cardviewer.entry_point import main

raise SystemExit(main())
