"""Streamlit widgets shared by the three training pages: corpus picker, cached training with a
progress bar, the step timeline (slider, previous/next, play), classroom panel, save and export.

Like ``st_common`` this module imports streamlit; the logic it shows lives in the pure modules
(``training``, ``classroom``, ``train_figures``, ``train_html``). Every widget key starts with
the page's prefix (``tb_``, ``tw_``, ``tu_``) and the settings are bound to the URL, so a link
carries the corpus choice, the settings and the current step.

Left out: page layout (the page files).
"""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from . import classroom, html, st_common, train_html, training
from .markdown import md_text
from .tokens import build_view
from .training.defaults import UnigramDefaults, base_vocab, default_vocab, unigram_defaults_for, unigram_floor

SHARE_TEXT_LIMIT = 600  # pasted corpora longer than this are not put in the link
PLAY_SECONDS = 1.5


def page_setup() -> None:
    st_common.page_setup()
    st.html(train_html.style_block())


# ----------------------------------------------------------------------------- corpus
def corpus_picker(prefix: str, *, default: str = "classic") -> training.Corpus | None:
    """Corpus choice (bound to the URL), a paste box or an uploader; ``None`` until there is text."""
    choice = st.selectbox("Corpus", training.CORPUS_CHOICES, index=training.CORPUS_CHOICES.index(default),
                          format_func=training.CORPUS_LABELS.get, key=f"{prefix}_corpus", bind="query-params")
    try:
        if choice in training.BUILTIN_CORPORA:
            return training.builtin_corpus(choice)
        if choice == "paste":
            key = f"{prefix}_text"
            if key not in st.session_state:
                st.session_state[key] = st.query_params.get(key, "hug pug pun bun hugs\nhug hug pun pun")
            text = st.text_area("Training text", key=key, height=150,
                                help=f"One line per sentence, up to {training.MAX_CORPUS_BYTES // 2**20} MB.")
            if len(text) <= SHARE_TEXT_LIMIT:
                st.query_params[key] = text
            else:
                st.query_params.pop(key, None)
            return training.text_corpus(text)  # an empty box is an error that says what to do
        return uploaded_corpus(prefix)
    except (ValueError, OSError) as exc:
        st_common.show_error(exc)
        return None


KEPT_UPLOADS = 4  # corpora of up to 2 MB each kept per session


def uploaded_corpus(prefix: str) -> training.Corpus | None:
    """The uploader, then a choice among the corpora uploaded in this session (newest selected on upload).

    The uploader forgets its file as soon as another corpus is chosen (it is no longer drawn), so every corpus read
    from it is kept in the session: choosing "Uploaded file" again, here or on another training page, offers it.
    """
    st_common.init_state()
    kept = st.session_state[st_common.UPLOADED_CORPORA]
    upload = st.file_uploader(f"Corpus file (.txt, or .json word counts; up to "
                              f"{training.MAX_CORPUS_BYTES // 2**20} MB)", type=["txt", "json"],
                              key=f"{prefix}_upload")
    pick = f"{prefix}_upload_pick"
    seen = f"{prefix}_upload_seen"
    if upload is not None and st.session_state.get(seen) != upload.file_id:  # new in the uploader: read, use it
        corpus = training.upload_corpus(upload.name, upload.getvalue())  # a bad file: its error, nothing kept
        st.session_state[seen] = upload.file_id
        kept.pop(corpus.key, None)  # then put back last: the newest
        kept[corpus.key] = corpus
        for old in list(kept)[:-KEPT_UPLOADS]:
            del kept[old]
        st.session_state[pick] = corpus.key
    if not kept:
        st.info("Upload a text file to train on it.")
        return None
    if st.session_state.get(pick) not in kept:
        st.session_state[pick] = next(reversed(kept))
    chosen = st.selectbox("Uploaded corpus to train on", list(reversed(kept)), key=pick, persist_state="session",
                          format_func=lambda k: f"{kept[k].label.removeprefix('Uploaded: ')} ({kept[k].summary()})",
                          help=f"The last {KEPT_UPLOADS} corpus files uploaded in this session, on any training "
                               "page; they stay here when you switch to another corpus and back.")
    return kept[chosen]


# ----------------------------------------------------------------------------- vocabulary size
@st.cache_data(show_spinner=False, max_entries=64)
def _sizes(run_key: str, family: str, pre_tokenizer: str, byte_level: bool, _corpus: training.Corpus) -> tuple[int, int]:
    """(base vocabulary, default size) for a corpus, cached by its plain-string key."""
    words = training.word_counts(_corpus, "byte_level" if byte_level else pre_tokenizer)
    return (base_vocab(family, words, byte_level=byte_level),
            default_vocab(family, _corpus, byte_level=byte_level, pre_tokenizer=pre_tokenizer))


def vocab_input(prefix: str, family: str, corpus: training.Corpus, *, pre_tokenizer: str,
                byte_level: bool = False) -> int:
    """The vocabulary-size control, starting above this corpus's alphabet (and saying so beside it).

    A new corpus, symbol level or pre-tokenizer sets the size back to that corpus's default, unless the
    person typed a size since (see ``st_common.settings_to_reset``); a link's size wins on the first run.
    """
    key, note_key = f"{prefix}_vocab", f"{prefix}_vocab_origin"
    base, default = _sizes(f"{corpus.key}|{family}|{pre_tokenizer}|{int(byte_level)}", family, pre_tokenizer,
                           byte_level, corpus)
    origin = f"{corpus.key}|{pre_tokenizer}|{int(byte_level)}"
    from_link = key not in st.session_state and key in st.query_params and note_key not in st.session_state
    if not from_link and st_common.settings_to_reset(note_key, origin, (key,)):
        st.session_state[key] = default
    size = st.number_input("Vocabulary size", 2, 100_000, key=key, bind="query-params",
                           help="Counts everything: [UNK], the alphabet and one token per merge.")
    st_common.note_settings(note_key, origin, (key,))
    what = "256 byte symbols" if byte_level else (f"{base - 1} symbols + [UNK]" if family == "bpe" else
                                                  f"{base - 1} characters and ## variants + [UNK]")
    st.caption(f"This corpus starts with {base} tokens ({what}): merges begin above {base}. "
               f"Default here: {default}.")
    if size <= base:
        st.warning(f"{size} tokens cannot hold more than the {base} starting tokens: no merge will be learned. "
                   f"Raise the size above {base}.", icon=":material/warning:")
    return int(size)


@st.cache_data(show_spinner=False, max_entries=64)
def _unigram_start(corpus_key: str, _corpus: training.Corpus) -> UnigramDefaults:
    return unigram_defaults_for(_corpus)


@st.cache_data(show_spinner=False, max_entries=64)
def _unigram_floor(corpus_key: str, pre_tokenizer: str, _corpus: training.Corpus) -> int:
    return unigram_floor(training.word_counts(_corpus, pre_tokenizer))


def unigram_start(corpus: training.Corpus) -> UnigramDefaults:
    """The Unigram page's starting settings for this corpus (above its alphabet), cached by its key."""
    return _unigram_start(corpus.key, corpus)


def unigram_size_ok(corpus: training.Corpus, pre_tokenizer: str, vocab_size: int) -> bool:
    """Say (in the sidebar) how small the vocabulary may be; ``False`` with an ``st.error`` when it is smaller."""
    floor = _unigram_floor(corpus.key, pre_tokenizer, corpus)
    st.sidebar.caption(f"This corpus has {floor - 1} characters; every one stays in the vocabulary, with [UNK]: "
                       f"at least {floor} tokens.")
    if vocab_size < floor:
        st.error(f"A vocabulary of {vocab_size} cannot hold the {floor - 1} characters of this corpus plus [UNK]: "
                 f"raise the vocabulary size to {floor} or more.", icon=":material/error:")
        return False
    return True


# ----------------------------------------------------------------------------- training
@st.cache_data(show_spinner=False, max_entries=24)
def _cached_run(run_key: str, _corpus: training.Corpus, _settings: training.Settings) -> training.TrainRun:
    # The progress bar is created inside the cached function so that a cache hit replays it
    # (created, then emptied) instead of pointing at an element of another run.
    slot = st.empty()
    bar = slot.progress(0.0, text="Training…")
    seen = {"last": -1.0}

    def progress(done: int, total: int, what: str) -> None:
        frac = min(1.0, done / total) if total else 0.0
        if frac - seen["last"] >= 0.05 or frac >= 1.0:
            seen["last"] = frac
            bar.progress(frac, text=f"Training: {what} {done}/{total}")

    run = training.train(_corpus, _settings, progress=progress)
    slot.empty()
    return run


def train(corpus: training.Corpus, settings: training.Settings) -> training.TrainRun | None:
    """The run for these settings, trained once per server (cached by plain strings); errors shown."""
    try:
        return _cached_run(training.run_key(corpus, settings), corpus, settings)
    except (ValueError, TypeError) as exc:
        st_common.show_error(exc)
        return None


# ----------------------------------------------------------------------------- the timeline
def _shift(key: str, delta: int, n: int) -> None:
    st.session_state[key] = max(0, min(n, int(st.session_state.get(key, 0)) + delta))


def step_controls(prefix: str, n: int, *, label: str = "merges applied", default: int = 1) -> int:
    """A step slider bound to the URL (``<prefix>_step``), previous/next buttons and a play toggle."""
    key = f"{prefix}_step"
    if n <= 0:
        st.caption("No step to show: the trainer stopped before the first one.")
        return 0
    if key not in st.session_state:
        # First run: the link's step if it has one, else the default (set here, not as the
        # widget's value, since the buttons below also write the step through session state).
        try:
            start = int(st.query_params.get(key, default))
        except ValueError:
            start = default
        st.session_state[key] = start
    st.session_state[key] = max(0, min(n, int(st.session_state[key])))
    cols = st.columns([6, 1, 1, 1.2])
    with cols[0]:
        step = st.slider(label, 0, n, key=key, bind="query-params")
    cols[1].button("◀ Previous", key=f"{prefix}_prev", on_click=_shift, args=(key, -1, n), disabled=step <= 0,
                   width="stretch")
    cols[2].button("Next ▶", key=f"{prefix}_next", on_click=_shift, args=(key, 1, n), disabled=step >= n,
                   width="stretch")
    playing = cols[3].toggle("Play", key=f"{prefix}_play", help=f"Advance one step every {PLAY_SECONDS} s.")
    if playing and step < n:
        _ticker(key, n)
    return step


def _ticker(key: str, n: int) -> None:
    armed = f"{key}_armed"
    st.session_state[armed] = False  # the run that draws the ticker must not advance

    @st.fragment(run_every=PLAY_SECONDS)
    def tick():
        if st.session_state.get(armed):
            _shift(key, 1, n)
            st.rerun(scope="app")
        st.session_state[armed] = True

    tick()


# ----------------------------------------------------------------------------- classroom
def classroom_state(prefix: str, total: int, mode: str) -> classroom.Classroom:
    """This page's classroom, restarted when the run or the mode changes."""
    key = f"{prefix}_classroom"
    state = st.session_state.get(key)
    if not isinstance(state, classroom.Classroom) or state.total != total or state.mode != mode:
        state = classroom.start(total, mode=mode)
        st.session_state[key] = state
    return state


def classroom_panel(prefix: str, state: classroom.Classroom, answer: classroom.Answer | None,
                    what: str = "merge") -> classroom.Classroom:
    """Guess box, reveal and next buttons; returns the (possibly updated) state."""
    key = f"{prefix}_classroom"
    box = st.container(border=True)
    score = box.empty()  # filled last: a guess made in this run counts already
    score.markdown(f"**Classroom** · score **{state.score} / {state.asked}**")
    if state.finished or answer is None:
        box.success("Every step has been revealed. Turn classroom mode off to browse the timeline.")
        return state
    box.caption(classroom.MODES[state.mode])
    if not state.revealed:
        box.markdown(f":material/visibility_off: **{what.capitalize()} {state.hidden_step} is hidden.** "
                     "Work it out from what you see, then guess.")
        with box.form(f"{prefix}_guess_form", clear_on_submit=True, border=False):
            guess = st.text_input("Your guess", key=f"{prefix}_guess")
            c1, c2 = st.columns(2)
            check = c1.form_submit_button("Check my guess", width="stretch")
            show = c2.form_submit_button("Reveal", width="stretch")
        if check and guess.strip():
            state = classroom.submit(state, guess, answer)
        elif show or check:
            state = classroom.reveal(state)
        st.session_state[key] = state
        if not state.revealed:
            return state
        score.markdown(f"**Classroom** · score **{state.score} / {state.asked}**")
    if state.correct is True:
        box.success(f"Right! {what.capitalize()} {state.hidden_step}: {md_text(answer.shown)}")
    elif state.correct is False:
        box.error(f"Not quite (you said “{md_text(state.guess)}”). {what.capitalize()} {state.hidden_step}: "
                  f"{md_text(answer.shown)}")
    else:
        box.info(f"Revealed: {what} {state.hidden_step}: {md_text(answer.shown)}")

    def _advance():
        st.session_state[key] = classroom.advance(st.session_state[key])

    box.button(f"Apply it and hide {what} {state.hidden_step + 1}" if state.hidden_step < state.total
               else "Apply it", key=f"{prefix}_advance", on_click=_advance)
    return state


# ----------------------------------------------------------------------------- save and export
def save_and_export(prefix: str, tokenizer, default_name: str) -> None:
    """Name the trained tokenizer and keep it for this session (every page offers it), or download it."""
    with st.expander("Save or export this vocabulary", expanded=False):
        name = st.text_input("Name", value=default_name, key=f"{prefix}_save_name", max_chars=80)
        if st.button("Save for this session", key=f"{prefix}_save"):
            label = f"Trained: {name}"
            done = st_common.save_session_tokenizer(label, tokenizer, description=f"trained on the {prefix[1:]} page")
            if done == "same":
                st.info(f"“{md_text(label)}” is already saved.")
            else:
                st.success(f"Saved as “{md_text(label)}”: every page's tokenizer list now offers it"
                           + (" (it replaces the one saved under that name)." if done == "replaced" else "."))
        c1, c2 = st.columns(2)
        safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name) or "tokenizer"
        try:
            c1.download_button("tokcore JSON", json.dumps(tokenizer.to_dict(), ensure_ascii=False, indent=1),
                               file_name=f"{safe}.tokcore.json", mime="application/json", key=f"{prefix}_dl_tokcore",
                               on_click="ignore")
            c2.download_button("HF tokenizer.json", json.dumps(tokenizer.to_hf_dict(), ensure_ascii=False, indent=1),
                               file_name=f"{safe}.tokenizer.json", mime="application/json", key=f"{prefix}_dl_hf",
                               on_click="ignore")
        except (ValueError, TypeError) as exc:
            st_common.show_error(exc)


# ----------------------------------------------------------------------------- merge-based pages
def run_metrics(run: training.TrainRun, corpus: training.Corpus) -> None:
    n = len(run.steps)
    replay = run.replay
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Corpus", f"{len(run.words)} words", help=corpus.summary())
    c2.metric("Merges learned", n)
    c3.metric("Vocabulary", run.tokenizer.vocab_size, help=f"stopped: {run.result.details.get('stop_reason')}")
    c4.metric("Tokens per word", f"{replay.tokens_per_word(n):.2f}",
              f"{replay.tokens_per_word(n) - replay.tokens_per_word(0):+.2f}", delta_color="inverse",
              help="After every merge, against the characters alone.")
    note = training.early_stop_note(run)
    if note:
        st.info(note, icon=":material/info:")


def held_out_input(prefix: str, corpus: training.Corpus) -> str:
    """The held-out sentence box: it follows the corpus (its own sentence, never the previous corpus's) unless
    the user typed a sentence of their own, which is kept."""
    held = training.HELD_OUT.get(corpus.builtin_name, training.DEFAULT_HELD_OUT)
    key, shown_default = f"{prefix}_held", f"{prefix}_held_default"
    previous = st.session_state.get(shown_default)
    if previous != held:
        if st.session_state.get(key, previous) == previous:  # still the old corpus's sentence: replace it
            st.session_state[key] = held
        st.session_state[shown_default] = held
    return st.text_input("Held-out sentence (not in the corpus)", key=key)


def merge_step(prefix: str, run: training.TrainRun, held_out: str) -> tuple[int, bool]:
    """Classroom toggle, then either the classroom panel or the step controls.

    Returns (merges to show, whether the candidate table of the current step may be shown).
    """
    steps = run.steps
    mode_col, cls_col = st.columns([1, 3])
    if not mode_col.toggle("Classroom mode", key=f"{prefix}_class", help="Hide the next merge and guess it first."):
        return step_controls(prefix, len(steps)), True
    cmode = cls_col.radio("Guess", ["merge", "count"], key=f"{prefix}_cmode", horizontal=True,
                          format_func=lambda m: {"merge": "the next merge",
                                                 "count": "tokens of the held-out sentence"}[m])
    state = classroom_state(prefix, len(steps), cmode)
    answer = None
    if not state.finished:
        s = steps[state.step]
        answer = (classroom.merge_answer(s.left, s.right, s.merged) if cmode == "merge" else
                  classroom.count_answer(len(build_view(training.tokenizer_at(run, state.step + 1), held_out))))
    state = classroom_panel(prefix, state, answer)
    return classroom.visible_steps(state), state.revealed or state.finished


def words_and_held_out(run: training.TrainRun, k: int, held_out: str, *, how: str = "") -> None:
    """The tracked corpus words after ``k`` merges (newest token highlighted) and the held-out sentence."""
    current = run.steps[k - 1] if k else None
    st.markdown("**Corpus words now** (most frequent first; the newest token highlighted)")
    rows = [(w, c, run.replay.segmentation(w, k)) for w, c in training.tracked_words(run)]
    st.html(train_html.words_html(rows, current.merged if current is not None else None))
    if len(run.words) > len(rows):
        st.caption(f"{len(rows)} of {len(run.words)} distinct words shown.")
    st.markdown(f"**Held-out sentence with the vocabulary as of this step**{how}")
    try:
        view = build_view(training.tokenizer_at(run, k), held_out)
    except (ValueError, TypeError) as exc:
        st_common.show_error(exc)
        return
    st.html(html.tokens_html(view, show_ids=False))
    st.caption(f"{len(view)} tokens")


def merge_table(run: training.TrainRun, k: int) -> None:
    st.markdown("**Merge table**")
    rows = training.merge_table(run, k)
    if not rows:
        st.caption("No merge yet.")
        return
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", height=min(300, 35 * (len(rows) + 1) + 3),
                 column_config={"score": st.column_config.NumberColumn(format="%.5f")})
