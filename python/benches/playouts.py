"""Random playouts through the Python API: games and state steps per second.

    python python/benches/playouts.py [--rules kendall5] [--seconds 5] [--runs 3]

A *step* is one `apply_action` (a throw or a decision); each step also asks the state
whether it is over and for its chance outcomes or legal actions, as an OpenSpiel-style
loop does. Rates are per second of this process's CPU time (the per-core figure, like
`senet bench`) and per wall-clock second; the median of the runs is printed. Compare with
`senet bench --rules kendall5` (the same playouts without Python).
"""

import argparse
import random
import statistics
import time

import senet


def playout(game, rng):
    s = game.new_initial_state()
    steps = decisions = 0
    while not s.is_terminal():
        if s.is_chance_node():
            actions, probs = zip(*s.chance_outcomes())
            a = rng.choices(actions, probs)[0]
        else:
            a = rng.choice(s.legal_actions())
            decisions += 1
        s.apply_action(a)
        steps += 1
    return steps, decisions


def run(game, seconds, seed):
    rng = random.Random(seed)
    games = steps = decisions = 0
    c0, w0 = time.process_time(), time.perf_counter()
    while time.perf_counter() - w0 < seconds:
        st, de = playout(game, rng)
        games += 1
        steps += st
        decisions += de
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    return {
        "games/cpu s": games / cpu,
        "steps/cpu s": steps / cpu,
        "decisions/cpu s": decisions / cpu,
        "games/wall s": games / wall,
        "steps per game": steps / games,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="kendall5", help="rule set IDs, comma-separated, or all")
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--runs", type=int, default=3)
    args = p.parse_args()
    ids = senet.registered_names() if args.rules == "all" else args.rules.split(",")
    print("| rule set | games / CPU s | steps / CPU s | decisions / CPU s | games / wall s | steps per game |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in ids:
        game = senet.load_game(r)
        runs = [run(game, args.seconds, seed) for seed in range(args.runs)]
        med = {k: statistics.median(x[k] for x in runs) for k in runs[0]}
        print(
            f"| {r} | {med['games/cpu s']:,.0f} | {med['steps/cpu s']:,.0f} | "
            f"{med['decisions/cpu s']:,.0f} | {med['games/wall s']:,.0f} | "
            f"{med['steps per game']:.0f} |"
        )


if __name__ == "__main__":
    main()
