"""BPE over REMI events: subwords on music, trained and applied bar by bar.

Each distinct event gets a private-use character, each bar becomes one "word" of those
characters, and the ordinary character-level BPE trainer learns merges over them. A merged
token is a run of events that often occur together (a note's Pitch-Velocity-Duration, a chord).

Left out: the REMI events themselves (``tokcore.music``) and the BPE algorithm (``tokcore.trainers.bpe``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..core.errors import ConfigurationError

_BASE = 0xE000  # Unicode private use area: never collides with real text


@dataclass
class EventBPE:
    """A BPE model over event symbols: ``encode`` groups events into merged tokens, ``decode`` expands them."""

    symbols: dict[str, str]
    tokenizer: object
    steps: list

    def _to_chars(self, events: list[str]) -> str:
        try:
            return "".join(self.symbols[e] for e in events)
        except KeyError as exc:
            raise ConfigurationError(f"event {exc.args[0]!r} was never seen in training; retrain with it") from None

    def encode(self, events: list[str]) -> list[list[str]]:
        """Merged tokens, each a list of the events it stands for. Bars are never merged across."""
        back = {c: e for e, c in self.symbols.items()}
        out: list[list[str]] = []
        for bar in split_bars(events):
            for _id, piece, *_ in self.tokenizer.model.tokenize(self._to_chars(bar)):
                out.append([back[c] for c in piece])
        return out

    def decode(self, tokens: list[list[str]]) -> list[str]:
        """The event sequence again: ``decode(encode(e)) == e``."""
        return [e for token in tokens for e in token]


def split_bars(events: list[str]) -> list[list[str]]:
    """Events grouped per bar (each group starts with ``Bar``). ``split_bars(["Bar", "x", "Bar"]) == [["Bar", "x"], ["Bar"]]``."""
    bars: list[list[str]] = []
    for e in events:
        if e == "Bar" or not bars:
            bars.append([])
        bars[-1].append(e)
    return bars


def train_event_bpe(sequences: list[list[str]], n_merges: int) -> EventBPE:
    """Learn ``n_merges`` merges over the bars of some event sequences."""
    from ..trainers.bpe import train_bpe

    if n_merges < 0:
        raise ConfigurationError("n_merges must be zero or more")
    seen: dict[str, None] = {}
    for seq in sequences:
        for e in seq:
            seen.setdefault(e)
    if not seen:
        raise ConfigurationError("no events to train on: encode at least one MIDI file first")
    symbols = {e: chr(_BASE + i) for i, e in enumerate(seen)}
    words: Counter = Counter()
    for seq in sequences:
        for bar in split_bars(seq):
            words["".join(symbols[e] for e in bar)] += 1
    result = train_bpe(dict(words), len(symbols) + n_merges, record_top_pairs=None)
    return EventBPE(symbols, result.tokenizer, list(result.steps))
