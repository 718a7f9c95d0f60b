"""``vexbot``: adaptive game-tree search for heads-up limit hold'em (Billings, Davidson,
Schauenberg, Burch, Bowling, Holte, Schaeffer and Szafron, "Game-tree search with adaptation
in stochastic imperfect-information games", Computers and Games 2004), our Vexbot.

One concept per module:

* :mod:`.contexts`: the context tree (the betting tree without cards) and its back-off
  contexts;
* :mod:`.strength`: showdown strengths, histogram bins and our chance of beating them, the
  cards to come averaged;
* :mod:`.model`: the opponent model, decayed counts read through back-off to a prior;
* :mod:`.prior`: the prior from ``cfr``'s self-play (shipped data);
* :mod:`.search`: miximax over the remaining tree, a vector over holdings;
* :mod:`.params`: the parameters; :mod:`.storage`: the model on disk; :mod:`.trace`: the
  decision trace; :mod:`.bot`: the bot.
"""

from agent.rivals.vexbot.bot import GAME, VexbotBot

__all__ = ["GAME", "VexbotBot"]
