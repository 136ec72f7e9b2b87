"""VERS physical conflict (Variable Environment Roleplay System, CC BY-SA): popcorn turns,
zones and engagement, condition ladders, breakable objects and chases."""

from fracas.rulesets.vers.ruleset import Vers

__all__ = ["Vers"]
