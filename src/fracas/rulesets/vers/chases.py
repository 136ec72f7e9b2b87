"""Decide for VERS: chases — pursuit, interposing and tracking on a scale (VR-CHASE-*)."""

from __future__ import annotations

from fracas.engine.commands import Command
from fracas.engine.components import Track
from fracas.engine.concealment import concealed_from
from fracas.engine.handlers import Decision
from fracas.engine.model import ConflictState, Kind
from fracas.engine.secrets import Modifier
from fracas.engine.words import possessive
from fracas.errors import IllegalCommand, InvalidInput
from fracas.rulesets.vers.decider import (
    HANDLERS,
    action,
    active,
    ext_of,
    name,
    own_mods,
    roll,
    start_if_needed,
    stat_mod,
)
from fracas.rulesets.vers.events import (
    ChaseAbandoned,
    ChaseInterpose,
    ChaseRoll,
    ChaseStage,
    ChaseStarted,
    ChaseTactics,
)
from fracas.rulesets.vers.state import Chase, ranks, skill_tn

#: Chase lengths a GM may pick for pursuit, in actions (VR-CHASE-2).
PURSUIT_LENGTHS = range(2, 7)


def pursuit_track(length: int, rule: str) -> Track:
    """A pursuit scale: 2 × ``length`` + 1 positions, starting at the centre; a length
    outside :data:`PURSUIT_LENGTHS` is refused under ``rule``."""
    if length not in PURSUIT_LENGTHS:
        raise InvalidInput(f"a chase length must be 2 to 6 actions, not {length}", rule=rule,
                           length=length)
    return Track.centred(length)


@HANDLERS.decides("chase")
def decide_chase(d: Decision, cmd: Command) -> None:
    """VR-CHASE-1/2/8: a chase between a hunter and a quarry (or a race for a prize)."""
    a = cmd.args
    if a["id"] in ext_of(d.state).chases:
        raise InvalidInput(f"there is already a chase {a['id']!r}", rule="VR-CHASE-1")
    hunter = active(d.state, a["hunter"], "VR-CHASE-1")
    quarry = active(d.state, a["quarry"], "VR-CHASE-1")
    if hunter.id == quarry.id:
        raise InvalidInput("a chase needs two different characters", rule="VR-CHASE-1")
    _refuse_second_scale(d.state, hunter.id, quarry.id)
    track = pursuit_track(a["length"], "VR-CHASE-2")
    if a.get("start") is not None:
        track.check_position(a["start"], "VR-CHASE-2")
        if a["start"] == track.length:  # the other end: there is nobody left to chase
            raise InvalidInput(
                f"start {a['start']} is the top of the scale, where the quarry has got away; "
                f"a chase starts at 1 to {track.length - 1}", rule="VR-CHASE-4")
        track.set(a["start"])
    roller = a.get("roller")
    if roller is None:
        pcs = [p.id for p in (hunter, quarry) if p.kind == Kind.PC.value]
        if len(pcs) != 1:
            raise InvalidInput("both or neither are player characters: name who rolls "
                               f"(roller={hunter.id} or roller={quarry.id})", rule="VR-CHASE-8")
        roller = pcs[0]
    if roller not in (hunter.id, quarry.id):
        raise InvalidInput(f"the roller must be {hunter.id} or {quarry.id}", rule="VR-CHASE-8")
    stage = "interpose" if a.get("prize") else a["stage"]
    start_if_needed(d)
    d.emit(ChaseStarted(id=a["id"], hunter=hunter.id, quarry=quarry.id, roller=roller,
                        stage=stage, length=a["length"], positions=track.length,
                        position=track.position, prize=a.get("prize") or ""))


def _refuse_second_scale(state: ConflictState, one: str, other: str) -> None:
    """VR-CHASE-8: one scale per hunter–quarry pair; a second while the first goes on (a
    chase started twice by mistake) is refused, naming the one that goes on."""
    pair = {one, other}
    for cid, chase in ext_of(state).chases.items():
        if {chase.hunter, chase.quarry} == pair and chase.stage not in ENDED:
            raise InvalidInput(
                f"{name(state, chase.hunter)} already hunts {name(state, chase.quarry)} in "
                f"chase {cid} ({chase.stage}): one scale per hunter and quarry; go on with "
                f"it, or 'abandon {cid}' first", rule="VR-CHASE-8", chase=cid)


def hidden_from(state: ConflictState, chase: Chase, pid: str | None) -> bool:
    """Whether one of the chase's two sides is concealed from ``pid``'s player: such a chase
    does not exist for them (none for the GM, ``pid`` None)."""
    return any(concealed_from(state, q, pid) for q in (chase.hunter, chase.quarry))


def _chase(d: Decision, cmd: Command, rule: str) -> Chase:
    cid = cmd.args["id"]
    chases = {c: v for c, v in ext_of(d.state).chases.items()
              if not hidden_from(d.state, v, cmd.actor)}
    chase = chases.get(cid)
    if chase is None:
        raise InvalidInput(f"no chase {cid!r} (chases: {', '.join(chases) or 'none'})",
                           rule=rule)
    return chase


#: The stages each GM verb follows, the stage it turns to, what that needs, and its rule:
#: the end of the scale (VR-CHASE-4/7), or events, at any position (VR-CHASE-1: the stages
#: "morph and change one into another depending on events").
STAGE_TURNS = {
    "track": (("escaped", "pursuit"), "tracking",
              "an escape at the top of the pursuit, or a pursuit in which the hunter loses "
              "sight of the quarry", "VR-CHASE-4"),
    "pursue": (("contact", "tracking"), "pursuit",
               "contact at 1, or a tracking in which the hunter sights the quarry again",
               "VR-CHASE-7"),
}


@HANDLERS.decides(*STAGE_TURNS)
def decide_stage(d: Decision, cmd: Command) -> None:
    """VR-CHASE-1/4/7: escaped, or a pursuit whose quarry is lost from sight → tracking;
    contact, or a tracking whose quarry is sighted → pursuit, on a scale the GM picks. The
    GM's tactics were imposed for the old stage's situation: they lapse (VR-CHASE-5)."""
    chase = _chase(d, cmd, "VR-CHASE-7")
    need, new, needs, rule = STAGE_TURNS[cmd.verb]
    if chase.stage not in need:
        raise IllegalCommand(f"chase {cmd.args['id']} is at stage {chase.stage}; {new} "
                             f"follows only {needs}", rule=rule)
    length = cmd.args.get("length") or chase.length
    track = pursuit_track(length, "VR-CHASE-7")
    d.emit(ChaseStage(id=cmd.args["id"], stage=new, length=length, positions=track.length,
                      position=track.position, lapsed=chase.tactics or None))


#: The stages at an end of a scale where nothing rolls until the GM turns the stage (or
#: abandons the chase): an escape at the top of a pursuit, contact at 1 of a tracking.
HALTED = frozenset({"escaped", "contact"})

#: The stages a chase ends in: a capture, an evasion (a quarry's successful interpose), a
#: quarry completely away, a prize won or lost (VR-CHASE-4..7), or one the GM abandons.
ENDED = frozenset({"captured", "evaded", "away", "won", "lost", "over"})


@HANDLERS.decides("abandon")
def decide_abandon(d: Decision, cmd: Command) -> None:
    """VR-CHASE-1: the GM ends a chase as events end it; its scale takes no more rolls, and
    tactics set for its next roll lapse (VR-CHASE-5)."""
    chase = _chase(d, cmd, "VR-CHASE-1")
    if chase.stage in ENDED:
        raise IllegalCommand(f"chase {cmd.args['id']} is already over ({chase.stage})",
                             rule="VR-CHASE-1")
    d.emit(ChaseAbandoned(id=cmd.args["id"], why=cmd.args.get("why") or None,
                          lapsed=chase.tactics or None))


def _chase_roller(d: Decision, cmd: Command, chase: Chase) -> str:
    actor = cmd.actor
    if actor is None or actor != chase.roller:
        raise IllegalCommand(f"{name(d.state, chase.roller)} makes the rolls of this chase, "
                             f"not {name(d.state, actor or 'gm')}", rule="VR-CHASE-8")
    active(d.state, chase.hunter, "VR-CHASE-1")
    active(d.state, chase.quarry, "VR-CHASE-1")
    return actor


@HANDLERS.decides("tactics")
def decide_tactics(d: Decision, cmd: Command) -> None:
    """VR-CHASE-5: the GM imposes a bonus or penalty for the tactics taken; the chase's next
    roll takes it (0 lifts it; a change of stage lets it lapse)."""
    chase = _chase(d, cmd, "VR-CHASE-5")
    cid, mod = cmd.args["id"], int(cmd.args["mod"])
    if chase.stage in ENDED:
        raise IllegalCommand(f"chase {cid} is over ({chase.stage}): no roll is left to take "
                             "tactics", rule="VR-CHASE-5")
    if chase.stage in HALTED:  # its next roll comes in a new stage, and they lapse with it
        turn = next(v for v, (stages, *_) in STAGE_TURNS.items() if chase.stage in stages)
        raise IllegalCommand(f"chase {cid} waits at stage {chase.stage} for the GM's '{turn} "
                             f"{cid}', and tactics lapse when the stage changes: set them "
                             "once it has turned", rule="VR-CHASE-5")
    if mod == 0 and chase.tactics == 0:
        raise IllegalCommand(f"chase {cid} has no tactics to lift: its next roll takes none",
                             rule="VR-CHASE-5")
    d.emit(ChaseTactics(id=cid, mod=mod, why=cmd.args.get("why") or None))


def _tactics(d: Decision, cmd: Command, chase: Chase) -> list[Modifier]:
    """The tactics the roll takes: those the GM set on the chase (``tactics``) and a ``mod=``
    the GM gives with the roll; a player's ``mod=`` is refused (VR-CHASE-5)."""
    mod = int(cmd.args.get("mod") or 0)
    if mod and not d.ctx.author.is_gm:
        raise IllegalCommand(
            "tactics are the GM's call: the GM imposes a bonus or penalty for them "
            f"('tactics {cmd.args['id']} -2 why=…'), and the chase's next roll takes it; "
            f"roll without mod= ('{cmd.actor}: {cmd.verb} {cmd.args['id']}')",
            rule="VR-CHASE-5")
    return tactics_mods(chase, mod)


def tactics_mods(chase: Chase, mod: int = 0) -> list[Modifier]:
    """The tactics modifier of the chase's next roll: the GM's pending ``tactics`` plus
    ``mod`` (none when they come to 0, VR-CHASE-5)."""
    total = chase.tactics + mod
    return [Modifier("tactics", total)] if total else []


def roll_of(state: ConflictState, chase: Chase, skill: str | None = None
            ) -> tuple[str, list[Modifier]]:
    """The skill the roller of ``chase`` rolls next and its modifiers but tactics: Athletics
    against the opponent's in a pursuit or an interpose (VR-CHASE-3, VR-CHASE-6); tracking, the
    hunter's best of Survival and Investigation (or ``skill``) against the quarry's Stealth,
    the quarry's Stealth against the hunter's best (VR-CHASE-7)."""
    actor = chase.roller
    me, opp = state.participants[actor], state.participants[chase.opponent]
    if chase.stage != "tracking":
        skill, opp_skill, opp_rank = "athletics", "athletics", ranks(opp, "athletics")
    elif chase.roller_is_hunter:
        skill = skill or max(("survival", "investigation"),
                             key=lambda s: skill_tn(state, me, s))
        opp_skill, opp_rank = "stealth", ranks(opp, "stealth")
    else:
        skill = "stealth"
        opp_skill = max(("survival", "investigation"), key=lambda s: ranks(opp, s))
        opp_rank = ranks(opp, opp_skill)
    return skill, [*own_mods(state, actor),
                   stat_mod(state, f"{possessive(opp.name)} {opp_skill.replace('_', ' ')}",
                            -opp_rank, (opp.id, "skills"))]


@HANDLERS.decides("run")
def decide_run(d: Decision, cmd: Command) -> None:
    """VR-CHASE-3/5/7: a pursuit roll (Athletics) or an hour of tracking."""
    chase = _chase(d, cmd, "VR-CHASE-3")
    actor = _chase_roller(d, cmd, chase)
    state = d.state
    if chase.stage not in ("pursuit", "tracking"):
        raise IllegalCommand(f"chase {cmd.args['id']} is at stage {chase.stage}; no more "
                             "chase rolls", rule="VR-CHASE-1")
    if chase.stage == "pursuit" and chase.track.position == 1:
        raise IllegalCommand("the chase is at position 1: the next roll is an interpose "
                             f"('{actor}: interpose {cmd.args['id']}')", rule="VR-CHASE-4")
    if cmd.args.get("skill") and (chase.stage != "tracking" or not chase.roller_is_hunter):
        raise InvalidInput(f"skill= picks the hunter's tracking skill; chase "
                           f"{cmd.args['id']} is at stage {chase.stage} and "
                           f"{name(state, actor)} rolls "
                           f"{'Athletics' if chase.stage == 'pursuit' else 'Stealth'}",
                           rule="VR-CHASE-7")
    tactics = _tactics(d, cmd, chase)
    spend = action(d, cmd, actor)
    hunting = chase.roller_is_hunter
    skill, mods = roll_of(state, chase, cmd.args.get("skill"))
    c = roll(d, actor, skill, [*mods, *tactics], cmd.args.get("dice"))
    step = (-1 if hunting else 1) * (1 if c.success else -1)
    before = chase.track.position
    after = min(max(1, before + step), chase.track.length)
    stage = chase.stage
    if chase.stage == "pursuit" and after == chase.track.length:
        stage = "escaped"
    elif chase.stage == "tracking" and after == chase.track.length:
        stage = "away"
    elif chase.stage == "tracking" and after == 1:
        stage = "contact"
    d.emit(ChaseRoll(id=cmd.args["id"], stage=chase.stage, check=c, from_=before, to=after,
                     new_stage=stage, why=cmd.args.get("why") or "", spend=spend,
                     hours=1 if chase.stage == "tracking" else 0, actor=actor))


@HANDLERS.decides("interpose")
def decide_interpose(d: Decision, cmd: Command) -> None:
    """VR-CHASE-6: capture, evade or seize the prize at position 1. Interposing is
    "resolved with an Athletics roll": a capture and an evasion both end the chase; a
    hunter's failure goes back to pursuit at 2."""
    chase = _chase(d, cmd, "VR-CHASE-6")
    actor = _chase_roller(d, cmd, chase)
    state = d.state
    if chase.stage == "pursuit" and chase.track.position != 1:
        raise IllegalCommand(f"the chase is at position {chase.track.position}; interposing "
                             "needs position 1", rule="VR-CHASE-4")
    if chase.stage not in ("pursuit", "interpose"):
        raise IllegalCommand(f"chase {cmd.args['id']} is at stage {chase.stage}; nothing "
                             "to interpose", rule="VR-CHASE-6")
    tactics = _tactics(d, cmd, chase)
    spend = action(d, cmd, actor)
    skill, mods = roll_of(state, chase)
    c = roll(d, actor, skill, [*mods, *tactics], cmd.args.get("dice"))
    before = chase.track.position
    after = before
    if chase.stage == "interpose":
        stage = "won" if c.success else "lost"
    elif chase.roller_is_hunter:  # the seed: success captures; a failure is our reading
        stage = "captured" if c.success else "pursuit"
        after = before if c.success else 2
    else:  # the seed: success "means they dodged or otherwise evade the hunter"
        stage = "evaded" if c.success else "captured"
    d.emit(ChaseInterpose(id=cmd.args["id"], check=c, from_=before, to=after,
                          new_stage=stage, why=cmd.args.get("why") or "", spend=spend,
                          actor=actor))
