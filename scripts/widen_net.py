#!/usr/bin/env python3
"""Doubles the hidden units of an endgame network (Net2Net widening) as a start for
`scripts/train_endgame.py --init` at the larger size.

Each hidden unit gets a twin with the same input weights plus a small seeded jitter (normal,
standard deviation 0.01, to break the symmetry) and the same bias; both twins' output weights
are halved, so the wider network computes what the narrow one did, to within the jitter.

    python3 scripts/widen_net.py crates/senet-bots/src/nets/houses-end.txt wide.txt --seed 5
    python3 scripts/train_endgame.py houses.data --hidden 512 --init wide.txt ...
"""

import argparse
import sys

import numpy as np

from train_endgame import read_weights, write_weights


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("weights", help="an endgame network's weights file")
    ap.add_argument("out", help="the widened network's weights file to write")
    ap.add_argument("--seed", type=int, default=5, help="seed of the jitter (default 5)")
    args = ap.parse_args()
    rules, h, ni, p = read_weights(args.weights)
    rng = np.random.default_rng(args.seed)
    w = p["w"]
    jitter = (rng.standard_normal(w.shape) * 0.01).astype(np.float32)
    flat = np.concatenate([
        np.concatenate([w, w + jitter], axis=1).reshape(-1),
        p["skip"],
        np.concatenate([p["c"], p["c"]]),
        np.concatenate([p["v"] / 2, p["v"] / 2]),
        p["b"],
    ])
    comment = f"widened from {args.weights} (H={h}) by scripts/widen_net.py --seed {args.seed}"
    write_weights(args.out, [comment], rules, 2 * h, ni, flat)
    print(f"{rules}: H={h} widened to H={2 * h}; wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
