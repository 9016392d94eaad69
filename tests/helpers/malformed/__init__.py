"""A corpus of malformed tokenizer files, written at test time (see ``cases.py``)."""
