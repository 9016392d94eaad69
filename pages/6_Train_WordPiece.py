"""Train WordPiece: the likelihood merge step by step (score = f(ab) / (f(a) f(b)) per candidate),
corpus words, a held-out sentence, and the greedy longest-match trace of a typed word."""

import pandas as pd
import streamlit as st

from tokapp import st_training, train_figures, train_html, training
from tokapp.markdown import md_code

P = "tw"  # widget key prefix of this page

st_training.page_setup()
st.title("Train WordPiece")
st.caption("WordPiece merges the pair with the best score f(ab) / (f(a) × f(b)): a pair whose parts are rare on "
           "their own wins over a merely frequent one. Non-initial pieces carry the ## prefix.")

with st.sidebar:
    corpus = st_training.corpus_picker(P)
    pre = st.selectbox("Pre-tokenizer", ["whitespace", "bert", "whitespace_split"],
                       format_func=training.PRE_TOKENIZERS.get, key=f"{P}_pre", bind="query-params")
    vocab_size = st_training.vocab_input(P, "wordpiece", corpus, pre_tokenizer=pre) if corpus is not None else 0
    min_freq = st.number_input("Minimum pair count", 1, 1000, 1, key=f"{P}_minf", bind="query-params")

if corpus is None:
    st.stop()
settings = training.Settings("wordpiece", int(vocab_size), pre, min_frequency=int(min_freq))
run = st_training.train(corpus, settings)
if run is None:
    st.stop()
st_training.run_metrics(run, corpus)
held_out = st_training.held_out_input(P, corpus)
k, show_scores = st_training.merge_step(P, run, held_out)

current = run.steps[k - 1] if k else None
if current is not None:
    st.markdown(f"### Merge {k}: {md_code(current.left)} + {md_code(current.right)} → {md_code(current.merged)} "
                f"(score {current.count}/({current.left_frequency}×{current.right_frequency}) = {current.score:.4g})")
else:
    st.markdown("### Before any merge: every word is split into characters, ## marks the non-initial ones")
for note in training.course_notes("wordpiece", corpus, k):
    st.info(note, icon=":material/menu_book:")

left, right = st.columns([1, 1])
with left:
    st_training.words_and_held_out(run, k, held_out, how=" (greedy longest match)")
with right:
    index = max(k - 1, 0)
    table = training.top_pairs(run, index)
    if not show_scores:
        st.info("The scores before the hidden merge are not shown: compute f(ab) / (f(a) f(b)) yourself.")
    elif table:
        st.markdown(f"**Scores before merge {index + 1}**")
        st.dataframe(pd.DataFrame(training.score_rows(run, index)), hide_index=True, width="stretch",
                     column_config={"score": st.column_config.NumberColumn(format="%.5f")})
        ties = training.ties_of(table, 5)
        if ties:
            st.warning(f"Tie at score {table[0][5]:.5g}: " + ", ".join(f"{md_code(r[0])} + {md_code(r[1])}" for r in ties) +
                       " score the same. The rule used: the pair seen first in the corpus (words in first-seen "
                       "order, pairs left to right) wins.", icon=":material/balance:")
        fig = train_figures.candidate_chart(training.candidate_tables(run), index, value_index=5, value_name="score")
        st.plotly_chart(fig, key=f"{P}_scores_chart")
    elif run.steps:
        st.caption("Score tables per step are not recorded for corpora this large.")
    st.plotly_chart(train_figures.compression_curve(run.replay.curve(), k), key=f"{P}_curve")

st_training.merge_table(run, k)

st.subheader("Greedy longest match for one word")
word = st.text_input("Word", "hugs" if training.is_classic(corpus) else "tokenizers", key=f"{P}_word",
                     help="Uses the vocabulary as of the current step.")
piece = training.first_piece(run.tokenizer, word.strip()) if word.strip() else ""
if piece:
    # The model sees what the pre-tokenizer hands it: "hugs," is "hugs" then ",", never one word.
    if piece != word.strip():
        st.caption(f"The model sees {md_code(piece)} (the pre-tokenizer's first piece).")
    model = training.tokenizer_at(run, k).model
    st.html(train_html.wordpiece_trace_html(model.explain(piece)))
    st.markdown("Tokens: " + " ".join(md_code(t[1]) for t in model.tokenize(piece)))

st_training.save_and_export(P, run.tokenizer, f"wordpiece-{settings.vocab_size}")
