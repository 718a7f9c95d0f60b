"""The opponent modeller: betting chains, action frequencies and weight arrays per opponent.

>>> from agent.modeller import OpponentModeller, ModellerParams, ChainAnswer
>>> OpponentModeller(ModellerParams(min_matches=10), mode="off").mode
'off'
"""

from agent.modeller.chains import ChainAnswer, EndingStats
from agent.modeller.errors import ModelFileError, ModellerError
from agent.modeller.model import OpponentModeller
from agent.modeller.params import ModellerParams

__all__ = ["ChainAnswer", "EndingStats", "ModelFileError", "ModellerError", "ModellerParams",
           "OpponentModeller"]
