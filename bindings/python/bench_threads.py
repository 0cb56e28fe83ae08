"""Do threads speed up pct's batch and long-input calls?

Runs decode_many on two separate lists, first one after the other in one
thread, then at the same time in two threads, and prints the speed-up
(serial time / two-thread time; 2.0 would be perfect scaling on two free
cores), for short items (object creation, which needs the GIL, is most of
the work) and long ones (decoded with the GIL released). The medians of
--runs timings; alternate with another build to compare. No assertion:
numbers for the README, measured on a machine that may be shared.

    V/bin/python bindings/python/bench_threads.py [--runs 7]
"""

import argparse
import random
import statistics
import threading
import time

import pct


def short_items(rng, n):
    pieces = ["a", "b", "%20", "%C3%A9", "/", "x"]
    return [("".join(rng.choice(pieces) for _ in range(rng.randrange(10, 60)))).encode()
            for _ in range(n)]


def long_items(rng, n, size):
    unit = b"/p%C3%A9/%2541?q=%20&x=abcdefgh"
    return [unit * (size // len(unit)) + str(rng.randrange(10**6)).encode() for _ in range(n)]


def serial(work, lists):
    t = time.perf_counter()
    for items in lists:
        work(items)
    return time.perf_counter() - t


def parallel(work, lists):
    threads = [threading.Thread(target=work, args=(items,)) for items in lists]
    t = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return time.perf_counter() - t


def measure(name, lists, repeat, runs):
    def work(items):
        for _ in range(repeat):
            pct.decode_many(items)

    serial_times, parallel_times = [], []
    for _ in range(runs):
        serial_times.append(serial(work, lists))
        parallel_times.append(parallel(work, lists))
    s, p = statistics.median(serial_times), statistics.median(parallel_times)
    mb = sum(len(x) for x in lists[0]) * repeat * 2 / 1e6
    print(f"{name:44} serial {s * 1e3:8.1f} ms  2 threads {p * 1e3:8.1f} ms  "
          f"speed-up {s / p:4.2f}x  ({mb / s:6.0f} -> {mb / p:6.0f} MB/s)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(1)
    print(f"pct {pct.__version__}, implementation {pct.implementation()}")
    measure("decode_many, 100,000 items of 20-170 bytes", [short_items(rng, 100000) for _ in range(2)],
            10, args.runs)
    measure("decode_many, 500 items of 4 KiB", [long_items(rng, 500, 4096) for _ in range(2)],
            20, args.runs)
    measure("decode_many, 64 items of 256 KiB", [long_items(rng, 64, 256 << 10) for _ in range(2)],
            5, args.runs)
    measure("decode_many, 4 items of 8 MiB", [long_items(rng, 4, 8 << 20) for _ in range(2)],
            3, args.runs)


if __name__ == "__main__":
    main()
