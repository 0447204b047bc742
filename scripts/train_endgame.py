#!/usr/bin/env python3
"""Trains an endgame network of the track rule sets on the exact endgame values, with PyTorch.

The data comes from `senet train --rules RULES --endgame --export FILE` (every position of the
3-piece exact table, with the network's inputs as the bots compute them: see
`senet_coach::train::export_endgame`), so this script needs no knowledge of the input layout.
It writes a weights file for `crates/senet-bots/src/nets/RULES-end.txt` (or for the folder
named by `SENET_NETS`, to try it without rebuilding): one hidden layer of H rectified units
(32, 64 or 128), a linear skip connection from the inputs and a sigmoid output, the mover's
win chance; the layout `senet_bots::net` reads.

    senet solve kendall5 --pieces 3 --dir T
    senet train --rules kendall5 --endgame --dir T --export kendall5.data
    python3 scripts/train_endgame.py kendall5.data --hidden 128 --epochs 200 --out kendall5-end.txt

Every 64th position is held out of training (as the Rust trainer does); the fit on those is
printed and written into the file's comment. Runs on a GPU when PyTorch sees one (a few minutes
on one), else on the CPU (far slower). Seeded, but GPU arithmetic is not bit-for-bit
reproducible.
"""

import argparse
import sys
import time

import numpy as np
import torch


def read_data(path):
    with open(path, "rb") as f:
        head = f.readline().decode().split()
        if len(head) != 5 or head[0] != "senet-endgame-data/1":
            sys.exit(f"{path}: not a senet endgame data file (header {' '.join(head)!r})")
        rules = head[1]
        fields = dict(kv.split("=") for kv in head[2:])
        ni, slots, n = int(fields["NI"]), int(fields["SLOTS"]), int(fields["N"])
        rec = np.dtype(
            [("idx", np.uint8, slots), ("val", "<f4", slots), ("y", "<f4"), ("held", np.uint8)]
        )
        data = np.fromfile(f, dtype=rec)
    if len(data) != n:
        sys.exit(f"{path}: {len(data)} positions, the header says {n}")
    return rules, ni, data


def dense(data, ni, device):
    """The inputs as a dense matrix (an unused slot, index 255, goes to a dropped column)."""
    n, slots = data["idx"].shape
    x = torch.zeros((n, ni + 1), dtype=torch.float32, device=device)
    idx = torch.from_numpy(np.ascontiguousarray(data["idx"]).astype(np.int64)).to(device)
    idx[idx == 255] = ni
    val = torch.from_numpy(np.ascontiguousarray(data["val"])).to(device)
    x.scatter_(1, idx, val)
    return x[:, :ni].contiguous()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", help="file written by senet train --endgame --export")
    ap.add_argument("--hidden", type=int, default=128, choices=[32, 64, 128])
    ap.add_argument("--epochs", type=int, default=200)
    ap.add_argument("--batch", type=int, default=16384)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True, help="weights file to write")
    args = ap.parse_args()

    torch.manual_seed(args.seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    rules, ni, data = read_data(args.data)
    x = dense(data, ni, device)
    y = torch.from_numpy(np.ascontiguousarray(data["y"])).to(device)
    held = torch.from_numpy(np.ascontiguousarray(data["held"]).astype(bool)).to(device)
    xt, yt = x[~held], y[~held]
    xh, yh = x[held], y[held]
    del x
    seat = ni - 1  # +1 for the first player, -1 for the second: no rule depends on it here

    h = args.hidden
    w = torch.nn.Parameter(torch.randn(ni, h, device=device) * 0.3)
    c = torch.nn.Parameter(torch.full((h,), 0.1, device=device))
    v = torch.nn.Parameter(torch.randn(h, device=device) * 0.02)
    skip = torch.nn.Parameter(torch.zeros(ni, device=device))
    b = torch.nn.Parameter(torch.zeros((), device=device))
    params = [w, c, v, skip, b]

    def z_of(xb):
        return torch.relu(xb @ w + c) @ v + xb @ skip + b

    def fit():
        with torch.no_grad():
            chunk = 1 << 20
            p = torch.sigmoid(torch.cat([z_of(xh[i:i + chunk]) for i in range(0, len(xh), chunk)]))
            e = (p - yh).abs()
            return e.pow(2).mean().sqrt().item(), e.mean().item(), e.max().item(), len(xh)

    opt = torch.optim.Adam(params, lr=args.lr)
    steps_per_epoch = (len(xt) + args.batch - 1) // args.batch
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=args.lr, total_steps=args.epochs * steps_per_epoch, pct_start=0.05
    )
    t0 = time.time()
    for epoch in range(args.epochs):
        order = torch.randperm(len(xt), device=device)
        for s in range(steps_per_epoch):
            i = order[s * args.batch:(s + 1) * args.batch]
            xb, yb = xt[i], yt[i]
            # Each position from a seat drawn at random.
            flip = torch.rand(len(i), device=device) < 0.5
            xb[:, seat] = torch.where(flip, -xb[:, seat], xb[:, seat])
            loss = torch.nn.functional.binary_cross_entropy_with_logits(z_of(xb), yb)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
        if epoch % 10 == 9 or epoch == args.epochs - 1:
            rms, mae, mx, _ = fit()
            print(
                f"{rules} H={h} epoch {epoch + 1}: held-out rms {rms:.5f} mean abs {mae:.5f} "
                f"max {mx:.4f} ({time.time() - t0:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    rms, mae, mx, n = fit()
    flat = torch.cat([w.reshape(-1), skip, c, v, b.reshape(1)]).detach().cpu().numpy()
    lines = [
        f"# {rules} endgame network (at most 3 pieces of each side on the board): "
        f"scripts/train_endgame.py --hidden {h} --epochs {args.epochs} --batch {args.batch} "
        f"--lr {args.lr} --seed {args.seed}",
        f"# supervised on the exact values of {rules}-3.senet-exact (senet train --endgame --export), on {device}",
        f"# win chance error after: rms {rms:.5f}, mean abs {mae:.5f}, max {mx:.4f} on {n} held-out positions",
        f"senet-net/1 {rules} H={h} NI={ni}",
    ]
    for k in range(0, len(flat), 8):
        lines.append(" ".join(f"{float(t):.8g}" for t in flat[k:k + 8]))
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{rules} H={h}: rms {rms:.5f} mean abs {mae:.5f} max {mx:.4f}; wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
