"""Agreement with the `senet` command line: the same start positions, the same legal moves
with the same resulting positions, the same moves applied, and records that read both ways."""

import json
import random
import subprocess

import pytest

import senet

RULES = [r["id"] for r in senet.rule_sets()]


def cli(senet_bin, *args):
    r = subprocess.run([senet_bin, *args], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


def sample_states(rules, n, seed):
    """n decision states from random games of `rules` (different game stages)."""
    game = senet.load_game(rules)
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(actions, probs)[0])
            else:
                if rng.random() < 0.08 and len(out) < n:
                    out.append(s.clone())
                s.apply_action(rng.choice(s.legal_actions()))
    return out


@pytest.mark.parametrize("rules", RULES)
def test_start_position(senet_bin, rules):
    assert cli(senet_bin, "new", rules) == senet.load_game(rules).new_initial_state().position()
    assert cli(senet_bin, "new", rules, "--option", "cap=77") == (
        senet.load_game(rules, cap=77).new_initial_state().position()
    )


@pytest.mark.parametrize("rules", RULES)
def test_moves_and_positions(senet_bin, rules):
    for s in sample_states(rules, 6, seed=len(rules)):
        listed = json.loads(cli(senet_bin, "moves", s.position()))
        ours = {s.action_to_string(a): s.child(a).position() for a in s.legal_actions()}
        theirs = {m["move"]: m["position"] for m in listed}
        assert ours == theirs, s.position()
        a = s.legal_actions()[-1]
        applied = cli(senet_bin, "apply", s.position(), s.action_to_string(a))
        assert applied == s.child(a).position()


@pytest.mark.parametrize("rules", RULES)
def test_moves_with_a_given_throw(senet_bin, rules):
    s = senet.load_game(rules).new_initial_state()
    for a, _ in s.chance_outcomes():
        t = s.action_to_string(a)
        if rules == "parker":
            t = None  # the dice-off is no throw to move with
        if t is None:
            continue
        listed = json.loads(cli(senet_bin, "moves", s.position(), "--throw", t))
        c = s.child(a)
        assert sorted(m["move"] for m in listed) == sorted(
            c.action_to_string(x) for x in c.legal_actions()
        )


@pytest.mark.parametrize("rules", RULES)
def test_records_read_both_ways(senet_bin, rules, tmp_path):
    # A record written by the CLI restores in Python...
    rec = cli(senet_bin, "random-game", rules, "--seed", "7")
    state = senet.deserialize(rec)
    assert state.is_terminal()
    assert state.position() == json.loads(rec)["result"]["position"]
    # ...and one written by Python replays in the CLI.
    s = sample_states(rules, 1, seed=11)[0]
    f = tmp_path / "game.json"
    f.write_text(s.serialize())
    out = json.loads(cli(senet_bin, "replay", str(f), "--json"))
    assert out["position"] == s.position()
    assert out["moves"] == s.decisions()
