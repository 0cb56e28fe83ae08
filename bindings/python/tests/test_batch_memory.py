"""decode_many and encode_many keep no batch-sized buffers after a call: the
process's resident memory (VmRSS) after a 200 MiB batch whose results are
freed is within a generous bound of what it was before the call (a batch
runs through buffers of a few MiB; the old code kept buffers as large as
the batch, 355 MiB after 200 MiB).

Each case runs in a child process, so that this process's own allocations
(other tests) do not blur the figure. glibc keeps freed memory of many small
blocks (the result objects) mapped, as it does for any list of bytes made
in Python: malloc_trim(0) gives it back before the measure, so what counts
is memory still allocated."""

import subprocess
import sys

import pytest

CHILD = r"""
import ctypes, ctypes.util, gc, sys
import pct

def trim():
    try:
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass  # not glibc: nothing to give back this way

def rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024

size, count, call = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
items = [(b"%41/b%20" * (size // 8 + 1))[:size - 8] + b"%d" % (10**7 + i) for i in range(count)]
fn = pct.decode_many if call == "decode" else pct.encode_many
gc.collect()
trim()
before = rss_mib()
out = fn(items)
assert len(out) == count and out[0] != items[0]
del out
gc.collect()
trim()
print(rss_mib() - before)
"""

BOUND_MIB = 64


@pytest.mark.parametrize("size,count,call", [
    (1000, 200 * 1024, "decode"),    # short items, through the chunks
    (2 << 20, 100, "decode"),         # long items, each alone
    (1000, 70 * 1024, "encode"),     # 3x the input as room
])
def test_no_batch_sized_buffers_kept(size, count, call):
    r = subprocess.run([sys.executable, "-c", CHILD, str(size), str(count), call],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert r.returncode == 0, r.stderr
    kept = float(r.stdout)
    print(f"{call} {count} items of {size} bytes: VmRSS {kept:+.1f} MiB after the call")
    assert kept < BOUND_MIB
