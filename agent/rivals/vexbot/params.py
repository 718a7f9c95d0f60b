"""Vexbot's parameters, validated as every rival's are (:mod:`agent.rivals.params`): unknown
keys and wrong types refused, every value finite and bounded, each error naming the key.

>>> VexbotParams(decay=1.0, prior_weight=0.0, bins=2).bins
2
>>> validated(VexbotParams, "vexbot", {"decay": 0.0})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
agent.rivals.params.RivalParamsError: vexbot: decay: expected greater than 0...
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from agent.rivals.params import validated

__all__ = ["VexbotParams", "validated"]


class VexbotParams(BaseModel):
    """``decay``: what an observation one hand older counts (1: no decay); ``prior_weight``:
    the observations the ``cfr`` prior is worth at each context; ``backoff``: ``m`` of the
    back-off weights ``1 - m ** n``; ``bins``: the showdown histograms' bins;
    ``temperature``: the root softmax's, in pots (0: the best action, ties split);
    ``runouts``: the turn-and-river pairs the flop's strengths average over; ``model``: a
    model file to start from; ``save``: write the learned model into the bot's directory at
    the end of each block; ``trace``: write a decision trace there."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, allow_inf_nan=False)

    decay: Annotated[float, Field(gt=0.0, le=1.0)] = 0.999
    prior_weight: Annotated[float, Field(ge=0.0, le=1e6)] = 5.0
    backoff: Annotated[float, Field(gt=0.0, lt=1.0)] = 0.95
    bins: Annotated[int, Field(ge=2, le=64)] = 16
    temperature: Annotated[float, Field(ge=0.0, le=10.0)] = 0.02
    runouts: Annotated[int, Field(ge=1, le=1081)] = 150
    model: Annotated[str, Field(min_length=1, max_length=4096)] | None = None
    save: bool = False
    trace: bool = False
