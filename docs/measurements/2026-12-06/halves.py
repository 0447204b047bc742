import sys, json, random
sys.path.insert(0, '/work/main/scripts')
from exact_from_corpus import weights, subjects, figure
w = weights('corpus.jsonl')
a = subjects(sys.argv[1]); b = subjects(sys.argv[2])
for name in a:
    if name not in b: continue
    la, lb = a[name]['losses'], b[name]['losses']
    out = [name[:20]]
    for half in (0, 1):
        idx = [i for i in range(len(w)) if i % 2 == half]
        out.append(f"half{half}: {figure([la[i] for i in idx],[w[i] for i in idx])*100:.4f} vs {figure([lb[i] for i in idx],[w[i] for i in idx])*100:.4f}")
    print('  '.join(out))
