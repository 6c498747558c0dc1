"""Bytes of code in a page's wasm built with its name section, summed over the functions whose names hold
a pattern, and how many of them there are; with two builds, each side by side.

    sed -i 's/--strip-target-features"/--strip-target-features -g"/' index.html
    trunk build --release --dist /tmp/names; git checkout index.html
    python3 docs/results/page-pace/code_sizes.py 'core::slice::sort' /tmp/names-before/wgsweep_bg.wasm /tmp/names/wgsweep_bg.wasm
    python3 docs/results/page-pace/code_sizes.py 'sort::stable::drift::sort' …   # the copies of the stable sort
"""
import sys

from wasm_names import leb, sections, wasm_names


def body_sizes(path):
    """(function index, bytes of its body) for every function the module defines."""
    b = open(path, "rb").read()
    imported, sizes = 0, []
    for sid, i, _ in sections(b):
        if sid == 2:  # imports: functions among them come first in the index space
            n, j = leb(b, i)
            for _ in range(n):
                for _ in range(2):  # module and field names
                    length, j = leb(b, j)
                    j += length
                kind, j = b[j], j + 1
                if kind == 0:
                    _, j = leb(b, j)
                    imported += 1
                elif kind in (1, 2):  # a table's element type, then limits; a memory's limits
                    j += kind == 1
                    flags, j = leb(b, j)
                    _, j = leb(b, j)
                    if flags & 1:
                        _, j = leb(b, j)
                else:  # a global's type and mutability; a tag's
                    j += 2
        elif sid == 10:
            n, j = leb(b, i)
            for k in range(n):
                length, start = leb(b, j)
                sizes.append((imported + k, start - j + length))
                j = start + length
    return sizes


pattern = sys.argv[1]
for path in sys.argv[2:]:
    names = wasm_names(path)
    matched = [size for index, size in body_sizes(path) if pattern in names.get(index, "")]
    print(f"{sum(matched):8d} bytes in {len(matched):3d} functions  {path}")
