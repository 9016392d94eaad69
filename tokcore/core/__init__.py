"""The core every stage shares: ``Tokenizer``, its results, offsets, errors and the stages' base classes.

- ``tokenizer``: the pipeline and its one encode core (``Tokenizer.fast`` puts ``tokcore.fast`` in front).
- ``components``: base classes of the five stages, the ``{"type": ...}`` table, ``StageSequence``, ownership.
- ``encoding``: ``Encoding`` (the working lists) and ``EncodeResult`` (the frozen result of one encoding).
- ``result_build``, ``result_views``: one result from one encoding; HF-style converters and exports.
- ``offsets``, ``original_offsets``, ``normalized``: the offsets contract, the map back to the raw
  input, and the aligned ``NormalizedString`` every normalizer works on.
- ``added_tokens``, ``errors``, ``gc_pause``.

Left out: the stages' algorithms (one folder each: ``normalizers``, ``pre_tokenizers``, ``models``,
``processors``, ``decoders``), file formats (``loaders``), dicts (``serialization``).
Nothing here imports a stage's folder except ``tokenizer``, which sits on top of them.
"""
