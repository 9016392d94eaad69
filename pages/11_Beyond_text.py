"""Beyond text: phoneme tokens for speech, REMI event tokens and BPE for symbolic music (MIDI)."""

import hashlib
import io

import pandas as pd
import streamlit as st

import tokcore
from tokapp import beyond_view as bv
from tokapp import colors, st_common, st_display
from tokcore.extras.music import RemiTokenizer
from tokcore.extras.music_bpe import train_event_bpe

P = "bt"  # widget key prefix of this page
TEXT_CAP = 2_000
UPLOAD = "Upload your own"
DEFAULT_TEXT = "The quick brown fox jumps over the lazy dog. Tokenizers zorble!"

st_common.page_setup()
st.html(bv.style_block())
st.title("Beyond text")
st.caption("Tokens need not be subwords: speech synthesis reads phonemes, symbolic-music models read events. "
           "Here both, with the same idea of spans and merges.")

with st.sidebar:  # only the palette: nothing here has ids to show
    palette = st.selectbox("Colours", list(colors.PALETTES), key=st_common.PALETTE, persist_state="session")


@st.cache_resource(show_spinner="Loading the CMU Pronouncing Dictionary (first time only, a few seconds)…")
def cmu_dictionary():
    from tokcore.extras.phonemes import cmu_dictionary as load

    return load()


@st.cache_data(show_spinner=False, max_entries=64)
def remi_events(digest: str, _data: bytes):
    """(REMI events, the score read from the file, quantized to the grid), keyed by the file's digest."""
    remi = RemiTokenizer()
    score = remi.score_from_midi(_data)
    return remi.encode(score), score


@st.cache_resource(show_spinner="Training BPE over the events…", max_entries=32)
def event_bpe(digests: tuple[str, ...], n_merges: int, _sequences: list[list[str]]):
    return train_event_bpe(_sequences, n_merges)


def digest_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


phon_tab, music_tab = st.tabs(["Phonemes", "Music (MIDI)"])

# ---------------------------------------------------------------- phonemes
with phon_tab:
    text = st.text_input("English text", value=DEFAULT_TEXT, key=f"{P}_text",
                         help=f"Up to {TEXT_CAP:,} characters are phonemized.")
    text = st_display.capped(text, TEXT_CAP)
    a, b = st.columns(2)
    stress = a.toggle("Stress marks (AH0, AE1…)", value=True, key=f"{P}_stress",
                      help="ARPAbet vowels carry 0 (no stress), 1 (primary) or 2 (secondary).")
    boundaries = b.toggle("Word boundaries as tokens (<w>)", value=True, key=f"{P}_boundaries")
    try:
        cmu_dictionary()
        ph_tokens, ph_words = tokcore.phonemize(text, stress=stress, boundaries=boundaries)
    except st_common.INPUT_ERRORS as exc:  # the engine's message as st.error, never a traceback
        st_common.show_error(exc)
    else:
        guessed = sum(1 for w in ph_words if not w.in_dictionary)
        c1, c2, c3, c4 = st.columns(4)
        c1.metric("Characters", len(text))
        c2.metric("Words", bv.spoken_count(ph_words), help="Words and numbers (numbers are spelled out). "
                  "Punctuation, emoji and symbols are shown, marked, but not said.")
        c3.metric("Phoneme tokens", len(ph_tokens))
        c4.metric("Guessed words", guessed, help="Not in the CMU dictionary: one rough phoneme per letter.")
        st.html(bv.phonemes_html(ph_tokens, ph_words, palette=palette))
        st.caption("Every phoneme token points at its whole word (contract byte span): phonemes do not map to "
                   "letters. Words outlined in red are not in the dictionary and were guessed letter by letter. Numbers are "
                   "spelled out; punctuation, emoji and symbols (dotted) have no pronunciation and say so.")
        with st.expander("Words and their phonemes"):
            st.dataframe(pd.DataFrame(bv.phoneme_records(ph_words)), hide_index=True, width="stretch")

# ---------------------------------------------------------------- music
with music_tab:
    samples = bv.midi_samples()
    left, right = st.columns([2, 1])
    source = left.radio("Piece", list(samples) + [UPLOAD], key=f"{P}_piece", horizontal=True)
    n_merges = right.slider("BPE merges", 0, 200, 20, step=5, key=f"{P}_merges",
                            help="Learned over the bars of the sample pieces (and yours, if uploaded); "
                                 "a merge never crosses a bar line.")
    data, name = None, source
    if source == UPLOAD:
        upload = st.file_uploader(f"A standard MIDI file (.mid), up to {bv.MIDI_MAX_BYTES // 1024} KiB",
                                  type=["mid", "midi"], key=f"{P}_upload", max_upload_size=1)
        if upload is None:
            st.info("Upload a .mid file, or pick one of the samples.", icon=":material/upload_file:")
        else:
            name = upload.name
            try:
                data = bv.check_midi_size(upload.name, upload.getvalue())
            except st_common.INPUT_ERRORS as exc:
                st_common.show_error(exc)
    else:
        data = samples[source].read_bytes()

    if data is not None:
        try:
            events, score = remi_events(digest_of(data), data)
            ppb = score.positions_per_beat
            training = {digest_of(p.read_bytes()): p.read_bytes() for p in samples.values()}
            training[digest_of(data)] = data
            sequences = [remi_events(d, raw)[0] for d, raw in sorted(training.items())]
            bpe = event_bpe(tuple(sorted(training)), n_merges, sequences)
            merged = bpe.encode(events)
            remi = RemiTokenizer(positions_per_beat=ppb)
            decoded = remi.decode(events)
        except st_common.INPUT_ERRORS as exc:  # name the uploaded file where the engine only saw bytes
            st.error(st_common.error_message(exc).replace("<bytes>", name, 1), icon=":material/error:")
        else:
            counts = bv.bpe_counts(events, merged)
            c1, c2, c3, c4 = st.columns(4)
            c1.metric("Notes", len(score.notes))
            c2.metric("REMI events (before BPE)", counts["events"])
            c3.metric("Tokens after BPE", counts["tokens"], delta=counts["tokens"] - counts["events"],
                      delta_color="inverse")
            c4.metric("Events per token", "–" if counts["events per token"] is None
                      else f"{counts['events per token']:.2f}")
            st.caption(f"{len(bpe.steps)} merges learned (asked for {n_merges}; the samples run out of pairs "
                       "that occur twice). Notes are coloured by the BPE token holding their Pitch event; a dashed "
                       "box marks a token that merges several notes; grey notes kept their events unmerged.")
            st.plotly_chart(bv.piano_roll_figure(events, merged, ppb, palette=palette, title=name),
                            key=f"{P}_roll")
            if len(score.notes) > bv.MAX_ROLL_NOTES:
                st.caption(f"The piano roll draws the first {bv.MAX_ROLL_NOTES:,} of {len(score.notes):,} notes.")
            if bv.same_notes(score, decoded) and len(bpe.decode(merged)) == len(events):
                st.success(f"decode(encode) keeps all {len(score.notes)} notes on the grid, and the BPE tokens "
                           f"expand back to the same {len(events)} events.", icon=":material/check:")
            else:
                st.warning("The round trip changed some notes (off-grid or over-long notes are quantized).")
            st.markdown("**Events grouped into BPE tokens** (one line per bar; coloured: merged)")
            st.html(bv.event_tokens_html(merged, palette=palette))
            with st.expander("Learned merges"):
                st.dataframe(pd.DataFrame(bv.merge_records(bpe), columns=["#", "left", "right", "count"]),
                             hide_index=True, width="stretch")
            buf = io.BytesIO()
            remi.score_to_midi(decoded).save(file=buf)
            st.download_button("Download the decoded MIDI", buf.getvalue(), file_name="decoded.mid",
                               mime="audio/midi", key=f"{P}_download")
