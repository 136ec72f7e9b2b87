"""A scenario built for the leak tests: a lurking character hidden from both players, a
GM-only skill and a fixed seed, each with a marker string that must never reach a player."""

from __future__ import annotations

SEED = "zqseed-7f3a9c"
#: Strings no player or public viewer may ever receive.
SECRETS = ("zqdora", "zqlurker", "zqgmskill", "zqsecret", SEED)

LURKING = """
ruleset = "etherscope"
title = "A lurker in the vault"
script = \"\"\"
ada: awareness successes=2
bruno: awareness successes=1
carl: awareness successes=1
zqdora: awareness successes=3
moves
\"\"\"

[settings]
time_scale = "tactical"
lurking = { zqdora = ["ada", "bruno"] }

[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
player = "alice"
stats = { physical = 10, ether = 10, society = 10, awareness = 2 }

[[participants]]
id = "bruno"
name = "Bruno"
kind = "pc"
player = "bob"
stats = { physical = 10, ether = 10, society = 10, awareness = 2 }

[[participants]]
id = "carl"
name = "Carl"
stats = { physical = 13, ether = 10, society = 10, awareness = 7, skills = { zqgmskill = 9 } }
gm_only = ["skills", "awareness"]

[[participants]]
id = "zqdora"
name = "Zqlurker Dora"
stats = { physical = 10, ether = 10, society = 10, awareness = 2 }
"""

#: GM commands wholly hidden from the players: no frame may reach them for any of these.
HIDDEN_COMMANDS = (
    "note 'zqsecret-note' visibility=gm",
    "roll 1d6 why=zqsecret-roll visibility=gm",
    "narrate 'zqsecret-narration' visibility=gm",
)
