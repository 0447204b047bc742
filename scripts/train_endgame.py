#!/usr/bin/env python3
"""Trains an endgame network of the track rule sets on the exact endgame values, with PyTorch.

The data comes from `senet train --rules RULES --endgame --export FILE` (every position of the
3-piece exact table, with the network's inputs as the bots compute them: see
`senet_coach::train::export_endgame`), so this script needs no knowledge of the input layout.
It writes a weights file for `crates/senet-bots/src/nets/RULES-end.txt` (or for the folder
named by `SENET_NETS`, to try it without rebuilding): one hidden layer of H rectified units
(32, 64, 128, 256 or 512), a linear skip connection from the inputs and a sigmoid output, the mover's
win chance; the layout `senet_bots::net` reads.

    senet solve kendall5 --pieces 3 --dir T
    senet train --rules kendall5 --endgame --dir T --export kendall5.data
    python3 scripts/train_endgame.py kendall5.data --hidden 128 --epochs 200 --out kendall5-end.txt

Positions met in play can weigh more than the table's uniform mix (issue 18: the bots'
errors come from the positions games reach): `senet train --rules R --endgame --export P
--played N --seed S` writes those met in N endgames played as `senet ladder --errors` plays
them (seed S; measure on others) and those one move on, and `--extra P --extra-repeat K`
trains on each of them K more times per epoch; `--init WEIGHTS` starts from a network instead
of at random (to fine-tune one, with a lower --lr):

    senet train --rules houses --endgame --export played.data --played 20000 --seed 1001
    python3 scripts/train_endgame.py houses.data --hidden 512 --epochs 2 --lr 1e-4 \
        --init crates/senet-bots/src/nets/houses-end.txt --extra played.data --extra-repeat 24 \
        --out houses-end.txt

The four-piece endgame network (`crates/senet-bots/src/nets/RULES-end4.txt`, issue 34) values
the positions with four pieces of a side on the board (and at most four of the other); its data
are a sample of the 4-piece table's positions of those levels, never one of a held-out exact
test set's (`senet exactset`), plus, if wanted, those met in play:

    senet solve kendall5 --pieces 4 --bits 16 --dir T
    senet train --rules kendall5 --endgame --pieces 4 --dir T --export end4.data \
        --sample 6000000 --exclude SET.jsonl
    python3 scripts/train_endgame.py end4.data --pieces 4 --hidden 256 --epochs 20 --out kendall5-end4.txt

Every 64th position is held out of training (as the Rust trainer does); the fit on those is
printed and written into the file's comment. With PyTorch it runs on a GPU when PyTorch sees
one (a few minutes on one); without PyTorch (or with `--backend numpy`) it trains the same
network the same way with NumPy on the CPU (Adam with PyTorch's defaults and one-cycle schedule,
learning rate and momentum), which needs only `pip install numpy`: about 10 s per epoch for
128 hidden units on one core of the development machine. Seeded; GPU arithmetic is not
bit-for-bit reproducible, NumPy's is on one machine.
"""

import argparse
import os
import sys
import time

import math

import numpy as np

try:
    import torch
except ImportError:  # the NumPy trainer needs no PyTorch
    torch = None


# The hidden units a network may have: those `senet_bots::net` reads (MAIN_SIZES, END_SIZES),
# and those of a main network's second hidden layer (H2_SIZES; a `senet-net/2` file, issue 55).
MAIN_SIZES = (16, 32, 64, 128, 256, 512)
END_SIZES = (32, 64, 128, 256, 512)
H2_SIZES = (16, 32)


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


def header(rules, h, ni, h2=None):
    """A weights file's header: `senet-net/1`, or `senet-net/2` with a second hidden layer."""
    return f"senet-net/1 {rules} H={h} NI={ni}" if h2 is None else \
        f"senet-net/2 {rules} H={h} H2={h2} NI={ni}"


def read_weights(path, need=None):
    """A weights file this script wrote (or `senet_bots::net` reads): its rule set, hidden
    units, inputs and parameters w (NI x H), skip, c, v, b; a `senet-net/2` file (a second
    hidden layer of H2 units) also w2 (H x H2) and c2, its v then of H2, and "h2" its size.
    With `need` (rules, H, NI[, H2]), a file of another network is refused, saying what is
    needed (rules None: any rule set's; no H2 or None: one hidden layer)."""
    with open(path) as f:
        lines = [l for l in f.read().splitlines() if l and not l.startswith("#")]
    head = lines[0].split() if lines else []
    two = len(head) == 5 and head[0] == "senet-net/2" and head[3].startswith("H2=")
    if not (len(head) == 4 and head[0] == "senet-net/1" or two) or not head[2].startswith("H=") \
            or not head[-1].startswith("NI="):
        sys.exit(f"{path}: not a network's weights file (header {' '.join(head)!r})")
    rules, h, ni = head[1], int(head[2][2:]), int(head[-1][3:])
    h2 = int(head[3][3:]) if two else None
    if need is not None:
        need = (*need, None) if len(need) == 3 else tuple(need)
        if (rules if need[0] is None else need[0], *need[1:]) != (rules, h, ni, h2):
            wanted = "RULES" if need[0] is None else need[0]
            sys.exit(f"{path}: header {' '.join(head)!r}, --init needs "
                     f"'{header(wanted, need[1], need[2], need[3])}'"
                     + ("" if need[0] in (None, rules)
                        else " (--transfer starts from another rule set's network)"))
    flat = np.array([float(t) for l in lines[1:] for t in l.split()], dtype=np.float32)
    m = h if h2 is None else h2
    size = ni * h + ni + h + (0 if h2 is None else h * h2 + h2) + m + 1
    if len(flat) != size:
        sys.exit(f"{path}: {len(flat)} parameters, {' '.join(head[2:])} has {size}")
    w, rest = flat[:ni * h].reshape(ni, h), flat[ni * h:]
    p = {"skip": rest[:ni], "c": rest[ni:ni + h], "w": w}
    rest = rest[ni + h:]
    if h2 is not None:
        p["w2"], p["c2"], p["h2"] = rest[:h * h2].reshape(h, h2), rest[h * h2:h * h2 + h2], h2
        rest = rest[h * h2 + h2:]
    p["v"], p["b"] = rest[:m], rest[m:]
    return rules, h, ni, p


def flat_of(p):
    """The parameters in a weights file's order: w, skip, c, then (a second layer) w2, c2,
    then v, b."""
    parts = [p["w"].reshape(-1), p["skip"], p["c"]]
    if "w2" in p:
        parts += [p["w2"].reshape(-1), p["c2"]]
    return np.concatenate(parts + [p["v"], np.reshape(p["b"], -1)])


def net_z(p, x):
    """The output before the sigmoid of the network of parameters `p` (read_weights's) for
    the rows of inputs `x` (NumPy)."""
    r = np.maximum(x @ p["w"] + p["c"], 0)
    if "w2" in p:
        r = np.maximum(r @ p["w2"] + p["c2"], 0)
    return r @ p["v"] + x @ p["skip"] + p["b"][0]


def write_weights(path, comments, rules, h, ni, flat, h2=None):
    """Writes a weights file `senet_bots::net` reads: the comment lines, the header, then the
    parameters (w, skip, c, [w2, c2,] v, b) eight to a line."""
    lines = [f"# {c}" for c in comments] + [header(rules, h, ni, h2)]
    for k in range(0, len(flat), 8):
        lines.append(" ".join(f"{float(t):.8g}" for t in flat[k:k + 8]))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def dense(data, ni, device):
    """The inputs as a dense matrix (an unused slot, index 255, goes to a dropped column)."""
    n, slots = data["idx"].shape
    x = torch.zeros((n, ni + 1), dtype=torch.float32, device=device)
    idx = torch.from_numpy(np.ascontiguousarray(data["idx"]).astype(np.int64)).to(device)
    idx[idx == 255] = ni
    val = torch.from_numpy(np.ascontiguousarray(data["val"])).to(device)
    x.scatter_(1, idx, val)
    return x[:, :ni].contiguous()


def train_torch(args, ni, data, train, helds, init):
    """Trains with PyTorch on the positions `train` (indices into `data`, a position as often
    as it is to be seen per epoch); returns the flat parameters (the layout `senet_bots::net`
    reads), the fit on each held-out set of `helds` (name, indices) and the device."""
    torch.manual_seed(args.seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    x = dense(data, ni, device)
    y = torch.from_numpy(np.ascontiguousarray(data["y"])).to(device)
    tr = torch.from_numpy(train).to(device)
    hs = [(name, torch.from_numpy(i).to(device)) for name, i in helds]
    seat = ni - 1  # +1 for the first player, -1 for the second: no rule depends on it here

    h, h2 = args.hidden, args.hidden2
    second = []
    if init is None:
        w = torch.nn.Parameter(torch.randn(ni, h, device=device) * 0.3)
        c = torch.nn.Parameter(torch.full((h,), 0.1, device=device))
        v = torch.nn.Parameter(torch.randn(h2 or h, device=device) * 0.02)
        skip = torch.nn.Parameter(torch.zeros(ni, device=device))
        b = torch.nn.Parameter(torch.zeros((), device=device))
        if h2:
            second = [torch.nn.Parameter(torch.randn(h, h2, device=device) * math.sqrt(2 / h)),
                      torch.nn.Parameter(torch.full((h2,), 0.05, device=device))]
    else:
        t = lambda k: torch.nn.Parameter(torch.from_numpy(init[k].copy()).to(device))
        w, c, v, skip = t("w"), t("c"), t("v"), t("skip")
        b = torch.nn.Parameter(torch.tensor(float(init["b"][0]), device=device))
        if h2:
            second = [t("w2"), t("c2")]
    params = [w, c, v, skip, b] + second

    def z_of(xb):
        r = torch.relu(xb @ w + c)
        if second:
            r = torch.relu(r @ second[0] + second[1])
        return r @ v + xb @ skip + b

    def fit():
        out = []
        with torch.no_grad():
            for _, hi in hs:
                if len(hi) == 0:
                    out.append((float("nan"), float("nan"), float("nan"), 0))
                    continue
                chunk = 1 << 20
                p = torch.sigmoid(torch.cat([z_of(x[hi[i:i + chunk]]) for i in range(0, len(hi), chunk)]))
                e = (p - y[hi]).abs()
                out.append((e.pow(2).mean().sqrt().item(), e.mean().item(), e.max().item(), len(hi)))
        return out

    opt = torch.optim.Adam(params, lr=args.lr)
    steps_per_epoch = (len(tr) + args.batch - 1) // args.batch
    if args.epochs > 0:
        sched = torch.optim.lr_scheduler.OneCycleLR(
            opt, max_lr=args.lr, total_steps=args.epochs * steps_per_epoch, pct_start=0.05
        )
    t0 = time.time()
    for epoch in range(args.epochs):
        order = tr[torch.randperm(len(tr), device=device)]
        for s in range(steps_per_epoch):
            i = order[s * args.batch:(s + 1) * args.batch]
            xb, yb = x[i], y[i]
            # Each position from a seat drawn at random.
            flip = torch.rand(len(i), device=device) < 0.5
            xb[:, seat] = torch.where(flip, -xb[:, seat], xb[:, seat])
            loss = torch.nn.functional.binary_cross_entropy_with_logits(z_of(xb), yb)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
        if epoch % 10 == 9 or epoch == args.epochs - 1:
            report(args, epoch, helds, fit(), t0)
    out = {"w": w, "skip": skip, "c": c, "v": v, "b": b.reshape(1)}
    if second:
        out["w2"], out["c2"] = second
    return flat_of({k: t.detach().cpu().numpy() for k, t in out.items()}), fit(), device


def one_cycle(step, total, max_lr, pct=0.05):
    """PyTorch's OneCycleLR (cosine, div_factor 25, final_div_factor 1e4, momentum 0.85-0.95)
    at `step` of `total`: the learning rate and Adam's beta1."""
    up = float(pct * total) - 1
    lo, hi, final = max_lr / 25, max_lr, max_lr / 25 / 1e4
    cos = lambda a, b, f: b + (a - b) / 2 * (math.cos(math.pi * f) + 1)
    if step <= up:
        f = step / up
        return cos(lo, hi, f), cos(0.95, 0.85, f)
    f = (step - up) / (total - 1 - up)
    return cos(hi, final, f), cos(0.85, 0.95, f)


def train_numpy(args, ni, data, train, helds, init):
    """The same network and training as `train_torch`, with NumPy on the CPU."""
    rng = np.random.default_rng(args.seed)
    n, slots = data["idx"].shape
    # Dense inputs: an unused slot (index 255) goes to a dropped column.
    x = np.zeros((n, ni + 1), dtype=np.float32)
    idx = data["idx"].astype(np.int64)
    idx[idx == 255] = ni
    np.put_along_axis(x, idx, data["val"], axis=1)
    x = x[:, :ni]
    y = np.ascontiguousarray(data["y"])
    seat = ni - 1

    h, h2 = args.hidden, args.hidden2
    f32 = np.float32
    if init is None:
        params = {
            "w": (rng.standard_normal((ni, h)) * 0.3).astype(f32),
            "c": np.full(h, 0.1, dtype=f32),
            "v": (rng.standard_normal(h2 or h) * 0.02).astype(f32),
            "skip": np.zeros(ni, dtype=f32),
            "b": np.zeros(1, dtype=f32),
        }
        if h2:
            # The second layer (issue 55): He's scale, so that its units start alive.
            params["w2"] = (rng.standard_normal((h, h2)) * np.sqrt(2 / h)).astype(f32)
            params["c2"] = np.full(h2, 0.05, dtype=f32)
    else:
        params = {k: p.astype(f32).copy() for k, p in init.items() if k != "h2"}
    m1 = {k: np.zeros_like(p) for k, p in params.items()}
    m2 = {k: np.zeros_like(p) for k, p in params.items()}

    def z_of(xb):
        return net_z(params, xb)

    def fit():
        out = []
        for _, hi in helds:
            if len(hi) == 0:
                out.append((float("nan"), float("nan"), float("nan"), 0))
                continue
            z = np.concatenate([z_of(x[hi[i:i + (1 << 20)]]) for i in range(0, len(hi), 1 << 20)])
            e = np.abs(1 / (1 + np.exp(-z.astype(np.float64))) - y[hi])
            out.append((float(np.sqrt((e * e).mean())), float(e.mean()), float(e.max()), len(hi)))
        return out

    steps_per_epoch = (len(train) + args.batch - 1) // args.batch
    total = args.epochs * steps_per_epoch
    step = 0
    t0 = time.time()
    for epoch in range(args.epochs):
        order = train[rng.permutation(len(train))]
        for s in range(steps_per_epoch):
            i = order[s * args.batch:(s + 1) * args.batch]
            xb, yb = x[i], y[i]
            xb[:, seat] *= np.where(rng.random(len(i)) < 0.5, -1, 1).astype(f32)
            p = params
            a = xb @ p["w"] + p["c"]
            r = np.maximum(a, 0)
            if h2:
                a2 = r @ p["w2"] + p["c2"]
                r2 = np.maximum(a2, 0)
            else:
                r2 = r
            z = r2 @ p["v"] + xb @ p["skip"] + p["b"][0]
            # The gradient of the mean binary cross-entropy with respect to z.
            dz = ((1 / (1 + np.exp(-z)) - yb) / len(i)).astype(f32)
            grads = {
                "v": r2.T @ dz,
                "skip": xb.T @ dz,
                "b": np.array([dz.sum()], dtype=f32),
            }
            dr = np.outer(dz, p["v"])
            if h2:
                d2 = dr * (a2 > 0)
                grads["w2"], grads["c2"] = r.T @ d2, d2.sum(0)
                dr = d2 @ p["w2"].T
            dr = dr * (a > 0)
            grads["w"], grads["c"] = xb.T @ dr, dr.sum(0)
            lr, beta1 = one_cycle(step, total, args.lr)
            step += 1
            for k, g in grads.items():
                m1[k] = beta1 * m1[k] + (1 - beta1) * g
                m2[k] = 0.999 * m2[k] + 0.001 * g * g
                # PyTorch's Adam: bias corrections with beta1 as it is at this step.
                c1, c2 = 1 - beta1 ** step, 1 - 0.999 ** step
                p[k] -= (lr / c1 * m1[k] / (np.sqrt(m2[k] / c2) + 1e-8)).astype(f32)
        if epoch % 10 == 9 or epoch == args.epochs - 1:
            report(args, epoch, helds, fit(), t0)
    return flat_of(params), fit(), "cpu (numpy)"


def report(args, epoch, helds, fits, t0):
    parts = [
        f"{name} rms {rms:.5f} mean abs {mae:.5f} max {mx:.4f}"
        for (name, _), (rms, mae, mx, _) in zip(helds, fits)
    ]
    print(
        f"H={args.hidden} epoch {epoch + 1}: held-out {'; '.join(parts)} ({time.time() - t0:.0f} s)",
        file=sys.stderr,
        flush=True,
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", help="file written by senet train --endgame --export")
    ap.add_argument("--hidden", type=int, default=128, choices=sorted(set(MAIN_SIZES) | set(END_SIZES)))
    ap.add_argument(
        "--main",
        action="store_true",
        help="the data is middle-game positions valued by search (senet train --net --export F "
        "--searched N): write a main network (16 to 512 hidden units)",
    )
    ap.add_argument(
        "--hidden2",
        type=int,
        choices=H2_SIZES,
        help="with --main: a second hidden layer of this many units between the first and the "
        "output (a senet-net/2 weights file, issue 55)",
    )
    ap.add_argument(
        "--pieces",
        type=int,
        choices=[3, 4],
        default=3,
        help="the network the data is for: 3, the endgame network (RULES-end.txt), or 4, the "
        "four-piece one (RULES-end4.txt; senet train --endgame --pieces 4 --export): it names "
        "the network in the weights file's comment",
    )
    ap.add_argument("--epochs", type=int, default=200)
    ap.add_argument("--batch", type=int, default=16384)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--backend",
        choices=["auto", "torch", "numpy"],
        default="auto",
        help="auto: PyTorch if it is installed, else NumPy",
    )
    ap.add_argument(
        "--init",
        metavar="WEIGHTS",
        help="start from this weights file (its size must be --hidden) instead of at random",
    )
    ap.add_argument(
        "--transfer",
        action="store_true",
        help="--init may be another rule set's network of the same size and inputs (a start for "
        "a rule set that has none yet: the four-piece kendall5 network for kendall's); the file "
        "written is the data's rule set",
    )
    ap.add_argument(
        "--extra",
        metavar="DATA",
        help="positions met in play (senet train --endgame --export F --played N), "
        "trained on besides the table's",
    )
    ap.add_argument(
        "--extra-repeat",
        type=int,
        default=1,
        metavar="K",
        help="times per epoch each --extra position is trained on (default 1)",
    )
    ap.add_argument("--out", required=True, help="weights file to write")
    args = ap.parse_args()
    if args.extra_repeat < 1:
        sys.exit(f"--extra-repeat must be at least 1, got {args.extra_repeat}")
    if args.epochs < 0:
        sys.exit(f"--epochs must be at least 0, got {args.epochs}")
    if args.hidden2 and not args.main:
        sys.exit("--hidden2: only a main network (--main) has a second hidden layer")

    backend = args.backend
    if backend == "auto":
        backend = "torch" if torch is not None else "numpy"
    if backend == "torch" and torch is None:
        sys.exit("--backend torch: PyTorch is not installed (--backend numpy needs only NumPy)")
    rules, ni, data = read_data(args.data)
    held = data["held"].astype(bool)
    train_idx = np.flatnonzero(~held)
    helds = [("table", np.flatnonzero(held))]
    if args.extra:
        extra_rules, extra_ni, extra = read_data(args.extra)
        if (extra_rules, extra_ni) != (rules, ni):
            sys.exit(f"{args.extra}: {extra_rules} NI={extra_ni}, {args.data} is {rules} NI={ni}")
        base = len(data)
        data = np.concatenate([data, extra])
        eheld = extra["held"].astype(bool)
        train_idx = np.concatenate([train_idx] + [base + np.flatnonzero(~eheld)] * args.extra_repeat)
        helds.append(("played", base + np.flatnonzero(eheld)))
    h = args.hidden
    sizes = MAIN_SIZES if args.main else END_SIZES
    if h not in sizes:
        sys.exit(f"--hidden {h}: {'a main' if args.main else 'an endgame'} network has "
                 f"{', '.join(map(str, sizes))} hidden units")
    if args.transfer and not args.init:
        sys.exit("--transfer: it says --init may be another rule set's network; give --init")
    need = (None if args.transfer else rules, h, ni, args.hidden2)
    init = read_weights(args.init, need)[3] if args.init else None
    train = train_torch if backend == "torch" else train_numpy
    flat, fits, device = train(args, ni, data, train_idx, helds, init)
    rms, mae, mx, n = fits[0]
    how = ""
    if args.init:
        how += f" --init {args.init}{' --transfer' if args.transfer else ''}"
    if args.extra:
        how += f" --extra {args.extra} --extra-repeat {args.extra_repeat}"
    command = (
        f"scripts/train_endgame.py{' --pieces 4' if args.pieces == 4 else ''} --hidden {h}"
        f"{f' --hidden2 {args.hidden2}' if args.hidden2 else ''} --epochs {args.epochs} --batch {args.batch} "
        f"--lr {args.lr} --seed {args.seed} --backend {backend}{' --main' if args.main else ''}{how}"
    )
    if args.main:
        what = [
            f"{rules} main network: {command}",
            f"supervised on the search values of {args.data} (senet train --net --export --searched), on {device}",
        ]
    elif args.pieces == 4:
        what = [
            f"{rules} four-piece endgame network (four pieces of a side on the board, at most "
            f"four of the other): {command}",
            f"supervised on the exact values of {rules}-4.senet-exact at the positions of "
            f"{' and '.join(os.path.basename(d) for d in [args.data] + ([args.extra] if args.extra else []))} "
            f"(senet train --endgame --pieces 4 --export with --sample: the table's, or --played: "
            f"those met in play; --exclude), on {device}",
        ]
    else:
        what = [
            f"{rules} endgame network (at most 3 pieces of each side on the board): {command}",
            f"supervised on the exact values of {rules}-3.senet-exact (senet train --endgame --export), on {device}",
        ]
    lines = what + [
        f"win chance error after: rms {rms:.5f}, mean abs {mae:.5f}, max {mx:.4f} on {n} held-out positions",
    ] + [
        f"on the held-out positions met in play: rms {r:.5f}, mean abs {a:.5f}, max {m:.4f} ({k})"
        for r, a, m, k in fits[1:]
    ]
    write_weights(args.out, lines, rules, h, ni, flat, args.hidden2)
    print(f"{rules} H={h}{f' H2={args.hidden2}' if args.hidden2 else ''}: rms {rms:.5f} mean abs {mae:.5f} max {mx:.4f}; wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
