# deep.py DATA H1 H2 EPOCHS LR: a two-hidden-layer network (inputs -> H1 relu -> H2 relu -> 1, plus the
# linear skip) trained like train_endgame.py's numpy trainer on the same split; prints the held-out fit
import sys, time
import numpy as np
sys.path.insert(0, "/work/main/scripts")
import train_endgame as te
path, h1, h2, epochs, lr0 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
batch = 4096
rules, ni, data = te.read_data(path)
held = data["held"].astype(bool)
train, hi = np.flatnonzero(~held), np.flatnonzero(held)
rng = np.random.default_rng(1)
n = len(data)
x = np.zeros((n, ni + 1), dtype=np.float32)
idx = data["idx"].astype(np.int64); idx[idx == 255] = ni
np.put_along_axis(x, idx, data["val"], axis=1); x = x[:, :ni]
y = np.ascontiguousarray(data["y"]); seat = ni - 1
f32 = np.float32
P = {"w1": (rng.standard_normal((ni, h1)) * 0.3).astype(f32), "c1": np.full(h1, 0.1, f32),
     "w2": (rng.standard_normal((h1, h2)) * np.sqrt(2 / h1)).astype(f32), "c2": np.full(h2, 0.05, f32),
     "v": (rng.standard_normal(h2) * 0.02).astype(f32), "skip": np.zeros(ni, f32), "b": np.zeros(1, f32)}
m1 = {k: np.zeros_like(p) for k, p in P.items()}; m2 = {k: np.zeros_like(p) for k, p in P.items()}
def z_of(xb):
    r1 = np.maximum(xb @ P["w1"] + P["c1"], 0); r2 = np.maximum(r1 @ P["w2"] + P["c2"], 0)
    return r2 @ P["v"] + xb @ P["skip"] + P["b"][0]
def fit():
    z = np.concatenate([z_of(x[hi[i:i + (1 << 18)]]) for i in range(0, len(hi), 1 << 18)])
    e = np.abs(1 / (1 + np.exp(-z.astype(np.float64))) - y[hi])
    return np.sqrt((e * e).mean()), e.mean(), e.max()
spe = (len(train) + batch - 1) // batch; total = epochs * spe; step = 0; t0 = time.time()
for ep in range(epochs):
    order = train[rng.permutation(len(train))]
    for s in range(spe):
        i = order[s * batch:(s + 1) * batch]; xb, yb = x[i], y[i]
        xb[:, seat] *= np.where(rng.random(len(i)) < 0.5, -1, 1).astype(f32)
        a1 = xb @ P["w1"] + P["c1"]; r1 = np.maximum(a1, 0)
        a2 = r1 @ P["w2"] + P["c2"]; r2 = np.maximum(a2, 0)
        z = r2 @ P["v"] + xb @ P["skip"] + P["b"][0]
        dz = ((1 / (1 + np.exp(-z)) - yb) / len(i)).astype(f32)
        d2 = np.outer(dz, P["v"]) * (a2 > 0)
        d1 = (d2 @ P["w2"].T) * (a1 > 0)
        G = {"w1": xb.T @ d1, "c1": d1.sum(0), "w2": r1.T @ d2, "c2": d2.sum(0), "v": r2.T @ dz,
             "skip": xb.T @ dz, "b": np.array([dz.sum()], f32)}
        lr, beta1 = te.one_cycle(step, total, lr0); step += 1
        for k, g in G.items():
            m1[k] = beta1 * m1[k] + (1 - beta1) * g; m2[k] = 0.999 * m2[k] + 0.001 * g * g
            c1, c2 = 1 - beta1 ** step, 1 - 0.999 ** step
            P[k] -= (lr / c1 * m1[k] / (np.sqrt(m2[k] / c2) + 1e-8)).astype(f32)
    if ep % 5 == 4 or ep == epochs - 1:
        print(f"{h1}x{h2} epoch {ep + 1}: held-out rms %.5f mean abs %.5f max %.4f ({time.time() - t0:.0f} s)" % fit(), flush=True)
np.savez(f"deep-{h1}x{h2}.npz", **P)
