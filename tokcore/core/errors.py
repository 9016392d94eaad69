"""Exceptions raised by tokcore.

Every error a caller can provoke with bad input is a ``ValueError`` or ``TypeError``
subclass whose message says what was wrong and what to do about it. Nothing here
covers internal bugs: those surface as ordinary exceptions.
"""

from __future__ import annotations


class TokcoreError(ValueError):
    """Base class of every input error tokcore raises on purpose."""


class OffsetsContractError(TokcoreError):
    """An offsets list breaks the offsets contract (see ``assert_offsets_contract``)."""


class InvalidTextError(TokcoreError):
    """The text is not valid Unicode (for example it holds a lone surrogate)."""


class TokenizerFileError(TokcoreError):
    """A tokenizer file is missing, malformed or of an unknown kind.

    The message names the file, where in it the problem is, and what to change.
    """

    def __init__(self, path: object, problem: str, *, where: str | None = None, fix: str | None = None):
        self.path = str(path)
        self.problem = problem
        self.where = where
        self.fix = fix
        parts = [f"{self.path}"]
        if where:
            parts[0] += f" ({where})"
        message = f"{parts[0]}: {problem}"
        if fix:  # the problem is a clause without a full stop: end its sentence before the fix starts
            message += f"{'' if problem.endswith(('.', '?', '!')) else '.'} {fix}"
        super().__init__(message)


class ConfigurationError(TokcoreError):
    """A component was built or called with options that cannot work together."""


class UnknownIdError(TokcoreError):
    """An id passed to ``decode`` or ``id_to_token`` is not in the vocabulary."""


class WrongTypeError(TypeError):
    """An argument has the wrong Python type; the message names the expected one."""


def check_text(text: object, *, name: str = "text") -> str:
    """Return ``text`` if it is a valid Unicode ``str``; raise otherwise.

    >>> check_text("abc")
    'abc'
    """
    if not isinstance(text, str):
        raise WrongTypeError(f"{name} must be a str, got {type(text).__name__}; pass text, not bytes or lists")
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidTextError(
                f"{name} is not valid Unicode: lone surrogate U+{ord(text[exc.start]):04X} at character "
                f"{exc.start} (0-based); decode your bytes with errors='replace' or remove it"
            ) from None
    return text
