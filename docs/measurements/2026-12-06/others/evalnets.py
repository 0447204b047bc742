"""evalnets.py DATA NET... : mean squared error of each network against the returns in DATA
(all positions), and each one's paired difference to the first, with a 95% interval from a
bootstrap over blocks of 200 consecutive positions (a game's positions are consecutive)."""
import sys
import numpy as np
sys.path.insert(0, "/work/main/scripts")
from train_endgame import read_data, read_weights, net_z

rules, ni, data = read_data(sys.argv[1])
n, slots = data["idx"].shape
x = np.zeros((n, ni + 1), dtype=np.float32)
idx = data["idx"].astype(np.int64); idx[idx == 255] = ni
np.put_along_axis(x, idx, data["val"], axis=1)  # slots are distinct
x = x[:, :ni]
y = data["y"].astype(np.float64)
errs = []
for path in sys.argv[2:]:
    p = read_weights(path)[3]
    v = 1 / (1 + np.exp(-net_z(p, x).astype(np.float64)))
    errs.append((v - y) ** 2)
B = 200
nb = n // B
rng = np.random.default_rng(1)
picks = rng.integers(0, nb, size=(2000, nb))
for path, e in zip(sys.argv[2:], errs):
    line = f"{path}: mse {e.mean():.6f}"
    if e is not errs[0]:
        d = (e - errs[0])[: nb * B].reshape(nb, B).mean(axis=1)
        boots = d[picks].mean(axis=1)
        line += f"  diff {d.mean():+.6f} [{np.percentile(boots, 2.5):+.6f}, {np.percentile(boots, 97.5):+.6f}]"
    print(line)
