"""pct.normalize_path against `pct path` of the pct tool built from the same
tree (PCT_CLI): every preset, every option, the report and the errors
(status and byte offset), on random paths."""

import pickle
import subprocess

import pytest

import pct
from logs_data import cli

PIECES = ["/", "//", ".", "..", "%2e", "%2E%2e", "%2F", "%2f", "%5C", "\\", "%00", "%01", "%7F",
          "%3B", "%3b", ";", "..;x", "%25", "%2541", "%3F", "%23", "%41", "%7e", "a", "b", "%",
          "%zz", "%C3%A9", "\xe9", "%FF", "?q=%41/../", "#f"]

CLASSES = ["slash", "backslash", "nul", "semicolon", "percent", "question", "hash", "control"]
OPTIONS = ["merge_slashes", "backslash", "strict", "utf8", "reject_above_root", "dot_params",
           "reject_dot_params", "reject_changed"]
STATUS = {"escaped byte rejected by the path policy": pct.REJECTED_BYTE,
          "path rejected by the path policy": pct.REJECTED_PATH,
          "invalid UTF-8": pct.INVALID_UTF8,
          "invalid escape": pct.INVALID_ESCAPE}


def random_paths(rng, n):
    paths = []
    for _ in range(n):
        s = "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 12)))
        paths.append(s.encode("latin-1" if "\xe9" in s and rng.random() < 0.5 else "utf-8"))
    return paths


def cli_args(policy, kw):
    args = ["--policy", policy]
    for name, value in kw.items():
        opt = "--" + name.replace("_", "-")
        if name.startswith("encoded_"):
            args += [opt, value]
        elif value:
            args.append(opt)
        else:
            args.append("--no-" + opt[2:])
    return args


def cli_paths(paths, policy, kw, report=False):
    """What `pct path` gives for each path: (output, report) or ("error",
    status, offset)."""
    r = subprocess.run([cli(), "path", *cli_args(policy, kw), *(["--report"] if report else []),
                        "--", *paths], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = r.stdout.split(b"\n")
    assert len(out) == len(paths) + 1 and out[-1] == b"", r.stderr
    errors = {}
    for line in r.stderr.decode().splitlines():
        # pct: argument N, byte M: reason
        where, reason = line[len("pct: "):].split(": ", 1)
        arg, byte = where.split(", ")
        errors[int(arg.split()[1]) - 1] = (STATUS[reason], int(byte.split()[1]))
    got = []
    for i, line in enumerate(out[:-1]):
        if i in errors:
            got.append(("error",) + errors[i])
        elif report:
            path, names = line.rsplit(b"\t", 1)
            got.append((path, () if names == b"-" else tuple(names.decode().split(","))))
        else:
            got.append((line, None))
    return got


def py_paths(paths, policy, kw, report=False):
    got = []
    for p in paths:
        try:
            r = pct.normalize_path(p, policy, report=report, **kw)
        except pct.Error as e:
            got.append(("error", e.status, e.offset))
            continue
        got.append((r[0], r[1].changes) if report else (r, None))
    return got


def random_options(rng):
    kw = {}
    for c in CLASSES:
        if rng.random() < 0.3:
            actions = ["keep", "reject"] if c in ("nul", "question", "hash", "control") else [
                "keep", "decode", "reject"]
            kw["encoded_" + c] = rng.choice(actions)
    for o in OPTIONS:
        if rng.random() < 0.2:
            # the CLI turns these on only; merge-slashes and backslash both ways
            kw[o] = True if o not in ("merge_slashes", "backslash") else rng.random() < 0.5
    return kw


@pytest.mark.parametrize("policy", ["default", "nginx", "envoy", "apache", "traefik", "strict"])
def test_presets_and_options_as_cli(rng, policy):
    paths = random_paths(rng, 300)
    assert py_paths(paths, policy, {}) == cli_paths(paths, policy, {})
    assert py_paths(paths, policy, {}, report=True) == cli_paths(paths, policy, {}, report=True)
    for _ in range(12):
        kw = random_options(rng)
        report = rng.random() < 0.5
        assert py_paths(paths, policy, kw, report) == cli_paths(paths, policy, kw, report), kw


def test_report():
    path, rep = pct.normalize_path("/abc", report=True)
    assert path == "/abc" and rep.changes == () and rep.bits == 0 and rep.first_change == 4
    path, rep = pct.normalize_path(b"/x/%41/./y", report=True)
    assert path == b"/x/A/y"
    assert rep.changes == ("decode-unreserved", "remove-dots") and rep.first_change == 3
    assert rep.bits == pct.PATH_DID_DECODE_UNRESERVED | pct.PATH_DID_REMOVE_DOTS
    assert isinstance(rep, pct.PathReport)
    # offsets of a str count bytes of its UTF-8
    assert pct.normalize_path("/é/%41", report=True)[1].first_change == len("/é/".encode())
    with pytest.raises(pct.Error) as e:
        pct.normalize_path(b"/a/b/%2e%2e/c", reject_changed=True)
    assert e.value.status == pct.REJECTED_PATH and e.value.offset == 4
    assert "remove-dots" in e.value.report.changes and e.value.report.first_change == 4
    back = pickle.loads(pickle.dumps(e.value))  # as across a Dask worker boundary
    assert (back.status, back.offset, back.report) == (e.value.status, 4, e.value.report)
    with pytest.raises(pct.Error) as e:
        pct.normalize_path("/%2F", "traefik")
    assert e.value.status == pct.REJECTED_BYTE and e.value.offset == 1 and e.value.report is None


def test_options_turned_off_and_bad_arguments():
    assert pct.normalize_path(b"/../a", "strict", reject_above_root=False) == b"/a"
    with pytest.raises(pct.Error):
        pct.normalize_path(b"/../a", "strict")
    assert pct.normalize_path(b"/a//b", merge_slashes=False) == b"/a//b"
    assert pct.normalize_path(b"/a\\b", backslash=False) == b"/a\\b"
    assert pct.normalize_path(b"/a\\b") == b"/a/b"
    assert pct.normalize_path(b"/a/..;x/b", dot_params=True) == b"/b"
    assert pct.normalize_path(b"/a/..;x/b") == b"/a/..;x/b"
    assert pct.normalize_path(b"/%FF", utf8=False) == b"/%FF"
    assert pct.normalize_path(b"/%C3") == b"/%C3"
    with pytest.raises(pct.Error) as e:  # a str: the path decoded must be UTF-8
        pct.normalize_path("/%C3")
    assert e.value.status == pct.INVALID_UTF8 and e.value.offset == 1
    for kw in ({"encoded_question": "decode"}, {"encoded_control": "decode"},
               {"encoded_slash": "unescape"}, {"utf8": False}):
        with pytest.raises(ValueError):
            pct.normalize_path("/a", **kw)
    with pytest.raises(ValueError):
        pct.normalize_path("/a", "caddy")
    with pytest.raises(TypeError):
        pct.normalize_path("/a", "default", "keep")  # keywords only after policy
    with pytest.raises(TypeError):
        pct.normalize_path("/a", encoded_slash=1)
    with pytest.raises(TypeError):
        pct.normalize_path("/a", no_such_option=True)
