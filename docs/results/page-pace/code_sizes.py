"""Bytes of code in a page's wasm built with its name section, summed over the functions whose names hold
a pattern, and how many of them there are; with two builds, each side by side.

    sed -i 's/--strip-target-features"/--strip-target-features -g"/' index.html
    trunk build --release --dist /tmp/names; git checkout index.html
    python3 docs/results/page-pace/code_sizes.py 'core::slice::sort' /tmp/names-before/wgsweep_bg.wasm /tmp/names/wgsweep_bg.wasm
    python3 docs/results/page-pace/code_sizes.py 'sort::stable::drift::sort' …   # the copies of the stable sort
"""
import sys

from wasm_names import wasm_names


def body_sizes(path):
    """(function index, bytes of its body) for every function the module defines."""
    b = open(path, "rb").read()

    def leb(i):
        r = shift = 0
        while True:
            x = b[i]
            i += 1
            r |= (x & 0x7F) << shift
            shift += 7
            if x < 0x80:
                return r, i

    i, imported, sizes = 8, 0, []
    while i < len(b):
        sid, (size, i) = b[i], leb(i + 1)
        end = i + size
        if sid == 2:  # imports: functions among them come first in the index space
            n, j = leb(i)
            for _ in range(n):
                for _ in range(2):  # module and field names
                    length, j = leb(j)
                    j += length
                kind, j = b[j], j + 1
                if kind == 0:
                    _, j = leb(j)
                    imported += 1
                elif kind in (1, 2):  # a table's element type, then limits; a memory's limits
                    j += kind == 1
                    flags, j = leb(j)
                    _, j = leb(j)
                    if flags & 1:
                        _, j = leb(j)
                else:  # a global's type and mutability; a tag's
                    j += 2
        elif sid == 10:
            n, j = leb(i)
            for k in range(n):
                length, start = leb(j)
                sizes.append((imported + k, start - j + length))
                j = start + length
        i = end
    return sizes


pattern = sys.argv[1]
for path in sys.argv[2:]:
    names = wasm_names(path)
    matched = [size for index, size in body_sizes(path) if pattern in names.get(index, "")]
    print(f"{sum(matched):8d} bytes in {len(matched):3d} functions  {path}")
