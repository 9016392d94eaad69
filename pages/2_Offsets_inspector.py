"""Offsets inspector: every token's spans, unsafe boundaries, the contract verdicts, word alignment, export."""

import pandas as pd
import streamlit as st

from tokapp import inspector, inspector_html, share, st_common, st_share

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

text = st.text_area("Text", key=f"{P}_text", persist_state="session", height=100, max_chars=20_000,
                    help="Ctrl+Enter (or click outside) to inspect. Try emoji, accents, ZWJ sequences.")
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


@st.cache_data(show_spinner=False, max_entries=256)
def analyse(cache_key: str, tokenizer: str, text: str, plain: bool, add_special: bool, coords: str, _view):
    """Rows, unsafe boundaries, verdicts and words for one encoding, cached by plain strings."""
    rows = inspector.inspect_rows(_view)
    checked, offsets = inspector.text_and_offsets(_view, coords)
    issues = inspector.issue_records(checked, offsets, _view.tokens)
    return {
        "rows": rows,
        "issues": issues,
        "verdicts": inspector.verdicts(checked, offsets, _view.tokens),
        "words": inspector.word_rows(checked, offsets, _view.tokens),
        "json": inspector.json_text(_view, rows, tokenizer=tokenizer, coords=coords),
        "csv": inspector.csv_text(rows),
    }


try:
    view = st_common.token_view(spec, text, split_special=plain, add_special_tokens=add_special)
    result = analyse(spec.cache_key, spec.key, text, plain, add_special, coords, view)
except Exception as exc:  # the engine's message as st.error, never a traceback
    st_common.show_error(exc)
    st.stop()

rows, issues = result["rows"], result["issues"]
points = inspector.issue_points(issues)
red = sorted(b for b, k in points.items() if k == "inside_char")
amber = sorted(b for b, k in points.items() if k == "inside_grapheme")
m1, m2, m3, m4, m5 = st.columns(5)
m1.metric("Tokens", len(rows))
m2.metric("Sentinels (0, 0)", sum(1 for r in rows if not r["has_span"]))
m3.metric("Red boundaries", len(red), help="Boundaries inside a UTF-8 character (byte-level tokenizers do this).")
m4.metric("Amber boundaries", len(amber), help="Boundaries on a character boundary but inside a grapheme cluster "
                                               "(a ZWJ emoji, a letter and its combining accent).")
m5.metric("Contract", "valid" if result["verdicts"][0].ok else "broken")

st.subheader("Spans over the text")
checked_label = inspector.COORD_LABELS[coords]
st.caption(f"Drawn over the {checked_label}. Top lane: tokens with a span, over the bytes they cover "
           "(a cut character shows as ‹hex›). Bottom lane: tokens with no source, the (0, 0) sentinel, "
           "where the sequence puts them.")
st.html(inspector_html.legend_html())
st.html(inspector_html.lanes_html(view, points, coords=coords, palette=palette, show_ids=show_ids))
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
st.html(inspector_html.byte_grid_html(view, points, coords=coords, palette=palette))

st.subheader("Tokens")
st.caption("span: the contract (1-based, half-open UTF-8 bytes into the tokenization text; (0, 0) = no source). "
           "chars: the same span as 0-based Python character indices (widened to whole characters). "
           f"boundary: checked against the {checked_label}.")
narrow = {name: st.column_config.Column(width=w) for name, w in (("#", 44), ("id", 64), ("special", 64))}
st.dataframe(pd.DataFrame(inspector.display_records(rows, coords)), hide_index=True, width="stretch",
             column_config=narrow)
d1, d2, _ = st.columns([1, 1, 3])
d1.download_button("Download JSON", result["json"], file_name="offsets.json", mime="application/json",
                   key=f"{P}_dl_json", icon=":material/download:")
d2.download_button("Download CSV", result["csv"], file_name="offsets.csv", mime="text/csv",
                   key=f"{P}_dl_csv", icon=":material/download:")

st.subheader("Words to subwords")
st.caption("Whitespace-separated words and the tokens overlapping them. Only tokens with has_nonempty_span take "
           "part: sentinels never do, special tokens matched in the text do.")
words = result["words"]
if words:
    st.dataframe(pd.DataFrame(inspector.word_display(words)), hide_index=True, width="stretch")
else:
    st.caption("(no words in the text)")

params = share.encode_state(P, text=text, tokenizers=spec.key,
                            options={"coords": coords, "special": add_special, "plain": plain}, schema=SCHEMA)
st_share.publish(P, params)
st_share.share_box(params, note=share.text_note(text))
