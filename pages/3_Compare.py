"""Compare: two to four tokenizers on the same text, side by side, and over a set of languages."""

import pandas as pd
import streamlit as st

from tokapp import compare, share, st_common, st_display, st_share, windows
from tokapp.markdown import md_text

P = "cmp"  # widget key prefix of this page
DEFAULT_TEXT = "Tokenizers disagree: unbelievably, naïve café-goers don't tokenize 🙂 the same way."
DEFAULT_TOKENIZERS = ("file:english_bytelevel_bpe.json", "file:english_wordpiece.json")

st_common.page_setup()
st.html(compare.style_block())
st.html(windows.style_block())
st.title("Compare")
st.caption("The same text through two to four tokenizers. Spans are compared in the raw input (original_offsets), "
           "the one coordinate system all tokenizers share.")

specs = st_common.available_specs()
keys = [s.key for s in specs]
SCHEMA = (
    share.Option("ring", (True, False), True),
    share.Option("a", tuple(keys), None),
    share.Option("b", tuple(keys), None),
)
defaults = [k for k in DEFAULT_TOKENIZERS if k in keys] or keys[:2]
st_share.seed(P, text_default=DEFAULT_TEXT, tokenizer_default=defaults, known_tokenizers=keys,
                      multiple=True, schema=SCHEMA)

with st.sidebar:
    st_common.tokenizer_sources(P, multiple=True)  # models by name and uploads, added to the choice
    palette, show_ids = st_common.display_options()
    specs = st_common.available_specs()

chosen = st_share.tokenizer_multiselect(P, specs)
text = st.text_area("Text", key=f"{P}_text", persist_state="session", height=90)
full_text, text = text, st_display.capped(text, windows.MAX_TEXT_CHARS)  # typed, pasted or linked: said aloud
st.caption(f"Up to {windows.MAX_TEXT_CHARS:,} characters. Long texts are drawn {windows.WINDOW_CHARS:,} characters at "
           "a time, the same stretch for every tokenizer; figures cover the whole text; the map download is built "
           "when you click it.")
padding = st_display.padding_switch(P)
ring = st.toggle("Ring the boundaries the others do not share", key=f"{P}_ring", persist_state="session",
                 help="A ring sits where one tokenizer cuts the text and none of the others does.")


def publish_and_share():
    params = share.encode_state(P, text=text, tokenizers=[s.key for s in chosen],
                                options={"ring": ring, "a": st.session_state.get(f"{P}_a"),
                                         "b": st.session_state.get(f"{P}_b")}, schema=SCHEMA)
    st_share.publish(P, params)
    st_share.share_box(params, note=share.link_note(full_text, chosen))


if len(chosen) < 2:
    st.info("Pick at least two tokenizers to compare.", icon=":material/compare_arrows:")
    publish_and_share()
    st.stop()

views, tokenizers = [], []
switches = st.container()
try:
    with st_common.long_work(len(text), f"Encoding {len(text):,} characters with {len(chosen)} tokenizers…") as status:
        tokenizers = [st_common.load_tokenizer(spec) for spec in chosen]
        truncation = st_display.truncation_switch(P, tokenizers, where=switches)
        for spec in chosen:
            if status is not None:
                status.update(label=f"Encoding {len(text):,} characters with {spec.label}…")
            views.append(st_common.token_view(spec, text, padding=padding, truncation=truncation))
except st_common.INPUT_ERRORS as exc:  # the engine's message as st.error, never a traceback
    st_common.show_error(exc)
    st.stop()


@st.cache_data(show_spinner=False, max_entries=64)
def boundaries_unshared(cache_keys: str, text: str, truncation: bool, _views) -> list[set[int]]:
    """Each tokenizer's boundaries no other one has, cached by the tokenizers' keys, the text and the truncation."""
    return compare.unshared_points(_views)


rows = compare.figure_rows([(s.label, v, t.unk_token) for s, v, t in zip(chosen, views, tokenizers)])
st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")

unshared = boundaries_unshared("|".join(s.cache_key for s in chosen), text, truncation, views)
n_windows = windows.window_count(len(text), windows.WINDOW_CHARS)
number = 1
if n_windows > 1:
    number = st.number_input(f"Window ({windows.WINDOW_CHARS:,} characters each, 1 to {n_windows})", 1, n_windows,
                             key=f"{P}_window", help="Every tokenizer draws the tokens over the same stretch of text.")
c0, c1 = windows.char_window(len(text), int(number) - 1, windows.WINDOW_CHARS)
st.html(windows.minimap_html(len(text), c0, c1, unit="characters"))
b0 = len(text[:c0].encode("utf-8", "surrogatepass")) + 1
b1 = b0 + len(text[c0:c1].encode("utf-8", "surrogatepass"))
spans = [windows.tokens_in_bytes(compare.original_offsets(v), b0, b1, whole=n_windows == 1) for v in views]
columns = st.columns(len(chosen))
for col, spec, view, row, mine, (lo, hi) in zip(columns, chosen, views, rows, unshared, spans):
    with col:
        st.markdown(f"**{md_text(spec.label)}**")
        a, b = st.columns(2)
        a.metric("Tokens", row["tokens"])
        b.metric("Chars / token", f"{row['chars / token']:.2f}")
        st.html(compare.ringed_html(view, mine, ring=ring, palette=palette, show_ids=show_ids, start=lo,
                                    max_tokens=hi - lo))
        if ring:
            st.caption(f"{len(mine)} boundar{'y' if len(mine) == 1 else 'ies'} no other tokenizer shares.")

st.subheader("Token-to-token alignment")
st.caption("For each token of A in the window above, the range of B's tokens it overlaps in the raw input (A's "
           "token i covers B's tokens j–k). Tokens with no span map to nothing.")
by_key = {s.key: s for s in chosen}
chosen_keys = list(by_key)
for name, fallback in (("a", chosen_keys[0]), ("b", chosen_keys[1])):
    if st.session_state.get(f"{P}_{name}") not in by_key:
        st.session_state[f"{P}_{name}"] = fallback
ca, cb = st.columns(2)
key_a = ca.selectbox("A", chosen_keys, key=f"{P}_a", persist_state="session", format_func=lambda k: by_key[k].label)
key_b = cb.selectbox("B", chosen_keys, key=f"{P}_b", persist_state="session", format_func=lambda k: by_key[k].label)
index_a = chosen_keys.index(key_a)
view_a, view_b = views[index_a], views[chosen_keys.index(key_b)]
align = compare.alignment_rows(view_a, view_b, window=spans[index_a])
st.dataframe(pd.DataFrame(compare.alignment_display(align)), hide_index=True, width="stretch", height=260)
label_a, label_b = by_key[key_a].label, by_key[key_b].label
st.download_button("Download the map as JSON",
                   lambda: compare.alignment_json(label_a, label_b, text, compare.alignment_rows(view_a, view_b)),
                   file_name="alignment.json", mime="application/json", key=f"{P}_dl_map",
                   icon=":material/download:", help="A's every token, over the whole text; built when you click.")


@st.cache_data(show_spinner=False, max_entries=64)
def language_rows(cache_key: str, label: str, _tokenizer) -> list[dict]:
    corpus = compare.load_corpus()
    return compare.multilingual_rows(label, compare.sentence_ids(_tokenizer), corpus, unk_id=compare.unk_id(_tokenizer))


st.subheader("Across languages")
corpus = compare.load_corpus()
st.caption(f"The same sentence in {len(corpus)} languages (sample_vocabs/corpora/multilingual.txt): tokens per "
           "character, template tokens left out. Lower means the tokenizer packs that script more tightly — unless "
           "it gave up: the unknown share stands beside every figure, and a tokenizer with more than "
           f"{compare.UNKNOWN_THRESHOLD:.0%} unknown tokens is listed last, unranked.")
ml_rows = []
progress = st.progress(0.0, text="Tokenizing the languages…")
try:
    for i, (spec, tok) in enumerate(zip(chosen, tokenizers)):
        progress.progress(i / len(chosen), text=f"Tokenizing the languages with {spec.label}…")
        ml_rows += language_rows(spec.cache_key, spec.label, tok)
except st_common.INPUT_ERRORS as exc:
    progress.empty()
    st_common.show_error(exc)
else:
    progress.empty()
    if ml_rows:
        st.dataframe(pd.DataFrame(compare.language_ranking(ml_rows)), hide_index=True, width="stretch",
                     key=f"{P}_ml_rank")
        st.plotly_chart(compare.multilingual_figure(ml_rows), key=f"{P}_ml_chart")
        with st.expander("The figures as a table"):
            table = pd.DataFrame(ml_rows).pivot(index="language", columns="tokenizer",
                                                values=["tokens per character", "unknown share"])
            st.dataframe(table.reindex([lang for lang, _ in corpus]), width="stretch")
    else:
        st.caption("(the multilingual corpus is missing)")

publish_and_share()
