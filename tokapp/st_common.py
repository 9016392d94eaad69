"""What every page shares: state initialisation, cached tokenizers and encodings, common widgets.

The only tokapp module that imports streamlit. Session state keys start with ``tokapp_``;
widget keys start with the page's own prefix (``pg_`` for the Playground) so pages never
collide. Tokenizers are cached with ``st.cache_resource`` and encodings with
``st.cache_data``, both keyed by plain strings (``SampleSpec.cache_key``).

Left out: page layout (each page file) and anything pure (``tokapp.html``, ``tokapp.tokens``).
"""

from __future__ import annotations

import uuid

import streamlit as st

from . import colors, html, samples, tokens

SESSION_TOKENIZERS = "tokapp_session_tokenizers"  # key -> samples.SessionTokenizer
PALETTE = "tokapp_palette"
SHOW_IDS = "tokapp_show_ids"

STATE_DEFAULTS = {
    SESSION_TOKENIZERS: dict,
    PALETTE: lambda: colors.DEFAULT_PALETTE,
    SHOW_IDS: lambda: True,
}

ERROR_TYPES = (ValueError, TypeError, KeyError, LookupError)


def init_state() -> None:
    """Create every shared session-state entry once; safe to call on every run of every page."""
    for key, make in STATE_DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = make()


def page_setup() -> None:
    """Call first on every page: state, and the CSS of the token strips."""
    init_state()
    st.html(html.style_block())


# ---------------------------------------------------------------- tokenizers
def session_entries() -> list[samples.SessionTokenizer]:
    init_state()
    return list(st.session_state[SESSION_TOKENIZERS].values())


def available_specs() -> list[samples.SampleSpec]:
    """Built-ins, sample files, then tokenizers trained or uploaded in this session."""
    return samples.all_specs(session_entries())


def add_session_tokenizer(label: str, tokenizer, *, origin: str = "session", description: str = "",
                          key: str | None = None) -> str:
    """Keep ``tokenizer`` for this session (e.g. one just trained); returns its key for pickers.

    Keys are unique across sessions (cached results are shared by every session).
    """
    init_state()
    key = key or f"session:{uuid.uuid4().hex[:12]}"
    st.session_state[SESSION_TOKENIZERS][key] = samples.SessionTokenizer(key, label, tokenizer, origin, description)
    return key


@st.cache_resource(show_spinner="Loading tokenizer…", max_entries=32)
def _cached_tokenizer(cache_key: str, _spec: samples.SampleSpec):
    return _spec.load()


def load_tokenizer(spec: samples.SampleSpec):
    """The tokenizer behind ``spec``; built-ins and files are loaded once per server."""
    if spec.kind in ("session", "upload"):
        return spec.load()
    return _cached_tokenizer(spec.cache_key, spec)


@st.cache_data(show_spinner=False, max_entries=512)
def _cached_view(cache_key: str, text: str, split_special: bool, add_special_tokens: bool, padding: bool,
                 _spec: samples.SampleSpec) -> tokens.TokenView:
    return tokens.build_view(load_tokenizer(_spec), text, split_special=split_special,
                             add_special_tokens=add_special_tokens, padding=padding)


def token_view(spec: samples.SampleSpec, text: str, *, split_special: bool = False,
               add_special_tokens: bool = True, padding: bool = False) -> tokens.TokenView:
    """``tokens.build_view`` for ``spec``, cached by (cache key, text, options); padding off unless asked."""
    return _cached_view(spec.cache_key, text, split_special, add_special_tokens, padding, spec)


# ---------------------------------------------------------------- widgets
def tokenizer_picker(prefix: str, *, label: str = "Tokenizer", where=None, bind: bool = True) -> samples.SampleSpec:
    """A select box over every available tokenizer; returns the chosen spec. Key: ``<prefix>_tok``.

    With ``bind`` the choice travels in the link as the query parameter ``<prefix>_tok``.
    """
    where = where or st
    specs = available_specs()
    by_key = {s.key: s for s in specs}
    key = f"{prefix}_tok"
    if st.session_state.get(key) not in by_key:
        # First run (maybe from a shared link), or a stale choice such as another session's tokenizer.
        wanted = st.query_params.get(key) if bind else None
        st.session_state[key] = wanted if wanted in by_key else (
            samples.DEFAULT_KEY if samples.DEFAULT_KEY in by_key else next(iter(by_key)))
    chosen = where.selectbox(
        label,
        list(by_key),
        format_func=lambda k: by_key[k].label if k in by_key else k,
        key=key,
        help="Built-in samples, files in sample_vocabs/, and tokenizers trained or uploaded in this session.",
    )
    if bind:
        st.query_params[key] = chosen
    spec = by_key.get(chosen) or next(iter(by_key.values()))
    if spec.description:
        where.caption(spec.description)
    return spec


def upload_widget(prefix: str, *, where=None) -> str | None:
    """A file uploader that adds the tokenizer to this session; returns its key once loaded."""
    where = where or st
    limit = samples.MAX_UPLOAD_BYTES // 2**20
    upload = where.file_uploader(
        f"Add a tokenizer file (up to {limit} MiB)",
        key=f"{prefix}_upload",
        help="tokenizer.json, tokcore JSON, or any format tokcore.load reads.",
    )
    if upload is None:
        return None
    data = upload.getvalue()
    key = samples.upload_key(data)
    if key in st.session_state[SESSION_TOKENIZERS]:
        return key
    try:
        entry = samples.load_uploaded(upload.name, data)
    except Exception as exc:  # the engine's message, never a traceback
        show_error(exc, where=where)
        return None
    st.session_state[SESSION_TOKENIZERS][entry.key] = entry
    where.success(f"Loaded {upload.name}: pick it in the tokenizer list.")
    return entry.key


def display_options(*, where=None) -> tuple[str, bool]:
    """Palette and "show ids" controls, shared by every page through session state."""
    where = where or st
    palette = where.selectbox("Colours", list(colors.PALETTES), key=PALETTE, persist_state="session")
    show_ids = where.toggle("Show ids under tokens", key=SHOW_IDS, persist_state="session")
    return palette, show_ids


def error_message(exc: BaseException) -> str:
    """The engine's message for input errors; the type too for anything unexpected."""
    if isinstance(exc, ERROR_TYPES):
        return str(exc) or type(exc).__name__
    return f"Unexpected {type(exc).__name__}: {exc}"


def show_error(exc: BaseException, *, where=None) -> None:
    (where or st).error(error_message(exc), icon=":material/error:")
