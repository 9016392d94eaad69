"""Code-aware tokenization: lossless syntax-typed tokens for nine languages, identifier splitting, subwords."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tokcore
from tokcore.extras.code import SUPPORTED, resolve_language, tokenize_code
from tokcore.extras.code_subwords import encode_code
from tokcore.extras.identifiers import split_identifier, split_identifier_spans

pytest.importorskip("tree_sitter_language_pack")

SAMPLES = {
    "python": 'def greet(name: str) -> str:\n    """Say hi."""\n    if name:\n        return f"hi {name}" + str(3.5)\n    return None  # nobody\n',
    "javascript": "// greet\nfunction greetUser(userName) {\n  const msg = `hi ${userName}`;\n  return msg.length > 0x1F ? msg : null;\n}\n",
    "typescript": "interface User { id: number; name: string }\nconst u: User = { id: 1, name: 'é' };\nexport default u;\n",
    "java": "public class Main {\n  /* entry */\n  public static void main(String[] args) {\n    int count = 42;\n    System.out.println(\"n=\" + count);\n  }\n}\n",
    "csharp": "using System;\nclass P {\n  static int Add(int a, int b) => a + b; // sum\n  string s = @\"raw\";\n}\n",
    "go": "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tx := 3.14\n\tfmt.Println(x) // print\n}\n",
    "rust": "fn parse_header(line: &str) -> Option<u32> {\n    let n = 10_000; // limit\n    if line.is_empty() { None } else { Some(n) }\n}\n",
    "c": "#include <stdio.h>\n/* main */\nint main(void) {\n    char c = 'x';\n    return printf(\"%d\\n\", 1 + 2);\n}\n",
    "cpp": "#include <vector>\ntemplate <typename T>\nT maxOf(const std::vector<T>& v) {\n    auto best = v[0]; // first\n    return best;\n}\n",
}

EXPECTED = {
    "python": [("keyword", "def"), ("identifier", "greet"), ("string", '"""Say hi."""'), ("number", "3.5"),
               ("comment", "# nobody"), ("keyword", "None"), ("operator", "->"), ("indent", "    ")],
    "javascript": [("comment", "// greet"), ("keyword", "function"), ("identifier", "greetUser"), ("keyword", "const"),
                   ("string", "`hi ${userName}`"), ("number", "0x1F"), ("keyword", "null"), ("operator", ">")],
    "typescript": [("keyword", "interface"), ("identifier", "User"), ("keyword", "number"), ("string", "'é'"), ("keyword", "export")],
    "java": [("keyword", "public"), ("keyword", "class"), ("comment", "/* entry */"), ("keyword", "void"), ("number", "42"),
             ("string", '"n="'), ("identifier", "println")],
    "csharp": [("keyword", "using"), ("keyword", "static"), ("operator", "=>"), ("comment", "// sum"), ("string", '@"raw"')],
    "go": [("keyword", "package"), ("keyword", "func"), ("operator", ":="), ("number", "3.14"), ("string", '"fmt"'), ("comment", "// print")],
    "rust": [("keyword", "fn"), ("identifier", "parse_header"), ("keyword", "let"), ("number", "10_000"), ("comment", "// limit")],
    "c": [("keyword", "#include"), ("comment", "/* main */"), ("keyword", "int"), ("string", "'x'"), ("string", '"%d\\n"')],
    "cpp": [("keyword", "template"), ("keyword", "typename"), ("identifier", "maxOf"), ("keyword", "auto"), ("comment", "// first")],
}


@pytest.mark.parametrize("language", SUPPORTED)
def test_lossless_typed_and_contract_offsets(language):
    code = SAMPLES[language]
    tokens = tokenize_code(code, language)
    assert "".join(t.text for t in tokens) == code  # covers the source exactly once, in order
    offsets = [t.offsets for t in tokens]
    assert tokcore.validate_offsets_contract(code, offsets, require_string_boundaries=True)
    assert tokcore.offsets_are_nonoverlapping(offsets, ignore_empty=False)
    for t in tokens:
        assert tokcore.try_span_substring(code, t.offsets) == t.text
    # consecutive: each token starts where the previous stopped
    stops = [o[1] for o in offsets]
    assert all(o[0] == prev for o, prev in zip(offsets[1:], stops))
    seen = {(t.type, t.text) for t in tokens}
    for pair in EXPECTED[language]:
        assert pair in seen, f"{language}: expected {pair}"
    assert {t.type for t in tokens} <= set(tokcore.extras.code.TOKEN_TYPES)
    assert any(t.type == "newline" for t in tokens) and any(t.type == "whitespace" for t in tokens)


def test_python_indent_and_dedent_balance():
    code = "class A:\n    def f(self):\n        if x:\n            return 1\n    y = 2\nz = 3\n"
    kinds = [t.type for t in tokenize_code(code, "python")]
    assert kinds.count("indent") == 3 and kinds.count("dedent") == 3
    dedents = [t for t in tokenize_code(code, "python") if t.type == "dedent"]
    assert all(t.text == "" and t.offsets[0] == t.offsets[1] for t in dedents)


def test_unknown_language_lists_supported():
    with pytest.raises(ValueError, match="supported: python, javascript, typescript, java, csharp, go, rust, c, cpp"):
        tokenize_code("x", "cobol")
    assert resolve_language("C++") == "cpp" and resolve_language("c#") == "csharp"


@pytest.mark.parametrize("language, code", [("python", "def f(:\n  x = = 1 )"), ("c", "int main( { return }"), ("javascript", "function ( {")])
def test_syntax_errors_still_tokenize(language, code):
    tokens = tokenize_code(code, language)
    assert "".join(t.text for t in tokens) == code
    assert any(t.type == "error" for t in tokens)


def test_empty_and_non_ascii_code():
    assert tokenize_code("", "python") == []
    code = "s = 'naïve 🙂'  # ok\n"
    tokens = tokenize_code(code, "python")
    assert "".join(t.text for t in tokens) == code
    assert tokcore.validate_offsets_contract(code, [t.offsets for t in tokens], require_string_boundaries=True)


@pytest.mark.parametrize(
    "name, parts",
    [
        ("getUserName", ["get", "User", "Name"]),
        ("GetUserName", ["Get", "User", "Name"]),
        ("snake_case_name", ["snake", "case", "name"]),
        ("kebab-case-name", ["kebab", "case", "name"]),
        ("SCREAMING_CASE", ["SCREAMING", "CASE"]),
        ("XMLHttpRequest", ["XML", "Http", "Request"]),
        ("HTTPServerError", ["HTTP", "Server", "Error"]),
        ("utf8Decoder", ["utf", "8", "Decoder"]),
        ("parseHTML5Doc", ["parse", "HTML", "5", "Doc"]),
        ("__init__", ["init"]),
        ("IOError", ["IO", "Error"]),
        ("x", ["x"]),
        ("", []),
    ],
)
def test_split_identifier(name, parts):
    assert split_identifier(name) == parts


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("abcXYZ019_-$é")), max_size=24))
def test_split_identifier_properties(name):
    spans = split_identifier_spans(name)
    # parts are in order, non-overlapping, and each is exactly the text it spans
    prev = 0
    for part, (s, e) in spans:
        assert name[s:e] == part and s >= prev and e > s
        prev = e
    # nothing but separators is dropped
    kept = "".join(p for p, _ in spans)
    dropped = [c for c in name if c in "_-$"]
    assert len(kept) + len(dropped) == len(name)
    assert all("_" not in p and "-" not in p for p, _ in spans)


@pytest.mark.parametrize("language", ["python", "java"])
def test_encode_code_keeps_spans(language):
    code = SAMPLES[language]
    subs = encode_code(code, language, tokcore.CharTokenizer())
    offsets = [s.offsets for s in subs]
    assert tokcore.validate_offsets_contract(code, offsets, require_string_boundaries=True)
    assert tokcore.offsets_are_nonoverlapping(offsets)
    keywords = [s for s in subs if s.type == "keyword"]
    assert all(tokcore.try_span_substring(code, s.offsets) == s.text for s in keywords)  # kept whole
    # identifier words are encoded one by one: their characters map back exactly
    for s in subs:
        if s.type == "identifier":
            assert tokcore.try_span_substring(code, s.offsets) == s.text
    assert not any(s.type == "whitespace" for s in subs)
