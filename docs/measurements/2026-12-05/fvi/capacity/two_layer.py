#!/usr/bin/env python3
"""Issue 55's capacity study: the fit of a network of two hidden layers (H1 and H2 rectified
units, plus the skip connection and sigmoid output of the main network) to a `senet fvi backup`
data file, trained as scripts/train_endgame.py --backend numpy trains the one-layer network
(Adam, one cycle, the same held-out positions). The bots cannot play such a network: this
measures only whether a second layer fits the backed-up values better. Run from the
repository root:

    OPENBLAS_NUM_THREADS=1 python3 docs/measurements/2026-12-05/fvi/capacity/two_layer.py b1.data 256 64 60 3e-3
"""
import sys, time, numpy as np
sys.path.insert(0, "scripts")
from train_endgame import read_data, one_cycle
path, h1, h2, epochs, lr = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
batch = int(sys.argv[6]) if len(sys.argv) > 6 else 4096
rules, ni, data = read_data(path)
n = len(data)
x = np.zeros((n, ni + 1), dtype=np.float32)
idx = data["idx"].astype(np.int64); idx[idx == 255] = ni
np.put_along_axis(x, idx, data["val"], axis=1); x = x[:, :ni]
y = np.ascontiguousarray(data["y"])
held = data["held"].astype(bool); tr = np.flatnonzero(~held); hi = np.flatnonzero(held)
seat = ni - 1
rng = np.random.default_rng(1); f32 = np.float32
P = {"w1": (rng.standard_normal((ni, h1)) * 0.3).astype(f32), "c1": np.full(h1, 0.1, f32),
     "w2": (rng.standard_normal((h1, h2)) * np.sqrt(2 / h1)).astype(f32), "c2": np.full(h2, 0.05, f32),
     "v": (rng.standard_normal(h2) * 0.02).astype(f32), "skip": np.zeros(ni, f32), "b": np.zeros(1, f32)}
m1 = {k: np.zeros_like(p) for k, p in P.items()}; m2 = {k: np.zeros_like(p) for k, p in P.items()}
def fwd(xb):
    a1 = xb @ P["w1"] + P["c1"]; r1 = np.maximum(a1, 0)
    a2 = r1 @ P["w2"] + P["c2"]; r2 = np.maximum(a2, 0)
    return a1, r1, a2, r2, r2 @ P["v"] + xb @ P["skip"] + P["b"][0]
def fit():
    z = np.concatenate([fwd(x[hi[i:i + 65536]])[4] for i in range(0, len(hi), 65536)])
    e = np.abs(1 / (1 + np.exp(-z.astype(np.float64))) - y[hi])
    return np.sqrt((e * e).mean()), e.mean(), e.max()
spe = (len(tr) + batch - 1) // batch; total = epochs * spe; step = 0; t0 = time.time()
for ep in range(epochs):
    order = tr[rng.permutation(len(tr))]
    for s in range(spe):
        i = order[s * batch:(s + 1) * batch]; xb, yb = x[i], y[i]
        xb[:, seat] *= np.where(rng.random(len(i)) < 0.5, -1, 1).astype(f32)
        a1, r1, a2, r2, z = fwd(xb)
        dz = ((1 / (1 + np.exp(-z)) - yb) / len(i)).astype(f32)
        dr2 = np.outer(dz, P["v"]) * (a2 > 0)
        dr1 = (dr2 @ P["w2"].T) * (a1 > 0)
        G = {"w1": xb.T @ dr1, "c1": dr1.sum(0), "w2": r1.T @ dr2, "c2": dr2.sum(0), "v": r2.T @ dz,
             "skip": xb.T @ dz, "b": np.array([dz.sum()], f32)}
        l, b1 = one_cycle(step, total, lr); step += 1
        c1, c2 = 1 - b1 ** step, 1 - 0.999 ** step
        for k, g in G.items():
            m1[k] = b1 * m1[k] + (1 - b1) * g; m2[k] = 0.999 * m2[k] + 0.001 * g * g
            P[k] -= (l / c1 * m1[k] / (np.sqrt(m2[k] / c2) + 1e-8)).astype(f32)
    if ep % 5 == 4 or ep == epochs - 1:
        r, a, m = fit(); print(f"{h1}-{h2} epoch {ep+1}: held-out rms {r:.5f} mean abs {a:.5f} max {m:.4f} ({time.time()-t0:.0f} s)", flush=True)
