"""Fast paths: caches and plans in front of the one encode core (``tokcore.core.tokenizer``), never a copy of it.

- ``plan``: a word plan per (pre-tokenizer, model) and its cache of finished words.
- ``entries``: a new word's entry straight from the model's own split (BPE, WordPiece, Unigram).
- ``words``: the word finders (one regex pass, ``str.split``) that stand in for a pre-tokenizer.
- ``merge_cuts``: the finder of a BPE without a pre-tokenizer: the line cut where no merge can span.
- ``encode``: the word loops that emit the cached words' tokens into an ``Encoding``.
- ``views``: the tokenization text without an alignment, where a normalizer allows it.
- ``lane``: the single-text lane: the words' ids now; the lists, through the core's own
  post-processing and result building, on first read.

Every path here is pinned to the reference path (``Tokenizer.fast = False``) by hypothesis tests.

Left out: anything with dropout, pairs, truncation or padding (the core handles them).
"""
