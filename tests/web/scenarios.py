"""Small scenarios of each ruleset for the browser tests: two players' characters (Ada for
alice, Bruno for bob), a participant whose name is markup, GM-only values and, in Etherscope, a
character hidden from both players; every secret carries a marker that must never reach a
player's page."""

from __future__ import annotations

XSS = "<img src=x onerror=alert(1)>"
#: Strings no player's page may ever hold, in any channel.
SECRETS = ("zqlurker", "zqdora", "zqgmskill", "zqsecret", "3917", "2953")

ETHERSCOPE = f"""
ruleset = "etherscope"
title = "A lurker in the vault"
scene = "The vault under the bank; something moves in the dark."
script = \"\"\"
ada: awareness successes=2
bruno: awareness successes=1
imp: awareness successes=0
zqdora: awareness successes=3
moves
\"\"\"

[settings]
time_scale = "tactical"
lurking = {{ zqdora = ["ada", "bruno"] }}

[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
side = "crew"
player = "alice"
stats = {{ physical = 10, ether = 10, society = 10, awareness = 2, skills = {{ brawl = 2 }} }}

[[participants]]
id = "bruno"
name = "Bruno"
kind = "pc"
side = "crew"
player = "bob"
stats = {{ physical = 10, ether = 10, society = 10, awareness = 2 }}

[[participants]]
id = "imp"
name = "{XSS}"
side = "vault"
stats = {{ physical = 8, ether = 10, society = 10, awareness = 1, skills = {{ zqgmskill = 9 }} }}
gm_only = ["skills"]

[[participants]]
id = "zqdora"
name = "Zqlurker Dora"
side = "vault"
stats = {{ physical = 10, ether = 10, society = 10, awareness = 2 }}
"""

FABULA = f"""
ruleset = "fabula-ultima"
title = "Ambush at the ford"
sides = ["heroes", "bandits"]

[settings]
pc_side = "heroes"
foe_side = "bandits"

[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
side = "heroes"
player = "alice"
stats = {{ dex = 10, ins = 8, mig = 8, wlp = 8, hp = 45, mp = 40, ip = 6 }}

[[participants]]
id = "bruno"
name = "Bruno"
kind = "pc"
side = "heroes"
player = "bob"
stats = {{ dex = 8, ins = 8, mig = 10, wlp = 8, hp = 50, mp = 35, ip = 6 }}

[[participants]]
id = "imp"
name = "{XSS}"
side = "bandits"
gm_only = ["hp", "mp"]
stats = {{ dex = 8, ins = 8, mig = 8, wlp = 8, hp = 3917, mp = 2953 }}
"""

VERS = f"""
ruleset = "vers"
title = "Brawl at the ford inn"
sides = ["heroes", "toughs"]

[settings]
zones = [{{ id = "bar", name = "The bar" }}, {{ id = "floor", name = "Common room" }},
         {{ id = "door", name = "Front door" }}]
links = [["bar", "floor"]]

[[participants]]
id = "ada"
name = "Ada"
kind = "pc"
side = "heroes"
player = "alice"
[participants.stats]
strength = 2
agility = 2
zone = "floor"
skills = {{ close_combat = 3 }}
weapons = {{ sword = {{ ev = 5, kind = "close" }} }}

[[participants]]
id = "bruno"
name = "Bruno"
kind = "pc"
side = "heroes"
player = "bob"
[participants.stats]
agility = 3
zone = "floor"
skills = {{ athletics = 1 }}

[[participants]]
id = "imp"
name = "{XSS}"
side = "toughs"
gm_only = ["skills"]
[participants.stats]
strength = 2
zone = "floor"
skills = {{ close_combat = 2, zqgmskill = 9 }}
weapons = {{ club = {{ ev = 4, kind = "close" }} }}
"""

BY_RULESET = {"etherscope": ETHERSCOPE, "fabula-ultima": FABULA, "vers": VERS}


def crowd(count: int = 12) -> str:
    """A Fabula Ultima scenario of ``count`` participants with long names (alice plays one)."""
    people = []
    for i in range(count):
        side = "heroes" if i % 2 == 0 else "bandits"
        owner = 'kind = "pc"\nplayer = "alice"\n' if i == 0 else ""
        name = (f"Participant {i:02d} the Unpronounceably-Long-Named Wanderer "
                "of the Farthest Reaches")
        people.append(f"""
[[participants]]
id = "p{i:02d}"
name = "{name}"
side = "{side}"
{owner}stats = {{ dex = 8, ins = 8, mig = 8, wlp = 8, hp = 40, mp = 20 }}
""")
    return f"""
ruleset = "fabula-ultima"
title = "A crowd at the crossroads with a title long enough to wrap on any phone screen"
sides = ["heroes", "bandits"]

[settings]
pc_side = "heroes"
foe_side = "bandits"
{"".join(people)}"""


#: The eight players of a convention table, and their characters' names.
EIGHT = (("alice", "Ada"), ("bob", "Bruno"), ("carol", "Cora"), ("dave", "Dmitri"),
         ("erin", "Elsa"), ("frank", "Finn"), ("gina", "Greta"), ("hugo", "Hal"))


def vers_table_of_eight() -> str:
    """A VERS brawl at a convention table: eight players' characters and a thug, all nine in
    the common room, on the five zones of the bundled tavern."""
    people = [f"""
[[participants]]
id = "{name.lower()}"
name = "{name}"
kind = "pc"
side = "heroes"
player = "{player}"
[participants.stats]
strength = 2
agility = 2
zone = "floor"
skills = {{ close_combat = 3, athletics = 1 }}
weapons = {{ sword = {{ ev = 5, kind = "close" }} }}
""" for player, name in EIGHT]
    return f"""
ruleset = "vers"
title = "Brawl of the Eight"
sides = ["heroes", "toughs"]

[settings]
zones = [{{ id = "bar", name = "The bar" }}, {{ id = "floor", name = "Common room" }},
         {{ id = "stairs", name = "Stairs" }}, {{ id = "door", name = "Front door" }},
         {{ id = "street", name = "The street" }}]
links = [["bar", "floor"], ["floor", "stairs"], ["floor", "door"], ["door", "street"]]
{"".join(people)}
[[participants]]
id = "thug"
name = "Thug"
side = "toughs"
[participants.stats]
strength = 2
zone = "floor"
skills = {{ close_combat = 2 }}
weapons = {{ club = {{ ev = 4, kind = "close" }} }}
"""


def fabula_table_of_eight() -> str:
    """A Fabula Ultima ambush at a convention table: eight players' heroes against a captain
    and four cutthroats (the seed fixed: the same rolls every run)."""
    heroes = [f"""
[[participants]]
id = "{name.lower()}"
name = "{name}"
kind = "pc"
side = "heroes"
player = "{player}"
stats = {{ dex = 8, ins = 8, mig = 8, wlp = 8, hp = 40, mp = 30, ip = 6 }}
""" for player, name in EIGHT]
    foes = [f"""
[[participants]]
id = "{fid}"
name = "{name}"
side = "bandits"
stats = {{ dex = 8, ins = 8, mig = 8, wlp = 8, hp = 30, defense = 9 }}
""" for fid, name in (("captain", "Bandit Captain"), ("cut1", "Cutthroat 1"),
                      ("cut2", "Cutthroat 2"), ("cut3", "Cutthroat 3"), ("cut4", "Cutthroat 4"))]
    return f"""
ruleset = "fabula-ultima"
title = "Ambush of the Eight"
seed = "eight"
sides = ["heroes", "bandits"]

[settings]
pc_side = "heroes"
foe_side = "bandits"
{"".join(heroes)}{"".join(foes)}"""


def vers_crowded_brawl() -> str:
    """A crowded VERS brawl for the public screen: four heroes (two with long names) and six
    toughs (two cutthroats named alike at both ends, one lurker hidden from the players, GM-only
    stats) in five zones, with three objects and a guarded door."""
    def person(pid: str, name: str, side: str, zone: str, extra: str = "") -> str:
        return f"""
[[participants]]
id = "{pid}"
name = "{name}"
side = "{side}"
{extra}
[participants.stats]
strength = 2
agility = 2
zone = "{zone}"
skills = {{ close_combat = 2, athletics = 1, ranged_combat = 2 }}
weapons = {{ club = {{ ev = 4, kind = "close" }}, sling = {{ ev = 3, kind = "ranged" }} }}
"""
    people = [
        person("ada", "Ada", "heroes", "floor", 'kind = "pc"\nplayer = "alice"'),
        person("bruno", "Bruno", "heroes", "stairs", 'kind = "pc"\nplayer = "bob"'),
        person("thor", "Brother Thorbjorn Ironwhistle-Hammerfell", "heroes", "floor",
               'kind = "pc"\nplayer = "carol"'),
        person("ysolde", "Sister Ysolde of the Seven Lanterns", "heroes", "bar",
               'kind = "pc"\nplayer = "dave"'),
        person("thug", "Thug", "toughs", "floor", 'gm_only = ["skills"]'),
        person("mira", "Mira the knife", "toughs", "bar"),
        person("bouncer", "Bouncer", "toughs", "door", 'gm_only = ["weapons"]'),
        person("cutleft", "Cutthroat of the Left Alley", "toughs", "floor"),
        person("cutright", "Cutthroat of the Right Alley", "toughs", "door"),
        person("zqlurker", "Zqlurker in the rafters", "toughs", "stairs", "hidden = true"),
    ]
    return f"""
ruleset = "vers"
title = "The Great Brawl at the Drowned Rat"
sides = ["heroes", "toughs"]

[settings]
zones = [{{ id = "bar", name = "The bar" }}, {{ id = "floor", name = "Common room" }},
         {{ id = "stairs", name = "Stairs to the gallery" }},
         {{ id = "door", name = "Front door" }}, {{ id = "street", name = "The street" }}]
links = [["bar", "floor"], ["floor", "stairs"], ["floor", "door"], ["door", "street"]]
objects = [
  {{ id = "table", name = "Oak table", material = "wood", zone = "floor" }},
  {{ id = "counter", name = "Bar counter", material = "wood", slots = 2, zone = "bar" }},
  {{ id = "barrel", name = "Ale barrel", material = "wood", zone = "floor" }},
]
guards = [{{ who = "bouncer", between = ["door", "street"] }}]
cover = [{{ who = "mira", value = 3, object = "counter" }}]
{"".join(people)}"""


def etherscope_warehouse() -> str:
    """An Etherscope fight in a warehouse: six characters the players see (four of them the
    players') and a watcher hidden from every player's character, the start played (awareness,
    each one's awareness move), round 1 to begin: Bruno (11), Cora (10), Ada (12, declaring)
    and the heavy (9), the enforcer (8), Fenella (7) and the watcher (5)."""
    # id, name, player, physical (base initiative), awareness (each rolls every die a success)
    people = (("ada", "Ada Lovelace", "alice", 12, 6), ("bruno", "Bruno Marchetti", "bob", 11, 5),
              ("cora", "Cora Whitfield", "carol", 10, 4),
              ("dmitri", "Dmitri the Heavy", None, 9, 3),
              ("enforcer", "Syndicate Enforcer", None, 8, 2),
              ("fenella", "Fenella Crane", "frank", 7, 1),
              ("zqlurker", "Zqlurker the Watcher", None, 5, 7))
    script = [f"{pid}: awareness successes={aware}" for pid, *_, aware in people]
    # the awareness moves go from the most awareness successes down (the fewest makes none)
    script += ["moves"] + [f"{pid}: done" for pid, *_ in sorted(people, key=lambda p: -p[4])[:-1]]
    cast = "".join(f"""
[[participants]]
id = "{pid}"
name = "{name}"
{f'kind = "pc"{chr(10)}player = "{player}"' if player else ""}
stats = {{ physical = {physical}, ether = 8, society = 8, awareness = {aware} }}
""" for pid, name, player, physical, aware in people)
    return f"""
ruleset = "etherscope"
title = "The Salford warehouse"
script = '''
{chr(10).join(script)}
'''

[settings]
nature = "physical"
time_scale = "tactical"
range_scaling = "battlefield"
lurking = {{ zqlurker = ["ada", "bruno", "cora", "fenella"], ada = ["enforcer"] }}

[settings.groups]
crew = ["ada", "bruno", "cora"]
{cast}"""
