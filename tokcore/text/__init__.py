"""Character tables and regex dialects that several stages share.

- ``byte_level``: GPT-2's byte alphabet, its split patterns and the shared ``ByteLevelOptions``.
- ``char_classes``, ``onig_classes``: HF's character classes as compact maps (Whitespace, Bert,
  Digits; Oniguruma's ``\\p{L}``, ``\\p{N}``) for the ASCII views the pre-tokenizers run regexes on.
- ``onig_regex``: Oniguruma patterns (as in ``tokenizer.json``) translated for the ``regex`` module.
- ``regex_cost``, ``ascii_twin``: a file pattern's proven backtracking bound (no timeout needed) and
  its standard-library twin for ASCII text.
- ``unicode_tables``: Unicode properties the normalizers need at the version HF uses.

Left out: anything that is a pipeline component (those live in their stage's folder).
"""
