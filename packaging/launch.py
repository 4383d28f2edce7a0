"""The frozen app's entry point: the same `main()` as `cardviewer`, `python -m cardviewer`
and `python main.py`.

It lives here, not at the top of the checkout, so that building the bundle does not
put the checkout itself on the module search path: the bundle is made from the
package as it installs (see cardviewer.spec).
"""

import multiprocessing

from cardviewer.app import main

# A sync's cards are written by a process started as this program; there, this runs
# the writing and exits instead of starting the app.
multiprocessing.freeze_support()
raise SystemExit(main())
