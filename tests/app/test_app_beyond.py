"""The Beyond text page: phonemes under words, the MIDI piano roll with BPE tokens (pure views), and the page
under AppTest."""

from __future__ import annotations

import html as std_html
import json
import re

import pytest
from app_page_helpers import html_blocks, metrics, run_page

import tokcore
from tokapp import beyond_view as bv
from tokcore.extras.music import Note, RemiTokenizer, Score
from tokcore.extras.music_bpe import train_event_bpe
from tokcore.extras.phonemes import PhonemeToken, PhonemeWord

PAGE = "pages/11_Beyond_text.py"


@pytest.fixture(scope="module")
def remi():
    return RemiTokenizer()


@pytest.fixture(scope="module")
def sample_events(remi):
    return {name: remi.encode(remi.score_from_midi(path)) for name, path in bv.midi_samples().items()}


# ---------------------------------------------------------------- phonemes
def test_phonemes_sit_under_their_word():
    tokens, words = tokcore.phonemize("a cat")
    drawn = bv.phonemes_html(tokens, words)
    cat = drawn.split('data-word="cat"')[1].split('class="bt-word')[0]
    assert re.findall(r'<span class="bt-ph"[^>]*>(.*?)</span>', cat) == ["K", "AE1", "T"]
    assert drawn.count('class="bt-boundary"') == 1 and "&lt;w&gt;" in drawn
    assert "bt-fallback" not in drawn


def test_unknown_words_are_flagged():
    tokens, words = tokcore.phonemize("the zorbly cat", stress=False, boundaries=False)
    drawn = bv.phonemes_html(tokens, words)
    assert drawn.count("bt-word bt-fallback") == 1
    assert 'class="bt-word bt-fallback" title="zorbly' in drawn
    assert "guessed: not in the dictionary" in drawn
    assert "bt-boundary" not in drawn
    rows = bv.phoneme_records(words)
    assert [r["in dictionary"] for r in rows] == [True, False, True]
    assert rows[2] == {"word": "cat", "span (bytes, 1-based)": "(12, 15)", "phonemes": "K AE T", "in dictionary": True,
                       "what it is": "word"}


def test_phoneme_markup_is_escaped():
    word = PhonemeWord("<script>x</script>", (1, 19), ("<b>",), False)
    tokens = [PhonemeToken("<b>", 0, (1, 19), True), PhonemeToken("<w>", None, (19, 20))]
    drawn = bv.phonemes_html(tokens, [word])
    assert "<script" not in drawn and "<b>" not in drawn
    assert "&lt;script&gt;x&lt;/script&gt;" in drawn and "&lt;b&gt;" in drawn


def test_no_words_and_words_without_phonemes():
    assert "(no words)" in bv.phonemes_html([], [])
    word = PhonemeWord("ß", (1, 3), (), False)
    assert 'data-word="ß"' in bv.phonemes_html([], [word])


# ---------------------------------------------------------------- music
def test_three_samples_within_the_upload_cap():
    samples = bv.midi_samples()
    assert set(samples) == {"blues 12 bar", "scale c major", "waltz 3 4"}
    for path in samples.values():
        data = path.read_bytes()
        assert bv.check_midi_size(path.name, data) is data
    with pytest.raises(ValueError, match="over the 512 KiB MIDI limit"):
        bv.check_midi_size("big.mid", b"\0" * (bv.MIDI_MAX_BYTES + 1))
    with pytest.raises(ValueError, match="empty"):
        bv.check_midi_size("empty.mid", b"")


def test_event_steps_follow_bars_and_time_signatures():
    events = ["Bar", "TimeSig_3/4", "Position_0", "Pitch_60", "Bar", "Position_5", "Pitch_62", "Bar"]
    assert bv.event_steps(events, 4) == [0, 0, 0, 0, 12, 17, 17, 24]
    assert bv.event_steps(["Bar", "Position_2", "Pitch_60", "Bar"], 4) == [0, 2, 2, 16]


def test_note_events_read_the_same_notes_as_decode(remi, sample_events):
    for name, events in sample_events.items():
        notes = bv.note_events(events, remi.ppb)
        decoded = remi.decode(events)
        assert sorted((n.pitch, n.start, n.duration, n.velocity) for n in notes) == \
            sorted((n.pitch, n.start, n.duration, n.velocity) for n in decoded.notes), name
        for n in notes:
            assert [events[i].split("_")[0] for i in n.events] == ["Pitch", "Velocity", "Duration"]


def test_token_index_and_counts(sample_events):
    events = sample_events["waltz 3 4"]
    bpe = train_event_bpe(list(sample_events.values()), 30)
    tokens = bpe.encode(events)
    owner = bv.token_index(tokens)
    assert len(owner) == len(events) and owner == sorted(owner)
    counts = bv.bpe_counts(events, tokens)
    assert counts["events"] == len(events) and counts["tokens"] == len(tokens) < len(events)
    assert counts["merged tokens"] == sum(1 for t in tokens if len(t) > 1) > 0
    assert bv.bpe_counts([], [])["events per token"] is None


def test_piano_roll_one_bar_per_note_coloured_by_token(remi, sample_events):
    events = sample_events["blues 12 bar"]
    n_notes = len(remi.decode(events).notes)
    plain = train_event_bpe([events], 0).encode(events)
    fig = bv.piano_roll_figure(events, plain, remi.ppb)
    bars = fig.data[0]
    assert len(bars.x) == len(bars.base) == len(bars.y) == n_notes
    assert set(bars.marker.color) == {bv.UNMERGED}, "no merges: every note is grey"
    assert not [s for s in fig.layout.shapes if s.type == "rect"]
    merged = train_event_bpe(list(sample_events.values()), 40).encode(events)
    fig = bv.piano_roll_figure(events, merged, remi.ppb, title="blues")
    colours = set(fig.data[0].marker.color)
    assert len(colours - {bv.UNMERGED}) >= 2, "merged notes take their token's colour"
    boxes = [s for s in fig.layout.shapes if s.type == "rect"]
    assert boxes and all(s.line.dash == "dash" for s in boxes), "tokens holding several notes are outlined"
    bar_lines = [s for s in fig.layout.shapes if s.type == "line" and s.line.dash == "solid"]
    assert len(bar_lines) == events.count("Bar")
    assert "BPE token #" in fig.data[0].hovertext[0]
    assert fig.layout.title.text == "blues"


def test_piano_roll_of_nothing_still_draws():
    fig = bv.piano_roll_figure([], [], 4)
    assert len(fig.data[0].x) == 0


def test_piano_roll_draws_at_most_max_notes(remi, sample_events):
    events = sample_events["blues 12 bar"]
    tokens = train_event_bpe([events], 5).encode(events)
    fig = bv.piano_roll_figure(events, tokens, remi.ppb, max_notes=10)
    assert len(fig.data[0].x) == 10
    end = max(b + x for b, x in zip(fig.data[0].base, fig.data[0].x))
    assert all(s.x0 <= end for s in fig.layout.shapes if s.type == "line")


def test_event_tokens_html_groups_events_and_breaks_at_bars():
    tokens = [["Bar"], ["Position_0", "Pitch_60", "Velocity_80", "Duration_4"], ["Bar", "Position_0"], ["<x>"]]
    drawn = bv.event_tokens_html(tokens)
    assert drawn.count("<br>") == 1
    assert drawn.count("bt-tok bt-merged") == 2 and drawn.count("bt-tok bt-single") == 2
    assert "Position_0 Pitch_60 Velocity_80 Duration_4" in drawn
    assert "<x>" not in drawn and "&lt;x&gt;" in drawn
    assert "… 2 more tokens" in bv.event_tokens_html(tokens, max_tokens=2)


def test_merge_records_name_events(sample_events):
    bpe = train_event_bpe(list(sample_events.values()), 10)
    rows = bv.merge_records(bpe)
    assert len(rows) == len(bpe.steps) == 10
    assert all("?" not in r["left"] + r["right"] for r in rows)
    assert rows[0]["count"] >= rows[-1]["count"]


def test_same_notes():
    a = Score([Note(60, 0, 4), Note(64, 0, 4)])
    assert bv.same_notes(a, Score([Note(64, 0, 4, 100), Note(60, 0, 4)]))
    assert not bv.same_notes(a, Score([Note(60, 0, 4)]))


def test_note_names():
    assert [bv.note_name(p) for p in (60, 61, 21, 127)] == ["C4", "C#4", "A0", "G9"]


# ---------------------------------------------------------------- the page
def open_beyond(**state):
    return run_page(PAGE, **state)


def roll_spec(at) -> dict:
    return json.loads(at.get("plotly_chart")[0].proto.spec)


def test_page_opens_with_phonemes_and_the_piano_roll(remi, sample_events):
    at = open_beyond()
    assert at.title[0].value == "Beyond text"
    assert not at.error
    assert [t.label for t in at.tabs] == ["Phonemes", "Music (MIDI)"]
    words = next(h for h in html_blocks(at) if 'class="bt-words"' in h)
    quick = words.split('data-word="quick"')[1].split('class="bt-word')[0]
    assert re.findall(r'<span class="bt-ph"[^>]*>(.*?)</span>', quick) == ["K", "W", "IH1", "K"]
    assert 'class="bt-word bt-fallback" title="zorble' in words
    found = metrics(at)
    assert found["Notes"] == "192" and found["REMI events (before BPE)"] == str(len(sample_events["blues 12 bar"]))
    assert int(found["Tokens after BPE"]) < len(sample_events["blues 12 bar"])
    assert len(roll_spec(at)["data"][0]["x"]) == 192
    assert any("keeps all 192 notes" in s.value for s in at.success)


def test_stress_switch_changes_the_phonemes():
    at = open_beyond()
    at.toggle(key="bt_stress").set_value(False).run()
    assert not at.exception
    words = next(h for h in html_blocks(at) if 'class="bt-words"' in h)
    assert ">IH1<" not in words and ">IH<" in words
    at.toggle(key="bt_boundaries").set_value(False).run()
    words = next(h for h in html_blocks(at) if 'class="bt-words"' in h)
    assert "bt-boundary" not in words


def test_typed_text_is_phonemized_and_escaped():
    at = open_beyond()
    at.text_input(key="bt_text").input("<script>alert(1)</script> hello").run()
    assert not at.exception
    words = next(h for h in html_blocks(at) if 'class="bt-words"' in h)
    assert 'data-word="hello"' in words and 'data-word="script"' in words
    for h in html_blocks(at):
        assert "<script" not in h
    assert std_html.unescape(words).count("HH") == 1


def test_merges_slider_changes_the_token_count():
    at = open_beyond()
    at.slider(key="bt_merges").set_value(0).run()
    assert not at.exception
    found = metrics(at)
    assert found["Tokens after BPE"] == found["REMI events (before BPE)"]
    assert set(roll_spec(at)["data"][0]["marker"]["color"]) == {bv.UNMERGED}
    at.slider(key="bt_merges").set_value(100).run()
    assert int(metrics(at)["Tokens after BPE"]) < int(found["REMI events (before BPE)"]) // 3


def test_switching_piece_and_upload_mode():
    at = open_beyond()
    at.radio(key="bt_piece").set_value("waltz 3 4").run()
    assert not at.exception
    assert metrics(at)["Notes"] == "32"
    assert len(roll_spec(at)["data"][0]["x"]) == 32
    at.radio(key="bt_piece").set_value("Upload your own").run()
    assert not at.exception
    assert any("Upload a .mid file" in i.value for i in at.info)
    assert not at.get("plotly_chart")


@pytest.mark.parametrize("data, message", [(b"MThd\x00\x00\x00\x06garbage", "not a readable MIDI file"),
                                           (b"", "the file is empty")])
def test_a_broken_midi_upload_is_an_st_error_naming_the_file(data, message):
    at = open_beyond()
    at.radio(key="bt_piece").set_value("Upload your own").run()
    at.file_uploader(key="bt_upload").set_value(("song.mid", data, "audio/midi")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("song.mid" in e.value and message in e.value for e in at.error), [e.value for e in at.error]
