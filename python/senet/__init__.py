"""senet: the ancient Egyptian race game Senet, in the shape of an OpenSpiel game.

The rules are senet's Rust engine (``senet-rules``), compiled into ``senet._senet``; this
package only re-exports it. See ``python/README.md`` for the tutorial, the action encodings
and the observation layout.

>>> import senet
>>> game = senet.load_game("kendall5", cap=1000)
>>> state = game.new_initial_state()
>>> state.current_player() == senet.CHANCE_PLAYER_ID
True
"""

from ._senet import (
    CHANCE_PLAYER_ID,
    TERMINAL_PLAYER_ID,
    Bot,
    Game,
    State,
    bot,
    deserialize,
    duplicate_match,
    load_game,
    rule_sets,
)

__all__ = [
    "CHANCE_PLAYER_ID",
    "TERMINAL_PLAYER_ID",
    "Bot",
    "Game",
    "State",
    "bot",
    "deserialize",
    "duplicate_match",
    "load_game",
    "rule_sets",
    "registered_names",
]

__version__ = "0.1.0"


def registered_names() -> list[str]:
    """The rule set IDs, as OpenSpiel's ``registered_names`` lists its games."""
    return [r["id"] for r in rule_sets()]
