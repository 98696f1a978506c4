"""Printable strings of a binary that look like GPU error messages (no binutils needed)."""
import re, sys
KEY = re.compile(rb"(?i)(out of memory|cudnn|cuda|driver|nvml|cublas|failed|unable|could not|cannot|not compiled|no kernel|device|version|insufficient|mismatch|unsupported|not supported|initiali[sz]|allocat)")
for path in sys.argv[1:]:
    try:
        data = open(path, "rb").read()
    except OSError as e:
        print("#", path, "unreadable", e); continue
    seen = set()
    for m in re.finditer(rb"[\x20-\x7e\t]{16,}", data):
        s = m.group(0)
        if s in seen or not KEY.search(s) or len(s) > 600: continue
        if re.match(rb"^[_A-Za-z0-9@.$]+$", s): continue  # symbol names
        seen.add(s)
    print("# %s %d" % (path, len(seen)))
    for s in sorted(seen):
        print(s.decode("ascii", "replace"))
