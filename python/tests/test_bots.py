"""Bots from Python: choices, every move's win chance, a whole bot game, duplicate matches."""

import pytest

import senet


def play(game, bots, seed):
    """Plays one game with seeded throws; bots[p] chooses for player p."""
    import random

    rng = random.Random(seed)
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            actions, probs = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(actions, probs)[0])
        else:
            a = bots[s.current_player()].choose(s)
            assert a in s.legal_actions()
            s.apply_action(a)
    return s


def test_bot_game_expert_against_random():
    # expert wins about 87% of kendall5 games against random (senet match --a expert --b random
    # --pairs 100: 174 of 200), a bot no better than random about half. 16 games with 12 wins
    # or more: a coin reaches it with chance 4%, an 87% bot misses it with chance 5%.
    game = senet.load_game("kendall5")
    expert, rnd = senet.bot("expert"), senet.bot("random", seed=3)
    wins = 0
    for seed in range(16):
        end = play(game, [expert, rnd] if seed % 2 == 0 else [rnd, expert], seed)
        expert_seat = 0 if seed % 2 == 0 else 1
        wins += end.outcome()["winner"] == expert_seat
    assert wins >= 12, f"expert beats random: {wins} of 16"


def test_win_chances_cover_every_legal_move():
    game = senet.load_game("kendall5")
    s = game.new_initial_state()
    s.apply_action(s.string_to_action("5"))
    strong = senet.bot("strong")
    chances = dict(strong.win_chances(s))
    assert sorted(chances) == s.legal_actions()
    assert all(0.0 <= p <= 1.0 for p in chances.values())
    best = strong.choose(s)
    assert chances[best] == max(chances.values())
    c = strong.choice(s)
    assert c["action"] == best and c["move"] == s.action_to_string(best)
    assert c["score_kind"] == "win_chance" and c["exact"] is True
    assert c["moves"] == {a: s.action_to_string(a) for a in s.legal_actions()}
    assert c["scores"] == pytest.approx(chances)
    r = senet.bot("random").choice(s)
    assert r["score_kind"] == "pick_chance"
    assert repr(strong) == 'senet.bot("strong", seed=0)' and strong.name == "strong"


def test_bots_are_deterministic_and_play_every_rule_set():
    for r in senet.registered_names():
        game = senet.load_game(r)
        s = game.new_initial_state()
        while not s.is_player_node():
            s.apply_action(s.legal_actions()[-1])
        b = senet.bot("greedy")
        assert b.choose(s) == b.choose(s.clone()) in s.legal_actions()


def test_duplicate_match():
    m = senet.duplicate_match("kendall5", "greedy", "random", pairs=6, seed=1, threads=1)
    assert m["pairs"] == 6 and len(m["games"]) == 12
    assert m["a_wins"] + m["b_wins"] + m["draws"] == 12
    assert 0 <= m["ci95"][0] <= m["a_rate"] <= m["ci95"][1] <= 1
    again = senet.duplicate_match(senet.load_game("kendall5"), "greedy", "random", pairs=6, seed=1)
    assert again["games"] == m["games"], "the same seed gives the same games"
    with pytest.raises(ValueError, match="at least one pair"):
        senet.duplicate_match("kendall5", "greedy", "random", pairs=0)
    assert "luck_adjusted" not in m and m["games"][0]["first_luck"] is None


def test_duplicate_match_with_the_luck_taken_out():
    m = senet.duplicate_match("kendall5", "greedy", "random", pairs=30, seed=2, luck="expectimax:1")
    l = m["luck_adjusted"]
    assert l["judge"] == "expectimax:1"
    assert l["ci95"][0] <= l["a_rate"] <= l["ci95"][1]
    assert l["ci95"][1] - l["ci95"][0] < m["ci95"][1] - m["ci95"][0]
    assert all(isinstance(g["first_luck"], float) for g in m["games"])
    with pytest.raises(ValueError, match="win chance"):
        senet.duplicate_match("kendall5", "greedy", "random", pairs=2, luck="random")
