"""Pipeline stages: one tokenizer and one text, every stage in turn (raw input, normalizer,
pre-tokenizer pieces, model tokens, post-processor output) with its spans, and the alignment that
maps the tokenization text back to the raw input."""

import pandas as pd
import streamlit as st

from tokapp import st_common, st_display, stages, train_html
from tokapp.markdown import md_text

P = "ps"  # widget key prefix of this page
DEFAULT_TEXT = "Héllo, WORLD!  Tokenizers don't agree 🙂"
SHARE_TEXT_LIMIT = 600
TEXT_CAP = 5_000

st_common.page_setup()
st.html(train_html.style_block())
st.title("Pipeline stages")
st.caption("Normalizer → pre-tokenizer → model → post-processor: what each stage makes of the text, with spans. "
           "Every span column names its unit and base: the stage tables use characters, 0-based, [start, stop); "
           "the raw input's bytes and the post-processor's offsets are the contract's UTF-8 bytes, 1-based, "
           "(start, stop), with (0, 0) for inserted tokens.")

with st.sidebar:
    spec = st_common.tokenizer_picker(P)
    lexnorm = st.toggle("Lexical normalizer first", key=f"{P}_lexnorm", bind="query-params",
                        help="Run tokcore.extras.lexnorm on the text before the tokenizer (noisy English: tmrw → tomorrow).")

if f"{P}_text" not in st.session_state:
    st.session_state[f"{P}_text"] = st.query_params.get(f"{P}_text", DEFAULT_TEXT)
text = st.text_area("Text", key=f"{P}_text", persist_state="session", height=90, help=f"Up to {TEXT_CAP:,} characters are run.")
if len(text) <= SHARE_TEXT_LIMIT:
    st.query_params[f"{P}_text"] = text
else:
    st.query_params.pop(f"{P}_text", None)
    st.caption(f"The page's link (the address bar) cannot carry a text of {len(text):,} characters (it carries "
               f"{SHARE_TEXT_LIMIT}): the reader gets the default text.")

pad_col, units_col = st.columns(2)
padding = st_display.padding_switch(P, where=pad_col)
both_units = st_display.units_switch(P, where=units_col)
text = st_display.capped(text, TEXT_CAP)
try:
    tokenizer = st_common.load_tokenizer(spec)
    truncation = st_display.truncation_switch(P, [tokenizer], where=pad_col)
    ctx, results = stages.run_stages(tokenizer, text, optional=("lexnorm",) if lexnorm else (), padding=padding,
                                     truncation=truncation, both_units=both_units)
except st_common.INPUT_ERRORS as exc:  # the engine's message as st.error, never a traceback
    st_common.show_error(exc)
    st.stop()

for n, result in enumerate(results, 1):
    st.subheader(f"{n}. {result.name}")
    st.caption(md_text(result.description))  # names and notes may quote the tokenizer file or the text
    if result.text is not None:
        st.code(result.text or " ", language=None)
    if result.chips:
        st.html('<div class="tr-words">' + "".join(
            f'<span class="tr-sym{" tr-new" if hi else ""}">{train_html.escape(label)}</span>'
            for label, hi in result.chips) + "</div>")
    if result.note:
        st.info(md_text(result.note))
    if result.rows:
        with st.expander(result.rows_label(), expanded=result.name in ("Model", "Post-processor", "Alignment")):
            st.dataframe(pd.DataFrame(result.rows), hide_index=True, width="stretch")
