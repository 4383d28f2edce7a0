"""`python -m cardviewer` starts the app."""

from cardviewer.app import main

raise SystemExit(main())
