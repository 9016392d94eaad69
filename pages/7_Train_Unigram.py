"""Train Unigram: the seed vocabulary, the loss per EM iteration, the pruning rounds (loss, size,
removed pieces with their loss deltas), the classroom removal table, and for one word the Viterbi
lattice with its best path, the n-best list and samples at an adjustable alpha."""

import math

import pandas as pd
import streamlit as st

from tokapp import classroom, st_common, st_training, train_figures, training
from tokapp.markdown import md_code
from tokapp.training.defaults import unigram_defaults
from tokapp.visible import visible

P = "tu"  # widget key prefix of this page
VOCAB_KEY, PRE_KEY, SHRINK_KEY, SEED_KEY = f"{P}_vocab", f"{P}_pre", f"{P}_shrink", f"{P}_seed"
SETTING_KEYS = (VOCAB_KEY, PRE_KEY, SHRINK_KEY, SEED_KEY)
ORIGIN_KEY = f"{P}_defaults_for"  # the corpus key the settings were last set for, with their values


def reset_defaults(chosen, keys) -> None:
    """A new corpus gets its own defaults (several EM + pruning rounds); the classic words stay bare (no ▁)."""
    values = dict(zip(SETTING_KEYS, (chosen.vocab_size, chosen.pre_tokenizer, chosen.shrinking_factor,
                                     chosen.seed_size)))
    for key in keys:
        st.session_state[key] = values[key]


st_training.page_setup()
st.title("Train Unigram")
st.caption("Unigram starts from a large seed vocabulary, fits piece probabilities with EM, then prunes the pieces "
           "whose removal raises the corpus loss least, round after round, until the vocabulary is small enough.")

with st.sidebar:
    corpus = st_training.corpus_picker(P)
    stale = () if corpus is None else st_common.settings_to_reset(ORIGIN_KEY, corpus.key, SETTING_KEYS)
    # A new text (an upload, a paste) gets settings above its alphabet; a link's settings win on its first run.
    if stale and (ORIGIN_KEY in st.session_state or not any(k in st.query_params for k in (VOCAB_KEY, SEED_KEY))):
        reset_defaults(st_training.unigram_start(corpus), stale)
    first = unigram_defaults(st.session_state.get(f"{P}_corpus", "classic"))
    for key, value in ((VOCAB_KEY, first.vocab_size), (PRE_KEY, first.pre_tokenizer),
                       (SHRINK_KEY, first.shrinking_factor), (SEED_KEY, first.seed_size)):
        if key not in st.session_state and key not in st.query_params:  # a link's value wins
            st.session_state[key] = value
    vocab_size = st.number_input("Vocabulary size (target)", 2, 50_000, key=VOCAB_KEY, bind="query-params",
                                 help="Counts everything, [UNK] included; pruning stops at 1.1 × this.")
    pre = st.selectbox("Pre-tokenizer", ["metaspace", "whitespace", "whitespace_split"],
                       format_func=training.PRE_TOKENIZERS.get, key=PRE_KEY, bind="query-params",
                       help="Metaspace keeps spaces as ▁ at word starts, as sentencepiece does.")
    shrink = st.slider("Shrinking factor", 0.5, 0.95, step=0.05, key=SHRINK_KEY, bind="query-params",
                       help="Each round keeps this share of the pieces (the most useful ones): closer to 1 means "
                            "gentler pruning and more rounds.")
    seed_size = st.number_input("Seed pieces (at most)", 10, 1_000_000, step=100, key=SEED_KEY, bind="query-params",
                                help="The most frequent substrings the loop starts from (characters always stay).")
    st.caption("Defaults are chosen per corpus so the loop runs several EM + pruning rounds.")
    if corpus is not None:
        st_common.note_settings(ORIGIN_KEY, corpus.key, SETTING_KEYS)

if corpus is None or not st_training.unigram_size_ok(corpus, pre, int(vocab_size)):
    st.stop()
settings = training.Settings("unigram", int(vocab_size), pre, seed_size=int(seed_size),
                            shrinking_factor=round(float(shrink), 2))
run = st_training.train(corpus, settings)
if run is None:
    st.stop()
details = run.result.details
sizes, losses = training.unigram_curve(run)
rounds = len(run.steps)
c1, c2, c3, c4 = st.columns(4)
c1.metric("Seed pieces", details["seed_size"], help=corpus.summary())
c2.metric("Pruning rounds", rounds)
c3.metric("Final vocabulary", run.tokenizer.vocab_size)
c4.metric("Loss of the last EM run", f"{details['final_loss']:.2f}",
          help=f"Negative log-likelihood of the corpus (natural log) with the {sizes[-1]} pieces left after the last "
               f"round, before the lowest-scored ones are cut to reach {run.tokenizer.vocab_size} tokens.")
if not rounds:
    seed, desired, least = details["seed_size"], details["desired_vocab_size"], len(details["alphabet"]) + 1
    more_seed = " or raise “Seed pieces (at most)”" if seed >= settings.seed_size else ""
    if seed * 10 // 11 > least:
        how = f"Lower the vocabulary size below {seed * 10 // 11} (it holds {least} at least){more_seed} to see pruning."
    else:
        how = "The seed is little more than the corpus's characters, which always stay: train on more text."
    st.info(f"The seed ({seed} pieces) is already within 1.1 × the target ({desired}): no pruning round ran. {how}")

st.subheader("The loop, round by round: EM, then pruning")
class_on = st.toggle("Classroom mode", key=f"{P}_class", help="Hide the next round and guess a piece it removes.")
if class_on:
    state = st_training.classroom_state(P, rounds, "removed")
    answer = None if state.finished else classroom.removed_answer(run.steps[state.step].removed)
    state = st_training.classroom_panel(P, state, answer, what="round")
    r = classroom.visible_steps(state)
else:
    r = st_training.step_controls(P, rounds, label="pruning rounds done", default=0)
em_col, prune_col = st.columns(2)
em_col.plotly_chart(train_figures.em_loss_figure(details["em_losses"], 2, current_round=r), key=f"{P}_em_chart")
prune_col.plotly_chart(train_figures.pruning_figure(sizes, losses, r), key=f"{P}_pruning_chart")
if r:
    step = run.steps[r - 1]
    st.markdown(f"### Round {r}: {len(step.removed)} pieces pruned, {len(step.dropped)} dropped by EM, "
                f"{step.vocab_size} left")
    left, right = st.columns(2)
    left.plotly_chart(train_figures.removed_figure(step.removed_losses), key=f"{P}_removed_chart")
    with right:
        st.dataframe(pd.DataFrame([{"piece": visible(p), "loss delta": d} for p, d in step.removed_losses]),
                     hide_index=True, width="stretch", height=min(300, 35 * (len(step.removed_losses) + 1) + 3))
        if step.dropped:
            st.caption("Dropped by EM (expected count below 0.5): " + ", ".join(md_code(p) for p in step.dropped[:60]))
else:
    st.markdown("### Round 0: the seed vocabulary after EM")

with st.expander(f"Seed vocabulary ({details['seed_size']} pieces) and what became of each"):
    fates = training.seed_fates(run)
    st.dataframe(pd.DataFrame([{**f, "piece": visible(f["piece"])} for f in fates]), hide_index=True, width="stretch")
    missing = details["seed_size"] - len(fates)
    if missing > 0:
        st.caption(f"{missing} more seed pieces are not listed (this run's trainer does not report them).")

st.subheader("Classroom: remove piece t → new loss")
if len(run.words) > 2000:
    st.caption("Shown for corpora of at most 2,000 distinct words (it re-segments every word per piece).")
else:
    vocab_choice = st.radio("Vocabulary", ["course", "trained"], key=f"{P}_table_vocab", horizontal=True,
                            format_func={"course": "the course's seed: every substring, P = frequency / total",
                                         "trained": "the trained vocabulary, P = exp(log p)"}.get)
    if vocab_choice == "course":
        # Checked before the seed is built: every substring of a long word would be millions of pieces.
        probs = training.course_seed_probs(run.words) if training.course_seed_fits(run.words, 400) else {}
    else:
        specials = {t.content for t in run.tokenizer.added_tokens}
        probs = {p: math.exp(s) for p, s in run.tokenizer.model.vocab if p not in specials}
    if not probs or len(probs) > 400:
        st.caption("Over 400 pieces: too many for this table; use a smaller corpus (shorter words).")
    else:
        base, rows = training.removal_table(probs, run.words)
        st.write(f"Loss now: **{base:.2f}** (sum over words of count × −ln P(best segmentation)). Cheapest removals first; "
                 "∞ means some word can no longer be segmented.")
        st.dataframe(pd.DataFrame([{**x, "piece": visible(x["piece"])} for x in rows]), hide_index=True,
                     width="stretch", height=min(400, 35 * (len(rows) + 1) + 3),
                     column_config={"P(piece)": st.column_config.NumberColumn(format="%.6f"),
                                    "loss without it": st.column_config.NumberColumn(format="%.2f"),
                                    "increase": st.column_config.NumberColumn(format="%.2f")})
for note in training.course_notes("unigram", corpus):
    st.info(note, icon=":material/menu_book:")

st.subheader("One word: lattice, n-best and samples")
wcol, acol, ncol = st.columns([2, 2, 1])
word = wcol.text_input("Word", "hugs" if training.is_classic(corpus) else "tokenization", key=f"{P}_word")
alpha = acol.slider("Sampling alpha", 0.0, 2.0, 0.5, 0.05, key=f"{P}_alpha", bind="query-params",
                    help="Samples follow P(segmentation)^alpha: 0 is uniform, large values approach Viterbi.")
nbest = ncol.number_input("n-best", 1, 20, 5, key=f"{P}_nbest")
piece = training.first_piece(run.tokenizer, word.strip()) if word.strip() else ""
if piece:
    model = run.tokenizer.model
    if piece != word.strip():
        st.caption(f"The model sees {md_code(piece)} (the pre-tokenizer's first piece).")
    if len(piece) > train_figures.LATTICE_MAX_CHARS:
        st.caption(f"The lattice shows the first {train_figures.LATTICE_MAX_CHARS} of its {len(piece)} characters; "
                   "the n-best list and the samples use them all.")
    st.plotly_chart(train_figures.lattice_figure(model.explain(piece[:train_figures.LATTICE_MAX_CHARS])),
                    key=f"{P}_lattice")
    left, right = st.columns(2)
    with left:
        st.markdown("**n-best segmentations**")
        st.dataframe(pd.DataFrame([{"rank": i, "segmentation": " | ".join(visible(t[1]) for t in toks),
                                    "log p": score} for i, (toks, score) in enumerate(model.nbest(piece, int(nbest)), 1)]),
                     hide_index=True, width="stretch")
    with right:
        st.markdown(f"**20 samples at alpha = {alpha:g}**")
        counts: dict[str, int] = {}
        for seed in range(20):
            seg = " | ".join(visible(t[1]) for t in model.sample(piece, alpha=alpha, seed=seed))
            counts[seg] = counts.get(seg, 0) + 1
        st.dataframe(pd.DataFrame([{"segmentation": s, "times": c} for s, c in
                                   sorted(counts.items(), key=lambda kv: -kv[1])]), hide_index=True, width="stretch")

st_training.save_and_export(P, run.tokenizer, f"unigram-{settings.vocab_size}")
