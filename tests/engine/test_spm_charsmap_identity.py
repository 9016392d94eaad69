"""``Precompiled`` leaves a text no rule applies to as it is, alignment included.

A charsmap with ASCII rules (nmt_nfkc's controls) scans every text; when nothing matched, the
normalizer must hand back the same ``NormalizedString`` (still the identity, which later steps
such as ``SentencePieceWhitespace``'s common-line shortcut test) rather than a rebuilt copy, and
where a rule did apply, the rebuilt alignment as before.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from shared_data import require_shared

from tokcore.core.normalized import NormalizedString
from tokcore.loaders.sentencepiece_model import read_sentencepiece_model
from tokcore.normalizers.precompiled import Precompiled, _with_changes
from tokcore.normalizers.unicode_pieces import rebuild_whole

_PRE: list = []


def _pre() -> Precompiled:
    if not _PRE:
        path = require_shared("reference", "sentencepiece", "botchan_en_bpe_1000.model")
        _PRE.append(Precompiled(read_sentencepiece_model(path).normalizer_spec.precompiled_charsmap,
                                sentencepiece_semantics=True))
    return _PRE[0]


_TEXT = st.lists(st.sampled_from(["a", " ", "  ", "é", "e\u0301", "ж", "\t", "\x01", "①", "日本", "Ａ"]),
                 max_size=12).map("".join)


@settings(max_examples=200, deadline=None)
@given(text=_TEXT)
def test_untouched_text_keeps_its_identity_alignment(text):
    pre = _pre()
    assert pre._tables().ascii_sources  # every text is scanned, ASCII ones too
    ns = NormalizedString(text)
    out = pre.normalize(ns)
    changes = pre._spm_pieces(text)
    if not changes:
        assert out is ns and out.is_identity
    else:
        whole = rebuild_whole(ns, _with_changes(text, changes))
        assert (out.normalized, out.alignments()) == (whole.normalized, whole.alignments())
    assert pre.normalized_text(text) == out.normalized


def test_a_line_without_rules_is_still_the_identity():
    ns = NormalizedString("    Pleâmbulo")
    assert _pre().normalize(ns) is ns
