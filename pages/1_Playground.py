"""Playground: type text, pick a tokenizer, see every token over the text with its id, bytes and offsets."""

import pandas as pd
import streamlit as st

from tokapp import html, st_common, st_display, st_share, windows
from tokapp.markdown import md_code
from tokapp.tokens import covered_characters, special_token_strings, table_csv, table_records

P = "pg"  # widget key prefix of this page
SHARE_TEXT_LIMIT = 600  # longer texts are not put in the link
TEXT_CAP = 20_000  # characters encoded, however the text arrives (typed, pasted, or from a link)
DEFAULT_TEXT = "Hello, world!\tTabs and\nnewlines count too.\nThe cat sat. <UNK> is special; é is not ASCII."
PARSE, PLAIN = "Parse special tokens", "Encode them as plain text"

st_common.page_setup()
st.title("Playground")
st.caption("Type text, pick a tokenizer, and see each token over the text with its id, bytes and offsets.")

with st.sidebar:
    spec = st_common.tokenizer_picker(P)  # warns when a link names a tokenizer this session does not have
    palette, show_ids = st_common.display_options()

if f"{P}_text" not in st.session_state:
    st.session_state[f"{P}_text"] = st.query_params.get(f"{P}_text", DEFAULT_TEXT)
text = st.text_area("Text", key=f"{P}_text", persist_state="session", height=140,
                    help=f"Ctrl+Enter (or click outside) to tokenize. Up to {TEXT_CAP:,} characters are encoded.")
if len(text) <= SHARE_TEXT_LIMIT:
    st.query_params[f"{P}_text"] = text
else:
    st.query_params.pop(f"{P}_text", None)
text = st_display.capped(text, TEXT_CAP)

left, middle, right = st.columns([2, 1, 1])
mode = left.segmented_control("Special tokens in the text", [PARSE, PLAIN], default=PARSE, required=True,
                              key=f"{P}_special", bind="query-params",
                              help="Parse: a special token typed in the text is one token. Plain: it is split "
                                   "like any other text.")
add_special = middle.toggle("Add template tokens", value=True, key=f"{P}_add_special", bind="query-params",
                            help="Tokens the post-processor inserts (e.g. [CLS]); they have the (0, 0) sentinel span.")
coords = right.radio("Draw over", ["tokenization text", "raw input"], key=f"{P}_coords", horizontal=True,
                     bind="query-params",
                     help="Tokenization text: what the offsets point into (after normalization). "
                          "Raw input: spans mapped back through the normalizer's alignment.")

pad_col, units_col = st.columns(2)
padding = st_display.padding_switch(P, where=pad_col)
both_units = st_display.units_switch(P, where=units_col)

try:
    tokenizer = st_common.load_tokenizer(spec)
    truncation = st_display.truncation_switch(P, [tokenizer], where=pad_col)
    options = {"add_special_tokens": add_special, "padding": padding, "truncation": truncation}
    parsed = st_common.token_view(spec, text, split_special=False, **options)
    plain = st_common.token_view(spec, text, split_special=True, **options)
except st_common.INPUT_ERRORS as exc:  # the engine's message as st.error, never a traceback
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

if getattr(tokenizer, "truncation", None) and truncation and (covered := covered_characters(view)) < counts.characters:
    st.caption(f"The tokenizer's truncation kept {counts.tokens} tokens: they cover the first {covered:,} of the "
               f"{counts.characters:,} characters (characters per token divides the whole text).")
st.html(html.legend_html(palette))
st.html(html.tokens_html(view, coords="view" if coords == "tokenization text" else "original",
                         palette=palette, show_ids=show_ids, both_units=both_units))
if view.view_text != view.raw_text:
    st.caption(f"The tokenizer normalizes the text first: {counts.view_characters} characters, "
               f"{counts.view_bytes} bytes in the tokenization text the offsets point into.")

st.subheader("Special tokens: parsed or plain text")
specials = special_token_strings(tokenizer)
delta = len(plain) - len(parsed)
st.write(f"Parsed: **{len(parsed)}** tokens · plain text: **{len(plain)}** tokens · "
         f"delta **{delta:+d}** when special tokens are encoded as plain text.")
if specials:
    st.caption("Special tokens of this tokenizer: " + ", ".join(md_code(s) for s in specials[:20]))
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
st.caption("offsets: UTF-8 bytes, 1-based, half-open, in the tokenization text; (0, 0) means inserted, "
           "no source. raw-input offsets: the same span in the raw input. Switch on “Offsets in characters too” "
           "for 0-based character positions.")
lo, hi = 0, len(view)
if len(view) > windows.TABLE_ROWS:  # a long text: one page of rows per rerun, the whole table in the CSV
    n_pages = windows.window_count(len(view), windows.TABLE_ROWS)
    page_key = f"{P}_table_page"
    if st.session_state.get(page_key, 1) > n_pages:  # the text got shorter: its last page, not an error
        st.session_state[page_key] = n_pages
    page = st.number_input("Table page", 1, n_pages, key=page_key,
                           help=f"{windows.TABLE_ROWS} rows per page; the CSV download below holds every row.")
    lo, hi = windows.token_window(len(view), int(page) - 1, windows.TABLE_ROWS)
    st.caption(f"Rows {lo:,}–{hi - 1:,} of {len(view):,} (by #), page {int(page)} of {n_pages}. "
               "Download the CSV for every row.")
st.dataframe(pd.DataFrame(table_records(view, both_units=both_units, start=lo, stop=hi)), hide_index=True,
             width="stretch")
st.download_button("Download the whole table (CSV)", lambda: table_csv(view, both_units=both_units),
                   file_name="tokens.csv", mime="text/csv", key=f"{P}_dl_csv", on_click="ignore",
                   icon=":material/download:", help=f"All {len(view):,} rows, with the columns above; built when "
                                                    "you click.")

left_out = []
if len(text) > SHARE_TEXT_LIMIT:
    left_out.append(f"the text ({len(text):,} characters; a link carries {SHARE_TEXT_LIMIT})")
if spec.kind in ("session", "upload"):
    left_out.append(f"the tokenizer “{spec.label}” (uploaded or trained in this session)")
st_share.share_box(st_share.current_params(),
                   note=("This link cannot carry " + " and ".join(left_out) + ": the reader gets the default.")
                   if left_out else None)
