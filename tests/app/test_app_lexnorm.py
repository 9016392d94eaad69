"""The Noisy text page: its pure views (changes, candidates, tokens mapped back, the lexicon table and files)
and the page under AppTest."""

from __future__ import annotations

import html as std_html
import json
import math
import re

import pytest
from app_page_helpers import Refusing, html_blocks, metrics, run_page
from shared_data import ROOT
from streamlit.testing.v1 import AppTest

import tokcore
from tokapp import lexnorm_view as lv
from tokapp.samples import SessionTokenizer
from tokapp.visible import visible
from tokcore.extras.lexnorm import Lexicon
from tokcore.normalizers.lexical import LexicalNormalizer

PAGE = "pages/10_Noisy_text.py"
BYTELEVEL = ROOT / "sample_vocabs" / "english_bytelevel_bpe.json"


def marks(markup: str) -> list[str]:
    return [std_html.unescape(m) for m in re.findall(r"<mark [^>]*>(.*?)</mark>", markup)]


@pytest.fixture(scope="module")
def bytelevel():
    return tokcore.load(BYTELEVEL)


# ---------------------------------------------------------------- changes and candidates
def test_changes_are_highlighted_on_both_sides():
    result = tokcore.lexical_normalize("new pix coming tmrw")
    assert marks(lv.changes_html(result, side="input")) == ["pix", "tmrw"]
    assert marks(lv.changes_html(result, side="output")) == ["pictures", "tomorrow"]
    assert 'title="pix → pictures · lookup list · confidence 100% · input bytes (5, 8), 1-based, half-open"' in lv.changes_html(result)
    text = re.sub(r"<[^>]+>", "", lv.changes_html(result, side="output"))
    assert std_html.unescape(text) == "new pictures coming tomorrow"
    with pytest.raises(ValueError):
        lv.changes_html(result, side="middle")


def test_user_markup_is_escaped():
    result = tokcore.lexical_normalize('<script>alert("u")</script> <b>pix</b>')
    for markup in (lv.changes_html(result), lv.changes_html(result, side="output"),
                   lv.aligned_html(result, lv.map_tokens(result, tokcore.CharTokenizer()))):
        assert "<script" not in markup and "<b>" not in markup
        assert "&lt;script&gt;" in markup or "&lt;" in markup


def test_candidate_records_mark_the_chosen_one():
    result = tokcore.lexical_normalize("we had alot of fun")
    alot = next(d for d in result.decisions if d.source == "alot")
    rows = lv.candidate_records(alot)
    chosen = [r for r in rows if r["chosen"]]
    assert len(chosen) == 1 and chosen[0]["candidate"] == "a lot" and chosen[0]["kind"] == "split"
    assert {r["kind"] for r in rows} >= {"split", "spelling", "original"}
    looked = next(d for d in tokcore.lexical_normalize("c u tmrw").decisions if d.source == "tmrw")
    assert lv.candidate_records(looked)[0]["score"] == "∞ (lookup list)"
    assert lv.candidate_records(looked)[1]["score"] == "0.00"


def test_decision_records_one_row_per_word():
    result = tokcore.lexical_normalize("c u at IBM tmrw")
    rows = lv.decision_records(result)
    assert [r["word"] for r in rows] == ["c u", "at", "IBM", "tmrw"]
    assert [r["changed"] for r in rows] == [True, False, False, True]
    assert rows[0]["input span (bytes, 1-based)"] == "(1, 4)" and rows[0]["output"] == "see you"


# ---------------------------------------------------------------- tokens mapped back
def test_tokens_of_the_normalized_text_map_back_to_the_noisy_words(bytelevel):
    result = tokcore.lexical_normalize("new pix coming tmrw")
    mapped = lv.map_tokens(result, bytelevel)
    assert [t.id for t in mapped] == bytelevel.encode(result.text, add_special_tokens=False)
    assert tokcore.validate_offsets_contract(result.original, [t.noisy for t in mapped])
    rows = lv.mapped_records(result, mapped)
    covering_pix = {r["noisy text"] for r in rows if r["covers"] in ("ic", "t", "u", "re", "s")}
    assert covering_pix == {"pix"}, "every piece of 'pictures' points back at 'pix'"
    assert "".join(r["covers"] for r in rows) == visible(result.text)


def test_aligned_view_puts_each_output_under_its_noisy_word(bytelevel):
    result = tokcore.lexical_normalize("u hve to let ppl decide")
    mapped = lv.map_tokens(result, bytelevel)
    drawn = lv.aligned_html(result, mapped)
    sources = [std_html.unescape(s) for s in re.findall(r'<span class="ln-src">(.*?)</span>', drawn)]
    assert "".join(sources) == visible(result.original), "segments cover the noisy input in order"
    assert drawn.count('class="ln-chip"') == len(mapped)
    assert drawn.count("ln-seg ln-changed") == len(result.changes) == 3
    under_ppl = drawn.split('<span class="ln-arrow">→ people</span>')[1].split('class="ln-seg')[0]
    chips = [std_html.unescape(c) for c in re.findall(r'<span class="ln-chip"[^>]*><span>(.*?)</span>', under_ppl)]
    assert "".join(chips) == "·people", "the tokens of ' people' sit under 'ppl'"
    assert "ln-id" not in lv.aligned_html(result, mapped, show_ids=False)


def test_aligned_view_of_empty_text():
    result = tokcore.lexical_normalize("")
    assert lv.aligned_html(result, []) == '<div class="ln-grid"></div>'


# ---------------------------------------------------------------- the lexicon table and files
def test_lexicon_from_records_skips_blank_rows_and_reports_half_rows():
    records = [
        {"noisy": "ngl", "canonical": "not going to lie"},
        {"noisy": None, "canonical": None},
        {"noisy": float("nan"), "canonical": ""},
        {"noisy": "smh", "canonical": float("nan")},
        {"noisy": " NGL ", "canonical": "honestly"},
    ]
    lexicon, problems = lv.lexicon_from_records(records, use_builtin=False)
    assert lexicon.user == {"ngl": "honestly"}
    assert lexicon.use_builtin is False and lexicon.get("tmrw") is None
    assert len(problems) == 2 and "row 4" in problems[0] and "row 5" in problems[1]


def test_csv_and_json_lexicon_files():
    entries, flag = lv.parse_lexicon_file("lex.csv", b"noisy,canonical\nngl,not going to lie\nsmh, shaking my head\n")
    assert entries == {"ngl": "not going to lie", "smh": "shaking my head"} and flag is None
    entries, _ = lv.parse_lexicon_file("lex.csv", "\ufeffgr8t,great\n\n".encode())
    assert entries == {"gr8t": "great"}
    entries, flag = lv.parse_lexicon_file("lex.json", b'{"ngl": "not going to lie"}')
    assert entries == {"ngl": "not going to lie"} and flag is None
    saved = lv.lexicon_json(Lexicon({"ngl": "not going to lie"}, use_builtin=False))
    entries, flag = lv.parse_lexicon_file("lexicon.json", saved.encode())
    assert entries == {"ngl": "not going to lie"} and flag is False
    assert Lexicon.from_dict(json.loads(saved)).user == {"ngl": "not going to lie"}


@pytest.mark.parametrize("name, data, message", [
    ("bad.json", b'{"ngl": ', "invalid JSON at line 1"),
    ("bad.json", b'["ngl"]', "expected a JSON object"),
    ("bad.json", b'{"ngl": 3}', "must map a non-empty noisy form to a string"),
    ("bad.json", b'{"entries": []}', "'entries' must be an object"),
    ("bad.csv", b"ngl\n", "line 1 needs two columns"),
    ("bad.csv", b"\xff\xfe\x00", "not UTF-8"),
    ("big.csv", b"a,b\n" * (lv.LEXICON_MAX_BYTES // 4 + 1), "over the 1 MiB lexicon limit"),
])
def test_bad_lexicon_files_raise_value_errors_naming_the_file(name, data, message):
    with pytest.raises(ValueError) as info:
        lv.parse_lexicon_file(name, data)
    assert message in str(info.value) and name in str(info.value)


def test_csv_download_reads_back():
    lexicon = Lexicon({"ngl": "not going to lie", "to morrow": "tomorrow", 'say "hi"': "greet, warmly"})
    entries, _ = lv.parse_lexicon_file("lexicon.csv", lv.lexicon_csv(lexicon).encode())
    assert entries == lexicon.user
    assert lv.lexicon_records(lexicon)[0] == {"noisy": "ngl", "canonical": "not going to lie"}
    assert {"noisy": "tmrw", "canonical": "tomorrow"} in lv.builtin_records()


def test_with_lexical_normalizer_keeps_the_old_normalizer_and_saves_the_lexicon():
    base = tokcore.CharTokenizer()
    lexicon = Lexicon({"ngl": "not going to lie"})
    combined = lv.with_lexical_normalizer(base, lexicon, name="char + lexnorm")
    data = combined.to_dict()
    assert data["normalizer"]["type"] == "Sequence"
    first, second = data["normalizer"]["normalizers"]
    assert first == {"type": "LexicalNormalizer", "lexicon": {"use_builtin": True, "entries": {"ngl": "not going to lie"}}}
    assert second == base.to_dict()["normalizer"]
    reloaded = tokcore.Tokenizer.from_dict(json.loads(json.dumps(data)))
    result = reloaded.encode_result("ngl 🙂", return_offsets=True, add_special_tokens=False)
    assert "".join(result.tokens) == "not going to lie <UNK>"
    assert result.original_offsets[0] == (1, 4) and result.original_offsets[-1] == (5, 9)
    assert base.normalizer.to_dict() == second, "the original tokenizer is untouched"
    again = lv.with_lexical_normalizer(combined, Lexicon({"smh": "shaking my head"}))
    kinds = [n["type"] for n in again.to_dict()["normalizer"]["normalizers"]]
    assert kinds == ["LexicalNormalizer", "AsciiPolicy"], "a new lexicon replaces the old one"
    assert again.to_dict()["normalizer"]["normalizers"][0]["lexicon"]["entries"] == {"smh": "shaking my head"}


def test_with_lexical_normalizer_on_a_tokenizer_without_normalizer(bytelevel):
    combined = lv.with_lexical_normalizer(bytelevel, Lexicon())
    assert isinstance(combined.normalizer, LexicalNormalizer)
    assert bytelevel.normalizer is None
    with pytest.raises(ValueError, match="only tokcore pipelines"):
        lv.with_lexical_normalizer(object(), Lexicon())


# ---------------------------------------------------------------- the page
def open_noisy(**state) -> AppTest:
    return run_page(PAGE, **state)


def block(at: AppTest, marker: str) -> str:
    return next(h for h in html_blocks(at) if marker in h)


def test_page_opens_and_shows_changes_with_candidates():
    at = open_noisy()
    assert at.title[0].value == "Noisy text"
    assert not at.error
    assert at.selectbox(key="ln_tok").value == "file:english_bytelevel_bpe.json"
    assert list(metrics(at)) == ["Words", "Changed", "One-to-many", "Many-to-one"]
    assert int(metrics(at)["Changed"]) >= 4
    output = block(at, 'data-side="output"')
    assert "people" in output and "tomorrow" in output
    candidates = at.dataframe[0].value
    assert list(candidates.columns) == ["candidate", "kind", "distance", "frequency", "score", "chosen"]
    assert any("obeys the offsets contract" in s.value for s in at.success)


def test_typing_noisy_text_normalizes_it():
    at = open_noisy()
    at.text_area(key="ln_text").input("new pix coming tmrw").run()
    assert not at.exception
    assert marks(block(at, 'data-side="output"')) == ["pictures", "tomorrow"]
    assert metrics(at)["Changed"] == "2" and metrics(at)["Words"] == "4"
    assert "→ pictures" in block(at, 'class="ln-grid"')


def test_built_in_list_switch_changes_the_output():
    at = open_noisy()
    at.text_area(key="ln_text").input("new pix coming tmrw").run()
    at.toggle(key="ln_use_builtin").set_value(False).run()
    assert not at.exception
    output = block(at, 'data-side="output"')
    assert "pictures" not in output and "pix" in output, "without the lookup list 'pix' is a dictionary word"


def test_the_lexicon_table_is_applied():
    at = open_noisy(ln_lexicon_saved=[{"noisy": "pix", "canonical": "photos"}, {"noisy": "ngl", "canonical": "honestly"}])
    at.text_area(key="ln_text").input("ngl new pix").run()
    assert not at.exception
    assert marks(block(at, 'data-side="output"')) == ["honestly", "photos"]


def test_saving_adds_a_session_tokenizer_with_the_lexicon():
    at = open_noisy(ln_lexicon_saved=[{"noisy": "ngl", "canonical": "not going to lie"}])
    at.button(key="ln_save").click().run()
    assert not at.exception
    assert any("pick it in any tokenizer list" in s.value for s in at.success)
    entries = at.session_state["tokapp_session_tokenizers"]
    (entry,) = entries.values()
    normalizer = entry.tokenizer.to_dict()["normalizer"]
    assert normalizer["type"] == "LexicalNormalizer"
    assert normalizer["lexicon"]["entries"] == {"ngl": "not going to lie"}
    assert entry.label in at.selectbox(key="ln_tok").options
    ids = entry.tokenizer.encode("ngl", add_special_tokens=False)
    assert entry.tokenizer.decode(ids) == "not going to lie"


def test_user_markup_is_escaped_on_the_page():
    at = open_noisy()
    at.text_area(key="ln_text").input("<script>alert(1)</script> <b>u</b> r gr8").run()
    for h in html_blocks(at):
        assert "<script" not in h and "<b>" not in h


def test_engine_errors_are_shown_as_st_error():
    refusing = SessionTokenizer("session:test-refusing-ln", "Refusing", Refusing())
    at = open_noisy(tokapp_session_tokenizers={refusing.key: refusing})
    at.selectbox(key="ln_tok").set_value(refusing.key).run()
    assert not at.exception
    assert [e.value for e in at.error] == [Refusing.message]
    assert marks(block(at, 'data-side="output"')), "the changes still show above the error"


def test_scores_are_finite_or_the_lookup_list():
    result = tokcore.lexical_normalize("thsi is realy gud")
    for d in result.decisions:
        for row in lv.candidate_records(d):
            assert row["score"] == "∞ (lookup list)" or math.isfinite(float(row["score"]))


def test_saving_twice_keeps_one_entry_per_name():
    at = open_noisy(ln_lexicon_saved=[{"noisy": "ngl", "canonical": "not going to lie"}])
    at.button(key="ln_save").click().run()
    at.button(key="ln_save").click().run()
    assert not at.exception
    assert any("is already in this session's tokenizers" in s.value for s in at.success)
    labels = [e.label for e in at.session_state["tokapp_session_tokenizers"].values()]
    assert len(labels) == len(set(labels)) == 1


@pytest.mark.parametrize("name, data, message", [
    ("bad.json", b'{"ngl": ', "invalid JSON"),
    ("deep.json", b"[" * 100_000, "nested too deeply"),  # json's RecursionError: the file's fault all the same
    ("bad.csv", b"only-one-column\n", "needs two columns"),
])
def test_a_bad_lexicon_upload_is_an_st_error_not_a_traceback(name, data, message):
    at = open_noisy()
    at.file_uploader(key="ln_lexicon_upload").set_value((name, data, "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(message in e.value for e in at.error), [e.value for e in at.error]

