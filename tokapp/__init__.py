"""tokapp: the Streamlit app's helpers, kept apart from the engine (``tokcore``). Three jobs:

Streamlit glue (the only modules importing streamlit; pages call them):
- ``st_common``: state initialisation, cached tokenizers and encodings, shared widgets.
- ``st_share``: share links moved between ``st.query_params`` and widget state.
- ``st_training``: the training pages' corpus picker, vocabulary size, cached runs, step timeline, classroom.
- ``st_display``: switches every encoding page shares (padding off by default, offsets in both units) and
  the text cap, said aloud.

Pure views and the data they draw (no streamlit; unit-tested directly):
- ``visible``, ``colors``: whitespace made visible; the palettes.
- ``tokens``: one encoding as plain rows and counts; ``span_walk``: those rows walked over their text.
- ``html``: token strips, byte views, legend; ``byte_label``: the one way bytes that are not whole
  characters are written (hex and the character they belong to); ``markdown``: user text made safe for
  Markdown. Page-specific views: ``inspector``/``inspector_html``,
  ``compare``, ``stages``, ``pipeline_view``, ``code_view``, ``lexnorm_view``, ``beyond_view``.
- ``train_figures``, ``train_html``: the training animations' plotly figures and word chips.
- ``samples``, ``uploads``, ``share``, ``pages``, ``warmup``: tokenizer registry, uploads, link encoding,
  page discovery, server warm-up.

Training animations' data: the ``training`` package (corpora, runs, replayed timelines, tables;
see its docstring) and ``classroom`` (the guess-the-next-step state machine).

Left out: the engine (``tokcore``) and page layout (``pages/``).
"""
