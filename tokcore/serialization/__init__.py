"""Tokenizers to and from dicts: HF ``tokenizer.json`` and tokcore's versioned JSON, same keys and ``"type"`` tags.

- ``registry``: imports every stage so that each ``"type"`` tag can be built; lists them.
- ``tokenizer_json``: the parts of a tokenizer from a dict (``Tokenizer.from_dict`` builds it),
  and the HF dict of a tokenizer.

Left out: files (``tokcore.loaders``).
"""
