"""The streamlit side of share links: seed widgets from ``st.query_params`` once, keep the URL current.

``tokapp.share`` does the encoding; this module only moves values between ``st.query_params``,
``st.session_state`` (the widgets' keys) and the page. A widget is seeded only when its key is
not in the session yet, so a link sets the first view and the person's own changes win after that.

Left out: widgets other than the tokenizer choosers (each page draws its own).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import streamlit as st

from . import samples, share
from .markdown import md_text


def current_params() -> dict[str, list[str]]:
    """Every query parameter with all its values (repeated keys keep every value)."""
    return {key: st.query_params.get_all(key) for key in st.query_params}


def seed(prefix: str, *, text_default: str | None, tokenizer_default: str | Sequence[str],
         known_tokenizers: Iterable[str], multiple: bool = False,
         schema: Iterable[share.Option] = ()) -> list[str]:
    """Put the link's values (or the defaults) into the widgets' session keys that are not set yet.

    Shows (``st.info``) and returns the notes about what the link asked for but this app cannot honour.
    """
    schema = list(schema)
    known = list(known_tokenizers)
    tok_key = share.tokenizer_key(prefix, multiple=multiple)
    keys = [share.option_key(prefix, o.name) for o in schema] + [tok_key]
    if text_default is not None:
        keys.append(share.text_key(prefix))
    if all(k in st.session_state for k in keys):
        return []
    state = share.decode_state(prefix, current_params(), known_tokenizers=known, multiple=multiple, schema=schema)
    if text_default is not None and share.text_key(prefix) not in st.session_state:
        st.session_state[share.text_key(prefix)] = state.text if state.text is not None else text_default
    if tok_key not in st.session_state:
        if multiple:
            chosen = state.tokenizers or [k for k in tokenizer_default if k in known]
            st.session_state[tok_key] = chosen
        else:
            chosen = state.tokenizers[0] if state.tokenizers else tokenizer_default
            st.session_state[tok_key] = chosen if chosen in known else (known[0] if known else chosen)
    for opt in schema:
        key = share.option_key(prefix, opt.name)
        if key not in st.session_state:
            st.session_state[key] = state.options.get(opt.name, opt.default)
    for note in state.notes:
        st.info(note, icon=":material/link:")
    return state.notes


def publish(prefix: str, params: Mapping[str, Any]) -> None:
    """Make the page's own query parameters (``<prefix>_...``) equal ``params``."""
    for key in list(st.query_params):
        if key.startswith(prefix + "_") and key not in params:
            del st.query_params[key]
    for key, value in params.items():
        want = list(value) if isinstance(value, (list, tuple)) else [str(value)]
        if st.query_params.get_all(key) != want:
            st.query_params[key] = want if isinstance(value, (list, tuple)) else str(value)


def share_box(params: Mapping[str, Any], *, note: str | None = None, where=None) -> str:
    """An expander with the link that reopens this view; returns the link."""
    where = where or st
    try:
        base = st.context.url or ""
    except Exception:  # no browser behind the script (tests)
        base = ""
    url = share.share_url(base, params) if base else "?" + share.query_string(params)
    with where.expander("Share this view", icon=":material/link:"):
        st.caption("The address bar always holds this link too: send it and the page reopens with the same text, "
                   "tokenizers and options. Uploaded or session-trained tokenizers do not travel.")
        st.code(url, language=None, wrap_lines=True)
        if note:
            st.caption(note)
    return url


def tokenizer_select(prefix: str, specs: Sequence[samples.SampleSpec], *, label: str = "Tokenizer",
                     where=None) -> samples.SampleSpec:
    """A select box over ``specs`` keyed ``<prefix>_tok`` (seed it first); a stale choice falls back."""
    where = where or st
    by_key = {s.key: s for s in specs}
    key = share.tokenizer_key(prefix)
    if st.session_state.get(key) not in by_key:
        st.session_state[key] = samples.DEFAULT_KEY if samples.DEFAULT_KEY in by_key else next(iter(by_key))
    chosen = where.selectbox(label, list(by_key), format_func=lambda k: by_key[k].label if k in by_key else k,
                             key=key, persist_state="session", help="Built-in samples, files in sample_vocabs/, and tokenizers trained or "
                                           "uploaded in this session.")
    st.session_state.pop(f"{prefix}_pending", None)  # a choice made by an upload or a model has been drawn
    spec = by_key[chosen]
    if spec.description:
        where.caption(md_text(spec.description))  # file names and user-given names are user text
    return spec


def tokenizer_multiselect(prefix: str, specs: Sequence[samples.SampleSpec], *, label: str = "Tokenizers",
                          where=None) -> list[samples.SampleSpec]:
    """A multiselect of up to ``share.MAX_TOKENIZERS`` tokenizers keyed ``<prefix>_toks`` (seed it first)."""
    where = where or st
    by_key = {s.key: s for s in specs}
    key = share.tokenizer_key(prefix, multiple=True)
    current = [k for k in st.session_state.get(key, []) if k in by_key][: share.MAX_TOKENIZERS]
    if current != st.session_state.get(key):
        st.session_state[key] = current
    chosen = where.multiselect(label, list(by_key), format_func=lambda k: by_key[k].label if k in by_key else k,
                               key=key, persist_state="session", max_selections=share.MAX_TOKENIZERS,
                               help=f"Two to {share.MAX_TOKENIZERS} tokenizers, compared on the same text.")
    st.session_state.pop(f"{prefix}_pending", None)  # a choice made by an upload or a model has been drawn
    return [by_key[k] for k in chosen if k in by_key]
