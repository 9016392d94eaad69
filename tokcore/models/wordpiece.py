"""``WordPiece``: greedy longest-match-first over a vocabulary, BERT style.

A word is split from the left: at each position the longest vocabulary entry that starts there
is taken (entries after the first carry the ``##`` continuing prefix), exactly as HF tokenizers'
``WordPiece`` model. A word longer than ``max_input_chars_per_word`` characters, or with any part
that matches nothing, becomes ONE unknown token spanning the whole word.

Left out: splitting text into words (the pre-tokenizer), learning a vocabulary
(``tokcore.trainers.wordpiece``), reading ``vocab.txt`` files (``tokcore.loaders``) and joining
tokens back into text (the ``WordPiece`` decoder).
"""

from __future__ import annotations

from itertools import accumulate

from ..core.components import VocabModel, register
from ..core.errors import ConfigurationError
from .vocab_ids import check_vocab_ids

CACHE_CAPACITY = 100_000  # words; past this the cache stops growing (as HF's bounded cache)
MAX_CACHED_LENGTH = 256  # characters; longer words are not cached (as the BPE and Unigram models)
# Characters; before the entry trie is built (WordPiece._settings), a word up to this long tries
# every length at each position, a longer one no more than the longest entry's.
_SHORT = 32
_NO_ENTRIES: dict = {}  # the continuations' node when no entry has the prefix
_LAST_OFF = slice(None, -1)  # a candidate less its last character (one slice object for every cut)


def entry_trie(entries) -> dict:
    """A character trie of (text, id) pairs: a dict per prefix, the (id, text) of an entry ending
    there under the key '' (what a walk down it takes as its token: no slice or concatenation).
    ``entry_trie([("ab", 0), ("a", 1)]) == {"a": {"b": {"": (0, "ab")}, "": (1, "a")}}``."""
    root: dict = {}
    for text, id_ in entries:
        node = root
        for char in text:
            child = node.get(char)
            if child is None:
                child = node[char] = {}
            node = child
        node[""] = (id_, text)
    return root


@register("model")
class WordPiece(VocabModel):
    """Greedy longest-match-first subwords.

    ``WordPiece({"un": 0, "##aff": 1, "##able": 2}).tokenize("unaffable")``
    is ``[(0, "un", 0, 2), (1, "##aff", 2, 5), (2, "##able", 5, 9)]``.
    Offsets are characters of the word, as every tokcore model.
    """

    def __init__(
        self,
        vocab: dict[str, int],
        *,
        unk_token: str = "[UNK]",
        continuing_subword_prefix: str = "##",
        max_input_chars_per_word: int = 100,
    ):
        if not isinstance(vocab, dict):
            raise ConfigurationError("WordPiece vocab must be a dict token -> id")
        check_vocab_ids(vocab, "WordPiece")
        if not isinstance(unk_token, str):
            raise ConfigurationError(f"WordPiece unk_token must be a str, got {type(unk_token).__name__}")
        if not isinstance(continuing_subword_prefix, str):
            raise ConfigurationError("WordPiece continuing_subword_prefix must be a str (use '' for none)")
        if isinstance(max_input_chars_per_word, bool) or not isinstance(max_input_chars_per_word, int) or max_input_chars_per_word < 0:
            raise ConfigurationError(
                f"max_input_chars_per_word must be a non-negative int, got {max_input_chars_per_word!r}"
            )
        self.vocab = dict(vocab)
        self.unk_token = unk_token
        self.continuing_subword_prefix = continuing_subword_prefix
        self.max_input_chars_per_word = max_input_chars_per_word
        self._inverse = dict(zip(self.vocab.values(), self.vocab))
        self._lookup = None  # what _split reads, set on its first call (_settings)
        self._longest_entry = None  # the longest entry's length, found when a long word needs it (_longest)
        self._cache: dict[str, tuple] = {}

    def __setattr__(self, name: str, value) -> None:
        super().__setattr__(name, value)
        # An option set after construction: the entry trie and the word cache follow it.
        if name[0] != "_" and "_cache" in self.__dict__:
            if name == "vocab":
                self._inverse = dict(zip(value.values(), value))
            self._lookup = self._longest_entry = None
            self._cache = {}

    # ------------------------------------------------------------------ encoding
    def tokenize(self, text: str):
        cached = self._cache.get(text)
        if cached is None:
            cached = self._split(text)
            # Long words rarely repeat; caching them would keep every huge input alive.
            if len(text) < MAX_CACHED_LENGTH and len(self._cache) < CACHE_CAPACITY:
                self._cache[text] = cached
        return list(cached)

    def _unknown(self, word: str) -> tuple:
        id_ = self.vocab.get(self.unk_token)
        if id_ is None:
            raise ConfigurationError(
                f"WordPiece cannot split {word[:40]!r} and its unk_token {self.unk_token!r} is not in the "
                "vocabulary; add the unknown token to the vocabulary (trainers: special_tokens=[...]) "
                "or set unk_token to a token that is in it"
            )
        return (id_,), (self.unk_token,), (len(word),)

    def _settings(self) -> tuple:
        # What columns reads, in one tuple (one attribute read per split): the vocabulary, its probe,
        # the prefix, the word limit, the entry trie and its continuations' node (None, None until
        # built) and the misses left before it is built. The probe is a copy of the vocabulary where
        # the empty text and the prefix alone are None: a search that cuts a candidate down to them
        # has found nothing there, so the loop needs no bound test per candidate (a C-level copy).
        # The trie costs about what 4 missed lookups per vocabulary entry cost: a small vocabulary,
        # or text in scripts it barely covers, soon pays for it; a large one on text it covers (most
        # words whole) never does.
        probe = dict(self.vocab)
        probe[""] = probe[self.continuing_subword_prefix] = None
        budget = [4 * len(self.vocab)]
        self._lookup = (self.vocab, probe, self.continuing_subword_prefix, self.max_input_chars_per_word, None, None,
                        budget)
        return self._lookup

    def _longest(self) -> int:
        # Longest entry: no longer match can start anywhere, so a long word's search starts there.
        if self._longest_entry is None:
            self._longest_entry = max(map(len, self.vocab), default=0)
        return self._longest_entry

    def _missed(self, budget: list, missed: int) -> None:
        # About the lookups that found nothing, before the trie is built (see _settings).
        budget[0] -= missed
        if budget[0] < 0 and self._lookup is not None and self._lookup[4] is None:
            self._index_lengths()

    def _index_lengths(self) -> tuple:
        # The trie of every entry (``entry_trie``): a first piece may be any entry, a continuation
        # is an entry below the prefix's node (none when no entry has the prefix).
        prefix = self.continuing_subword_prefix
        heads = continuations = entry_trie(self.vocab.items())
        for char in prefix:
            continuations = continuations.get(char, _NO_ENTRIES)
        self._longest()  # what _walk reads: no walk goes further
        self._lookup = (*(self._lookup or self._settings())[:4], heads, continuations, [0])
        return self._lookup

    def _walk(self, word: str, heads: dict, continuations: dict, prefix: str) -> tuple:
        # columns once the trie is built: each position's longest entry found in one walk down it,
        # its id and text read off its node; a continuation covers its text less the prefix.
        n = len(word)
        deepest = self._longest_entry  # no walk goes further (a slice of that much: each walk is bounded)
        ids, tokens, sizes = [], [], []
        start = cut = 0  # the first piece has no prefix
        node = heads
        while True:
            last = None
            for char in word[start:start + deepest]:
                node = node.get(char)
                if node is None:
                    break
                if "" in node:  # an entry ends here: the longest so far
                    last = node
            if last is None:
                return self._unknown(word)
            id_, token = last[""]
            ids.append(id_)
            tokens.append(token)
            size = len(token) - cut
            sizes.append(size)
            start += size
            if start == n:
                return ids, tokens, sizes
            node = continuations
            cut = len(prefix)

    def _split(self, word: str) -> tuple:
        """``columns`` as (id, token, start, stop) tuples.
        ``WordPiece({"a": 0, "##bc": 1})._split("abc") == ((0, "a", 0, 1), (1, "##bc", 1, 3))``."""
        ids, tokens, sizes = self.columns(word)
        stops = list(accumulate(sizes))
        return tuple(zip(ids, tokens, (0, *stops[:-1]), stops))

    def columns(self, word: str) -> tuple:
        """(ids, tokens, sizes) of HF's greedy longest match: at each position the longest entry
        there, found by one walk down the entry trie once built (``_walk``), before that tried from
        the longest length that can match (the rest of the word, or past _SHORT characters the
        longest entry's) down; token k covers the sizes[k] characters after the ones before it
        (sizes, not stops: what a word entry keeps).

        ``WordPiece({"a": 0, "##bc": 1}).columns("abc") == ([0, 1], ["a", "##bc"], [1, 2])``.
        """
        n = len(word)
        if not n:
            return (), (), ()
        lookup = self._lookup or self._settings()
        if n > lookup[3]:
            return self._unknown(word)
        id_ = lookup[0].get(word)
        if id_ is not None:  # the whole word is an entry: the longest match there is
            return (id_,), (word,), (n,)
        return self.columns_past_whole(word)

    def columns_past_whole(self, word: str) -> tuple:
        """``columns`` of a word of 1 to max_input_chars_per_word characters that is no entry itself
        (the word entries test that first). ``WordPiece({"a": 0, "##b": 1}).columns_past_whole("ab")
        == ([0, 1], ["a", "##b"], [1, 1])``."""
        vocab, probe, prefix, most, heads, continuations, budget = self._lookup or self._settings()
        n = len(word)
        if heads is not None:
            return self._walk(word, heads, continuations, prefix)
        # A short word (most) tries every length; a long one no more than the longest entry's.
        reach = n if n <= _SHORT else self._longest()
        cut = _LAST_OFF
        # Longest first, each candidate the last one less its last character (one slice), until
        # one is in the probe: an entry, or the empty text (nothing matched here).
        token = word[:n - 1 if reach >= n else reach]  # the whole word was just tried
        while token not in probe:
            token = token[cut]
        id_ = probe[token]
        if id_ is None and token:
            # The prefix alone (the word starts with it): a first piece may be it, or shorter.
            while token and token not in vocab:
                token = token[cut]
            id_ = vocab.get(token) if token else None
        if id_ is None:
            self._missed(budget, n)
            return self._unknown(word)
        start = stops = len(token)
        ids, tokens, sizes = [id_], [token], [start]
        cont = len(prefix)
        while start < n:
            # A continuation cut down to the prefix alone (None in the probe) matched nothing.
            token = prefix + word[start:start + reach]
            while token not in probe:
                token = token[cut]
            id_ = probe[token]
            if id_ is None:
                self._missed(budget, n * len(ids))
                return self._unknown(word)
            ids.append(id_)
            tokens.append(token)
            size = len(token) - cont
            sizes.append(size)
            start += size
            stops += start
        # Misses, as if each search started at the rest of the word (past _SHORT it starts nearer):
        # from each token's stop to the word's end, the first token's less the whole word.
        budget[0] -= n * len(sizes) - stops - 1
        if budget[0] < 0:
            self._index_lengths()
        return ids, tokens, sizes

    def explain(self, word: str) -> dict:
        """Every longest-match attempt, as plain data for "why this split?".

        Returns ``{"word", "attempts", "tokens", "unknown", "reason"}``; each attempt is
        ``{"position", "candidates", "match", "span"}`` with the candidates in the order tried
        (longest first, the ``##`` prefix included after the first position), ``match`` the
        entry found (or ``None``) and ``span`` its character span. Candidates are listed from
        the whole remaining word down, as the textbook algorithm tries them.
        ``WordPiece({"a": 0, "##b": 1}).explain("ab")["attempts"][0]["candidates"] == ["ab", "a"]``.
        """
        if not isinstance(word, str):
            raise ConfigurationError(f"explain takes one word (str), got {type(word).__name__}")
        n = len(word)
        result = {"word": word, "attempts": [], "tokens": [], "unknown": False, "reason": None}
        if n > self.max_input_chars_per_word:
            result["unknown"] = True
            result["reason"] = (
                f"the word has {n} characters, more than max_input_chars_per_word={self.max_input_chars_per_word}, "
                "so it is one unknown token without trying any split"
            )
        else:
            prefix = self.continuing_subword_prefix
            start = 0
            while start < n:
                tried = []
                match = None
                for end in range(n, start, -1):
                    sub = word[start:end] if start == 0 else prefix + word[start:end]
                    tried.append(sub)
                    if sub in self.vocab:
                        match = (sub, start, end)
                        break
                result["attempts"].append({
                    "position": start,
                    "candidates": tried,
                    "match": None if match is None else match[0],
                    "span": None if match is None else (match[1], match[2]),
                })
                if match is None:
                    result["unknown"] = True
                    result["reason"] = (
                        f"nothing in the vocabulary matches at character {start} "
                        f"({(prefix if start else '') + word[start]!r} included), so the whole word is one unknown token"
                    )
                    break
                start = match[2]
        if n:
            try:
                result["tokens"] = [tuple(t) for t in self.tokenize(word)]
            except ConfigurationError as exc:
                result["tokens"] = []
                result["reason"] = (result["reason"] or "") + f" ({exc})"
        return result

    # ------------------------------------------------------------------ vocabulary
    # ------------------------------------------------------------------ serialization
    def to_dict(self) -> dict:
        return {
            "type": "WordPiece",
            "unk_token": self.unk_token,
            "continuing_subword_prefix": self.continuing_subword_prefix,
            "max_input_chars_per_word": self.max_input_chars_per_word,
            "vocab": dict(sorted(self.vocab.items(), key=lambda kv: kv[1])),
        }

    @classmethod
    def from_dict(cls, data, *, source="<dict>", where=""):
        vocab = data["vocab"]
        # JSON gives exact str keys and int ids: checked by their types in one pass each (the
        # per-item test is for other mappings).
        if not isinstance(vocab, dict) or not (
            set(map(type, vocab)) <= {str} and set(map(type, vocab.values())) <= {int}
            or all(isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in vocab.items())
        ):
            raise ValueError("'vocab' must map strings to integer ids")
        return cls(
            vocab,
            unk_token=data.get("unk_token", "[UNK]"),
            continuing_subword_prefix=data.get("continuing_subword_prefix", "##"),
            max_input_chars_per_word=data.get("max_input_chars_per_word", 100),
        )
