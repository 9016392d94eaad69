"""Symbolic music as tokens: a REMI-style event tokenizer for MIDI files, and BPE over its events.

REMI (Huang & Yang, 2020) writes a piece as events: ``Bar``, ``TimeSig_n/d`` when it changes,
``Position_k`` on a grid of ``positions_per_beat`` steps per beat, ``Tempo_x`` when it changes,
then ``Pitch_p``, ``Velocity_v`` and ``Duration_d`` per note. Notes are quantized to the grid;
notes already on it survive encode -> decode exactly (pitch, onset, duration), velocities and
tempi are binned. MIDI is read and written with ``mido`` (imported on first use).

Left out: instruments/programs (everything lands on one track), pedal and pitch bends, and
expressive timing below the grid.
"""

from __future__ import annotations

import io
from collections import defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import ConfigurationError, TokenizerFileError


def _mido():
    try:
        import mido
    except ImportError:  # pragma: no cover - depends on the environment
        raise ConfigurationError("MIDI support needs mido: pip install mido") from None
    return mido


@dataclass(frozen=True)
class Note:
    """A note on the grid: MIDI ``pitch``, ``start`` and ``duration`` in grid steps, ``velocity`` 1..127."""

    pitch: int
    start: int
    duration: int
    velocity: int = 80


@dataclass
class Score:
    """Notes plus tempo and time-signature changes, all positioned in grid steps."""

    notes: list[Note]
    positions_per_beat: int = 4
    tempos: list[tuple[int, float]] = field(default_factory=lambda: [(0, 120.0)])
    time_signatures: list[tuple[int, int, int]] = field(default_factory=lambda: [(0, 4, 4)])


def bar_steps(numerator: int, denominator: int, positions_per_beat: int) -> int:
    """Grid steps in one bar. ``bar_steps(3, 4, 4) == 12``; ``bar_steps(6, 8, 4) == 12``."""
    return numerator * positions_per_beat * 4 // denominator


class RemiTokenizer:
    """REMI events <-> scores <-> MIDI. ``RemiTokenizer().vocab["Bar"] == 1``."""

    def __init__(self, *, positions_per_beat: int = 4, velocity_bins: int = 32, max_duration_beats: int = 8):
        if positions_per_beat < 1 or velocity_bins < 1 or max_duration_beats < 1:
            raise ConfigurationError("positions_per_beat, velocity_bins and max_duration_beats must be positive")
        self.ppb = positions_per_beat
        self.velocities = sorted({max(1, min(127, round((i + 0.5) * 127 / velocity_bins))) for i in range(velocity_bins)})
        self.max_duration = max_duration_beats * positions_per_beat
        self.tempi = list(range(40, 244, 4))
        self.signatures = [(n, d) for d in (2, 4, 8) for n in range(1, 13)]
        max_bar = max(bar_steps(n, d, self.ppb) for n, d in self.signatures)
        tokens = ["<pad>", "Bar"]
        tokens += [f"TimeSig_{n}/{d}" for n, d in self.signatures]
        tokens += [f"Position_{k}" for k in range(max_bar)]
        tokens += [f"Tempo_{t}" for t in self.tempi]
        tokens += [f"Pitch_{p}" for p in range(128)]
        tokens += [f"Velocity_{v}" for v in self.velocities]
        tokens += [f"Duration_{d}" for d in range(1, self.max_duration + 1)]
        self.vocab = {t: i for i, t in enumerate(tokens)}
        self.inverse = tokens

    # ------------------------------------------------------------------ quantization helpers
    def _velocity(self, v: int) -> int:
        return min(self.velocities, key=lambda b: (abs(b - v), b))

    def _tempo(self, bpm: float) -> int:
        return min(self.tempi, key=lambda t: (abs(t - bpm), t))

    # ------------------------------------------------------------------ events
    def encode(self, score: Score) -> list[str]:
        """REMI events of a score, bar by bar."""
        sigs = sorted(score.time_signatures) or [(0, 4, 4)]
        tempos = sorted((s, self._tempo(b)) for s, b in score.tempos)
        notes = sorted(score.notes, key=lambda n: (n.start, n.pitch, n.duration))
        end = max([n.start + 1 for n in notes] + [s + 1 for s, _ in tempos] + [1])
        events: list[str] = []
        bar_start, sig_i, last_sig, last_tempo = 0, 0, None, None
        by_step: dict[int, list[Note]] = defaultdict(list)
        for n in notes:
            by_step[n.start].append(n)
        tempo_at = dict(tempos)
        while bar_start < end:
            while sig_i + 1 < len(sigs) and sigs[sig_i + 1][0] <= bar_start:
                sig_i += 1
            _, num, den = sigs[sig_i]
            length = bar_steps(num, den, self.ppb)
            events.append("Bar")
            if (num, den) != last_sig:
                events.append(f"TimeSig_{num}/{den}")
                last_sig = (num, den)
            for step in range(bar_start, bar_start + length):
                tempo = tempo_at.get(step)
                changed = tempo is not None and tempo != last_tempo
                if not by_step.get(step) and not changed:
                    continue
                events.append(f"Position_{step - bar_start}")
                if changed:
                    events.append(f"Tempo_{tempo}")
                    last_tempo = tempo
                for n in by_step.get(step, ()):
                    duration = max(1, min(self.max_duration, n.duration))
                    events += [f"Pitch_{n.pitch}", f"Velocity_{self._velocity(n.velocity)}", f"Duration_{duration}"]
            bar_start += length
        return events

    def encode_ids(self, score: Score) -> list[int]:
        return [self.vocab[e] for e in self.encode(score)]

    def decode(self, events: list[str]) -> Score:
        """A score from REMI events (the inverse of ``encode`` for notes on the grid)."""
        notes: list[Note] = []
        tempos: list[tuple[int, float]] = []
        sigs: list[tuple[int, int, int]] = []
        bar_start, length, position = -1, bar_steps(4, 4, self.ppb), 0
        pending: dict[str, int] = {}
        for i, e in enumerate(events):
            kind, _, value = e.partition("_")
            if e not in self.vocab:
                raise ConfigurationError(f"event {i} {e!r} is not a REMI event of this tokenizer")
            if kind == "Bar":
                bar_start = 0 if bar_start < 0 else bar_start + length
                position = 0
            elif kind == "TimeSig":
                num, den = (int(x) for x in value.split("/"))
                length = bar_steps(num, den, self.ppb)
                sigs.append((max(bar_start, 0), num, den))
            elif kind == "Position":
                position = int(value)
            elif kind == "Tempo":
                tempos.append((max(bar_start, 0) + position, float(value)))
            elif kind in ("Pitch", "Velocity", "Duration"):
                pending[kind] = int(value)
                if kind == "Duration" and "Pitch" in pending:
                    notes.append(Note(pending["Pitch"], max(bar_start, 0) + position, pending["Duration"], pending.get("Velocity", 80)))
                    pending = {}
        return Score(notes, self.ppb, tempos or [(0, 120.0)], sigs or [(0, 4, 4)])

    # ------------------------------------------------------------------ MIDI
    def score_from_midi(self, source) -> Score:
        """Read a MIDI file (path, bytes or ``mido.MidiFile``) and quantize it to the grid."""
        mido = _mido()
        midi = _open_midi(source, mido)
        tpb = midi.ticks_per_beat
        per_step = tpb / self.ppb
        tick = 0
        open_notes: dict[tuple[int, int], deque] = defaultdict(deque)
        notes: list[Note] = []
        tempos: list[tuple[int, float]] = []
        sigs: list[tuple[int, int, int]] = []
        for msg in mido.merge_tracks(midi.tracks):
            tick += msg.time
            step = round(tick / per_step)
            if msg.type == "note_on" and msg.velocity > 0:
                open_notes[(msg.channel, msg.note)].append((step, msg.velocity))
            elif msg.type in ("note_off", "note_on"):
                queue = open_notes.get((msg.channel, msg.note))
                if queue:
                    start, velocity = queue.popleft()
                    notes.append(Note(msg.note, start, max(1, step - start), velocity))
            elif msg.type == "set_tempo":
                tempos.append((step, float(mido.tempo2bpm(msg.tempo))))
            elif msg.type == "time_signature":
                sigs.append((step, msg.numerator, msg.denominator))
        return Score(sorted(notes, key=lambda n: (n.start, n.pitch)), self.ppb, tempos or [(0, 120.0)], sigs or [(0, 4, 4)])

    def score_to_midi(self, score: Score, *, ticks_per_beat: int = 480):
        """A one-track ``mido.MidiFile`` for a score."""
        mido = _mido()
        per_step = ticks_per_beat // self.ppb
        timed: list[tuple[int, int, object]] = []
        for step, num, den in score.time_signatures:
            timed.append((step * per_step, 0, mido.MetaMessage("time_signature", numerator=num, denominator=den, time=0)))
        for step, bpm in score.tempos:
            timed.append((step * per_step, 0, mido.MetaMessage("set_tempo", tempo=mido.bpm2tempo(bpm), time=0)))
        for n in score.notes:
            timed.append((n.start * per_step, 2, mido.Message("note_on", note=n.pitch, velocity=n.velocity, time=0)))
            timed.append(((n.start + n.duration) * per_step, 1, mido.Message("note_off", note=n.pitch, velocity=0, time=0)))
        timed.sort(key=lambda t: (t[0], t[1]))
        track = mido.MidiTrack()
        now = 0
        for tick, _, msg in timed:
            track.append(msg.copy(time=tick - now))
            now = tick
        midi = mido.MidiFile(ticks_per_beat=ticks_per_beat)
        midi.tracks.append(track)
        return midi


def _open_midi(source, mido):
    if isinstance(source, mido.MidiFile):
        return source
    try:
        if isinstance(source, (bytes, bytearray)):
            return mido.MidiFile(file=io.BytesIO(bytes(source)))
        return mido.MidiFile(str(Path(source)))
    except (OSError, EOFError, ValueError, KeyError, IndexError, TypeError) as exc:
        where = "<bytes>" if isinstance(source, (bytes, bytearray)) else source
        # mido's EOFError has no message: say what it means rather than print "()"
        reason = str(exc) or ("it ends in the middle of its data" if isinstance(exc, EOFError) else type(exc).__name__)
        raise TokenizerFileError(where, f"not a readable MIDI file ({reason}).", fix="Pass a standard .mid file.") from None
