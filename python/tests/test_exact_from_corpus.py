"""scripts/exact_from_corpus.py: a published corpus of exact kendall5 decisions turned into an
exact set `senet ladder --exact` measures, and the issue's figure (issue 55) from its report.
The corpus here is made up (the real one stays held out of the repository); its values only
have to be win chances."""

import json
import subprocess
import sys

from conftest import REPO

SCRIPT = REPO / "scripts" / "exact_from_corpus.py"

# Two decisions in the corpus's form: the mover's squares, the other side's, the throw, the
# categories and a value per legal move in order of origin square.
CORPUS = {
    "seed": 22,
    "decisions": [
        # 6, 9, 10, 13 and 25 against 1, 3, 14, 17 and 26 with a throw of 2: four moves (25
        # cannot pass 26).
        {"me": [6, 9, 10, 13, 25], "opp": [1, 3, 14, 17, 26], "t": 2, "categories": ["near-tie"],
         "values": [0.51, 0.52, 0.50, 0.49]},
        # A piece on 26 with a throw of 1 may step into the water; two categories.
        {"me": [1, 5, 16, 17, 26], "opp": [8, 9, 13, 15, 25], "t": 1, "categories": ["water", "typical"],
         "values": [0.40, 0.45, 0.42, 0.41]},
    ],
}


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True,
                          text=True, timeout=300)


def test_the_values_go_to_the_moves_by_origin_square(tmp_path, senet_bin):
    corpus, out = tmp_path / "c.json", tmp_path / "c.jsonl"
    corpus.write_text(json.dumps(CORPUS))
    r = run(corpus, out, "--senet", senet_bin)
    assert r.returncode == 0, r.stderr
    lines = out.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["format"] == "senet-exact-set" and header["decisions"] == 2
    first = json.loads(lines[1])
    assert first["position"] == "kendall5 O.O..X..XX..XO..O.......XO.... off=0,0 turn=1 throw=2 dec=100"
    assert [(m["move"], m["value"]) for m in first["moves"]] == [
        ("6-8", 0.51), ("9-11", 0.52), ("10-12", 0.50), ("13-15", 0.49)]
    second = json.loads(lines[2])
    assert second["tags"] == ["water", "typical"]
    assert [m["move"] for m in second["moves"]][-1].startswith("26-")
    # The set is one `senet ladder --exact` reads: the bots measured on it, each decision's
    # loss listed, and the figure weighs a decision by its categories.
    rep = subprocess.run([senet_bin, "ladder", "--exact", str(out), "--exact-bots", "random,expectimax:1",
                          "--no-analysis", "--dir", str(tmp_path / "tables"), "--json"],
                         capture_output=True, text=True, timeout=300)
    assert rep.returncode == 0, rep.stderr
    report = tmp_path / "r.json"
    report.write_text(rep.stdout)
    subjects = json.loads(rep.stdout)[0]["subjects"]
    losses = subjects[1]["losses"]
    assert len(losses) == 2
    # Each loss is the best value less that of some legal move.
    for loss, d in zip(losses, CORPUS["decisions"]):
        assert any(abs(loss - (max(d["values"]) - v)) < 1e-9 for v in d["values"]), (loss, d)
    r = run("--summary", out, report, report)
    assert r.returncode == 0, r.stderr
    want = (losses[0] + 2 * losses[1]) / 3 * 100
    line = next(l for l in r.stdout.splitlines() if l.startswith("expectimax:1"))
    assert f"{want:.4f} points per decision (3 decision-categories)" in line
    # Against itself every paired difference is nought.
    assert "+0.0000 [+0.0000, +0.0000]" in line


def test_a_corpus_that_does_not_fit_the_rules_is_refused(tmp_path, senet_bin):
    corpus, out = tmp_path / "c.json", tmp_path / "c.jsonl"
    bad = json.loads(json.dumps(CORPUS))
    bad["decisions"][0]["values"] = [0.5, 0.5, 0.5]
    corpus.write_text(json.dumps(bad))
    r = run(corpus, out, "--senet", senet_bin)
    assert r.returncode != 0
    assert "decision 0" in r.stderr and "4 legal moves here, 3 values" in r.stderr
    bad["decisions"][0]["values"] = [0.5, 0.5, 0.5, 1.5]
    corpus.write_text(json.dumps(bad))
    r = run(corpus, out, "--senet", senet_bin)
    assert r.returncode != 0 and "outside [0, 1]" in r.stderr
    bad["decisions"][0]["values"] = [0.5] * 4
    bad["decisions"][0]["categories"] = ["hard"]
    corpus.write_text(json.dumps(bad))
    r = run(corpus, out, "--senet", senet_bin)
    assert r.returncode != 0 and "categories ['hard']" in r.stderr
    bad["decisions"][0]["categories"] = ["typical"]
    bad["decisions"][0]["opp"] = [1, 3, 14, 17, 25]
    corpus.write_text(json.dumps(bad))
    r = run(corpus, out, "--senet", senet_bin)
    assert r.returncode != 0 and "decision 0: square 25 holds pieces of both sides" in r.stderr
