"""scripts/train_endgame.py, the endgame networks' trainer: its data files, starting from a
weights file (--init) and weighting the positions met in play (--extra, --extra-repeat)."""

import subprocess
import sys

import numpy as np
import pytest

from conftest import REPO

SCRIPT = REPO / "scripts" / "train_endgame.py"
NI, SLOTS, H = 6, 20, 32
REC = np.dtype([("idx", np.uint8, SLOTS), ("val", "<f4", SLOTS), ("y", "<f4"), ("held", np.uint8)])


def write_data(path, rows):
    """A data file in `senet train --endgame --export`'s format: rows of (inputs {index:
    value}, exact value, held out)."""
    data = np.zeros(len(rows), dtype=REC)
    data["idx"] = 255
    for r, (x, y, held) in enumerate(rows):
        for k, (i, v) in enumerate(sorted(x.items())):
            data["idx"][r, k] = i
            data["val"][r, k] = v
        data["y"][r] = y
        data["held"][r] = held
    with open(path, "wb") as f:
        f.write(f"senet-endgame-data/1 kendall5 NI={NI} SLOTS={SLOTS} N={len(rows)}\n".encode())
        data.tofile(f)


def call(*args, hidden=H):
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args), "--hidden", str(hidden), "--backend", "numpy"],
        capture_output=True,
        text=True,
        timeout=300,
    )


def run(*args, hidden=H):
    r = call(*args, hidden=hidden)
    assert r.returncode == 0, r.stderr
    return r


def run_failing(*args, hidden=H):
    """A run the script must refuse; its stderr says why."""
    r = call(*args, hidden=hidden)
    assert r.returncode != 0, r.stdout
    return r.stderr


def params(path):
    lines = [l for l in path.read_text().splitlines() if l and not l.startswith("#")]
    assert lines[0] == f"senet-net/1 kendall5 H={H} NI={NI}"
    flat = np.array([float(t) for l in lines[1:] for t in l.split()])
    assert len(flat) == NI * H + NI + 2 * H + 1
    return flat


def value(flat, x):
    """The network's win chance for the inputs `x` (the layout `senet_bots::net` reads)."""
    w = flat[: NI * H].reshape(NI, H)
    skip, c, v, b = np.split(flat[NI * H :], [NI, NI + H, NI + 2 * H])
    xs = np.zeros(NI)
    for i, t in x.items():
        xs[i] = t
    z = np.maximum(xs @ w + c, 0) @ v + xs @ skip + b[0]
    return 1 / (1 + np.exp(-z))


# The seat input (the last) is flipped at random in training, as no rule depends on it.
A = {0: 1.0, NI - 1: 1.0}
B = {1: 1.0, NI - 1: 1.0}


@pytest.fixture
def table(tmp_path):
    path = tmp_path / "table.data"
    write_data(path, [(A, 0.2, k % 8 == 0) for k in range(64)] + [(B, 0.6, k % 8 == 0) for k in range(64)])
    return path


def test_init_starts_from_the_weights_file(tmp_path, table):
    first = tmp_path / "first.txt"
    run(table, "--epochs", "5", "--batch", "16", "--out", first)
    again = tmp_path / "again.txt"
    run(table, "--epochs", "0", "--init", first, "--out", again)
    assert np.array_equal(params(first), params(again))
    assert "--init" in again.read_text().splitlines()[0]
    # A file of another size is refused, saying why.
    other = tmp_path / "other.txt"
    other.write_text(first.read_text().replace(f"H={H} ", "H=64 "))
    bad = run_failing(table, "--init", other, "--epochs", "0", "--out", tmp_path / "x.txt")
    assert "--init needs" in bad, bad


def test_transfer_starts_from_another_rule_sets_network(tmp_path, table):
    first = tmp_path / "first.txt"
    run(table, "--epochs", "5", "--batch", "16", "--out", first)
    other = tmp_path / "kendall.txt"
    other.write_text(first.read_text().replace("senet-net/1 kendall5 ", "senet-net/1 kendall "))
    # Without --transfer another rule set's network is refused, saying what would take it.
    bad = run_failing(table, "--init", other, "--epochs", "0", "--out", tmp_path / "x.txt")
    assert "--transfer" in bad, bad
    again = tmp_path / "again.txt"
    run(table, "--epochs", "0", "--init", other, "--transfer", "--out", again)
    # The same weights, written as the data's rule set (params checks the kendall5 header).
    assert np.array_equal(params(first), params(again))
    assert "--transfer" in again.read_text().splitlines()[0]


def test_extra_repeat_weights_the_positions_met_in_play(tmp_path, table):
    """The same position valued 0.2 by the table's file and 0.8 by the played file: repeated
    once, the fit lands between; repeated four times, near the played value."""
    played = tmp_path / "played.data"
    write_data(played, [(A, 0.8, k % 8 == 0) for k in range(64)])
    got = {}
    for k in (1, 4):
        out = tmp_path / f"x{k}.txt"
        r = run(table, "--extra", played, "--extra-repeat", k, "--epochs", "150", "--batch", "32",
                "--lr", "0.01", "--out", out)
        got[k] = value(params(out), A)
        assert "met in play" in out.read_text()
        assert "played rms" in r.stderr
    assert 0.4 < got[1] < 0.6, got
    assert 0.62 < got[4] < 0.74, got


def test_widen_doubles_the_units_and_keeps_the_function(tmp_path, table):
    narrow = tmp_path / "narrow.txt"
    run(table, "--epochs", "5", "--batch", "16", "--out", narrow)
    wide = tmp_path / "wide.txt"
    r = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "widen_net.py"), str(narrow), str(wide), "--seed", "3"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    lines = [l for l in wide.read_text().splitlines() if l and not l.startswith("#")]
    assert lines[0] == f"senet-net/1 kendall5 H={2 * H} NI={NI}"
    flat = np.array([float(t) for l in lines[1:] for t in l.split()])
    assert len(flat) == NI * 2 * H + NI + 4 * H + 1
    w = flat[: NI * 2 * H].reshape(NI, 2 * H)
    skip, c, v, b = np.split(flat[NI * 2 * H :], [NI, NI + 2 * H, NI + 4 * H])

    def wide_value(x):
        xs = np.zeros(NI)
        for i, t in x.items():
            xs[i] = t
        return 1 / (1 + np.exp(-(np.maximum(xs @ w + c, 0) @ v + xs @ skip + b[0])))

    for x in (A, B, {0: 1.0, 2: 0.5, NI - 1: -1.0}):
        assert abs(wide_value(x) - value(params(narrow), x)) < 0.01
    # The twins differ (the jitter), so training can pull them apart.
    assert not np.array_equal(w[:, :H], w[:, H:])
    # And the widened file starts a training at the larger size.
    run(table, "--epochs", "0", "--init", wide, "--out", tmp_path / "again.txt", hidden=2 * H)


def test_main_writes_a_main_network_of_the_main_sizes(tmp_path, table):
    # Middle-game positions valued by search (senet train --net --export F --searched N) train a
    # main network: 16 units, which an endgame network never has, and a comment that says so.
    out = tmp_path / "main.txt"
    run(table, "--main", "--epochs", "40", "--batch", "16", "--lr", "0.01", "--out", out, hidden=16)
    text = out.read_text()
    assert f"senet-net/1 kendall5 H=16 NI={NI}\n" in text
    assert "# kendall5 main network: scripts/train_endgame.py --hidden 16" in text
    assert "search values" in text and "exact values" not in text
    lines = [l for l in text.splitlines() if l and not l.startswith("#")]
    flat = np.array([float(t) for l in lines[1:] for t in l.split()])
    w = flat[: NI * 16].reshape(NI, 16)
    skip, c, v, b = np.split(flat[NI * 16 :], [NI, NI + 16, NI + 32])

    def main_value(x):
        xs = np.zeros(NI)
        for i, t in x.items():
            xs[i] = t
        return 1 / (1 + np.exp(-(np.maximum(xs @ w + c, 0) @ v + xs @ skip + b[0])))

    # It learnt the targets.
    assert abs(main_value(A) - 0.2) < 0.05 and abs(main_value(B) - 0.6) < 0.05
    # Sizes are those of the kind of network asked for.
    for args, size, msg in [
        ([], 16, "an endgame network has 32, 64, 128, 256, 512 hidden units"),
        (["--main"], 48, "invalid choice: 48"),
    ]:
        bad = run_failing(table, *args, "--out", tmp_path / "no.txt", hidden=size)
        assert msg in bad, bad
        assert not (tmp_path / "no.txt").exists()


def test_pieces_4_names_the_four_piece_network(tmp_path, table):
    # Issue 34: data of the 4-piece table (senet train --endgame --pieces 4 --export) train the
    # four-piece endgame network (nets/RULES-end4.txt): an endgame network's sizes and layout,
    # and a comment that names it and its table, not the 3-piece one.
    out = tmp_path / "end4.txt"
    run(table, "--pieces", "4", "--epochs", "40", "--batch", "16", "--lr", "0.01", "--out", out)
    text = out.read_text()
    assert "# kendall5 four-piece endgame network" in text
    assert "scripts/train_endgame.py --pieces 4 --hidden 32" in text
    assert "kendall5-4.senet-exact" in text and "kendall5-3.senet-exact" not in text
    # It names the data it was trained on: a sample of the table, or positions met in play.
    assert "at the positions of table.data (" in text
    flat = params(out)
    assert abs(value(flat, A) - 0.2) < 0.05 and abs(value(flat, B) - 0.6) < 0.05
    # The 3-piece network's comment stays as it was.
    three = tmp_path / "end.txt"
    run(table, "--epochs", "1", "--batch", "16", "--out", three)
    assert "endgame network (at most 3 pieces" in three.read_text()


def test_hidden2_writes_a_network_with_a_second_hidden_layer(tmp_path, table):
    # Issue 55: --hidden2 puts a second layer of rectified units between the first and the
    # output, in a senet-net/2 file (w, skip, c, w2, c2, v, b) that --init starts from again.
    sys.path.insert(0, str(SCRIPT.parent))
    import train_endgame as te

    out = tmp_path / "two.txt"
    run(table, "--main", "--hidden2", "16", "--epochs", "40", "--batch", "16", "--lr", "0.01", "--out", out, hidden=16)
    text = out.read_text()
    assert f"\nsenet-net/2 kendall5 H=16 H2=16 NI={NI}\n" in text
    assert "scripts/train_endgame.py --hidden 16 --hidden2 16 " in text
    rules, h, ni, p = te.read_weights(out, ("kendall5", 16, NI, 16))
    assert (rules, h, ni, p["h2"]) == ("kendall5", 16, NI, 16)
    assert p["w2"].shape == (16, 16) and p["c2"].shape == (16,) and p["v"].shape == (16,)
    flat = te.flat_of(p)
    assert len(flat) == NI * 16 + NI + 16 + 16 * 16 + 16 + 16 + 1

    def two_value(x):
        xs = np.zeros((1, NI), dtype=np.float32)
        for i, t in x.items():
            xs[0, i] = t
        r = np.maximum(np.maximum(xs @ p["w"] + p["c"], 0) @ p["w2"] + p["c2"], 0)
        return 1 / (1 + np.exp(-(r @ p["v"] + xs @ p["skip"] + p["b"][0])))[0]

    # It learnt the targets, and net_z is that network.
    assert abs(two_value(A) - 0.2) < 0.05 and abs(two_value(B) - 0.6) < 0.05
    xa = np.zeros((1, NI), dtype=np.float32)
    xa[0, 0] = xa[0, NI - 1] = 1
    assert abs(1 / (1 + np.exp(-te.net_z(p, xa)[0])) - two_value(A)) < 1e-6
    # --init starts from it (the same parameters after no epochs).
    again = tmp_path / "again.txt"
    run(table, "--main", "--hidden2", "16", "--epochs", "0", "--init", out, "--out", again, hidden=16)
    assert np.array_equal(te.flat_of(te.read_weights(again)[3]), flat)
    # A one-layer file is no start for a two-layer network, nor the other way round.
    one = tmp_path / "one.txt"
    run(table, "--main", "--epochs", "1", "--batch", "16", "--out", one, hidden=16)
    bad = run_failing(table, "--main", "--hidden2", "16", "--init", one, "--epochs", "0", "--out", tmp_path / "x.txt", hidden=16)
    assert f"--init needs 'senet-net/2 kendall5 H=16 H2=16 NI={NI}'" in bad, bad
    bad = run_failing(table, "--main", "--init", out, "--epochs", "0", "--out", tmp_path / "x.txt", hidden=16)
    assert f"--init needs 'senet-net/1 kendall5 H=16 NI={NI}'" in bad, bad
    # Only a main network has one; and only the sizes the engine reads.
    bad = run_failing(table, "--hidden2", "16", "--epochs", "0", "--out", tmp_path / "x.txt")
    assert "only a main network (--main) has a second hidden layer" in bad, bad
    bad = run_failing(table, "--main", "--hidden2", "24", "--out", tmp_path / "x.txt", hidden=16)
    assert "invalid choice: 24" in bad, bad
    assert not (tmp_path / "x.txt").exists()
