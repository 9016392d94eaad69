"""Malformed tokenizer files: ``tokcore.load`` raises ``TokenizerFileError`` (a ``ValueError``) naming the
file, where in it and what is wrong; never another exception, never a hang; nothing is unpickled
or evaluated.

The corpus (``tests/helpers/malformed/cases.py``) is written into ``tmp_path`` at test time from small valid
bases, each checked here to load (and, for sentencepiece and tiktoken, to encode as the oracle does).
Hypothesis then damages the valid bases at random (truncation, byte flips, replaced JSON values):
every result is a working tokenizer or a ``TokenizerFileError``.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from malformed.cases import (
    CASES,
    VALID_MERGES_TXT,
    VALID_VOCAB_JSON,
    VALID_VOCAB_TXT,
    valid_sp_model,
    valid_tiktoken,
    valid_tokenizer_json,
)
from shared_data import ROOT

import tokcore
from tokcore.core.errors import TokenizerFileError

SCALE = int(os.environ.get("TOKCORE_FUZZ_SCALE", "1"))  # raise for a longer local hunt
FUZZ = settings(max_examples=60 * SCALE, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def write(folder: Path, name: str, data: bytes | str) -> Path:
    path = folder / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


# ------------------------------------------------------------------------------------------
# The valid bases load (so each malformed case fails because of its one defect)


def test_valid_tokenizer_json_base_loads(tmp_path):
    tok = tokcore.load(write(tmp_path, "tokenizer.json", json.dumps(valid_tokenizer_json())))
    assert tok.encode_result("AB a [SEP] b").tokens == ["ab", "a", "[SEP]", "b"]


def test_escaped_surrogate_pairs_are_fine(tmp_path):
    """Python's json.dumps escapes an emoji as a surrogate pair; only lone surrogates are refused."""
    data = valid_tokenizer_json()
    data["added_tokens"].append({"id": 5, "content": "\U0001f600", "special": True, "normalized": False})
    text = json.dumps(data, ensure_ascii=True)
    assert "\\ud83d\\ude00" in text
    tok = tokcore.load(write(tmp_path, "tokenizer.json", text))
    assert tok.encode_result("ab\U0001f600").tokens == ["ab", "\U0001f600"]


def test_valid_sentencepiece_base_loads_and_matches_sentencepiece(tmp_path):
    spm = pytest.importorskip("sentencepiece")
    data = valid_sp_model()
    tok = tokcore.load(write(tmp_path, "m.model", data))
    oracle = spm.SentencePieceProcessor(model_proto=data)
    for text in ("ab a", "ba  b", "xyz ab", ""):
        assert tok.encode(text, add_special_tokens=False) == oracle.encode(text), text


def test_valid_tiktoken_base_loads_and_matches_tiktoken(tmp_path):
    tiktoken = pytest.importorskip("tiktoken")
    from tokcore.loaders.tiktoken_file import read_tiktoken_ranks
    from tokcore.text.byte_level import R50K_PATTERN

    path = write(tmp_path, "r.tiktoken", valid_tiktoken())
    # Not an OpenAI encoding: its split pattern and special tokens must be given (issue 19, class 8).
    with pytest.raises(TokenizerFileError, match="pattern="):
        tokcore.load(path)
    tok = tokcore.load(path, pattern=R50K_PATTERN, special_tokens={"<|endoftext|>": 50256})
    oracle = tiktoken.Encoding("t", pat_str=R50K_PATTERN, mergeable_ranks=read_tiktoken_ranks(path),
                               special_tokens={"<|endoftext|>": 50256})
    for text in ("ab the abab", "é the\n", ""):
        assert tok.encode(text) == oracle.encode(text), text


def test_valid_text_vocabularies_load(tmp_path):
    bert = tokcore.load(write(tmp_path, "vocab.txt", VALID_VOCAB_TXT))
    assert bert.encode_result("ab abb").tokens == ["[CLS]", "ab", "ab", "##b", "[SEP]"]
    write(tmp_path, "vocab.json", json.dumps(VALID_VOCAB_JSON))
    write(tmp_path, "merges.txt", VALID_MERGES_TXT)
    gpt2 = tokcore.load(tmp_path / "merges.txt")
    assert gpt2.encode_result("ab a").tokens == ["ab", "\u0120a"]


# ------------------------------------------------------------------------------------------
# The corpus


def test_corpus_is_large_and_varied():
    assert len(CASES) >= 30
    assert len({c.name for c in CASES}) == len(CASES)
    kinds = {c.name.split("_")[0] for c in CASES}
    assert {"json", "dir", "sp", "tt", "vocab", "merges"} <= kinds


@pytest.mark.parametrize("case", [pytest.param(c, marks=[pytest.mark.xfail(reason=c.xfail, strict=True)] if c.xfail else [])
                                  for c in CASES], ids=[c.name for c in CASES])
def test_malformed_file_raises_tokenizer_file_error(case, tmp_path):
    path = case.build(tmp_path)
    with pytest.raises(TokenizerFileError) as info:
        tokcore.load(path)
    err = info.value
    assert isinstance(err, ValueError)
    message = str(err)
    name = case.file or path.name
    assert name in message, f"the message does not name the file {name!r}: {message}"
    assert name in Path(err.path).name or Path(err.path).name in name or err.path.endswith(name), err.path
    for word in case.words:
        assert word.lower() in message.lower(), f"{word!r} missing from: {message}"
    if case.where is not None:
        assert err.where is not None and case.where in err.where, f"where={err.where!r}, expected {case.where!r}"
        assert err.where in message
    assert len(message) < 2000, "messages stay readable even for huge inputs"


def test_no_case_hangs_or_escapes_in_a_fresh_process(tmp_path):
    """Every case again in a subprocess with a hard timeout: a hang fails here instead of blocking the suite."""
    script = textwrap.dedent(
        """
        import json, sys, time
        from pathlib import Path
        import tokcore
        from malformed.cases import CASES
        root = Path(sys.argv[1])
        for i, case in enumerate(CASES):
            folder = root / str(i)
            folder.mkdir()
            path = case.build(folder)
            t0 = time.perf_counter()
            try:
                tokcore.load(path)
                kind = "loaded"
            except tokcore.TokenizerFileError:
                kind = "TokenizerFileError"
            except BaseException as exc:
                kind = type(exc).__name__
            print(json.dumps({"name": case.name, "kind": kind, "seconds": time.perf_counter() - t0}), flush=True)
        """
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests" / "helpers")])}
    proc = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                          timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [r["name"] for r in rows] == [c.name for c in CASES]
    known = {c.name for c in CASES if c.xfail}
    assert all(r["kind"] == "TokenizerFileError" or r["name"] in known for r in rows), \
        [r for r in rows if r["kind"] != "TokenizerFileError"]
    slow = [r for r in rows if r["seconds"] > 10]
    assert not slow, slow


@pytest.mark.parametrize("bad", ["", "   ", 123, None, b"tokenizer.json", ["tokenizer.json"]])
def test_load_refuses_what_is_not_a_path(bad):
    with pytest.raises((TokenizerFileError, tokcore.WrongTypeError)) as info:
        tokcore.load(bad)  # type: ignore[arg-type]
    assert "path" in str(info.value)


# ------------------------------------------------------------------------------------------
# Random damage to valid files: a working tokenizer or a TokenizerFileError, nothing else


def _load_or_reject(path: Path) -> None:
    try:
        tok = tokcore.load(path)
    except TokenizerFileError as exc:
        assert str(exc).startswith(str(path.parent)), f"the message names no file of the folder: {exc}"
        return
    # A file that loads must work: encoding may refuse text (ValueError) but never crash.
    for text in ("ab a", "é\u200d\U0010ffff"):
        try:
            ids = tok.encode(text)
        except ValueError:
            continue
        tok.decode(ids)


def _damage(data: bytes, cut: int, flips: list[tuple[int, int]]) -> bytes:
    out = bytearray(data[: max(0, len(data) - cut)] if cut else data)
    for pos, value in flips:
        if out:
            out[pos % len(out)] = value
    return bytes(out)


damage = st.tuples(st.integers(0, 400), st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=4))


@FUZZ
@given(damage)
def test_damaged_tokenizer_json_is_loaded_or_rejected(tmp_path, d):
    _load_or_reject(write(tmp_path, "tokenizer.json", _damage(json.dumps(valid_tokenizer_json()).encode(), *d)))


@FUZZ
@given(damage)
def test_damaged_sentencepiece_model_is_loaded_or_rejected(tmp_path, d):
    _load_or_reject(write(tmp_path, "m.model", _damage(valid_sp_model(), *d)))


@FUZZ
@given(damage)
def test_damaged_tiktoken_file_is_loaded_or_rejected(tmp_path, d):
    _load_or_reject(write(tmp_path, "r.tiktoken", _damage(valid_tiktoken(), d[0] * 8, d[1])))


@FUZZ
@given(damage)
def test_damaged_vocab_txt_and_merges_are_loaded_or_rejected(tmp_path, d):
    _load_or_reject(write(tmp_path, "vocab.txt", _damage(VALID_VOCAB_TXT.encode(), d[0] % 40, d[1])))
    write(tmp_path, "vocab.json", _damage(json.dumps(VALID_VOCAB_JSON).encode(), d[0] % 30, d[1]))
    _load_or_reject(write(tmp_path, "merges.txt", _damage(VALID_MERGES_TXT.encode(), 0, d[1])))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 2**33) | st.floats(allow_nan=True) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["type", "vocab", "a", "id", "content"]),
                                                                inner, max_size=3),
    max_leaves=8,
)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


ALL_PATHS = [p for p in _paths(valid_tokenizer_json()) if p]


@settings(max_examples=150 * SCALE, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(ALL_PATHS), json_values)
def test_replaced_json_value_is_loaded_or_rejected(tmp_path, where, value):
    data = valid_tokenizer_json()
    node = data
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    _load_or_reject(write(tmp_path, "tokenizer.json", json.dumps(data)))


# ------------------------------------------------------------------------------------------
# Nothing is unpickled, evaluated or fetched

FORBIDDEN_MODULES = {"pickle", "cPickle", "dill", "joblib", "marshal", "shelve", "yaml", "torch", "numpy",
                     "subprocess", "socket", "urllib", "http", "requests", "ctypes"}
FORBIDDEN_CALLS = {"eval", "exec", "compile", "__import__", "execfile", "input"}


def test_tokcore_never_unpickles_evaluates_or_opens_the_network():
    problems = []
    for path in sorted((ROOT / "tokcore").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        rel = path.relative_to(ROOT)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""] if node.level == 0 else []
            else:
                names = []
            for name in names:
                if name.split(".")[0] in FORBIDDEN_MODULES:
                    problems.append(f"{rel}:{node.lineno} imports {name}")
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                literal = bool(node.args) and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                if called == "__import__" and literal and node.args[0].value.split(".")[0] not in FORBIDDEN_MODULES:
                    continue  # importing a fixed, allowed module by name is not evaluation
                if isinstance(func, ast.Name) and called in FORBIDDEN_CALLS:
                    problems.append(f"{rel}:{node.lineno} calls {called}()")
                if called in {"loads", "load"} and isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                        and func.value.id in FORBIDDEN_MODULES:
                    problems.append(f"{rel}:{node.lineno} calls {func.value.id}.{called}()")
                if called == "import_module" and rel.as_posix() != "tokcore/__init__.py":
                    problems.append(f"{rel}:{node.lineno} imports a module by name")
    assert not problems, problems


def test_lazy_exports_import_only_tokcore_modules():
    """``tokcore.__getattr__`` imports by name, but only from its fixed table of tokcore modules."""
    import tokcore as package

    lazy = getattr(package, "_LAZY", {})
    assert all(module.startswith("tokcore.") for module in lazy.values()), lazy
    with pytest.raises(AttributeError):
        package.__getattr__("os")


def test_loading_a_pickle_never_runs_it(tmp_path):
    """A pickle whose loading would create a marker file: every way of loading it leaves no marker."""
    marker = tmp_path / "ran"
    payload = (b"cos\nsystem\n(S'touch " + str(marker).encode() + b"'\ntR.")
    for name in ("tokenizer.json", "tokenizer.pkl", "tokenizer.model", "vocab.txt", "x.tiktoken", "tokenizer"):
        path = write(tmp_path, name, payload)
        with pytest.raises(TokenizerFileError):
            tokcore.load(path)
        path.unlink()
    write(tmp_path, "model.bin", payload)
    with pytest.raises(TokenizerFileError, match="no tokenizer file found"):
        tokcore.load(tmp_path)
    assert not marker.exists()
