"""The tutorial's code blocks in python/README.md run as written (the self-play loop with
fewer episodes)."""

import pathlib
import re

import pytest

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_the_tutorial_has_its_three_examples():
    assert len(BLOCKS) == 3


@pytest.mark.parametrize("i", range(len(BLOCKS)))
def test_tutorial_block_runs(i, capsys):
    code = "import senet\n" + BLOCKS[i].replace("range(200)", "range(3)")
    exec(compile(code, f"README block {i + 1}", "exec"), {})
