"""The replay of a finished game: every step with the full position.

Once a game is over nothing is hidden any more, so the replay shows every seat's tiles at
every step, with the stand-in notices (which human seats a bot played, and why). The
steps come from the one replay loop, :func:`pyramids.core.record.replay_actions`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pyramids.core.record import replay_actions
from pyramids.server.live import FINISHED, LiveTable
from pyramids.server.protocol import ProtocolError
from pyramids.server.table_log import event_json, stand_in_event


async def replay(table: LiveTable) -> list[dict[str, Any]]:
    """Every step of a finished game; ProtocolError(not_finished) before the end."""
    if table.status != FINISHED:
        raise ProtocolError("not_finished", "the replay is shown once the game is over", 409)
    return await asyncio.to_thread(replay_steps, table)


def replay_steps(table: LiveTable) -> list[dict[str, Any]]:
    """Every step of a finished game with the full position (nothing is hidden any more)."""
    state = table.game.new_initial_state(table.seed)
    steps: list[dict[str, Any]] = [
        {
            "seq": 0,
            "seat": None,
            "action": None,
            "events": [event_json(e) for e in state.events()],
            "state": state.to_json(),
        }
    ]
    texts = [text for _, text in table.actions]
    for step, (seat, _) in zip(replay_actions(state, texts), table.actions, strict=True):
        notice = stand_in_event(table.stand_ins.get(step.seq), seat, table.seats)
        steps.append(
            {
                "seq": step.seq,
                "seat": seat,
                "action": step.text,
                "events": [event_json(e) for e in [*([notice] if notice else []), *state.events()]],
                "state": state.to_json(),
            }
        )
    return steps
