"""Reading results: word and token alignment between tokenizers (``alignment``), unsafe byte-level
boundaries and token safety (``boundaries``).

Left out: encoding (everything here takes finished results and texts).
"""
