"""Speed of the pct package against urllib.parse (the README's Python table).

    python bench.py [--quick]

Medians of several runs (timeit); the machine is shared, so runs vary:
compare the ratios, measured in the same process."""

import random
import statistics
import sys
import timeit
import urllib.parse as up

import pct

QUICK = "--quick" in sys.argv
rng = random.Random(20261123)
ALPHA = "abcdefghijklmnopqrstuvwxyz0123456789/-._"
ESC = ["%20", "%2F", "%C3%A9", "%E2%82%AC", "%3D"]


def target(n, rate=0.06):
    s, length = [], 0
    while length < n:
        p = rng.choice(ESC) if rng.random() < rate else rng.choice(ALPHA)
        s.append(p)
        length += len(p)
    return "".join(s)


def per_call(fn, arg, number):
    runs = timeit.repeat(lambda: fn(arg), number=number, repeat=3 if QUICK else 9)
    return statistics.median(runs) / number


def row(name, base, fast, unit):
    print(f"| {name} | {base} | {fast} | {unit} |")


print(f"pct {pct.__version__}, implementation {pct.implementation()}, Python {sys.version.split()[0]}")
print("| operation | urllib.parse | pct | speed-up |")
print("|---|---|---|---|")
s40 = target(40)
for fn in ("unquote", "unquote_plus", "unquote_to_bytes"):
    a, b = per_call(getattr(up, fn), s40, 20000), per_call(getattr(pct, fn), s40, 20000)
    row(f"`{fn}`, {len(s40)}-char string", f"{a * 1e9:.0f} ns", f"{b * 1e9:.0f} ns", f"{a / b:.1f}×")
q40 = "".join(rng.choice(ALPHA + " é&=?") for _ in range(40))
for fn in ("quote", "quote_plus"):
    a, b = per_call(getattr(up, fn), q40, 20000), per_call(getattr(pct, fn), q40, 20000)
    row(f"`{fn}`, 40-char string", f"{a * 1e9:.0f} ns", f"{b * 1e9:.0f} ns", f"{a / b:.1f}×")
big = target(65536)[:65536]
a, b = per_call(up.unquote, big, 10), per_call(pct.unquote, big, 200)
row("`unquote`, 64 KiB string", f"{65536 / a / 1e6:.0f} MB/s", f"{65536 / b / 1e6:.0f} MB/s", f"{a / b:.0f}×")
bigq = "".join(rng.choice(ALPHA + " é&=?") for _ in range(65536))
a, b = per_call(up.quote, bigq, 10), per_call(pct.quote, bigq, 200)
row("`quote`, 64 KiB string", f"{65536 / a / 1e6:.0f} MB/s", f"{65536 / b / 1e6:.0f} MB/s", f"{a / b:.0f}×")
items = [target(rng.randrange(20, 101)).encode() for _ in range(100000)]
total = sum(map(len, items))
reps = 3 if QUICK else 7
a = statistics.median(timeit.repeat(lambda: [up.unquote_to_bytes(x) for x in items], number=1, repeat=reps))
b = statistics.median(timeit.repeat(lambda: pct.decode_many(items), number=1, repeat=reps))
c = statistics.median(timeit.repeat(lambda: [x[1:] for x in items], number=1, repeat=reps))
row("`decode_many`, 100,000 strings of 20-100 bytes, vs `[unquote_to_bytes(x) for x in items]`",
    f"{a * 1e3:.0f} ms", f"{b * 1e3:.1f} ms", f"{a / b:.1f}×")
print(f"\n(creating 100,000 bytes objects alone, [x[1:] for x in items]: {c * 1e3:.1f} ms; "
      f"{total / 1e6:.1f} MB in all)")
assert pct.decode_many(items) == [up.unquote_to_bytes(x) for x in items]
