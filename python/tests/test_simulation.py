"""Random simulation over every rule set (and each option flipped): legal actions applied
until the game ends, with the invariants of the OpenSpiel shape checked at every step."""

import math
import pickle
import random
from fractions import Fraction

import pytest

import senet
from conftest import VARIANTS, variant_id

GAMES = 6


def check_state(game, state):
    """Checks one state; returns the legal actions."""
    n_actions = game.num_distinct_actions()
    n_chance = game.max_chance_outcomes()
    player = state.current_player()
    legal = state.legal_actions()
    assert legal == sorted(set(legal)), "legal actions are sorted and unique"
    mask = state.legal_actions_mask()
    assert [i for i, x in enumerate(mask) if x] == legal
    obs = state.observation_tensor()
    assert len(obs) == game.observation_tensor_size() == game.observation_tensor_shape()[0]
    assert state.unobserved_fields() == [], "the observation covers every position field"
    if player == senet.CHANCE_PLAYER_ID:
        assert state.is_chance_node() and not state.is_terminal()
        outcomes = state.chance_outcomes()
        exact = state.chance_outcomes(exact=True)
        assert [a for a, _ in outcomes] == legal
        assert sum(p for _, p in exact) == Fraction(1), "chance probabilities sum to 1"
        assert math.isclose(sum(p for _, p in outcomes), 1.0, rel_tol=1e-12)
        assert all(0 < p <= 1 and float(q) == p for (_, p), (_, q) in zip(outcomes, exact))
        assert all(0 <= a < n_chance for a in legal)
        assert len(mask) == n_chance
        assert obs[game.observation_tensor_size() - 1] == pytest.approx(
            state.decisions() / game.max_game_length()
        )
    elif player == senet.TERMINAL_PLAYER_ID:
        assert state.is_terminal() and legal == [] and state.chance_outcomes() == []
        r = state.returns()
        assert r[0] + r[1] == 0
        assert game.min_utility() <= r[0] <= game.max_utility()
        o = state.outcome()
        assert o is not None
        if o["winner"] is None:
            assert r == [0, 0]
        else:
            assert r[o["winner"]] > 0
        assert (o["score"] is not None) == game.scores()
    else:
        assert player in (0, 1) and state.is_player_node()
        assert legal, "a player to move always has an action (a forfeit is `pass`)"
        assert all(0 <= a < n_actions for a in legal)
        assert len(mask) == n_actions
        assert state.legal_actions(player) == legal
        assert state.legal_actions(1 - player) == []
        assert state.throw() is not None
        for a in legal:
            text = state.action_to_string(a)
            assert state.action_to_string(player, a) == text
            assert state.string_to_action(text) == a
            assert state.string_to_action(player, text.upper()) == a
        assert state.returns() == [0, 0]
    return legal


def play_random(game, rng, check_every=1):
    state = game.new_initial_state()
    steps = 0
    decisions = 0
    while True:
        if steps % check_every == 0:
            legal = check_state(game, state)
        else:
            legal = state.legal_actions()
        if state.is_terminal():
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            a = rng.choices(actions, probs)[0]
        else:
            a = rng.choice(legal)
            decisions += 1
        if rng.random() < 0.05:
            # clone: independent of the original.
            c = state.clone()
            before = str(state)
            c.apply_action(a)
            assert str(state) == before
            assert c.history() == state.history() + [a]
            # serialize round trip, history included.
            back = senet.deserialize(state.serialize())
            assert back == state and back.history() == state.history()
            assert game.deserialize_state(state.serialize()) == state
            assert pickle.loads(pickle.dumps(state)) == state
        state.apply_action(a)
        steps += 1
    assert decisions == state.decisions() <= game.max_game_length()
    assert state.move_number() == steps == len(state.history())
    back = senet.deserialize(state.serialize())
    assert back == state and back.is_terminal() and back.returns() == state.returns()
    return state


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def test_random_games(variant):
    rules, options = variant
    game = senet.load_game(rules, **options)
    rng = random.Random(hash(variant_id(variant)) & 0xFFFF)
    ends = [play_random(game, rng, check_every=1 if i == 0 else 7) for i in range(GAMES)]
    assert all(s.is_terminal() for s in ends)


@pytest.mark.parametrize("rules", [r["id"] for r in senet.rule_sets()])
def test_turn_cap_ends_games_as_draws(rules):
    game = senet.load_game(rules, cap=12)
    assert game.max_game_length() == 12
    rng = random.Random(5)
    for _ in range(5):
        end = play_random(game, rng)
        assert end.decisions() <= 12
        if end.outcome()["capped"]:
            assert end.returns() == [0, 0] and end.outcome()["winner"] is None


def test_consecutive_decisions_of_one_player():
    """A bonus throw (kendall5: 1, 4, 5) gives the same player a chance node then another
    decision, as OpenSpiel's backgammon does for its dice."""
    game = senet.load_game("kendall5")
    s = game.new_initial_state()
    s.apply_action(s.string_to_action("4"))
    assert s.current_player() == 0
    s.apply_action(s.legal_actions()[0])
    assert s.current_player() == senet.CHANCE_PLAYER_ID
    assert s.player_to_throw_or_move() == 0
    s.apply_action(s.string_to_action("2"))
    assert s.current_player() == 0


def test_two_dice_turns_are_consecutive_decisions():
    game = senet.load_game("pyramid")
    rng = random.Random(3)
    s = game.new_initial_state()
    seen = False
    while not s.is_terminal() and not seen:
        if s.is_chance_node():
            s.apply_action(rng.choice(s.legal_actions()))
            continue
        p = s.current_player()
        two = "-" in (s.throw() or "")
        s.apply_action(rng.choice(s.legal_actions()))
        if two and s.current_player() == p and s.throw() is not None and "-" not in s.throw():
            seen = True
    assert seen, "a two-dice throw is played as two decisions of the same player"
