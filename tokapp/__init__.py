"""tokapp: the Streamlit app's helpers, kept apart from the engine (``tokcore``).

Pure modules (no streamlit import, unit-tested directly):
- ``visible``: whitespace and control characters made visible (``·``, ``⏎``, ``⇥``, ``␀``...).
- ``colors``: the palettes tokens are highlighted with.
- ``tokens``: one encoding turned into plain rows and counts the pages display.
- ``html``: HTML builders (token strips, byte views), every user string escaped.
- ``samples``: the registry of tokenizers a page can offer (built-ins, sample files, uploads,
  tokenizers trained this session).
- ``pages``: discovery of the files in ``pages/`` for ``st.navigation``.

``st_common`` is the only module importing streamlit: state initialisation, caching and
shared widgets. Pages import it; tests of the pure modules never need it.
"""
