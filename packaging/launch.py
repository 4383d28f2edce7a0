"""The frozen app's entry point: the same `main()` as `cardviewer`, `python -m cardviewer`
and `python main.py`.

It lives here, not at the top of the checkout, so that building the bundle does not
put the checkout itself on the module search path: the bundle is made from the
package as it installs (see cardviewer.spec).
"""

import multiprocessing

if __name__ == "__main__":
    # A sync's cards are written by a process started as this program; in it, this
    # runs the writing and exits, before the app is even imported.
    multiprocessing.freeze_support()

    from cardviewer.entry_point import main

    raise SystemExit(main())
