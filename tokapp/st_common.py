"""What every page shares: state initialisation, cached tokenizers and encodings, common widgets.

The only tokapp module that imports streamlit. Session state keys start with ``tokapp_``;
widget keys start with the page's own prefix (``pg_`` for the Playground) so pages never
collide. Tokenizers are cached with ``st.cache_resource`` and encodings with
``st.cache_data``, both keyed by plain strings (``SampleSpec.cache_key``).

Left out: page layout (each page file) and anything pure (``tokapp.html``, ``tokapp.tokens``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import operator
import uuid

import streamlit as st

from . import colors, html, models, samples, share, tokens
from .markdown import md_text

SESSION_TOKENIZERS = "tokapp_session_tokenizers"  # key -> samples.SessionTokenizer
MODELS = "tokapp_models"  # names (hf:... / tiktoken:...) fetched in this session, in order
PALETTE = "tokapp_palette"
SHOW_IDS = "tokapp_show_ids"
UPLOADED_CORPORA = "tokapp_uploaded_corpora"  # corpus key -> training.Corpus uploaded in this session, newest last

STATE_DEFAULTS = {
    SESSION_TOKENIZERS: dict,
    MODELS: list,
    UPLOADED_CORPORA: dict,
    PALETTE: lambda: colors.DEFAULT_PALETTE,
    SHOW_IDS: lambda: True,
}

ERROR_TYPES = (ValueError, TypeError, KeyError, LookupError)
# What bad input (a text, a file, a name, a setting) makes tokcore and tokapp raise: tokcore's own errors are
# ValueError or TypeError subclasses (tokcore.core.errors), reading files adds OSError. Pages catch these and
# nothing wider, so a bug still shows its traceback instead of passing for the user's mistake.
INPUT_ERRORS = (ValueError, TypeError, OSError)


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
    """Built-ins, sample files, models loaded by name, then tokenizers trained or uploaded in this session."""
    entries = session_entries()
    fixed = samples.builtin_specs() + samples.file_specs()
    return fixed + [models.model_spec(n) for n in st.session_state[MODELS]] + samples.session_specs(entries)


def add_session_tokenizer(label: str, tokenizer, *, origin: str = "session", description: str = "",
                          key: str | None = None) -> str:
    """Keep ``tokenizer`` for this session (e.g. one just trained); returns its key for pickers.

    Keys are unique across sessions (cached results are shared by every session).
    """
    init_state()
    key = key or f"session:{uuid.uuid4().hex[:12]}"
    st.session_state[SESSION_TOKENIZERS][key] = samples.SessionTokenizer(key, label, tokenizer, origin, description)
    return key


def save_session_tokenizer(label: str, tokenizer, *, description: str = "") -> str:
    """Keep ``tokenizer`` under ``label``, one entry per label: ``"same"`` when an equal one is already there,
    ``"replaced"`` when another one had that label (it gets a new key: cached encodings are keyed by it), else
    ``"added"``. Saving twice never lists one name twice in the pickers."""
    init_state()
    entries = st.session_state[SESSION_TOKENIZERS]
    same = [k for k, e in entries.items() if e.label == label]
    if same and all(entries[k].tokenizer.to_dict() == tokenizer.to_dict() for k in same):
        return "same"
    for k in same:
        del entries[k]
    add_session_tokenizer(label, tokenizer, description=description)
    return "replaced" if same else "added"


@st.cache_resource(show_spinner="Loading tokenizer…", max_entries=32)
def _cached_tokenizer(cache_key: str, _spec: samples.SampleSpec):
    return _spec.load()


def load_tokenizer(spec: samples.SampleSpec):
    """The tokenizer behind ``spec``; built-ins and files are loaded once per server."""
    if spec.kind in ("session", "upload"):  # kept in this session's state, never shared
        return spec.load()
    return _cached_tokenizer(spec.cache_key, spec)


ROW_FIELDS = tuple(f.name for f in dataclasses.fields(tokens.TokenRow))
_row_values = operator.attrgetter(*ROW_FIELDS)


@st.cache_data(show_spinner=False, max_entries=64)
def _cached_view(cache_key: str, text: str, split_special: bool, add_special_tokens: bool, padding: bool,
                 truncation: bool, _spec: samples.SampleSpec) -> tuple:
    """The view as plain tuples: st.cache_data pickles it on every read, and tuples pickle 5x faster than rows."""
    view = tokens.build_view(load_tokenizer(_spec), text, split_special=split_special,
                             add_special_tokens=add_special_tokens, padding=padding, truncation=truncation)
    return view.raw_text, view.view_text, view.split_special, [_row_values(r) for r in view.rows]


def token_view(spec: samples.SampleSpec, text: str, *, split_special: bool = False,
               add_special_tokens: bool = True, padding: bool = False, truncation: bool = True) -> tokens.TokenView:
    """``tokens.build_view`` for ``spec``, cached by (cache key, text, options); padding off unless asked."""
    raw, view_text, split, rows = _cached_view(spec.cache_key, text, split_special, add_special_tokens, padding,
                                               truncation, spec)
    row = tokens.TokenRow
    return tokens.TokenView(raw, view_text, tuple(row(*values) for values in rows), split)


LONG_TEXT_CHARS = 5_000  # texts this long may take over a second on a first view: say so while it runs


@contextlib.contextmanager
def long_work(n_chars: int, label: str, done: str | None = None):
    """``st.status`` around work on a long text (its label says what runs, then ``done``); nothing for a short one."""
    if n_chars < LONG_TEXT_CHARS:
        yield None
        return
    with st.status(label, expanded=False) as status:
        yield status
        status.update(label=done or f"Done: {n_chars:,} characters", state="complete")


# ---------------------------------------------------------------- widgets
def settings_to_reset(note_key: str, origin: str | None, keys: tuple[str, ...]) -> tuple[str, ...]:
    """The settings a new origin (a corpus, a symbol level, a language) sets back to its defaults.

    All of them on the first run; none while the origin is the one last noted; otherwise those whose
    value is still the one noted with the last origin. A run stopped halfway (the person acted again)
    loses its reset to the browser's old values, so they reset again; a value that differs from the
    noted one was typed since the change, and stays.
    """
    note = st.session_state.get(note_key)
    if note is None:
        return keys
    seen, values = note
    if seen == origin:
        return ()
    return tuple(k for k in keys if k not in st.session_state or st.session_state[k] == values.get(k))


def note_settings(note_key: str, origin: str | None, keys: tuple[str, ...]) -> None:
    """Note the origin the settings are set for, with their values: call it after their widgets."""
    st.session_state[note_key] = (origin, {k: st.session_state.get(k) for k in keys})


def tokenizer_picker(prefix: str, *, label: str = "Tokenizer", where=None, bind: bool = True) -> samples.SampleSpec:
    """A select box over every available tokenizer; returns the chosen spec. Key: ``<prefix>_tok``.

    With ``bind`` the choice travels in the link as the query parameter ``<prefix>_tok``.
    """
    where = where or st
    box = where.container()
    tokenizer_sources(prefix, where=where)
    specs = available_specs()
    by_key = {s.key: s for s in specs}
    key = f"{prefix}_tok"
    missing = f"{prefix}_tok_missing"  # (the name a link asked for, the key picked instead)
    if st.session_state.get(key) not in by_key:
        # First run (maybe from a shared link), or a stale choice such as another session's tokenizer.
        wanted = st.query_params.get(key) if bind else None
        fallback = samples.DEFAULT_KEY if samples.DEFAULT_KEY in by_key else next(iter(by_key))
        st.session_state[key] = wanted if wanted in by_key else fallback
        if wanted and wanted not in by_key:
            st.session_state[missing] = (wanted, fallback)
    chosen = box.selectbox(
        label,
        list(by_key),
        format_func=lambda k: by_key[k].label if k in by_key else k,
        key=key,
        help="Built-in samples, files in sample_vocabs/, and tokenizers trained or uploaded in this session.",
    )
    confirm_selection(prefix)
    if missing in st.session_state:
        wanted, fallback = st.session_state[missing]
        if chosen == fallback:  # said until the person picks a tokenizer of their own
            box.warning(f"The link names a tokenizer this session does not have ({md_text(wanted)}): showing "
                        f"“{md_text(by_key[fallback].label)}” instead. Uploaded or session-trained tokenizers "
                        "do not travel in links.", icon=":material/link_off:")
        else:
            del st.session_state[missing]
    if bind:
        st.query_params[key] = chosen
    spec = by_key.get(chosen) or next(iter(by_key.values()))
    if spec.description:
        box.caption(md_text(spec.description))  # file names and user-given names are user text
    return spec


def model_box(prefix: str, *, where=None) -> str | None:
    """"Model by name": a preset or a typed Hub/tiktoken name, fetched on "Load"; returns its key once loaded.

    Widget keys ``<prefix>_model_preset``, ``<prefix>_model_name``, ``<prefix>_model_load``.
    """
    where = where or st
    box = where.expander("Model by name (Hugging Face Hub, tiktoken)", icon=":material/cloud_download:")
    names = [p.name for p in models.PRESETS]
    labels = {p.name: f"{p.label} · {p.files}" for p in models.PRESETS}
    preset = box.selectbox("Preset", names, key=f"{prefix}_model_preset", format_func=lambda n: labels.get(n, n))
    typed = box.text_input("…or any name", key=f"{prefix}_model_name",
                           placeholder="gpt2, google-bert/bert-base-uncased, cl100k_base",
                           help="A Hub repository (OWNER/NAME) or a tiktoken encoding. Gated repositories need "
                                "HF_TOKEN; files are cached by huggingface_hub (HF_HUB_CACHE) and tiktoken "
                                "(TIKTOKEN_CACHE_DIR); HF_HUB_OFFLINE=1 uses the cache only.")
    if not box.button("Load", key=f"{prefix}_model_load", icon=":material/download:"):
        return None
    try:
        name = models.normalize_name(typed or preset)
        with box.status(f"Loading {name}…", expanded=False) as status:
            def progress(done: int, total: int, file: str) -> None:
                if file:
                    status.update(label=f"Downloading {file} ({done + 1} of {total})…")

            models.fetch(name, progress=progress)
            status.update(label=f"Reading {name}…")
            spec = models.model_spec(name)
            load_tokenizer(spec)
            status.update(label=f"Loaded {name}", state="complete")
    except INPUT_ERRORS as exc:  # the engine's message (offline, gated, not found), never a traceback
        show_error(exc, where=box)
        return None
    if name not in st.session_state[MODELS]:
        st.session_state[MODELS].append(name)
    return spec.key


def tokenizer_sources(prefix: str, *, multiple: bool = False, where=None) -> str | None:
    """The model-by-name box and the upload box; a tokenizer added by either is selected at once.

    Selection means ``<prefix>_tok`` (one tokenizer) or appending to ``<prefix>_toks`` (``multiple``);
    call this before the page's picker is drawn. Returns the key added on this run, if any.
    """
    init_state()
    where = where or st
    pending = st.session_state.get(f"{prefix}_pending")
    if pending:  # selected on a run that was cut short (e.g. by typing) before the picker showed it: again
        select_tokenizer(prefix, pending, multiple=multiple)
    added = model_box(prefix, where=where)
    with where.expander(f"Add a tokenizer file (up to {samples.MAX_UPLOAD_BYTES // 2**20} MiB)",
                        icon=":material/upload_file:"):
        uploaded = upload_widget(prefix)
    new_upload = uploaded and st.session_state.get(f"{prefix}_last_upload") != uploaded
    added = added or (uploaded if new_upload else None)
    if added:
        select_tokenizer(prefix, added, multiple=multiple)  # pending first: a cut-short run selects it again
    if new_upload:
        st.session_state[f"{prefix}_last_upload"] = uploaded
    return added


def select_tokenizer(prefix: str, key: str, *, multiple: bool = False) -> None:
    """Make ``key`` the page's chosen tokenizer (or one more of its chosen ones, up to four).

    The choice stays pending until the page's picker has been drawn with it (``confirm_selection``).
    """
    st.session_state[f"{prefix}_pending"] = key
    state_key = share.tokenizer_key(prefix, multiple=multiple)
    if not multiple:
        st.session_state[state_key] = key
        return
    chosen = list(st.session_state.get(state_key, []))
    if key not in chosen:
        st.session_state[state_key] = (chosen + [key])[-share.MAX_TOKENIZERS:]


def confirm_selection(prefix: str) -> None:
    """Call right after drawing the picker: a pending choice has now reached the browser."""
    st.session_state.pop(f"{prefix}_pending", None)


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
    except INPUT_ERRORS as exc:  # the engine's message, never a traceback
        show_error(exc, where=where)
        return None
    st.session_state[SESSION_TOKENIZERS][entry.key] = entry
    where.success(f"Loaded {md_text(upload.name)}: selected, and offered in every tokenizer list.")
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
