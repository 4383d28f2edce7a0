"""The frozen app's entry point: the same `main()` as `cardviewer`, `python -m cardviewer`
and `python main.py`.

It lives here, not at the top of the checkout, so that building the bundle does not
put the checkout itself on the module search path: the bundle is made from the
package as it installs (see cardviewer.spec).
"""

from cardviewer.app import main

raise SystemExit(main())
