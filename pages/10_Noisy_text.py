"""Noisy text: lexical normalization as a visible first stage, each change with its candidates, tokens mapped back."""

import hashlib
import json

import pandas as pd
import streamlit as st

import tokcore
from tokapp import lexnorm_view as lv
from tokapp import st_common, st_display
from tokapp.markdown import md_text

P = "ln"  # widget and state key prefix of this page
SAVED = f"{P}_lexicon_saved"  # the lexicon table as last edited (survives leaving the page)
BASE = f"{P}_lexicon_base"  # the rows the current editor started from
VERSION = f"{P}_lexicon_version"  # bumped to start a fresh editor (after an upload)
LOADED = f"{P}_lexicon_loaded"  # digest of the last applied upload
SAVED_MESSAGE = f"{P}_saved_message"  # shown once after the rerun that follows a save
DEFAULT_TOKENIZER = "file:english_bytelevel_bpe.json"
TEXT_CAP = 5_000
DEFAULT_ROWS = [{"noisy": "ngl", "canonical": "not going to lie"}]
EXAMPLES = [
    "u hve to let ppl decide, new pix coming tmrw lol",
    "ngl dis is crazyy, c u 2nite at da park",
    "IBM r gr8 but alot of ppl r sooo late every one says",
    "The meeting is at 10am tomorrow in Paris.",
]

st_common.page_setup()
st.html(lv.style_block())
st.title("Noisy text")
st.caption("Lexical normalization before tokenization: social-media spellings become canonical words "
           "(lookup list, spelling candidates, splits), then the normalized text is tokenized and every "
           "token is mapped back to the noisy input through the normalization's alignment.")


@st.cache_resource(show_spinner="Loading the English frequency dictionary (first time only, a few seconds)…")
def english_dictionary():
    from tokcore.extras.lexnorm import english

    return english()


TEXT_KEY = f"{P}_text"
EXAMPLE_FOR = f"{P}_example_for"  # the example the text box was last set for, with its text


with st.sidebar:
    if f"{P}_tok" not in st.session_state and f"{P}_tok" not in st.query_params:
        # Subwords read better here than the shared default (one token per ASCII character).
        if any(s.key == DEFAULT_TOKENIZER for s in st_common.available_specs()):
            st.session_state[f"{P}_tok"] = DEFAULT_TOKENIZER
    spec = st_common.tokenizer_picker(P)
    palette, show_ids = st_common.display_options()

example = st.selectbox("Examples", EXAMPLES, index=None, placeholder="Pick an example sentence…",
                       key=f"{P}_example")
if TEXT_KEY not in st.session_state:
    st.session_state[TEXT_KEY] = EXAMPLES[0]
elif example and EXAMPLE_FOR in st.session_state and st_common.settings_to_reset(EXAMPLE_FOR, example, (TEXT_KEY,)):
    # A new example replaces the text unless it was edited since (a run stopped halfway loses the
    # load to the browser's old text, so the next run loads it again).
    st.session_state[TEXT_KEY] = example
text = st.text_area("Noisy text", key=TEXT_KEY, height=90,
                    help=f"Ctrl+Enter (or click outside) to normalize. Up to {TEXT_CAP:,} characters are used.")
st_common.note_settings(EXAMPLE_FOR, example, (TEXT_KEY,))
text = st_display.capped(text, TEXT_CAP)

results = st.container()  # filled once the lexicon (edited below) is known

# ---------------------------------------------------------------- the lexicon
st.subheader("Your lexicon")
st.caption("Your entries win over the built-in list. Keys match case-insensitively; a key with a space "
           "(\"to morrow\") joins two words (many-to-one); a value with spaces expands one word (one-to-many).")
st.session_state.setdefault(SAVED, list(DEFAULT_ROWS))
st.session_state.setdefault(VERSION, 0)
upload = st.file_uploader(f"Upload a lexicon: CSV (noisy,canonical) or JSON, up to {lv.LEXICON_MAX_BYTES // 2**20} MiB",
                          type=["csv", "json"], key=f"{P}_lexicon_upload", max_upload_size=1)
if upload is not None:
    data = upload.getvalue()
    digest = hashlib.sha256(data).hexdigest()
    if st.session_state.get(LOADED) != digest:
        try:
            entries, use_builtin = lv.parse_lexicon_file(upload.name, data)
        except st_common.INPUT_ERRORS as exc:
            st_common.show_error(exc)
        else:
            st.session_state[SAVED] = [{"noisy": k, "canonical": v} for k, v in entries.items()]
            st.session_state[VERSION] += 1
            st.session_state[LOADED] = digest
            if use_builtin is not None:
                st.session_state[f"{P}_use_builtin"] = use_builtin
            st.success(f"Loaded {len(entries)} {'entry' if len(entries) == 1 else 'entries'} from "
                       f"{md_text(upload.name)}.")

use_builtin = st.toggle(f"Use the built-in list too ({len(lv.builtin_records())} entries)", value=True,
                        key=f"{P}_use_builtin")
editor_key = f"{P}_lexicon_{st.session_state[VERSION]}"
if editor_key not in st.session_state or BASE not in st.session_state:
    st.session_state[BASE] = list(st.session_state[SAVED])  # a fresh editor starts from the last edits
edited = st.data_editor(
    pd.DataFrame(st.session_state[BASE], columns=list(lv.COLUMNS)),
    num_rows="dynamic", hide_index=True, key=editor_key, width="stretch",
    column_config={"noisy": st.column_config.TextColumn("noisy", help="The non-standard form, e.g. ngl"),
                   "canonical": st.column_config.TextColumn("canonical", help="What it becomes")},
)
records = edited.to_dict("records")
st.session_state[SAVED] = [{"noisy": lv.cell_text(r.get("noisy")), "canonical": lv.cell_text(r.get("canonical"))}
                           for r in records]
try:
    lexicon, problems = lv.lexicon_from_records(records, use_builtin=use_builtin)
except st_common.INPUT_ERRORS as exc:
    st_common.show_error(exc)
    st.stop()
for problem in problems:
    st.warning(problem, icon=":material/warning:")
d1, d2 = st.columns(2)
d1.download_button("Download the lexicon (JSON)", lv.lexicon_json(lexicon), file_name="lexicon.json",
                   mime="application/json", key=f"{P}_dl_json")
d2.download_button("Download the lexicon (CSV)", lv.lexicon_csv(lexicon), file_name="lexicon.csv",
                   mime="text/csv", key=f"{P}_dl_csv")
with st.expander("The built-in list"):
    st.dataframe(pd.DataFrame(lv.builtin_records()), hide_index=True, width="stretch", height=300)

# ---------------------------------------------------------------- results
with results:
    try:
        english_dictionary()
        proposed = tokcore.lexical_normalize(text, lexicon=lexicon)
    except st_common.INPUT_ERRORS as exc:  # the engine's message as st.error, never a traceback
        st_common.show_error(exc)
        st.stop()
    options = lv.fix_options(proposed)
    off_key = f"{P}_off"
    st.session_state[off_key] = [o for o in st.session_state.get(off_key, []) if o in options]  # text changed
    off = st.multiselect("Turn a fix off", list(options), key=off_key, placeholder="Fixes you want undone…",
                         help="Each fix with its confidence. A fix you pick here is undone: the word stays as typed, "
                              "and the normalized text, the tokens and the alignment follow.")
    try:
        result = tokcore.lexical_normalize(text, lexicon=lexicon, keep=[options[o] for o in off])
    except st_common.INPUT_ERRORS as exc:
        st_common.show_error(exc)
        st.stop()

    changes = result.changes
    c1, c2, c3, c4 = st.columns(4)
    c1.metric("Words", len(result.decisions))
    c2.metric("Changed", len(changes))
    c3.metric("One-to-many", sum(1 for d in changes if " " in d.output.strip() and " " not in d.source))
    c4.metric("Many-to-one", sum(1 for d in changes if " " in d.source))

    st.subheader("Changes")
    left, right = st.columns(2)
    with left:
        st.markdown("**Noisy input**")
        st.html(lv.changes_html(result, side="input"))
    with right:
        st.markdown("**Normalized**")
        st.html(lv.changes_html(result, side="output"))

    if result.decisions:
        labels = [f"{d.source} → {d.output}" if d.changed else f"{d.source} (kept)" for d in result.decisions]
        order = sorted(range(len(labels)), key=lambda i: not result.decisions[i].changed)
        pick = st.selectbox("Candidates for", order, format_func=lambda i: labels[i], key=f"{P}_word",
                            help="Changed words first. Score: ln(frequency) − 5 × edit distance (+4 when letters "
                                 "were only left out); the lookup list always wins.")
        if pick is not None and pick < len(result.decisions):
            decision = result.decisions[pick]
            st.caption(f"Reason: {md_text(decision.reason)}. Confidence: {decision.confidence:.0%}.")
            st.dataframe(pd.DataFrame(lv.candidate_records(decision)), hide_index=True, width="stretch",
                         key=f"{P}_candidates")

    st.subheader("Tokens of the normalized text, mapped back")
    padding = st_display.padding_switch(P)
    try:
        tokenizer = st_common.load_tokenizer(spec)
        mapped = lv.map_tokens(result, tokenizer, padding=padding)
    except st_common.INPUT_ERRORS as exc:
        st_common.show_error(exc)
        st.stop()
    st.caption("Each noisy word, what it became, and the tokens of that output (no template tokens). "
               "Hover a token for its span in the normalized text and in the noisy input.")
    st.html(lv.aligned_html(result, mapped, palette=palette, show_ids=show_ids))
    valid = tokcore.validate_offsets_contract(result.original, [t.noisy for t in mapped])
    (st.success if valid else st.error)(
        f"{len(mapped)} tokens; every span mapped back to the noisy input "
        + ("obeys the offsets contract." if valid else "does NOT obey the offsets contract."))
    with st.expander("Token table: normalized span → noisy span"):
        st.dataframe(pd.DataFrame(lv.mapped_records(result, mapped)), hide_index=True, width="stretch")
    with st.expander("Every decision"):
        st.dataframe(pd.DataFrame(lv.decision_records(result)), hide_index=True, width="stretch")

# ---------------------------------------------------------------- save with the tokenizer
st.subheader("Save as a tokenizer")
st.caption("Puts a LexicalNormalizer with this lexicon in front of the chosen tokenizer's normalizer; the lexicon "
           "is saved in the tokenizer's JSON, and the tokenizer is offered on every page of this session.")
name = st.text_input("Name", value=f"{spec.label} + lexical normalization", key=f"{P}_save_name", max_chars=120)
s1, s2 = st.columns(2)
try:
    combined = lv.with_lexical_normalizer(st_common.load_tokenizer(spec), lexicon, name=name)
except st_common.INPUT_ERRORS as exc:
    st_common.show_error(exc)
else:
    if s1.button("Add to this session's tokenizers", key=f"{P}_save", icon=":material/add:"):
        done = st_common.save_session_tokenizer(name, combined, description=f"{spec.label} with a lexicon of "
                                                f"{len(lexicon.user)} entries (built-in list: "
                                                f"{'on' if use_builtin else 'off'})")
        st.session_state[SAVED_MESSAGE] = (f"“{md_text(name)}” is already in this session's tokenizers." if done == "same"
                                           else f"Added “{md_text(name)}”: pick it in any tokenizer list"
                                           + (" (it replaces the one of that name)." if done == "replaced" else "."))
        st.rerun()  # so every tokenizer list on this page offers it at once
    if SAVED_MESSAGE in st.session_state:
        st.success(st.session_state.pop(SAVED_MESSAGE))
    s2.download_button("Download the tokenizer (tokcore JSON)",
                       json.dumps(combined.to_dict(), ensure_ascii=False, indent=1),
                       file_name="tokenizer_lexnorm.json", mime="application/json", key=f"{P}_dl_tok")
