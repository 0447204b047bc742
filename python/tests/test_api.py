"""The API's shape, metadata, and errors: bad input raises ValueError with a clear message."""

import pickle

import pytest

import senet


def test_rule_sets_metadata():
    ids = senet.registered_names()
    assert ids == [r["id"] for r in senet.rule_sets()]
    assert set(ids) == {"kendall", "kendall5", "pyramid", "senat", "houses", "parker"}
    by_id = {r["id"]: r for r in senet.rule_sets()}
    assert by_id["parker"]["scores"] == "always"
    assert by_id["pyramid"]["scores"] == "always"
    assert by_id["senat"]["scores"] == "with option score"
    assert by_id["kendall5"]["scores"] == "never"
    for r in senet.rule_sets():
        assert any(o["name"] == "cap" for o in r["options"])
        g = senet.load_game(r["id"])
        assert g.num_distinct_actions() == r["num_distinct_actions"]
        assert g.max_chance_outcomes() == r["max_chance_outcomes"]


def test_load_game_forms():
    a = senet.load_game("kendall5", cap=500)
    b = senet.load_game("kendall5", {"cap": 500})
    c = senet.load_game("kendall5(cap=500)")
    d = senet.load_game("kendall5:cap=500")
    assert a == b == c == d
    assert str(a) == "kendall5(cap=500)"
    assert a.get_parameters() == {"cap": 500, "utility": "score"}
    assert a.max_game_length() == 500
    assert a.new_initial_state().position().startswith("kendall5:cap=500 ")
    assert senet.load_game("houses", six_sticks=True).get_parameters()["six_sticks"] is True
    assert pickle.loads(pickle.dumps(a)) == a


def test_game_constants():
    g = senet.load_game("kendall5")
    assert (g.num_distinct_actions(), g.max_chance_outcomes(), g.max_game_length()) == (31, 5, 1000)
    assert (g.min_utility(), g.max_utility(), g.utility_sum()) == (-1, 1, 0)
    assert g.num_players() == 2 and not g.scores()
    assert g.observation_tensor_shape() == [73]
    assert g.rules == "kendall5" and "Kendall" in g.name
    p = senet.load_game("parker")
    assert p.num_distinct_actions() == 421 and p.max_chance_outcomes() == 23
    assert p.scores() and (p.min_utility(), p.max_utility()) == (-130, 130)
    assert senet.load_game("parker", utility="win").max_utility() == 1
    assert senet.load_game("pyramid").num_distinct_actions() == 121
    assert senet.load_game("senat").num_distinct_actions() == 32
    assert not senet.load_game("senat").scores()
    assert senet.load_game("senat", score=True).max_utility() == 5
    layout = g.observation_tensor_layout()
    assert sum(n for _, n in layout) == 73 and layout[0] == ("board", 60)


def test_action_strings_out_of_context():
    g = senet.load_game("kendall5")
    assert g.action_to_string(0, 9) == "the piece on 10"
    assert g.action_to_string(0, 30) == "pass"
    assert g.action_to_string(senet.CHANCE_PLAYER_ID, 4) == "5"
    p = senet.load_game("pyramid")
    assert p.action_to_string(0, 9 * 4 + 2) == "the piece on 10 with a 3"
    s = g.new_initial_state()
    s.apply_action(s.string_to_action("3"))
    # Not legal here: described, not refused.
    assert s.action_to_string(1) == "the piece on 2"
    assert s.action_to_string(0) == "1-4"


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: senet.load_game("chess"), "unknown rule set"),
        (lambda: senet.load_game("kendall5", cap=0), "cap"),
        (lambda: senet.load_game("kendall5", colour="red"), "has no option"),
        (lambda: senet.load_game("kendall5", cap=[1]), "must be a bool, an int or a string"),
        (lambda: senet.load_game("kendall5", utility="money"), "utility"),
        (lambda: senet.load_game("kendall5(cap=5"), r"like kendall5\(cap=500\)"),
        (lambda: senet.bot("grandmaster"), "unknown bot"),
        (lambda: senet.deserialize("not json"), "not a valid record"),
        (lambda: senet.deserialize('{"format":"senet-record/1","rules":"kendall5","events":[{"throw":"9"}]}'), "event 1"),
        (lambda: senet.deserialize('{"format":"senet-record/1","rules":"kendall5","events":[{"throw":"3"},{"move":"2-5"}]}'), "event 2"),
        (lambda: senet.deserialize('{"format":"senet-record/9","rules":"kendall5","events":[]}'), "format"),
        (lambda: senet.load_game("kendall").new_state_from_position("kendall5 XOXOXOXOXO.................... off=0,0 turn=1 throw=- dec=0"), "not a position of kendall"),
        (lambda: senet.load_game("kendall5").new_state_from_position("kendall5 XXX"), "bad position"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_illegal_actions_raise_value_error():
    g = senet.load_game("kendall5")
    s = g.new_initial_state()
    with pytest.raises(ValueError, match="not a possible chance action"):
        s.apply_action(5)
    with pytest.raises(ValueError, match="not a possible chance action"):
        s.apply_action(-3)
    with pytest.raises(ValueError, match="not a possible throw"):
        s.string_to_action("6")
    with pytest.raises(ValueError, match="bad throw"):
        s.string_to_action("x")
    s.apply_action(s.string_to_action("5"))
    with pytest.raises(ValueError, match=r"action 1 \(the piece on 2\) is not legal here; legal actions: 0 \(1-6\)"):
        s.apply_action(1)
    with pytest.raises(ValueError, match="illegal move"):
        s.string_to_action("2-7")
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        s.observation_tensor(2)
    with pytest.raises(ValueError, match="throw is pending"):
        s2 = g.new_initial_state()
        senet.bot("random").choose(s2)
    # A finished game accepts nothing.
    end = g.new_state_from_position("kendall5 .....................O.O...... off=5,3 turn=2 throw=- dec=90")
    assert end.is_terminal() and end.returns() == [1, -1]
    with pytest.raises(ValueError, match="the game is over"):
        end.apply_action(0)
    with pytest.raises(ValueError, match="game is over"):
        senet.bot("random").choose(end)
    with pytest.raises(ValueError, match="is a game of kendall5"):
        senet.load_game("kendall5", cap=50).deserialize_state(s.serialize())


def test_observation_is_from_the_players_view():
    g = senet.load_game("kendall5")
    s = g.new_initial_state()
    s.apply_action(s.string_to_action("3"))
    o0, o1 = s.observation_tensor(0), s.observation_tensor(1)
    # First player's pieces on 1, 3, 5, 7, 9 are plane 0 for player 0 and plane 1 for player 1.
    assert [i + 1 for i in range(30) if o0[i]] == [1, 3, 5, 7, 9]
    assert [i + 1 for i in range(30) if o1[30 + i]] == [1, 3, 5, 7, 9]
    throw = slice(64, 69)
    assert o0[throw] == [0, 0, 1, 0, 0] == o1[throw]
    to_play = slice(69, 71)
    assert o0[to_play] == [1, 0] and o1[to_play] == [0, 1]
    assert s.observation_tensor() == o0


def test_scores_and_utilities():
    # pyramid scores: returns are the score lead (Y9).
    g = senet.load_game("pyramid")
    s = g.new_state_from_position("pyramid ....s.......................S. off=LLMMMSSSS,llmmmssss turn=1 dice=2 dec=100")
    assert not s.is_terminal()
    s.apply_action(s.string_to_action("29-off"))
    assert s.is_terminal()
    assert s.outcome() == {"winner": 0, "capped": False, "score": [27, 25]}
    assert s.returns() == [2, -2]
    w = senet.load_game("pyramid", utility="win").new_state_from_position(
        "pyramid ....s.......................S. off=LLMMMSSSS,llmmmssss turn=1 dice=2 dec=100")
    w.apply_action(w.string_to_action("29-off"))
    assert w.returns() == [1, -1]


def test_history_and_child():
    g = senet.load_game("kendall5")
    s = g.new_initial_state()
    c = s.child(4)
    assert s.history() == [] and c.history() == [4] and c.history_str() == "4"
    assert c.move_number() == 1 and c.get_game() == g
    assert "kendall5" in repr(c) and str(c) == c.position()
    assert "1-6" in [c.action_to_string(a) for a in c.legal_actions()]


def test_observation_sizes_are_as_documented():
    sizes = {r: senet.load_game(r).observation_tensor_size() for r in senet.registered_names()}
    assert sizes == {"kendall": 75, "kendall5": 73, "pyramid": 194, "senat": 77, "houses": 76, "parker": 195}
    # The shape does not depend on the options.
    assert senet.load_game("houses", six_sticks=True).observation_tensor_size() == 76
    assert senet.load_game("senat", score=True, die=True).observation_tensor_size() == 77
