"""Write the three tiny sample MIDI files of the Beyond text page (run: python sample_vocabs/make_midi.py).

The files are made by tokcore's own REMI writer from notes spelled out here, so they are the
project's own work and every note sits on the 16th-note grid.
"""

from __future__ import annotations

from pathlib import Path

from tokcore.extras.music import Note, RemiTokenizer, Score

HERE = Path(__file__).resolve().parent / "midi"


def scale() -> Score:
    """C major scale up and down in quarter notes, 4/4 at 120 bpm."""
    pitches = [60, 62, 64, 65, 67, 69, 71, 72, 71, 69, 67, 65, 64, 62, 60]
    return Score([Note(p, 4 * i, 4, 84) for i, p in enumerate(pitches)])


def waltz() -> Score:
    """A 3/4 waltz at 96 bpm: bass on one, chord on two and three, a melody above."""
    notes = []
    chords = [(48, (64, 67)), (43, (62, 65)), (45, (64, 69)), (48, (64, 67))]
    melody = [76, 74, 72, 74, 76, 76, 77, 76, 74, 72, 71, 72]
    for bar, (bass, chord) in enumerate(chords):
        start = bar * 12
        notes.append(Note(bass, start, 4, 70))
        for beat in (4, 8):
            notes += [Note(p, start + beat, 4, 56) for p in chord]
        notes += [Note(melody[bar * 3 + k], start + 4 * k, 4, 92) for k in range(3)]
    return Score(notes, tempos=[(0, 96.0)], time_signatures=[(0, 3, 4)])


def blues() -> Score:
    """Twelve-bar-blues chords in half notes with an eighth-note riff, slowing down for the last bars."""
    roots = [48, 48, 48, 48, 53, 53, 48, 48, 55, 53, 48, 55]
    notes = []
    for bar, root in enumerate(roots):
        start = bar * 16
        for half in (0, 8):
            notes += [Note(root + i, start + half, 8, 64) for i in (0, 4, 7, 10)]
        notes += [Note(root + 24 + i, start + 2 * k, 2, 96) for k, i in enumerate((0, 3, 5, 6, 7, 10, 7, 5))]
    return Score(notes, tempos=[(0, 112.0), (8 * 16, 100.0)], time_signatures=[(0, 4, 4)])


def main() -> None:
    remi = RemiTokenizer()
    HERE.mkdir(exist_ok=True)
    for name, score in (("scale_c_major", scale()), ("waltz_3_4", waltz()), ("blues_12_bar", blues())):
        remi.score_to_midi(score).save(str(HERE / f"{name}.mid"))


if __name__ == "__main__":
    main()
