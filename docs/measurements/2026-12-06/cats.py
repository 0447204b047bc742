import sys, json
sys.path.insert(0, '/work/main/scripts')
from exact_from_corpus import subjects, CATEGORIES
lines=[json.loads(l) for l in open('corpus.jsonl') if l.strip()][1:]
for path in sys.argv[1:]:
    s=subjects(path)['expert (tables to 3)']['losses']
    out=[]
    for c in CATEGORIES:
        idx=[i for i,l in enumerate(lines) if c in l['tags']]
        out.append(f"{c} {sum(s[i] for i in idx)/len(idx)*100:.4f} ({len(idx)})")
    print(path, '; '.join(out))
