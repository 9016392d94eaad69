"""Code: syntax-typed tokens from tree-sitter, identifier splits, and syntax-aware subwords against plain ones."""

import pandas as pd
import streamlit as st

import tokcore
from tokapp import code_view, html, st_common, st_display

P = "code"  # widget key prefix of this page
DEFAULT_TOKENIZER = "file:code_bytelevel_bpe.json"
TEXT_CAP = 20_000
SUBWORDS, PLAIN = "Syntax-aware subwords", "Plain subwords"

st_common.page_setup()
st.html(code_view.style_block())
st.title("Code")
st.caption("Code parsed with tree-sitter: every token typed (keyword, identifier, string…) with its exact byte span, "
           "identifiers split into words, and the code fed to a subword tokenizer syntax first.")


TEXT_KEY = f"{P}_text"
SAMPLE_FOR = f"{P}_sample_for"  # the language the code box was last set for, with its text


def _load_sample() -> None:
    st.session_state[TEXT_KEY] = code_view.SAMPLES[st.session_state[f"{P}_lang"]]


with st.sidebar:
    if f"{P}_tok" not in st.session_state and f"{P}_tok" not in st.query_params:
        # Code deserves a tokenizer trained on code; the shared default is the ASCII character one.
        if any(s.key == DEFAULT_TOKENIZER for s in st_common.available_specs()):
            st.session_state[f"{P}_tok"] = DEFAULT_TOKENIZER
    spec = st_common.tokenizer_picker(P, label="Subword tokenizer")
    show_ids = st.toggle("Show ids under units", value=True, key=f"{P}_ids")

left, right = st.columns([1, 3])
language = left.selectbox("Language", list(code_view.SAMPLES), format_func=code_view.language_label,
                          key=f"{P}_lang",
                          help="Picking a language loads its sample; edit the code freely afterwards.")
left.button("Reload the sample", key=f"{P}_sample", on_click=_load_sample)
# A new language loads its sample unless the code was edited since (a run stopped halfway loses
# the load to the browser's old text, so the next run loads it again: st_common.settings_to_reset).
if TEXT_KEY not in st.session_state or (SAMPLE_FOR in st.session_state
                                        and st_common.settings_to_reset(SAMPLE_FOR, language, (TEXT_KEY,))):
    st.session_state[TEXT_KEY] = code_view.SAMPLES[language]
code = right.text_area("Code", key=TEXT_KEY, height=260,
                       help=f"Ctrl+Enter (or click outside) to tokenize. Up to {TEXT_CAP:,} characters are used. "
                            "Syntax errors still tokenize: the broken parts are typed 'error'.")
st_common.note_settings(SAMPLE_FOR, language, (TEXT_KEY,))
code = st_display.capped(code, TEXT_CAP, what="code")

try:
    tokens = tokcore.tokenize_code(code, language)
except st_common.INPUT_ERRORS as exc:  # the engine's message as st.error, never a traceback
    st_common.show_error(exc)
    st.stop()

st.subheader("Syntax tokens")
st.html(code_view.legend_html())
st.html(code_view.code_html(tokens))
errors = sum(1 for t in tokens if t.type == "error")
if errors:
    st.warning(f"{errors} token(s) the parser could not place are typed 'error' (outlined in red).",
               icon=":material/warning:")
st.caption(f"{len(tokens)} tokens cover the {len(code.encode('utf-8'))} bytes of the code exactly once, in order "
           "(hover a token for its type, tree-sitter node and contract byte span).")

st.subheader("Identifiers, split into words")
rows = code_view.identifier_rows(tokens)
if rows:
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key=f"{P}_idents")
else:
    st.caption("No identifiers in this code.")

st.subheader("Subwords: syntax-aware against plain")
padding = st_display.padding_switch(P)  # the plain subwords only: syntax-aware units are never padded
try:
    tokenizer = st_common.load_tokenizer(spec)
    units = tokcore.encode_code(code, language, tokenizer)
    plain = st_common.token_view(spec, code, add_special_tokens=False, padding=padding)
except st_common.INPUT_ERRORS as exc:
    st_common.show_error(exc)
    st.stop()

totals = code_view.summary(tokens, units, len(plain))
c1, c2, c3, c4 = st.columns(4)
c1.metric("Syntax tokens", totals["syntax tokens"], help="Every token but the plain whitespace between them.")
c2.metric(SUBWORDS, totals["syntax-aware subwords"])
c3.metric(PLAIN, totals["plain subwords"])
c4.metric("Difference", f"{totals['delta']:+d}", help="Syntax-aware minus plain subwords (negative: fewer units).")
st.caption("Syntax-aware: keywords, operators and punctuation whole; identifiers split into words, each "
           "subword-encoded; comments encoded as text; each string or number one literal unit (id –); "
           "indentation levels as units; spaces dropped. Plain: the same code through the tokenizer as text.")

shown = st.segmented_control("Show", [SUBWORDS, PLAIN, "Both"], default="Both", required=True, key=f"{P}_show")
if shown == "Both":
    col_a, col_b = st.columns(2)
else:
    col_a = col_b = st.container()
if shown in (SUBWORDS, "Both"):
    with col_a:
        st.markdown(f"**{SUBWORDS}** ({len(units)}), coloured by syntax type")
        st.html(code_view.subwords_html(code, units, show_ids=show_ids))
if shown in (PLAIN, "Both"):
    with col_b:
        st.markdown(f"**{PLAIN}** ({len(plain)}), alternating colours")
        st.html(html.tokens_html(plain, show_ids=show_ids, max_tokens=3000))

st.dataframe(pd.DataFrame(code_view.count_rows(tokens, units)), hide_index=True, width="stretch", key=f"{P}_counts")
