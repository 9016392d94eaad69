"""Lexical normalization: 44 noisy sentences written for this project, clean text untouched, exact alignment."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tokcore
from tokcore.extras.lexnorm import Lexicon, lexical_normalize, split_candidate
from tokcore.normalizers.lexical import LexicalNormalizer

pytest.importorskip("symspellpy")
pytest.importorskip("rapidfuzz")

# (noisy, expected, kind) -- kind says which case the sentence exercises
NOISY = [
    ("u hve to let ppl decide", "you have to let people decide", "one-to-one"),
    ("new pix coming tmrw", "new pictures coming tomorrow", "one-to-one"),
    ("dey r gonna be late", "they are going to be late", "one-to-many"),
    ("thx 4 the gr8 party", "thanks 4 the great party", "one-to-one"),
    ("c u l8r at the station", "see you later at the station", "many-to-many"),
    ("i dunno wat 2 do", "i do not know what 2 do", "one-to-many"),
    ("lol that was funny", "laughing out loud that was funny", "one-to-many"),
    ("see you to morrow morning", "see you tomorrow morning", "many-to-one"),
    ("every one loves pizza", "everyone loves pizza", "many-to-one"),
    ("some one took my bike", "someone took my bike", "many-to-one"),
    ("brb need coffee", "be right back need coffee", "one-to-many"),
    ("omg the game was insane", "oh my god the game was insane", "one-to-many"),
    ("pls send the msg b4 noon", "please send the message before noon", "one-to-one"),
    ("idk if ur coming", "i do not know if your coming", "one-to-many"),
    ("teh weather is nice", "the weather is nice", "one-to-one"),
    ("I recieve emails every day", "I receive emails every day", "one-to-one"),
    ("alot of ppl came", "a lot of people came", "one-to-many"),
    ("iloveyou so much", "i love you so much", "one-to-many"),
    ("IBM announced new chips", "IBM announced new chips", "untouched"),
    ("NASA and ESA launched it 2nite", "NASA and ESA launched it tonight", "one-to-one"),
    ("we met Ravi in Bangalore", "we met Ravi in Bangalore", "untouched"),
    ("btw the meeting moved", "by the way the meeting moved", "one-to-many"),
    ("cant wait 4 the wkend", "can't wait 4 the weekend", "one-to-one"),
    ("im so tired tbh", "i'm so tired to be honest", "one-to-many"),
    ("wanna grab lunch", "want to grab lunch", "one-to-many"),
    ("gud morning every1", "good morning everyone", "one-to-one"),
    ("luv this song sooo much", "love this song so much", "one-to-one"),
    ("Tmrw is my bday", "Tomorrow is my birthday", "one-to-one"),
    ("call me l8r plz", "call me later please", "one-to-one"),
    ("she said nvm", "she said never mind", "one-to-many"),
    ("thru the night we danced", "through the night we danced", "one-to-one"),
    ("hw r u doin", "how are you doing", "one-to-one"),
    ("can not believe it", "cannot believe it", "many-to-one"),
    ("ttyl gotta go", "talk to you later got to go", "one-to-many"),
    ("bcuz it rained we stayed in", "because it rained we stayed in", "one-to-one"),
    ("The report is due on Friday.", "The report is due on Friday.", "untouched"),
    ("Paris is lovely in spring", "Paris is lovely in spring", "untouched"),
    ("my bf n i r going out", "my boyfriend and i are going out", "one-to-one"),
    ("lemme know wen ur free", "let me know when your free", "one-to-many"),
    ("every thing is fine", "everything is fine", "many-to-one"),
    ("he is goin 2 the gym", "he is going 2 the gym", "one-to-one"),
    ("sumthin went wrong", "something went wrong", "one-to-one"),
    ("k see ya", "okay see you", "one-to-one"),
    ("Version 3.11 fixed the bug in utf8_decode()", "Version 3.11 fixed the bug in utf8_decode()", "untouched"),
]

CLEAN = [
    "The quick brown fox jumps over the lazy dog.",
    "She sells sea shells by the sea shore.",
    "Tokenizers split text into pieces that a model can count.",
    "In 1969, Apollo 11 landed on the Moon.",
    "Please email the report to the committee before Monday.",
    "",
    "   spaces   around   ",
    "é à x",  # single letters are never "corrected"
]


@pytest.fixture(scope="module", autouse=True)
def warm():
    lexical_normalize("warm up the dictionary")


def test_sentence_set_covers_every_case():
    kinds = {k for _, _, k in NOISY}
    assert len(NOISY) >= 40
    assert kinds == {"one-to-one", "one-to-many", "many-to-one", "many-to-many", "untouched"}


@pytest.mark.parametrize("noisy, expected, kind", NOISY, ids=[n for n, _, _ in NOISY])
def test_noisy_sentences(noisy, expected, kind):
    result = lexical_normalize(noisy)
    assert result.text == expected
    if kind == "untouched":
        assert result.changes == []
    else:
        assert result.changes
    if kind == "many-to-one":
        assert any(" " in d.source and " " not in d.output for d in result.changes)
    if kind == "one-to-many":
        assert any(" " not in d.source and " " in d.output for d in result.changes)


@pytest.mark.parametrize("clean", CLEAN)
def test_clean_text_comes_out_unchanged(clean):
    result = lexical_normalize(clean)
    assert result.text == clean
    assert result.changes == []


def test_decisions_carry_candidates_and_reasons():
    result = lexical_normalize("teh IBM ppl")
    teh, ibm, ppl = result.decisions
    assert teh.output == "the" and teh.reason.startswith("spelling: distance 1")
    assert teh.candidates[0].text == "the" and teh.candidates[0].kind == "spelling"
    assert any(c.kind == "original" for c in teh.candidates)
    assert ibm.reason.startswith("acronym") and not ibm.changed
    assert ppl.reason == "lookup list" and ppl.candidates[0].kind == "lookup"
    assert split_candidate("alot").text == "a lot"


def test_user_lexicon_overrides_and_round_trips():
    lex = Lexicon({"tbh": "honestly", "smol": "small"})
    assert lexical_normalize("tbh a smol cat", lexicon=lex).text == "honestly a small cat"
    again = Lexicon.from_dict(lex.to_dict())
    assert again.entries == lex.entries
    with pytest.raises(ValueError, match="lexicon entries"):
        Lexicon({"": "x"})


def test_saved_with_the_pipeline(tmp_path):
    tok = tokcore.CharTokenizer()
    pipeline = tokcore.Tokenizer(tok.model, normalizer=LexicalNormalizer({"smol": "small"}), decoder=tok.decoder)
    path = tmp_path / "lexnorm.json"
    pipeline.save(path)
    again = tokcore.load(path)
    assert again.normalizer.lexicon.user == {"smol": "small"}
    assert again.tokenization_view("smol ppl") == "small people"


@pytest.mark.parametrize("noisy", [n for n, _, _ in NOISY[:20]])
def test_tokens_map_back_inside_the_contract(noisy):
    result = lexical_normalize(noisy)
    tokens = tokcore.CharTokenizer().encode_result(result.text, return_offsets=True)
    back = result.map_offsets(tokens.original_offsets)
    assert tokcore.validate_offsets_contract(noisy, back, require_string_boundaries=True)
    # every output word maps back to exactly its source word
    for d in result.decisions:
        assert tokcore.try_span_substring(noisy, d.span) == d.source
        assert tokcore.try_span_substring(result.text, d.output_span) == d.output
        inside = [b for o, b in zip(tokens.original_offsets, back) if d.output_span[0] <= o[0] and o[1] <= d.output_span[1]]
        assert all(d.span[0] <= b[0] and b[1] <= d.span[1] for b in inside)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(list("abcu r8 2.,!?IBMé") + ["ppl", "tmrw", " to morrow", "lol", "sooo"]), max_size=20).map("".join))
def test_never_crashes_and_alignment_is_valid(text):
    result = lexical_normalize(text)
    per_char = [tokcore.char_span_to_byte_span(result.text, (i, i + 1)) for i in range(len(result.text))]
    spans = result.map_offsets(per_char)
    assert tokcore.validate_offsets_contract(text, spans, require_string_boundaries=True)
