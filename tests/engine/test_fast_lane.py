"""The single-text fast lane (``tokcore.fast.lane``, ``tokcore.fast.lane_lists``) pinned to the general path.

A lane result fills its lists on first read; it must equal, field for field, what the
reference pipeline (``Tokenizer.fast = False``) returns, for every option of ``encode_result``,
across normalizers that keep characters in place and post-processors that only add specials.
Also: the lane really engages on plain text, results stay frozen when the tokenizer changes
after encoding, and lazy results pickle, copy and compare like eager ones.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle

import fast_pairs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tokcore
from tokcore.core.normalized import NormalizedString
from tokcore.fast import lane_lists
from tokcore.fast.lane import lane_for
from tokcore.fast.views import same_place_view
from tokcore.normalizers import standard as N
from tokcore.parallel.batch import drop_pool
from tokcore.processors import standard as PP

FILES = ["gpt2/tokenizer.json", "minilm/tokenizer.json", "trained/t5_style_unigram.json",
         "trained/roberta_bytelevel.json", "trained/bert_cased_wordpiece.json"]

# Mostly ASCII (the lane's ground), with what sends a text down the general path: added tokens,
# controls, runs of spaces, tabs, non-ASCII letters.
WORDS = ["hello", "qq", "Hello", "WORLD", "it's", "don't", " ", "  ", "\t", "\n", ".", ",", "!", "?", "42", "x",
         "<|endoftext|>", "[CLS]", "[SEP]", "[MASK]", "</s>", "<s>", "<unk>", "\x00", "\x7f", "é", "▁", "Ġ",
         # Non-ASCII that stays in place (quotes, dashes) or does not (ligature, sigma, dotted I,
         # combining accent, wide spaces, CJK, a format character, the replacement character).
         "’", "“", "—", "ﬁ", "Σ", "İ", "e\u0301", "\u00a0", "\u3000", "中", "\u200b", "\ufffd", "😀",
         # Capitals newer than Python 3.11's Unicode that HF lowers (unicode_tables.lower).
         "\U00010d50", "\ua7cb"]
texts = (st.lists(st.sampled_from(WORDS), max_size=20).map("".join)
         | st.text(st.characters(max_codepoint=127), max_size=40))

def pair_for(name: str):
    return fast_pairs.pair_for("hf", name)


def check_same(fast, ref, text):
    fast_pairs.assert_same_results(fast, ref, text)
    view = ref.tokenization_view(text)
    a = fast.encode_result(view, assume_normalized=True, return_offsets=True, return_masks=True)
    assert a == ref.encode_result(view, assume_normalized=True, return_offsets=True, return_masks=True)


@pytest.mark.parametrize("name", FILES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_lane_equals_reference_on_reference_files(name, text):
    fast, ref = pair_for(name)
    check_same(fast, ref, text)


NORMALIZERS = {
    "none": None,
    "lowercase": N.Lowercase(),
    "bert": N.BertNormalizer(),
    "bert-cased": N.BertNormalizer(lowercase=False, strip_accents=True),
    "bert-raw": N.BertNormalizer(clean_text=False),
    "nfkc+replace": N.Sequence([N.NFKC(), N.Replace({"String": "  "}, " ")]),
    "nfd+strip-accents": N.Sequence([N.NFD(), N.StripAccents(), N.Lowercase()]),
    "replace-regex": N.Replace({"Regex": r"q+"}, "Q"),
    "strip": N.Strip(),  # moves characters: never in the lane
}
PROCESSORS = {
    "none": None,
    "bytelevel-trim": PP.ByteLevel(trim_offsets=True),
    "bytelevel-keep": PP.ByteLevel(trim_offsets=False),
    "bert": PP.BertProcessing(sep=("[SEP]", 102), cls=("[CLS]", 101)),
    "roberta": PP.RobertaProcessing(sep=("</s>", 2), cls=("<s>", 0), trim_offsets=True, add_prefix_space=True),
    "template": PP.TemplateProcessing(single="[CLS] $A:1 [SEP] [SEP]", pair="$A $B",
                                      special_tokens=[("[CLS]", 101), ("[SEP]", 102)]),
}


_VARIANTS: dict[tuple, tuple] = {}


def _variant(base: str, norm: str, proc: str):
    """(fast, reference) tokenizers: ``base``'s model, pre-tokenizer and added tokens with another
    normalizer and post-processor (the model is shared: its results do not depend on the path)."""
    key = (base, norm, proc)
    if key not in _VARIANTS:
        fast, _ = pair_for(base)
        pair = []
        for is_fast in (True, False):
            t = tokcore.Tokenizer(fast.model, normalizer=copy.deepcopy(NORMALIZERS[norm]),
                                  pre_tokenizer=copy.deepcopy(fast.pre_tokenizer),
                                  post_processor=copy.deepcopy(PROCESSORS[proc]),
                                  added_tokens=list(fast.added_vocabulary))
            t.fast = is_fast
            pair.append(t)
        _VARIANTS[key] = tuple(pair)
    return _VARIANTS[key]


@pytest.mark.parametrize("base", ["gpt2/tokenizer.json", "minilm/tokenizer.json"])
@pytest.mark.parametrize("norm", list(NORMALIZERS))
@pytest.mark.parametrize("proc", list(PROCESSORS))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_lane_equals_reference_on_variants(base, norm, proc, text):
    fast, ref = _variant(base, norm, proc)
    check_same(fast, ref, text)
    check_same(fast, ref, "Hello, world! It's 42.")  # a text the lane takes for every normalizer but Strip


@pytest.mark.parametrize("norm", list(NORMALIZERS))
@settings(max_examples=60, deadline=None)
@given(text=texts | st.text(max_size=10))
def test_same_place_view_agrees_with_the_normalizer(norm, text):
    normalizer = NORMALIZERS[norm]
    view = same_place_view(normalizer, text)
    if view is None:
        return
    ns = NormalizedString(text) if normalizer is None else normalizer.normalize(NormalizedString(text))
    assert ns.normalized == view
    assert ns.alignments() == [(i, i + 1) for i in range(len(text))]
    assert len(view.encode()) == len(text.encode())


def test_same_place_view_takes_plain_text_and_refuses_moves():
    for name, normalizer in NORMALIZERS.items():
        view = same_place_view(normalizer, "Hello world")
        assert (view is None) == (name == "strip"), name
    assert same_place_view(N.BertNormalizer(), "a\x00b") is None  # the control is dropped
    assert same_place_view(N.BertNormalizer(), "A\tb") == "a b"
    assert same_place_view(N.Lowercase(), "É") is None  # a non-ASCII character would change
    assert same_place_view(N.BertNormalizer(), "It’s “fine” — Ok") == "it’s “fine” — ok"
    assert same_place_view(N.BertNormalizer(), "a\u00a0b") is None  # a two-byte space becomes " "
    assert same_place_view(N.BertNormalizer(), "café") is None  # é loses its accent
    assert same_place_view(N.NFKC(), "’ok") == "’ok" and same_place_view(N.NFKC(), "ﬁ") is None
    assert same_place_view(None, "É") == "É"


@pytest.mark.parametrize("name", ["gpt2/tokenizer.json", "minilm/tokenizer.json", "trained/t5_style_unigram.json"])
def test_lane_engages_on_plain_text_and_fills_lists_on_first_read(name):
    fast, ref = pair_for(name)
    assert lane_for(fast) is not None
    res = fast.encode_result("The quick brown fox, it's 42.", return_offsets=True)
    assert "_source" in res.__dict__ and "offsets" not in res.__dict__  # every list on first read
    assert res.offsets == ref.encode_result("The quick brown fox, it's 42.", return_offsets=True).offsets
    assert "_source" not in res.__dict__
    # Text the lane leaves alone still gives the reference result.
    for text in ("<|endoftext|> [CLS] </s>", "", "naïve café"):
        check_same(fast, ref, text)


def test_results_stay_as_encoded_when_the_tokenizer_changes():
    fast, ref = pair_for("gpt2/tokenizer.json")
    tok, reference = copy.deepcopy(fast), copy.deepcopy(ref)
    text = "Hello there, world"
    res = tok.encode_result(text, return_offsets=True)  # lists not read yet
    want = reference.encode_result(text, return_offsets=True)
    tok.post_processor.trim_offsets = False  # an option of a stage...
    reference.post_processor.trim_offsets = False
    assert res == want  # ...does not reach a result made before
    assert tok.encode_result(text, return_offsets=True) == reference.encode_result(text, return_offsets=True)
    assert tok.encode_result(text, return_offsets=True).offsets != want.offsets  # the lane saw the change
    tok.post_processor = reference.post_processor = PP.TemplateProcessing(
        single="<|endoftext|> $A", pair="$A $B", special_tokens=[("<|endoftext|>", 50256)])
    assert tok.encode_result(text, return_offsets=True) == reference.encode_result(text, return_offsets=True)
    tok.pre_tokenizer.add_prefix_space = reference.pre_tokenizer.add_prefix_space = True
    assert tok.encode_result(text, return_offsets=True) == reference.encode_result(text, return_offsets=True)


def test_lazy_results_pickle_copy_compare_and_stay_frozen():
    fast, ref = pair_for("minilm/tokenizer.json")
    text = "Lazy lists, read later."
    want = ref.encode_result(text, return_offsets=True, return_masks=True)

    def fresh():
        return fast.encode_result(text, return_offsets=True, return_masks=True)

    assert pickle.loads(pickle.dumps(fresh())) == want
    assert copy.deepcopy(fresh()) == want and copy.copy(fresh()) == want
    assert dataclasses.replace(fresh(), ids=[1]).tokens == want.tokens
    assert repr(fresh()) == repr(want)
    assert fresh().to_dict() == want.to_dict()
    assert fresh().char_to_token(1) == want.char_to_token(1) and fresh().position_ids == want.position_ids
    res = fresh()
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.offsets = []  # type: ignore[misc]
    assert not hasattr(res, "not_a_field")
    batch = fast.encode_batch([text, text], return_offsets=True, return_masks=True, processes=2)
    drop_pool(fast)  # the shared tokenizer keeps no worker processes past this test
    assert batch == [want, want]


@pytest.mark.parametrize("norm", ["bert", "bert-cased", "bert-raw", "lowercase"])
def test_views_lower_the_capitals_newer_than_pythons_unicode(norm):
    # Unassigned in Python 3.11's Unicode, lowered by HF (unicode_tables.lower); without clean_text
    # a BertNormalizer keeps them, so the lane's views meet them.
    fast, ref = _variant("minilm/tokenizer.json", norm, "none")
    for text in ("Garay \U00010d50\U00010d51 words", "\ua7cbA\ua7dc", "Beria \U00016ea0 x", "\U00016eb8"):
        check_same(fast, ref, text)
    lowers = getattr(fast.normalizer, "lowercase", True)
    assert fast.encode_result("A\U00016ea0").tokenization_text == ("a\U00016ebb" if lowers else "A\U00016ea0")


def test_offsets_in_the_tokenization_text_wait_for_their_own_read():
    # A view that moves characters (Llama's "▁" for " "): the mapped offsets are read, the
    # tokenization text's are made only when read, and every way out of a result makes them.
    fast, ref = pair_for("trained/llama_style_bpe.json")
    text = "Offsets, mapped back  to the raw text."
    want = ref.encode_result(text, return_offsets=True, return_masks=True)

    def read():
        res = fast.encode_result(text, return_offsets=True, return_masks=True)
        assert res.original_offsets == want.original_offsets and res.tokens == want.tokens
        assert "offsets" not in res.__dict__ and "_offsets" in res.__dict__
        return res

    res = read()
    assert res.offsets == want.offsets and "_offsets" not in res.__dict__
    view = res.tokenization_text.encode()  # each token of this ASCII text is its own slice of the view
    assert [view[a - 1:b - 1].decode() for a, b in res.offsets if a] == res.tokens[1:]
    assert res.offsets is res.offsets  # made once
    assert pickle.loads(pickle.dumps(read())) == want
    assert copy.copy(read()).__dict__["offsets"] == want.offsets and copy.deepcopy(read()) == want
    assert read() == want and repr(read()) == repr(want) and read().to_dict() == want.to_dict()
    assert dataclasses.replace(read(), ids=[1]).offsets == want.offsets
    from tokcore.parallel.pack import pack, unpack

    assert unpack(*pack([read(), read()])) == [want, want]


@pytest.mark.parametrize("name", [*FILES, "trained/llama_style_bpe.json"])
def test_word_ids_wait_for_their_own_read(name):
    # Most callers read ids, tokens and offsets: a short text's word ids are made from its words'
    # entries only when read, and every way out of a result makes them. Words of several pieces
    # ("it's", "said,") and a line without a pre-tokenizer (Llama's: every token in word 0).
    fast, ref = pair_for(name)
    text = "It's time, said he: the quick brown fox (again) jumps."
    want = ref.encode_result(text, return_offsets=True, return_masks=True)

    def read():
        res = fast.encode_result(text, return_offsets=True, return_masks=True)
        assert res.tokens == want.tokens and res.original_offsets == want.original_offsets
        assert res.attention_mask == want.attention_mask and res.sequence_ids == want.sequence_ids
        assert "word_ids" not in res.__dict__ and "_word_ids" in res.__dict__
        return res

    res = read()
    assert res.word_ids == want.word_ids and "_word_ids" not in res.__dict__
    assert res.word_ids is res.word_ids  # made once
    assert [res.token_to_word(i) for i in range(len(res))] == want.word_ids
    assert res.word_to_tokens(1) == want.word_to_tokens(1)
    assert pickle.loads(pickle.dumps(read())) == want
    assert copy.copy(read()).__dict__["word_ids"] == want.word_ids and copy.deepcopy(read()) == want
    assert read() == want and repr(read()) == repr(want) and read().to_dict() == want.to_dict()
    assert dataclasses.replace(read(), ids=[1]).word_ids == want.word_ids
    from tokcore.parallel.pack import pack, unpack

    assert unpack(*pack([read(), read()])) == [want, want]
    # Without the template's inserted tokens too.
    bare = fast.encode_result(text, add_special_tokens=False, return_offsets=True)
    assert bare.tokens and "_word_ids" in bare.__dict__
    assert bare.word_ids == ref.encode_result(text, add_special_tokens=False).word_ids
    empty = fast.encode_result("", return_offsets=True)
    assert empty.word_ids == ref.encode_result("", return_offsets=True).word_ids


def test_masks_nobody_asked_for_are_not_built():
    # build_single(masks=False) leaves the masks and type ids as the caller holds them (the lane's
    # None placeholders) and builds the rest as with masks; results equal the reference either way.
    from tokcore.core.encoding import Encoding
    from tokcore.processors.merge import build_single

    parts = [("special", [101], ["[CLS]"], 0), ("A", 0), ("special", [102], ["[SEP]"], 0)]
    bare = build_single(Encoding([7], ["x"], [(0, 1)], None, None, [0], [0], None), parts, masks=False)
    full = build_single(Encoding([7], ["x"], [(0, 1)], [0], [0], [0], [0], [1]), parts)
    assert (bare.special, bare.attention, bare.type_ids) == (None, None, None)
    assert (full.special, full.attention, full.type_ids) == ([1, 0, 1], [1, 1, 1], [0, 0, 0])
    assert (bare.ids, bare.tokens, bare.spans, bare.word_ids, bare.sequence_ids) == (
        full.ids, full.tokens, full.spans, full.word_ids, full.sequence_ids)
    fast, ref = pair_for("minilm/tokenizer.json")
    for masks in (False, True):
        res = fast.encode_result("Masks, when asked for.", return_offsets=True, return_masks=masks)
        assert "_source" in res.__dict__
        assert res == ref.encode_result("Masks, when asked for.", return_offsets=True, return_masks=masks)
        assert (res.attention_mask is None) is not masks


def test_a_cut_inside_a_changed_character_covers_all_of_it_on_both_paths():
    # Lower-casing "Ġ" (two bytes) to "ġ" keeps every position, but a byte-level token holding one
    # of its bytes maps back to the whole raw character, fast path or not.
    fast, ref = _variant("gpt2/tokenizer.json", "lowercase", "none")
    res = fast.encode_result("helloĠ", return_offsets=True)
    assert res == ref.encode_result("helloĠ", return_offsets=True)
    assert res.original_offsets[-2:] == [(6, 8), (6, 8)]


# ----------------------------------------------------------------------------- long texts, chunk by chunk

_GPT2_TEXT = st.lists(st.sampled_from(["a", "Z", "9", " ", "  ", "\n", "\n\n", "\t", "\r\n", ".", "'s", "'", "é", "中",
                                       "\u3000", "\u00a0", "😀", "!?", "-", "x1"]), max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(text=_GPT2_TEXT, at=st.integers(0, 60))
def test_gpt2_cut_splits_the_words_exactly(text, at):
    # The defining property of a cut: the pattern finds the same words in the two halves.
    from tokcore.fast.words import _gpt2_cut
    from tokcore.text.byte_level import GPT2_REGEX

    cut = _gpt2_cut(text, min(at, len(text)))
    assert min(at, len(text)) <= cut <= len(text)
    assert GPT2_REGEX.findall(text[:cut]) + GPT2_REGEX.findall(text[cut:]) == GPT2_REGEX.findall(text)


@pytest.mark.parametrize("name", ["gpt2/tokenizer.json", "trained/roberta_bytelevel.json"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(text=_GPT2_TEXT)
def test_long_texts_found_chunk_by_chunk_equal_the_reference(name, text, monkeypatch):
    import tokcore.fast.encode as fe

    monkeypatch.setattr(fe, "CHUNK_CHARS", 3)  # every text of more than 3 characters is chunked
    fast, ref = pair_for(name)
    check_same(fast, ref, text)


def test_a_long_document_keeps_no_word_strings(monkeypatch):
    import tokcore.fast.encode as fe

    monkeypatch.setattr(fe, "CHUNK_CHARS", 16)
    fast, ref = pair_for("gpt2/tokenizer.json")
    text = "It was the best of times, it was the worst of times.\n" * 20
    res = fast.encode_result(text, return_offsets=True)
    assert res.__dict__["_source"].found[1] is None  # chunked: the words are not kept
    assert res == ref.encode_result(text, return_offsets=True)


@pytest.mark.parametrize("norm", ["bert", "bert-cased", "bert-raw", "lowercase"])
@settings(max_examples=150, deadline=None)
@given(text=texts | st.text(max_size=12))
def test_deleting_view_is_the_normalizers_text(norm, text):
    from tokcore.fast.views import deleting_view

    normalizer = NORMALIZERS[norm]
    view = deleting_view(normalizer, text)
    if view is not None:
        assert normalizer.normalize(NormalizedString(text)).normalized == view


def test_deleting_view_takes_a_document_with_a_byte_order_mark():
    from tokcore.fast.views import deleting_view

    assert deleting_view(N.BertNormalizer(), "\ufeffIt’s\u3000Fine\x00!") == "it’s fine!"
    assert deleting_view(N.BertNormalizer(), "中") is None and deleting_view(N.BertNormalizer(), "É") is None
    assert deleting_view(N.Lowercase(), "\ufeffa") is None  # only BertNormalizer
    fast, ref = pair_for("minilm/tokenizer.json")
    text = "\ufeffThe Project’s text,\r\nwith a BOM.\u200b"
    res = fast.encode_result(text, return_offsets=True, return_masks=True)
    assert res.__dict__["_source"].moved is lane_lists.DEFERRED
    assert res == ref.encode_result(text, return_offsets=True, return_masks=True)


def sp_pair(name: str):
    return fast_pairs.pair_for("sentencepiece", name)


@pytest.mark.parametrize("name", ["botchan_en_unigram_1000.model", "botchan_en_bpe_1000.model",
                                  "kyoto_ja_unigram_8000.model"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_sentencepiece_lines_through_the_lane_equal_the_reference(name, text):
    from tokcore.fast.views import sentencepiece_view

    fast, ref = sp_pair(name)
    view = sentencepiece_view(fast.normalizer, text)
    if view is not None:
        assert fast.normalizer.normalize(NormalizedString(text)).normalized == view
    check_same(fast, ref, text)


@pytest.mark.parametrize("name", ["botchan_en_unigram_1000.model", "kyoto_ja_unigram_8000.model"])
@settings(max_examples=100, deadline=None)
@given(text=st.text(max_size=30) | texts)
def test_a_charsmap_text_without_its_alignment_is_the_normalizers(name, text):
    charsmap = sp_pair(name)[0].normalizer.normalizers[0]
    assert charsmap.normalized_text(text) == charsmap.normalize_str(text)


@pytest.fixture(scope="module")
def bpe_nfkc_pair(tmp_path_factory):
    """(fast, reference) of a BPE .model with an nfkc charsmap (no ASCII rule), trained here.

    The plain-line lane needs a .model split at "▁": a Unigram .model's Viterbi runs over the whole
    sentence (sentencepiece's float32 running score), and the reference BPE .model's nmt_nfkc
    charsmap has ASCII rules.
    """
    from shared_data import require_shared

    spm = pytest.importorskip("sentencepiece")
    prefix = tmp_path_factory.mktemp("spm") / "bpe_nfkc"
    spm.SentencePieceTrainer.train(input=str(require_shared("corpora", "botchan.txt")), model_prefix=str(prefix),
                                   vocab_size=1000, model_type="bpe", normalization_rule_name="nfkc", minloglevel=2)
    fast, ref = tokcore.load(f"{prefix}.model"), tokcore.load(f"{prefix}.model")
    ref.fast = False
    return fast, ref


def test_sentencepiece_view_takes_ascii_text(bpe_nfkc_pair):
    from tokcore.fast.views import sentencepiece_view

    fast, ref = bpe_nfkc_pair
    assert sentencepiece_view(fast.normalizer, "It was a fine day.") == "▁It▁was▁a▁fine▁day."
    # Runs of spaces become one and the ends are stripped (only " " counts); the charsmap runs on
    # non-ASCII text (the ligature); a "▁" of its own leaves the text to the normalizer.
    for text, view in ((" lead", "▁lead"), ("trail ", "▁trail"), ("two  spaces\n  x", "▁two▁spaces\n▁x"),
                       ("", None), ("   ", None), ("naïve  ﬁne", "▁naïve▁fine"), ("a ▁ b", None)):
        assert sentencepiece_view(fast.normalizer, text) == view
        if view is not None:
            assert fast.normalizer.normalize_str(text) == view
            assert fast.encode_result(text, return_offsets=True) == ref.encode_result(text, return_offsets=True)
    res = fast.encode_result("It was a fine day.", return_offsets=True)
    # The first time a word may be missing from the caches: the view and its alignment, later.
    assert res.__dict__["_source"].moved in (lane_lists.DEFERRED, lane_lists.PLAIN)
    assert fast.encode_result("It was a fine day.").__dict__["_source"].moved is lane_lists.PLAIN
    assert res == ref.encode_result("It was a fine day.", return_offsets=True)


@pytest.mark.parametrize("name", ["gpt2/tokenizer.json", "minilm/tokenizer.json", "trained/t5_style_unigram.json"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(items=st.lists(texts | st.tuples(texts, texts), max_size=6))
def test_batches_mixing_lane_and_general_items_equal_the_reference(name, items):
    fast, ref = pair_for(name)
    for kw in ({}, {"add_special_tokens": False}, {"padding": "longest"}, {"truncation": True, "max_length": 5}):
        a = fast.encode_batch(items, return_offsets=True, return_masks=True, **kw)
        b = ref.encode_batch(items, return_offsets=True, return_masks=True, **kw)
        assert a == b, kw


# Plain lines of words, with what makes Metaspace's split differ: leading, trailing and double
# spaces, the replacement character itself, tabs, digits and punctuation.
ASCII_WORDS = ["The", "quick", "brown", "fox,", "it's", "42", "x", ".", "", "▁", "\t", "naïve"]
spaced_lines = st.lists(st.sampled_from(ASCII_WORDS), max_size=12).map(" ".join)


@pytest.mark.parametrize("name", ["hf:trained/t5_style_unigram.json", "sentencepiece:botchan_en_unigram_1000.model",
                                  "sentencepiece:kyoto_ja_unigram_8000.model"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=spaced_lines)
def test_metaspace_words_split_at_spaces_equal_the_reference(name, text):
    # fast_encode.spaced_cached_entries finds Metaspace's words with str.split; the first encoding of
    # a line may miss the word caches (spaced_entries), the second one reads them.
    fast, ref = fast_pairs.pair_for(*name.split(":"))
    want = ref.encode_result(text, return_offsets=True, return_masks=True)
    for _ in range(2):
        assert fast.encode_result(text, return_offsets=True, return_masks=True) == want
        assert fast.encode_result(text, return_offsets=True, return_masks=True).ids == want.ids


@pytest.mark.parametrize("name", ["hf:trained/t5_style_unigram.json", "sentencepiece:bpe_nfkc"])
def test_plain_lines_take_the_split_and_fill_ids_alone(name, request):
    from tokcore.fast.encode import spaced_cached_entries

    if name.startswith("hf:"):
        fast, ref = fast_pairs.pair_for(*name.split(":"))
    else:
        fast, ref = request.getfixturevalue("bpe_nfkc_pair")
    text = "It was a fine day, said he."
    fast.encode_result(text)  # fills the word caches
    res = fast.encode_result(text, return_offsets=True)
    assert "_words" in res.__dict__  # found by str.split
    # A .model's plain line keeps even its tokenization text ("▁" + escaped spaces) for later.
    assert ("tokenization_text" in res.__dict__) == name.startswith("hf:")
    assert res.tokenization_text == ref.encode_result(text).tokenization_text
    plan = lane_for(fast).plan
    assert spaced_cached_entries(plan, res.tokenization_text) == res.__dict__["_words"]
    assert res.ids == ref.encode_result(text).ids
    assert "tokens" not in res.__dict__ and "_source" in res.__dict__  # the ids alone were built
    assert res == ref.encode_result(text, return_offsets=True)
    # A result pickled before anything was read carries every list.
    fresh = fast.encode_result(text, return_offsets=True, return_masks=True)
    back = pickle.loads(pickle.dumps(fresh))
    assert "_source" not in back.__dict__
    assert back == ref.encode_result(text, return_offsets=True, return_masks=True)


def test_plain_batch_items_take_the_lane():
    fast, ref = pair_for("minilm/tokenizer.json")
    items = ["plain text", ("a", "pair"), "[CLS] inside", "\ufeffmoved"]
    out = fast.encode_batch(items, return_offsets=True)
    assert ["_source" in r.__dict__ for r in out] == [True, False, False, True]
    assert out == ref.encode_batch(items, return_offsets=True)


@pytest.mark.parametrize("name", ["gpt2/tokenizer.json", "trained/llama_style_bpe.json"])
def test_lazy_results_read_from_many_threads_at_once(name):
    # Streamlit serves sessions from threads: a result read by several at once fills once, right
    # (Llama's view moves characters: its offsets in the view wait for their own read too).
    from concurrent.futures import ThreadPoolExecutor

    fast, ref = pair_for(name)
    texts = [f"line {i}: the quick brown fox" for i in range(40)]
    want = [ref.encode_result(t, return_offsets=True, return_masks=True) for t in texts]
    for _ in range(5):
        results = [fast.encode_result(t, return_offsets=True, return_masks=True) for t in texts]
        with ThreadPoolExecutor(8) as pool:
            read = list(pool.map(lambda r: (r.offsets, r.tokens, r.word_ids), results * 4))
        assert results == want
        assert read == [(w.offsets, w.tokens, w.word_ids) for w in want] * 4


def test_tokens_added_after_a_lane_was_built_are_matched():
    fast, ref = pair_for("minilm/tokenizer.json")
    tok, reference = copy.deepcopy(fast), copy.deepcopy(ref)
    text = "say zorblax twice: zorblax"
    assert tok.encode_result(text, return_offsets=True) == reference.encode_result(text, return_offsets=True)
    for t in (tok, reference):
        t.add_tokens(["zorblax"])
    got = tok.encode_result(text, return_offsets=True)
    assert got == reference.encode_result(text, return_offsets=True)
    assert got.tokens.count("zorblax") == 2
