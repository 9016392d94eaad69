"""Share links: a page's state as URL query parameters, and back, with nothing streamlit in here.

A link carries the text (only when it is at most ``TEXT_LIMIT`` characters: long texts would make
links that browsers and chat tools cut), the chosen tokenizer keys and the page's options. Every
parameter is named after the widget it restores (``<prefix>_text``, ``<prefix>_tok`` or
``<prefix>_toks``, ``<prefix>_<option>``), so a page seeds its widgets straight from the decoded
state. Decoding never trusts the URL: unknown tokenizer keys and invalid option values are dropped
with a note, and the page falls back to its defaults.

``encode_state(...)`` -> ``{"oi_text": "a🙂b", "oi_tok": "file:x.json", "oi_coords": "raw"}``;
``decode_state(prefix, params, ...)`` reads the same dict back (values may be lists, as
``st.query_params.to_dict()`` and ``urllib.parse.parse_qs`` give them).

Left out: reading or writing ``st.query_params`` (``tokapp.st_share``); uploaded and session-trained
tokenizers cannot travel in a link (their keys are dropped on the other side, with a note).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence
from urllib.parse import urlencode

TEXT_LIMIT = 1500  # characters; longer texts are left out of the link
MAX_TOKENIZERS = 4

Params = dict[str, "str | list[str]"]


@dataclass(frozen=True)
class Option:
    """One page option carried in links: its name, the values it accepts, its default.

    ``choices=(True, False)`` makes a switch, written ``"true"``/``"false"`` like Streamlit's own.
    """

    name: str
    choices: tuple
    default: Any

    def encode(self, value: Any) -> str:
        return ("true" if value else "false") if isinstance(value, bool) else str(value)

    def decode(self, raw: str) -> tuple[bool, Any]:
        """(valid, value). ``Option("x", (True, False), False).decode("true") == (True, True)``."""
        for choice in self.choices:
            if self.encode(choice) == raw:
                return True, choice
        return False, self.default


@dataclass
class SharedState:
    """What a link restores. ``None`` / empty means "not in the link: use the page default"."""

    text: str | None = None
    tokenizers: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def text_key(prefix: str) -> str:
    return f"{prefix}_text"


def tokenizer_key(prefix: str, *, multiple: bool = False) -> str:
    """``tokenizer_key("cmp", multiple=True) == "cmp_toks"``."""
    return f"{prefix}_toks" if multiple else f"{prefix}_tok"


def option_key(prefix: str, name: str) -> str:
    return f"{prefix}_{name}"


def text_fits(text: str) -> bool:
    """Whether ``text`` goes into a link. ``text_fits("x" * 1500) is True``."""
    return len(text) <= TEXT_LIMIT


def text_note(text: str) -> str | None:
    """Why the text is not in the link, or ``None`` when it is."""
    if text_fits(text):
        return None
    return (f"The text has {len(text):,} characters, over the {TEXT_LIMIT:,} a link carries: the link restores "
            f"the tokenizer and options, and the reader pastes the text.")


def link_note(text: str, specs: Sequence = ()) -> str | None:
    """What a link cannot carry (a text over ``TEXT_LIMIT``, uploaded or session-trained tokenizers), said in
    one sentence; ``None`` when it carries everything. ``link_note("hi") is None``
    """
    left_out = []
    if not text_fits(text):
        left_out.append(f"the text ({len(text):,} characters; a link carries {TEXT_LIMIT:,})")
    local = [s.label for s in specs if getattr(s, "kind", "") in ("session", "upload")]
    if local:
        left_out.append("the tokenizer" + ("s " if len(local) > 1 else " ")
                        + ", ".join(f"“{name}”" for name in local) + " (uploaded or trained in this session)")
    if not left_out:
        return None
    return "This link cannot carry " + " and ".join(left_out) + ": the reader gets the default."


def encode_state(
    prefix: str,
    *,
    text: str | None = None,
    tokenizers: str | Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    schema: Iterable[Option] = (),
) -> Params:
    """The query parameters of one page's state; options equal to their default are left out.

    ``encode_state("oi", text="ab", tokenizers="builtin:ascii-char")
    == {"oi_text": "ab", "oi_tok": "builtin:ascii-char"}``
    """
    params: Params = {}
    if text is not None and text_fits(text):
        params[text_key(prefix)] = text
    if isinstance(tokenizers, str):
        params[tokenizer_key(prefix)] = tokenizers
    elif tokenizers is not None:
        keys = list(dict.fromkeys(tokenizers))[:MAX_TOKENIZERS]
        if keys:
            params[tokenizer_key(prefix, multiple=True)] = keys
    by_name = {o.name: o for o in schema}
    for name, value in (options or {}).items():
        opt = by_name.get(name)
        if opt is not None and value == opt.default:
            continue
        params[option_key(prefix, name)] = opt.encode(value) if opt else str(value)
    return params


def _values(params: Mapping[str, Any], key: str) -> list[str]:
    value = params.get(key)
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value]
    return [str(value)]


def decode_state(
    prefix: str,
    params: Mapping[str, Any],
    *,
    known_tokenizers: Iterable[str] = (),
    multiple: bool = False,
    schema: Iterable[Option] = (),
) -> SharedState:
    """Read a page's state from query parameters, dropping what this app cannot honour (with a note).

    ``decode_state("oi", {"oi_tok": "nope"}, known_tokenizers=["a"]).tokenizers == []``
    """
    state = SharedState()
    texts = _values(params, text_key(prefix))
    if texts:
        text = texts[-1]
        if text_fits(text):
            state.text = text
        else:
            state.notes.append(f"The link's text was over {TEXT_LIMIT:,} characters and was ignored.")
    known = set(known_tokenizers)
    wanted = _values(params, tokenizer_key(prefix, multiple=multiple))
    if not multiple:
        wanted = wanted[-1:]
    for key in dict.fromkeys(wanted):
        if key in known:
            state.tokenizers.append(key)
        elif key.startswith(("upload:", "session:")):
            state.notes.append(f"The link names a tokenizer uploaded or trained in another session ({key}); "
                               "it is not available here, so the default is used.")
        else:
            state.notes.append(f"The link names an unknown tokenizer {key!r}; the default is used.")
    if len(state.tokenizers) > MAX_TOKENIZERS:
        state.tokenizers = state.tokenizers[:MAX_TOKENIZERS]
        state.notes.append(f"Only the first {MAX_TOKENIZERS} tokenizers of the link are used.")
    for opt in schema:
        raws = _values(params, option_key(prefix, opt.name))
        if not raws:
            continue
        ok, value = opt.decode(raws[-1])
        if ok:
            state.options[opt.name] = value
        else:
            state.notes.append(f"The link's value {raws[-1]!r} for {opt.name!r} is not one of the choices; "
                               "the default is used.")
    return state


def query_string(params: Mapping[str, Any]) -> str:
    """``params`` URL-encoded; list values repeat the key. ``query_string({"a": ["x", "y"]}) == "a=x&a=y"``."""
    return urlencode([(k, v) for k, vs in params.items() for v in (vs if isinstance(vs, (list, tuple)) else [vs])])


def share_url(base_url: str, params: Mapping[str, Any]) -> str:
    """``base_url`` (the page's address, no query) with ``params``. ``share_url("http://h/p", {"a": "1"})``
    is ``"http://h/p?a=1"``."""
    base = base_url.split("?", 1)[0].split("#", 1)[0]
    query = query_string(params)
    return f"{base}?{query}" if query else base
