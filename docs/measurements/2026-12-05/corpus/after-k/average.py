# average.py OUT NET... : the parameters' mean of networks of one lineage (weight averaging)
import sys
from pathlib import Path

import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parents[5] / "scripts"))
import train_endgame as te
out, nets = sys.argv[1], sys.argv[2:]
ps = [te.read_weights(n) for n in nets]
rules, h, ni, _ = ps[0]
flat = np.mean([np.concatenate([p["w"].ravel(), p["skip"], p["c"], p["v"], p["b"]]) for _, _, _, p in ps], axis=0)
te.write_weights(out, ["mean of " + " ".join(nets)], rules, h, ni, flat)
