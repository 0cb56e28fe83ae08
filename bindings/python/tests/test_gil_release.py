"""Long inputs are processed with the GIL released (README: from 16 KiB):
another thread runs Python code while the call is in C.

With the switch interval made very long, a thread that wants the GIL gets it
only when the holder releases it: a counter that another thread increments
can change during a call only if the call released the GIL. No timing is
asserted: a call that holds the GIL never lets the counter move; one that
releases it is given ten tries of a 128 MiB input to let it move once."""

import functools
import sys
import threading

import pytest

import pct

MIB = 1 << 20
# 16 bytes, so that 128 MiB of them end at a unit's end: valid for every
# operation below (escapes, UTF-8, a path)
UNIT = b"/a%41b%C3%A9xyz/"


@pytest.fixture(scope="module")
def big():
    data = UNIT * (128 * MIB // len(UNIT))
    assert len(data) == 128 * MIB
    return data


def other_thread_ran_during(call, tries=10):
    """Whether a second thread executed Python code while call() ran, in
    one of `tries` calls."""
    counter = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            counter[0] += 1
            stop.wait(0.001)  # waits without the GIL, then wants it back

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)  # no forced switch: only released GIL lets it in
    thread = threading.Thread(target=count)
    thread.start()
    try:
        for _ in range(tries):
            before = counter[0]
            call()
            if counter[0] != before:
                return True
        return False
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)


CALLS = {
    "validate": lambda d: pct.validate(d, "path"),
    "normalize": lambda d: pct.normalize(d),
    "normalize_path": lambda d: pct.normalize_path(d),
    "normalize_path_str": lambda d: pct.normalize_path(d.decode()),
    "iri_to_uri": lambda d: pct.iri_to_uri(d),
    "uri_to_iri": lambda d: pct.uri_to_iri(d),
    "uri_to_iri_str": lambda d: pct.uri_to_iri(d.decode()),
    "decode": lambda d: pct.decode(d),
    "encode": lambda d: pct.encode(d),
    # urllib drop-ins; a str with non-ASCII characters is decoded run by run
    "unquote_to_bytes": lambda d: pct.unquote_to_bytes(d),
    "unquote_str_with_non_ascii": lambda d: pct.unquote(non_ascii_runs()),
    "quote": lambda d: pct.quote(d),
}


@functools.lru_cache(maxsize=1)
def non_ascii_runs():
    """Runs of 32 KiB of escapes between non-ASCII characters, 128 MiB."""
    return ("é" + "%41" * (32768 // 3)) * (128 * MIB // 32770)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_released_on_long_input(big, name):
    assert other_thread_ran_during(lambda: CALLS[name](big)), name


def test_held_on_short_input():
    # the method itself: a short call keeps the GIL, and the counter never moves
    short = UNIT * 64
    assert not other_thread_ran_during(lambda: [pct.validate(short, "path") for _ in range(100)])


def test_results_of_long_inputs(big):
    """What the long calls return (small pieces checked against the same
    call on one unit: the operations work unit by unit here)."""
    n = len(big) // len(UNIT)
    assert pct.validate(big, "path") == n * len(pct.decode(UNIT))
    assert pct.normalize(big) == pct.normalize(UNIT) * n
    assert pct.uri_to_iri(big) == pct.uri_to_iri(UNIT) * n
