"""Beyond plain text: source code (``code``, ``code_subwords``, ``identifiers``), noisy text (``lexnorm``),
phonemes (``phonemes``) and music (``music``, ``music_bpe``). Each loads its well-kept library on first use.

Left out: the pipeline stages (``LexicalNormalizer`` lives with the normalizers).
"""
