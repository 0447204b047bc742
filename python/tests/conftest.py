"""Shared fixtures: every rule set with each of its options switched from the default."""

import os
import pathlib

import pytest

import senet

REPO = pathlib.Path(__file__).resolve().parents[2]


def variants():
    """(rule set ID, options) for every rule set at its defaults and with each bool option
    flipped, so that every option's tables (throws, scores) are exercised."""
    out = []
    for r in senet.rule_sets():
        out.append((r["id"], {}))
        for o in r["options"]:
            if o["type"] == "bool":
                out.append((r["id"], {o["name"]: not o["default"]}))
    return out


VARIANTS = variants()


def variant_id(v):
    rules, opts = v
    return rules + "".join(f"-{k}={v}" for k, v in opts.items())


@pytest.fixture(scope="session")
def senet_bin():
    """The `senet` binary the CLI-agreement tests compare with (built by `cargo build -p
    senet`, or named by $SENET_BIN)."""
    path = pathlib.Path(os.environ.get("SENET_BIN", REPO / "target" / "debug" / "senet"))
    if not path.is_file():
        pytest.fail(
            f"{path} is missing: build it with `cargo build -p senet` (or set SENET_BIN); "
            "scripts/test.sh does this before running pytest"
        )
    return str(path)
