"""Models: map one pre-tokenized piece to tokens. One module per algorithm.

BPE (characters or bytes; ``bpe_queue`` holds its merge loop), WordPiece, Unigram (``lattice``
holds Viterbi and sampling), WordLevel, CharLevel, ``ByteModel`` (ByT5-style bytes), ``RankBPE``
(tiktoken's ranks) and ``SentencePieceUnigram`` (Unigram as sentencepiece restricts it).

Left out: training (``tokcore.trainers``) and what runs before or after a model.
"""

from .bpe import BPE
from .byte_model import ByteModel
from .char_level import CharLevel
from .rank_bpe import RankBPE
from .sentencepiece_unigram import SentencePieceUnigram
from .unigram import Unigram
from .word_level import WordLevel
from .wordpiece import WordPiece

__all__ = ["BPE", "ByteModel", "CharLevel", "RankBPE", "SentencePieceUnigram", "Unigram", "WordLevel", "WordPiece"]
