"""The one error family of fracas: typed sentences with a stable code.

Every error a user can cause is a :class:`FracasError`. Each carries a stable ``code``, the
offending ``values``, the ``rule`` ID that refused it (when a rule did) and a message a GM
understands. A rejected command changes nothing.
"""

from __future__ import annotations

from typing import Any


class FracasError(Exception):
    """Root of every error fracas raises on purpose."""

    code = "fracas_error"

    def __init__(self, message: str, *, rule: str | None = None, **values: Any) -> None:
        self.message = message
        self.rule = rule
        self.values = values
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.rule and self.rule not in self.message:
            return f"{self.message} ({self.rule})"
        return self.message

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of the error, for tools and the web client."""
        return {
            "code": self.code,
            "message": str(self),
            "rule": self.rule,
            "values": {k: _plain(v) for k, v in self.values.items()},
        }


def _plain(value: Any) -> Any:
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


class InvalidInput(FracasError):
    """Input from outside that is malformed: a bad command text, file, value or dice."""

    code = "invalid_input"


class IllegalCommand(FracasError):
    """A well-formed command that the rules forbid in the current state."""

    code = "illegal_command"


class ConflictExists(InvalidInput):
    """A conflict id that is already taken in the store."""

    code = "conflict_exists"


class NotYourTurn(IllegalCommand):
    """A command by a participant who is not the one acting now."""

    code = "not_your_turn"


class StaleVersion(FracasError):
    """An append that expected another version of the log: someone else wrote first."""

    code = "stale_version"


class NotAllowed(FracasError):
    """A viewer asked for something its role may not do or see."""

    code = "not_allowed"


class NotAuthenticated(NotAllowed):
    """A request without a valid token (missing, unknown or revoked)."""

    code = "not_authenticated"


class NotFound(FracasError):
    """A conflict, participant or other named thing that does not exist."""

    code = "not_found"


class RateLimited(FracasError):
    """Too many requests from one client (a token or an address) for now: retry later."""

    code = "rate_limited"


class InternalError(FracasError):
    """A bug in fracas (a ruleset's decide or evolve failed): the command was refused and
    nothing changed. Never expected; please report it with the command."""

    code = "internal_error"


def with_rule(error: FracasError, rule: str | None) -> FracasError:
    """``error`` citing ``rule`` when it cites none yet: a new error of the same type (an
    error is never changed after it was raised)."""
    if error.rule is not None or rule is None:
        return error
    again = type(error).__new__(type(error))
    FracasError.__init__(again, error.message, rule=rule, **error.values)
    return again


def located(error: FracasError, where: str) -> FracasError:
    """``error`` said where it happened (``FILE:LINE: 'command': …``): a new error of the same
    type, code and rule, with ``where`` among its values (an error is never changed after it
    was raised)."""
    again = type(error).__new__(type(error))
    FracasError.__init__(again, f"{where}: {error.message}", rule=error.rule,
                         **{**error.values, "where": where})
    return again
