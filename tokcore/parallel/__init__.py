"""``encode_batch(..., processes=N)``: kept worker processes that share a batch's pieces.

- ``batch``: the caller's side (pieces from a shared counter, results as they arrive).
- ``workers``: the worker processes, kept per tokenizer until a stage changes.
- ``pack``: results as flat columns between processes, and back.

Left out: threads (the caller's own thread encodes its share).
"""
