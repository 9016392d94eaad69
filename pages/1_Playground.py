"""Playground: type text, pick a tokenizer, see every token over the text with its id, bytes and offsets."""

import pandas as pd
import streamlit as st

from tokapp import html, st_common
from tokapp.tokens import special_token_strings, table_records

P = "pg"  # widget key prefix of this page
SHARE_TEXT_LIMIT = 600  # longer texts are not put in the link
DEFAULT_TEXT = "Hello, world!\tTabs and\nnewlines count too.\nThe cat sat. <UNK> is special; é is not ASCII."
PARSE, PLAIN = "Parse special tokens", "Encode them as plain text"

st_common.page_setup()
st.title("Playground")
st.caption("Type text, pick a tokenizer, and see each token over the text with its id, bytes and offsets.")

with st.sidebar:
    spec = st_common.tokenizer_picker(P)
    palette, show_ids = st_common.display_options()

if f"{P}_text" not in st.session_state:
    st.session_state[f"{P}_text"] = st.query_params.get(f"{P}_text", DEFAULT_TEXT)
text = st.text_area("Text", key=f"{P}_text", height=140, max_chars=20_000,
                    help="Ctrl+Enter (or click outside) to tokenize.")
if len(text) <= SHARE_TEXT_LIMIT:
    st.query_params[f"{P}_text"] = text
else:
    st.query_params.pop(f"{P}_text", None)

left, middle, right = st.columns([2, 1, 1])
mode = left.segmented_control("Special tokens in the text", [PARSE, PLAIN], default=PARSE, required=True,
                              key=f"{P}_special", bind="query-params",
                              help="Parse: a special token typed in the text is one token. Plain: it is split "
                                   "like any other text.")
add_special = middle.toggle("Add template tokens", value=True, key=f"{P}_add_special",
                            help="Tokens the post-processor inserts (e.g. [CLS]); they have the (0, 0) sentinel span.")
coords = right.radio("Draw over", ["tokenization text", "raw input"], key=f"{P}_coords", horizontal=True,
                     help="Tokenization text: what the offsets point into (after normalization). "
                          "Raw input: spans mapped back through the normalizer's alignment.")

try:
    tokenizer = st_common.load_tokenizer(spec)
    parsed = st_common.token_view(spec, text, split_special=False, add_special_tokens=add_special)
    plain = st_common.token_view(spec, text, split_special=True, add_special_tokens=add_special)
except Exception as exc:  # the engine's message as st.error, never a traceback
    st_common.show_error(exc)
    st.stop()

view = plain if mode == PLAIN else parsed
counts = view.counts()
c1, c2, c3, c4, c5 = st.columns(5)
c1.metric("Tokens", counts.tokens)
c2.metric("Characters", counts.characters)
c3.metric("Bytes (UTF-8)", counts.bytes)
c4.metric("Characters / token", "–" if counts.chars_per_token is None else f"{counts.chars_per_token:.2f}")
c5.metric("Special / unknown", f"{counts.special} / {counts.unknown}")

st.html(html.legend_html(palette))
st.html(html.tokens_html(view, coords="view" if coords == "tokenization text" else "original",
                         palette=palette, show_ids=show_ids))
if view.view_text != view.raw_text:
    st.caption(f"The tokenizer normalizes the text first: {counts.view_characters} characters, "
               f"{counts.view_bytes} bytes in the tokenization text the offsets point into.")

st.subheader("Special tokens: parsed or plain text")
specials = special_token_strings(tokenizer)
delta = len(plain) - len(parsed)
st.write(f"Parsed: **{len(parsed)}** tokens · plain text: **{len(plain)}** tokens · "
         f"delta **{delta:+d}** when special tokens are encoded as plain text.")
if specials:
    st.caption("Special tokens of this tokenizer: " + ", ".join(f"`{s}`" for s in specials[:20]))
col_parsed, col_plain = st.columns(2)
with col_parsed:
    st.markdown(f"**{PARSE}** ({len(parsed)})")
    st.html(html.tokens_html(parsed, palette=palette, show_ids=show_ids, max_tokens=400))
with col_plain:
    st.markdown(f"**{PLAIN}** ({len(plain)})")
    st.html(html.tokens_html(plain, palette=palette, show_ids=show_ids, max_tokens=400))

with st.expander("Byte view per token", expanded=False):
    st.html(html.byte_view_html(view, palette=palette))

st.subheader("Tokens")
st.caption("offsets: 1-based, half-open UTF-8 byte spans in the tokenization text; (0, 0) means inserted, "
           "no source. original offsets: the same span in the raw input.")
st.dataframe(pd.DataFrame(table_records(view)), hide_index=True, width="stretch")
