"""Load and export: upload tokenizer files, see the pipeline stage by stage, download it as HF or tokcore JSON."""

import pandas as pd
import streamlit as st

from tokapp import pipeline_view, samples, share, st_common, st_share, uploads
from tokapp.markdown import md_code, md_text

P = "le"  # widget key prefix of this page
DEFAULT_TOKENIZER = "file:english_bytelevel_bpe.json"
FORMAT_CHOICES = tuple(pipeline_view.FORMATS)
SCHEMA = (
    share.Option("format", FORMAT_CHOICES, "hf"),
    share.Option("raw", (True, False), False),
)

st_common.page_setup()
st.title("Load and export")
st.caption("Bring your own tokenizer files, see what each stage of the pipeline does, and save any tokenizer "
           "as an HF tokenizer.json or as tokcore's own JSON.")

st_share.seed(P, text_default=None, tokenizer_default=DEFAULT_TOKENIZER,
                      known_tokenizers=[s.key for s in st_common.available_specs()], schema=SCHEMA)

with st.container(border=True):
    st.markdown(f"**Upload** (up to {uploads.limit_text()} in all, at most {uploads.MAX_FILES} files)")
    st.caption(f"Accepted: {uploads.ACCEPTED}. Upload vocab.json and merges.txt together.")
    files = st.file_uploader("Tokenizer files", type=[s.lstrip(".") for s in uploads.SUFFIXES],
                             accept_multiple_files=True, key=f"{P}_upload",
                             max_upload_size=max(1, samples.MAX_UPLOAD_BYTES // 10**6),
                             help="Files are read with tokcore.load and kept for this session only.")
    if files:
        payload = [(f.name, f.getvalue()) for f in files]
        try:
            uploads.check_files([(name, len(data)) for name, data in payload])
            key = uploads.bundle_key(payload) if len(payload) > 1 else samples.upload_key(payload[0][1])
            store = st.session_state[st_common.SESSION_TOKENIZERS]
            if key not in store:
                with st.spinner("Reading the files…"):
                    entry = uploads.load_files(payload)
                store[entry.key] = entry
                key = entry.key
            if st.session_state.get(f"{P}_last_upload") != key:
                st.session_state[f"{P}_last_upload"] = key
                st.session_state[f"{P}_tok"] = key
            st.success(f"Loaded {md_text(store[key].label.removeprefix('Uploaded: '))}: selected below, and offered on "
                       "every page for this session.", icon=":material/check_circle:")
        except st_common.INPUT_ERRORS as exc:  # the engine's message as st.error, never a traceback
            st_common.show_error(exc)

if added := st_common.model_box(P):  # a model by name, selected once fetched
    st_common.select_tokenizer(P, added)
spec = st_share.tokenizer_select(P, st_common.available_specs())
try:
    tokenizer = st_common.load_tokenizer(spec)
    stages = pipeline_view.pipeline_stages(tokenizer)
    facts = pipeline_view.overview(tokenizer)
except st_common.INPUT_ERRORS as exc:
    st_common.show_error(exc)
    st.stop()

c1, c2, c3, c4 = st.columns(4)
c1.metric("Class", facts["class"])
c2.metric("Model", facts["model"])
c3.metric("Vocabulary", f"{facts['vocab_size']:,}")
c4.metric("Unknown token", facts["unk_token"] or "none")

st.subheader("Pipeline")
raw = st.toggle("Show each stage's JSON", key=f"{P}_raw", persist_state="session",
                help="The component's to_dict(): the exact keys a saved file holds (big tables summarised).")
if raw:
    for stage in stages:
        st.markdown(f"**{stage.stage}** · {md_code(stage.type)}" + (f" · {md_text(stage.role)}" if stage.role else ""))
        if stage.raw is not None:
            st.json(pipeline_view.compact_raw(stage.raw), expanded=True)
        else:
            st.caption(md_text("; ".join(f"{k} = {v}" if k else v for k, v in stage.settings)))
else:
    st.caption("Text flows top to bottom: normalizer → pre-tokenizer → model → post-processor; the decoder "
               "goes back from tokens to text.")
    records = pipeline_view.flat_records(stages)
    st.dataframe(pd.DataFrame(records), hide_index=True, width="stretch", height=min(36 * (len(records) + 1) + 4, 640),
                 column_config={"value": st.column_config.TextColumn(width="large")})

st.subheader("Export")
fmt = st.radio("Format", FORMAT_CHOICES, key=f"{P}_format", persist_state="session", horizontal=True,
               format_func=lambda f: pipeline_view.FORMATS[f][0],
               help="HF tokenizer.json loads in the tokenizers library and encodes identically; tokcore JSON "
                    "keeps tokcore-only components and loads with tokcore.load.")


@st.cache_data(show_spinner="Writing the file…", max_entries=32)
def export(cache_key: str, fmt: str, _tokenizer) -> str:
    return pipeline_view.export_text(_tokenizer, fmt)


try:
    content = export(spec.cache_key, fmt, tokenizer)
except st_common.INPUT_ERRORS as exc:
    st_common.show_error(exc)
else:
    name = pipeline_view.export_file_name(fmt, facts["name"])
    st.download_button(f"Download {name}", content, file_name=name, mime="application/json",
                       key=f"{P}_download", icon=":material/download:")
    st.caption(f"{len(content.encode('utf-8')):,} bytes.")
    with st.expander("Preview"):
        st.code(content[:4000] + ("\n…" if len(content) > 4000 else ""), language="json")

params = share.encode_state(P, tokenizers=spec.key, options={"format": fmt, "raw": raw}, schema=SCHEMA)
st_share.publish(P, params)
st_share.share_box(params)
