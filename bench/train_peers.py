"""Training times: tokcore's trainers against HF tokenizers' and sentencepiece's on botchan."""

from __future__ import annotations

import io
import os
import tempfile

from bench_common import data_dir


def _time(fn) -> float:
    import gc
    import time

    gc.collect()
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def train_rows(args):
    """Rows ``(what, case, 1/ours_s, peer, 1/peer_s, target)``, best of ``args.repeat`` (at least 1) each."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    from tokcore.trainers.bpe import train_bpe
    from tokcore.trainers.unigram import train_unigram
    from tokcore.trainers.wordpiece import train_wordpiece

    lines = (data_dir() / "corpora" / "botchan.txt").read_text(encoding="utf-8").splitlines()
    repeat = 1 if args.quick else max(1, args.repeat - 1)
    bpe_size = 2000 if args.quick else 8000
    if args.smoke:  # a tenth of botchan, still above every trainer's vocabulary
        lines, bpe_size = lines[: len(lines) // 10], 1000

    def hf_bpe():
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tok.train_from_iterator(lines, trainers.BpeTrainer(vocab_size=bpe_size, show_progress=False,
                                                           initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))

    def hf_wordpiece():
        tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
        tok.pre_tokenizer = pre_tokenizers.Whitespace()
        tok.train_from_iterator(lines, trainers.WordPieceTrainer(vocab_size=4000, special_tokens=["[UNK]"],
                                                                 show_progress=False))

    def hf_unigram():
        tok = Tokenizer(models.Unigram())
        tok.pre_tokenizer = pre_tokenizers.Metaspace()
        tok.train_from_iterator(lines, trainers.UnigramTrainer(vocab_size=1000, unk_token="<unk>",
                                                               special_tokens=["<unk>"], show_progress=False))

    def spm_unigram():
        import sentencepiece as spm

        with tempfile.TemporaryDirectory() as tmp:
            spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=io.BytesIO(), vocab_size=1000,
                                           model_type="unigram", num_threads=1, minloglevel=2)
            del tmp

    cases = [
        ("train", f"byte-level BPE to {bpe_size}, botchan", lambda: train_bpe(lines, bpe_size, byte_level=True),
         "HF BpeTrainer", hf_bpe, 0.5),
        ("train", "WordPiece to 4000, botchan", lambda: train_wordpiece(lines, 4000, special_tokens=["[UNK]"],
                                                                        unk_token="[UNK]"),
         "HF WordPieceTrainer", hf_wordpiece, None),
        ("train", "Unigram to 1000, botchan", lambda: train_unigram(lines, 1000, unk_token="<unk>"),
         "HF UnigramTrainer", hf_unigram, None),
        ("train", "Unigram to 1000, botchan", lambda: train_unigram(lines, 1000, unk_token="<unk>"),
         "spm trainer, 1 thread", spm_unigram, None),
    ]
    ours_cache = {}
    for what, case, ours, peer, theirs, target in cases:
        if case not in ours_cache:
            ours_cache[case] = min(_time(ours) for _ in range(repeat))
        t_peer = min(_time(theirs) for _ in range(repeat))
        yield what, case, 1 / ours_cache[case], peer, 1 / t_peer, target


if __name__ == "__main__":
    os.environ.setdefault("RAYON_NUM_THREADS", "1")
