"""Train BPE: pick a corpus and settings, then step through the merges (candidates, corpus words,
a held-out sentence, the merge table and the compression curve at every step)."""

import streamlit as st

from tokapp import st_training, train_figures, training
from tokapp.markdown import md_code

P = "tb"  # widget key prefix of this page

st_training.page_setup()
st.title("Train BPE")
st.caption("Byte-pair encoding starts from single characters (or bytes) and repeatedly merges the most frequent "
           "adjacent pair of symbols in the corpus into a new token.")

with st.sidebar:
    corpus = st_training.corpus_picker(P)
    level = st.radio("Symbols", ["characters", "bytes"], key=f"{P}_level", horizontal=True, bind="query-params",
                     help="Bytes: GPT-2's byte-level alphabet (256 symbols) and its pre-tokenizer.")
    pre = st.selectbox("Pre-tokenizer", ["whitespace", "whitespace_split", "bert", "metaspace"],
                       format_func=training.PRE_TOKENIZERS.get, key=f"{P}_pre", bind="query-params",
                       disabled=level == "bytes")
    vocab_size = (st_training.vocab_input(P, "bpe", corpus, pre_tokenizer=pre, byte_level=level == "bytes")
                  if corpus is not None else 0)
    min_freq = st.number_input("Minimum pair count", 1, 1000, 1, key=f"{P}_minf", bind="query-params")

if corpus is None:
    st.stop()
settings = training.Settings("bpe", int(vocab_size), pre, byte_level=level == "bytes", min_frequency=int(min_freq))
run = st_training.train(corpus, settings)
if run is None:
    st.stop()
st_training.run_metrics(run, corpus)
held_out = st_training.held_out_input(P, corpus)
k, show_candidates = st_training.merge_step(P, run, held_out)

current = run.steps[k - 1] if k else None
if current is not None:
    st.markdown(f"### Merge {k}: {md_code(current.left)} + {md_code(current.right)} → {md_code(current.merged)} "
                f"(count {current.count})")
else:
    st.markdown("### Before any merge: every word is split into single symbols")

left, right = st.columns([1, 1])
with left:
    st_training.words_and_held_out(run, k, held_out)
with right:
    index = max(k - 1, 0)
    table = training.top_pairs(run, index)
    if not show_candidates:
        st.info("The pair counts before the hidden merge are not shown: count the pairs in the words yourself.")
    elif table:
        fig = train_figures.candidate_chart(training.candidate_tables(run), index)
        st.plotly_chart(fig, key=f"{P}_pairs_chart")
        ties = training.ties_of(table, 2)
        if ties:
            st.warning(f"Tie at count {table[0][2]}: " + ", ".join(f"{md_code(a)} + {md_code(b)}" for a, b, _ in ties) +
                       f" occur as often as {md_code(table[0][0])} + {md_code(table[0][1])}. The rule used (Hugging Face's "
                       "BpeTrainer): the pair whose ids come first wins, so alphabet symbols beat newer merged "
                       "tokens. Notes that break the tie another way follow another rule.",
                       icon=":material/balance:")
    elif run.steps:
        st.caption("Pair counts per step are not recorded for corpora this large.")
    st.plotly_chart(train_figures.compression_curve(run.replay.curve(), k), key=f"{P}_curve")

st_training.merge_table(run, k)
st_training.save_and_export(P, run.tokenizer, f"bpe-{settings.vocab_size}")
