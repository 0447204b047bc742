"""Type stubs of the compiled module ``senet._senet`` (re-exported by ``senet``).

Players are 0 (the first player, ``turn=1`` in position strings) and 1. Action encodings
and the observation layout are documented in ``python/README.md``.
"""

from fractions import Fraction
from typing import Any, Literal, Optional, Union, overload

CHANCE_PLAYER_ID: int
"""-1: ``current_player()`` while a throw is pending."""
TERMINAL_PLAYER_ID: int
"""-4: ``current_player()`` once the game is over."""

OptionValue = Union[bool, int, str]

class Game:
    """A rule set with its options (OpenSpiel's ``Game``): the factory of states and the
    holder of the game's constants."""

    @property
    def rules(self) -> str:
        """The rule set's ID, e.g. ``"kendall5"``."""
    @property
    def name(self) -> str:
        """The rule set's name to show."""
    def new_initial_state(self) -> State:
        """The start of a game (for ``parker``, the dice-off that picks who starts is the
        first chance node)."""
    def new_state_from_position(self, position: str) -> State:
        """A state at a position string of this rule set with these options
        (``docs/notation.md``); its history starts there. ValueError otherwise."""
    def deserialize_state(self, text: str) -> State:
        """A state from ``State.serialize()`` of a game of this rule set and options."""
    def num_distinct_actions(self) -> int:
        """Every player action id is below this number (fixed per rule set)."""
    def max_chance_outcomes(self) -> int:
        """Every chance action id (a throw) is below this number."""
    def max_game_length(self) -> int:
        """The most player decisions a game can have: the turn cap ``cap`` (ruling C5)."""
    def max_chance_nodes_in_history(self) -> int:
        """The most throws a game can have."""
    def num_players(self) -> int:
        """Always 2."""
    def min_utility(self) -> float:
        """-1, or minus the largest score lead for rule sets that score."""
    def max_utility(self) -> float:
        """1, or the largest score lead for rule sets that score (parker 130, pyramid 27,
        senat with ``score`` 5)."""
    def utility_sum(self) -> float:
        """0: the game is zero-sum."""
    def scores(self) -> bool:
        """Whether this rule set with these options scores a win."""
    def observation_tensor_shape(self) -> list[int]:
        """``[size]``: the observation is one flat vector."""
    def observation_tensor_size(self) -> int:
        """The observation's length."""
    def observation_tensor_layout(self) -> list[tuple[str, int]]:
        """The observation's parts in order, as ``(name, length)``."""
    def get_parameters(self) -> dict[str, OptionValue]:
        """Every option with its value, and ``utility``."""
    def action_to_string(self, player: int, action: int) -> str:
        """What an action means without a position (``"the piece on 10"``); for player -1
        the throw (``"4"``, ``"3-5"``)."""
    def __eq__(self, other: object) -> bool: ...

class State:
    """A position and the actions that led to it (OpenSpiel's ``State``)."""

    def current_player(self) -> int:
        """0 or 1 at a decision, ``CHANCE_PLAYER_ID`` (-1) while a throw is pending,
        ``TERMINAL_PLAYER_ID`` (-4) at the end."""
    def is_chance_node(self) -> bool: ...
    def is_terminal(self) -> bool: ...
    def is_player_node(self) -> bool: ...
    def player_to_throw_or_move(self) -> Optional[int]:
        """The player whose turn it is, also at a chance node; None at the end."""
    @overload
    def chance_outcomes(self, exact: Literal[False] = False) -> list[tuple[int, float]]: ...
    @overload
    def chance_outcomes(self, exact: Literal[True]) -> list[tuple[int, Fraction]]:
        """The pending throw's outcomes ``(action, probability)``, sorted by action; exact
        ``Fraction``s with ``exact=True``. Empty when no throw is pending."""
    def legal_actions(self, player: Optional[int] = None) -> list[int]:
        """Sorted legal actions: moves at a decision, throws at a chance node."""
    def legal_actions_mask(self, player: Optional[int] = None) -> list[int]:
        """0/1 per action id (``num_distinct_actions()`` long at a decision,
        ``max_chance_outcomes()`` at a chance node)."""
    def apply_action(self, action: int) -> None:
        """Applies a legal action; ValueError (saying what is legal) otherwise."""
    def child(self, action: int) -> State:
        """A copy with the action applied."""
    @overload
    def action_to_string(self, action: int) -> str: ...
    @overload
    def action_to_string(self, player: int, action: int) -> str:
        """The move string of a legal action (``"10-13"``, ``"28-off"``, ``"pass"``), the
        throw of a chance action, or what an action not legal here would mean."""
    @overload
    def string_to_action(self, text: str) -> int: ...
    @overload
    def string_to_action(self, player: int, text: str) -> int:
        """The action of a legal move string or, at a chance node, of a throw."""
    def returns(self) -> list[float]:
        """[first, second]: +1/-1/0, or the winner's score lead for rule sets that score
        (unless ``utility="win"``); zeros before the end."""
    def rewards(self) -> list[float]:
        """The returns at the end, zeros before."""
    def player_return(self, player: int) -> float: ...
    def outcome(self) -> Optional[dict[str, Any]]:
        """``{"winner": 0 | 1 | None, "capped": bool, "score": [a, b] | None}`` at the
        end, else None."""
    def clone(self) -> State: ...
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...
    def history(self) -> list[int]:
        """Every action applied since the state was created, throws included."""
    def history_str(self) -> str: ...
    def move_number(self) -> int:
        """``len(history())``."""
    def decisions(self) -> int:
        """Decisions played, forfeits included (the turn cap counts these)."""
    def throw(self) -> Optional[str]:
        """The throw in hand (or the die left), None while a throw is pending."""
    def position(self) -> str:
        """The position string (``docs/notation.md``); also ``str(state)``."""
    def diagram(self) -> str:
        """The board drawn as text."""
    def serialize(self) -> str:
        """The game record (``senet-record/1`` JSON) of the history; ``senet replay``
        reads it, ``senet.deserialize`` restores the state."""
    def observation_tensor(self, player: Optional[int] = None) -> list[float]:
        """The observation of ``player`` (default: the player whose turn it is), flat,
        ``Game.observation_tensor_size()`` long."""
    def observation_string(self, player: Optional[int] = None) -> str: ...
    def get_game(self) -> Game: ...
    def num_players(self) -> int: ...
    def unobserved_fields(self) -> list[str]:
        """Position fields the observation does not encode (empty; checked by the tests)."""
    def __eq__(self, other: object) -> bool: ...

class Bot:
    """A computer player of ``senet-bots``."""

    @property
    def name(self) -> str: ...
    def choose(self, state: State) -> int:
        """The bot's action at a decision (ValueError elsewhere)."""
    def win_chances(self, state: State) -> list[tuple[int, float]]:
        """Every legal action with its exact score, sorted by action: the mover's win
        chance after it for the search bots (a draw counts 1/2), the pick chance for
        ``random``."""
    def choice(self, state: State, exact: bool = True) -> dict[str, Any]:
        """``action``, ``move``, ``scores`` {action: score}, ``moves`` {action: move
        string}, ``score_kind``, ``exact``, ``nodes``."""

def load_game(
    name: str, params: Optional[dict[str, OptionValue]] = None, **kwargs: OptionValue
) -> Game:
    """``load_game("kendall5", cap=500)``, ``load_game("kendall5", {"cap": 500})``,
    ``load_game("kendall5(cap=500)")``; ``utility="win"`` makes returns +1/-1/0 even for
    rule sets that score. ValueError for an unknown rule set or a bad option."""

def deserialize(text: str, utility: str = "score") -> State:
    """A state from ``State.serialize()`` or any senet game record, history included."""

def bot(name: str = "strong", seed: int = 0) -> Bot:
    """``random``, ``greedy``, ``expectimax:N``, ``mcts:N``, ``beginner``, ``casual``,
    ``strong``, ``expert`` (``docs/bots.md``)."""

def duplicate_match(
    game: Union[Game, str],
    a: str,
    b: str,
    pairs: int = 100,
    seed: int = 1,
    threads: int = 0,
    luck: Optional[str] = None,
) -> dict[str, Any]:
    """Duplicate pairs (same throws, seats swapped) of bot ``a`` against ``b``: ``a_rate``
    with ``ci95``, wins, draws, ``avg_length``, ``games``; with ``luck`` (a search bot that
    values the throws), ``luck_adjusted``: A's score with the luck taken out (``a_rate``,
    ``ci95``, ``a_luck``), the same mean with a narrower interval."""

def rule_sets() -> list[dict[str, Any]]:
    """Every rule set: ``id``, ``name``, ``source``, ``options``, ``scores``,
    ``num_distinct_actions``, ``max_chance_outcomes``."""
