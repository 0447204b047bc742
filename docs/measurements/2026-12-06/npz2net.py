# npz2net.py NPZ OUT: deep.py's saved parameters as a senet-net/2 weights file
import sys
import numpy as np
P = np.load(sys.argv[1])
ni, n = P["w1"].shape; m = P["c2"].shape[0]
flat = np.concatenate([P["w1"].ravel(), P["skip"], P["c1"], P["w2"].ravel(), P["c2"], P["v"], P["b"]])
lines = [f"# {sys.argv[1]}", f"senet-net/2 kendall5 H={n} H2={m} NI={ni}"]
lines += [" ".join(f"{float(t):.8g}" for t in flat[k:k + 8]) for k in range(0, len(flat), 8)]
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
