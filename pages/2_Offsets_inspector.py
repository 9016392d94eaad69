"""Offsets inspector: every token's spans, unsafe boundaries, the contract verdicts, word alignment, export."""

import pandas as pd
import streamlit as st

from tokapp import inspector, inspector_html, share, st_common, st_display, st_share, windows
from tokapp.tokens import TokenView

P = "oi"  # widget key prefix of this page
DEFAULT_TEXT = "a🙂b, café and e\u0301 👩\u200d💻!"
DEFAULT_TOKENIZER = "file:english_bytelevel_bpe.json"
COORD_CHOICES = ("view", "original")
SCHEMA = (
    share.Option("coords", COORD_CHOICES, "view"),
    share.Option("special", (True, False), True),
    share.Option("plain", (True, False), False),
)

st_common.page_setup()
st.html(inspector_html.style_block())
st.html(windows.style_block())
st.title("Offsets inspector")
st.caption("Where every token comes from: its contract span (1-based, half-open UTF-8 bytes), its character span, "
           "its span in the raw input, and whether its boundaries cut a character or a grapheme cluster.")

st_share.seed(P, text_default=DEFAULT_TEXT, tokenizer_default=DEFAULT_TOKENIZER,
                      known_tokenizers=[s.key for s in st_common.available_specs()], schema=SCHEMA)

with st.sidebar:
    picker_box = st.container()
    st_common.tokenizer_sources(P)  # models by name and uploads, selected once added
    palette, show_ids = st_common.display_options()
    with picker_box:
        spec = st_share.tokenizer_select(P, st_common.available_specs())

text = st.text_area("Text", key=f"{P}_text", persist_state="session", height=100,
                    help="Ctrl+Enter (or click outside) to inspect. Try emoji, accents, ZWJ sequences.")
full_text, text = text, st_display.capped(text, windows.MAX_TEXT_CHARS)  # typed, pasted or linked: said aloud
st.caption(f"Up to {windows.MAX_TEXT_CHARS:,} characters. Long texts are drawn {windows.WINDOW_TOKENS} tokens at a "
           "time (pick the window below); the checks and counts always cover the whole text; the downloads are "
           "built when you click them.")
c1, c2, c3 = st.columns([2, 1, 1])
coords = c1.radio("Check spans against", COORD_CHOICES, key=f"{P}_coords", persist_state="session", horizontal=True,
                  format_func=lambda c: {"view": "tokenization text (offsets)",
                                         "original": "raw input (original_offsets)"}[c],
                  help="The contract's coordinates are the tokenization text (after the tokenizer's own "
                       "normalization). original_offsets map each span back to the raw input.")
add_special = c2.toggle("Add template tokens", key=f"{P}_special", persist_state="session",
                        help="Tokens the post-processor inserts (e.g. [CLS]) get the (0, 0) sentinel.")
plain = c3.toggle("Special tokens as plain text", key=f"{P}_plain", persist_state="session",
                  help="Off: a special token typed in the text is one token with a real span.")
pad_col, units_col, _ = st.columns([1, 1, 1])
padding = st_display.padding_switch(P, where=pad_col)
both_units = st_display.units_switch(P, where=units_col)


@st.cache_data(show_spinner=False, max_entries=64)
def analyse(cache_key: str, text: str, plain: bool, add_special: bool, padding: bool, truncation: bool, coords: str,
            _view) -> dict:
    """Unsafe boundaries, verdicts and counts over the whole text, cached by plain strings (linear time)."""
    return inspector.summary(_view, coords)


try:
    with st_common.long_work(len(text), f"Encoding and checking {len(text):,} characters…"):
        truncation = st_display.truncation_switch(P, [st_common.load_tokenizer(spec)], where=pad_col)
        view = st_common.token_view(spec, text, split_special=plain, add_special_tokens=add_special, padding=padding,
                                    truncation=truncation)
        result = analyse(spec.cache_key, text, plain, add_special, padding, truncation, coords, view)
except st_common.INPUT_ERRORS as exc:  # the engine's message as st.error, never a traceback
    st_common.show_error(exc)
    st.stop()

issues = result["issues"]
points = inspector.issue_points(issues)
red = sorted(b for b, k in points.items() if k == "inside_char")
amber = sorted(b for b, k in points.items() if k == "inside_grapheme")
m1, m2, m3, m4, m5 = st.columns(5)
m1.metric("Tokens", result["tokens"])
m2.metric("Sentinels (0, 0)", result["sentinels"])
m3.metric("Red boundaries", len(red), help="Boundaries inside a UTF-8 character (byte-level tokenizers do this).")
m4.metric("Amber boundaries", len(amber), help="Boundaries on a character boundary but inside a grapheme cluster "
                                               "(a ZWJ emoji, a letter and its combining accent).")
m5.metric("Contract", "valid" if result["verdicts"][0].ok else "broken")

checked, offsets = inspector.text_and_offsets(view, coords)
n_windows = windows.window_count(len(view), windows.WINDOW_TOKENS)
number = 1
if n_windows > 1:
    number = st.number_input(f"Window ({windows.WINDOW_TOKENS} tokens each, 1 to {n_windows})", 1, n_windows,
                             key=f"{P}_window", help="The token stream is drawn one window at a time; the bar "
                             "below shows where it sits and where the unsafe boundaries are.")
lo, hi = windows.token_window(len(view), int(number) - 1, windows.WINDOW_TOKENS)
marks = [(i["token"], i["flag"]) for i in issues]
st.html(windows.minimap_html(len(view), lo, hi, marks))
first_byte, stop_byte = inspector.window_bytes(offsets, lo, hi, len(checked.encode("utf-8", "surrogatepass")))
window_rows = inspector.inspect_rows(TokenView(view.raw_text, view.view_text, view.rows[lo:hi], view.split_special))

st.subheader("Spans over the text")
checked_label = inspector.COORD_LABELS[coords]
st.caption(f"Drawn over the {checked_label}. Top lane: tokens with a span, over the bytes they cover "
           "(a cut character shows as ‹hex›). Bottom lane: tokens with no source, the (0, 0) sentinel, "
           "where the sequence puts them.")
st.html(inspector_html.legend_html())
st.html(inspector_html.lanes_html(view, points, coords=coords, palette=palette, show_ids=show_ids, start=lo,
                                  max_tokens=hi - lo, both_units=both_units))
if view.view_text != view.raw_text:
    st.caption("This tokenizer normalizes the text first: switch “Check spans against” to compare both coordinates.")

if issues:
    st.warning(f"{len(points)} unsafe boundar{'y' if len(points) == 1 else 'ies'}: "
             f"{len(red)} inside a UTF-8 character (red), {len(amber)} inside a grapheme cluster (amber).",
             icon=":material/content_cut:")
    st.dataframe(pd.DataFrame(issues), hide_index=True, width="stretch")
else:
    st.success("No unsafe boundary: every span starts and stops between grapheme clusters.",
               icon=":material/check_circle:")

st.subheader("Contract verdicts")
st.html(inspector_html.verdicts_html(result["verdicts"]))

st.subheader("Byte grid")
st.caption("Each UTF-8 byte under its character (dotted boxes group a grapheme cluster), coloured by the token "
           "covering it; a bar before a byte is a token boundary, red or amber when unsafe; tN marks where token N "
           "starts. Grey bytes belong to no token.")
st.html(inspector_html.byte_grid_html(view, points, coords=coords, palette=palette, start_byte=first_byte))

st.subheader("Tokens")
st.caption("span: the contract (1-based, half-open UTF-8 bytes into the tokenization text; (0, 0) = no source). "
           "chars: the same span as 0-based Python character indices (widened to whole characters). raw-input span: "
           "the token's span in the text you typed (bytes, 1-based, half-open); “Offsets in characters too” adds "
           "its character span. "
           f"boundary: checked against the {checked_label}.")
narrow = {name: st.column_config.Column(width=w) for name, w in (("#", 44), ("id", 64), ("special", 64))}
st.dataframe(pd.DataFrame(inspector.display_records(window_rows, coords, both_units=both_units)), hide_index=True,
             width="stretch",
             column_config=narrow)
name = spec.key
d1, d2, _ = st.columns([1, 1, 3])
d1.download_button("Download JSON", lambda: inspector.json_text(view, inspector.inspect_rows(view), tokenizer=name,
                                                                coords=coords),
                   file_name="offsets.json", mime="application/json", key=f"{P}_dl_json", icon=":material/download:",
                   help="Every token of the whole text, one list per field (format "
                        f"{inspector.JSON_FORMAT}, described in tokapp/inspector.py); built when you click.")
d2.download_button("Download CSV", lambda: inspector.csv_text(inspector.inspect_rows(view)), file_name="offsets.csv",
                   mime="text/csv", key=f"{P}_dl_csv", icon=":material/download:",
                   help="Every token of the whole text; built when you click.")

st.subheader("Words to subwords")
st.caption("Whitespace-separated words of this window and the tokens overlapping them. Only tokens with "
           "has_nonempty_span take part: sentinels never do, special tokens matched in the text do.")
words = inspector.word_rows(checked, offsets, view.tokens, within=(first_byte, stop_byte))
if words:
    st.dataframe(pd.DataFrame(inspector.word_display(words)), hide_index=True, width="stretch")
else:
    st.caption("(no words in the text)")

params = share.encode_state(P, text=text, tokenizers=spec.key,
                            options={"coords": coords, "special": add_special, "plain": plain}, schema=SCHEMA)
st_share.publish(P, params)
st_share.share_box(params, note=share.link_note(full_text, [spec]))
