"""What longtasks.py, profiled.py and code_sizes.py share: wasm function names from a build's name section, and which
of them are wgsweep's own."""
import re


def leb(b, i):
    """The unsigned LEB128 number at b[i], and the index after it."""
    r = shift = 0
    while True:
        x = b[i]
        i += 1
        r |= (x & 0x7F) << shift
        shift += 7
        if x < 0x80:
            return r, i


def sections(b):
    """(id, start of contents, end) of each section of wasm module bytes b."""
    i = 8
    while i < len(b):
        sid = b[i]
        size, i = leb(b, i + 1)
        yield sid, i, i + size
        i += size


def wasm_names(path):
    """Function index -> name, from a wasm module's name section."""
    b = open(path, "rb").read()
    names = {}
    for sid, i, end in sections(b):
        if sid == 0:
            length, j = leb(b, i)
            if b[j:j + length] == b"name":
                j += length
                while j < end:
                    sub = b[j]
                    sub_size, j = leb(b, j + 1)
                    if sub == 1:
                        count, k = leb(b, j)
                        for _ in range(count):
                            index, k = leb(b, k)
                            length, k = leb(b, k)
                            names[index] = b[k:k + length].decode(errors="replace")
                            k += length
                    j += sub_size
    return names


# The crate's top modules: a sampled stack's innermost frame from one of them names what the page did.
OURS = {"analysis", "baseline", "bounds", "charts", "compare", "estimate", "fill", "gallery", "gpu", "grid", "host",
        "kernel", "kernels", "measure", "plan", "result", "runner", "share", "sort", "spec", "stats", "tune", "web"}


def short(name):
    """A Rust path without its crate prefixes and hash."""
    name = re.sub(r"::h[0-9a-f]{16}$", "", name)
    return name.replace("wgsweep::", "")
