#!/usr/bin/env python3
"""Turns a published corpus of exact kendall5 decisions into a held-out exact set that
`senet ladder --exact` measures (issue 55's final judge).

The corpus is `models/strength_positions.json` of the solved-kendall5 project
(devinokeefe/senet, MIT licence): decisions from games of a perfect player that explores (a
random move a third of the time), each a position (`me`: the mover's squares, `opp`: the
other side's), a throw `t`, categories (water, backward, blockade, bear-off, near-tie,
typical) and the mover's exact win chance after each legal move, the moves in order of their
origin square. It is not in this repository: the issue keeps it held out.

    python3 scripts/exact_from_corpus.py strength_positions.json kendall5-corpus.jsonl \\
        [--senet target/release/senet]
    senet ladder --exact kendall5-corpus.jsonl --exact-bots expert,expectimax:1 --json

Each decision becomes a position with the mover as the first player (the rules are the same
for both seats), the throw in hand; the legal moves come from `senet moves` and are matched
to the corpus's values by origin square (kendall5 has one move per piece and throw). A
decision whose legal moves differ from the corpus's count, a square held by both sides, or a
value outside [0, 1], stops the script with the decision's number. The tags are the corpus's categories, so the issue's
figure, the mean loss over the categories' decisions (a decision counted once per category),
is the decision-weighted mean of the six tag rows; `--summary` prints it from the JSON, and
the paired difference of two reports with a bootstrap interval:

    python3 scripts/exact_from_corpus.py --summary kendall5-corpus.jsonl new.json [old.json]
"""

import argparse
import json
import random
import subprocess
import sys

CATEGORIES = ("water", "backward", "blockade", "bear-off", "near-tie", "typical")


def position(me, opp, t):
    board = ["."] * 30
    for s in me:
        board[s - 1] = "X"
    for s in opp:
        if board[s - 1] != ".":
            raise ValueError(f"square {s} holds pieces of both sides")
        board[s - 1] = "O"
    return f"kendall5 {''.join(board)} off={5 - len(me)},{5 - len(opp)} turn=1 throw={t} dec=100"


def convert(corpus, senet):
    out = []
    for i, d in enumerate(corpus["decisions"]):
        me, opp, t, cats, values = d["me"], d["opp"], d["t"], d["categories"], d["values"]
        if not (1 <= len(me) <= 5 and len(opp) <= 5 and 1 <= t <= 5):
            sys.exit(f"decision {i}: not a kendall5 decision (me {me}, opp {opp}, throw {t})")
        if any(c not in CATEGORIES for c in cats) or not cats:
            sys.exit(f"decision {i}: categories {cats}, known: {', '.join(CATEGORIES)}")
        if any(not (0.0 <= v <= 1.0) for v in values):
            sys.exit(f"decision {i}: a value outside [0, 1]: {values}")
        try:
            pos = position(me, opp, t)
        except ValueError as e:
            sys.exit(f"decision {i}: {e}")
        run = subprocess.run([senet, "moves", pos], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"decision {i}: senet moves {pos!r} failed: {run.stderr.strip()}")
        moves = sorted(json.loads(run.stdout), key=lambda m: m["from"])
        if len(moves) != len(values):
            sys.exit(f"decision {i} ({pos}): {len(moves)} legal moves here, {len(values)} values in the corpus")
        out.append({
            "position": pos,
            "source": "explore",
            "game": i,
            "tags": list(cats),
            "moves": [{"move": m["move"], "value": round(v, 9)} for m, v in zip(moves, values)],
        })
    return out


def weights(set_path):
    """Per decision of a set, its number of categories (tags): its weight in the issue's figure."""
    with open(set_path) as f:
        lines = [l for l in f if l.strip()][1:]
    return [sum(t in CATEGORIES for t in json.loads(l)["tags"]) for l in lines]


def figure(losses, w):
    return sum(l * k for l, k in zip(losses, w)) / sum(w)


def subjects(path):
    with open(path) as f:
        reports = json.load(f)
    return {s["bot"] + (f" (tables to {s['tables']})" if s["tables"] else ""): s
            for r in reports for s in r["subjects"]}


def summary(set_path, report, base=None, rounds=2000):
    """The issue's figure per subject of `report`, in points (percent) of win chance per
    decision and category; with `base` (a report on the same set), each subject's paired
    difference from the same subject there, with a 95% bootstrap interval over decisions."""
    w = weights(set_path)
    ours = subjects(report)
    theirs = subjects(base) if base else {}
    rng = random.Random(55)
    for name, s in ours.items():
        if len(s["losses"]) != len(w):
            sys.exit(f"{report}: {name} has {len(s['losses'])} decisions, {set_path} {len(w)}")
        line = f"{name:32s} {figure(s['losses'], w) * 100:.4f} points per decision ({sum(w)} decision-categories)"
        if name in theirs:
            d = [a - b for a, b in zip(s["losses"], theirs[name]["losses"])]
            n = len(d)
            boot = sorted(figure([d[i] for i in idx], [w[i] for i in idx]) for idx in
                          ([rng.randrange(n) for _ in range(n)] for _ in range(rounds)))
            lo, hi = boot[int(0.025 * rounds)], boot[int(0.975 * rounds) - 1]
            line += f"; {figure(d, w) * 100:+.4f} [{lo * 100:+.4f}, {hi * 100:+.4f}] against {base}"
        print(line)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", nargs="?", help="the corpus (JSON)")
    ap.add_argument("out", nargs="?", help="the exact set to write (JSON Lines)")
    ap.add_argument("--senet", default="senet", help="the senet binary (default: senet on the PATH)")
    ap.add_argument("--summary", nargs="+", metavar=("SET", "REPORT"),
                    help="SET REPORT [BASE]: the issue's figure per bot of REPORT (senet ladder --exact SET "
                         "--json), and with BASE (another such report) each bot's paired difference from it")
    args = ap.parse_args()
    if args.summary:
        if len(args.summary) not in (2, 3):
            ap.error("--summary takes SET REPORT [BASE]")
        summary(*args.summary)
        return
    if args.corpus is None or args.out is None:
        ap.error("give the corpus and the exact set to write")
    with open(args.corpus) as f:
        data = json.load(f)
    decisions = convert(data, args.senet)
    header = {"format": "senet-exact-set", "version": 1, "rules": "kendall5", "pieces": 5,
              "player": "perfect, a random move a third of the time (published corpus)",
              "seed": data.get("seed", 0), "games": 0, "decisions": len(decisions)}
    with open(args.out, "w") as f:
        f.write(json.dumps(header, separators=(",", ":")) + "\n")
        for d in decisions:
            f.write(json.dumps(d, separators=(",", ":")) + "\n")
    print(f"wrote {len(decisions)} decisions to {args.out}")


if __name__ == "__main__":
    main()
