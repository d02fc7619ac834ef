#!/usr/bin/env python3
"""products.py — the library products of a package, from `swift package describe --type json`.

Usage: swift package describe --type json | scripts/compat/products.py
Prints one library product name a line (executables, plugins and macros are left out).
Exits 2 when the input is not such a description.
"""

import json
import sys

try:
    package = json.load(sys.stdin)
    for product in package["products"]:
        if "library" in product["type"]:
            print(product["name"])
except (ValueError, KeyError, TypeError) as e:
    print(f"products.py: not a package description ({e})", file=sys.stderr)
    sys.exit(2)
