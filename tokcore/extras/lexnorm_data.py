"""The built-in lookup list of non-standard English forms (social-media spellings) and their canonical words.

Written for tokcore: one-to-one (``tmrw`` -> ``tomorrow``), one-to-many (``cu`` -> ``see you``) and
many-to-one keys (``to morrow`` -> ``tomorrow``, matched across a space). Keys are lower case.

Left out: the general English lexicon and frequencies (symspellpy's shipped dictionary).
"""

from __future__ import annotations

LOOKUP: dict[str, str] = {
    # one-to-one
    "u": "you", "ur": "your", "r": "are", "y": "why", "n": "and", "b": "be", "c": "see", "k": "okay",
    "ppl": "people", "pple": "people", "tmrw": "tomorrow", "tmr": "tomorrow", "2moro": "tomorrow", "2morrow": "tomorrow",
    "tmw": "tomorrow", "2day": "today", "2nite": "tonight", "tonite": "tonight", "pix": "pictures", "pic": "picture",
    "pics": "pictures", "dey": "they", "dem": "them", "dat": "that", "dis": "this", "da": "the", "wat": "what",
    "wut": "what", "wht": "what", "hve": "have", "hav": "have", "gr8": "great", "b4": "before", "l8r": "later",
    "l8": "late", "m8": "mate", "h8": "hate", "w8": "wait", "str8": "straight", "thx": "thanks", "thnx": "thanks",
    "tnx": "thanks", "ty": "thank you", "pls": "please", "plz": "please", "plss": "please", "becuz": "because",
    "bcuz": "because", "bc": "because", "cuz": "because", "coz": "because", "cos": "because", "bcoz": "because",
    "msg": "message", "msgs": "messages", "txt": "text", "bday": "birthday", "luv": "love", "lov": "love",
    "gud": "good", "gd": "good", "gr8t": "great", "nite": "night", "ya": "you", "yu": "you", "yo": "you",
    "abt": "about", "bout": "about", "wanna": "want to", "gonna": "going to", "gotta": "got to", "kinda": "kind of",
    "sorta": "sort of", "lemme": "let me", "gimme": "give me", "dunno": "do not know", "ima": "i am going to",
    "im": "i'm", "ive": "i've", "dont": "don't", "cant": "can't", "wont": "won't", "didnt": "didn't",
    "doesnt": "doesn't", "isnt": "isn't", "wasnt": "wasn't", "thats": "that's", "whats": "what's",
    "ur's": "yours", "hes": "he's", "shes": "she's", "theyre": "they're", "youre": "you're", "wouldnt": "wouldn't",
    "shouldnt": "shouldn't", "couldnt": "couldn't", "idk": "i do not know", "imo": "in my opinion",
    "imho": "in my humble opinion", "tbh": "to be honest", "btw": "by the way", "omg": "oh my god",
    "lol": "laughing out loud", "lmao": "laughing my ass off", "brb": "be right back", "afaik": "as far as i know",
    "irl": "in real life", "nvm": "never mind", "np": "no problem", "ttyl": "talk to you later", "cu": "see you",
    "cya": "see you", "rly": "really", "rlly": "really", "srsly": "seriously", "prob": "probably",
    "probs": "probably", "def": "definitely", "defo": "definitely", "bf": "boyfriend", "gf": "girlfriend",
    "bff": "best friend forever", "fam": "family", "bro": "brother", "sis": "sister", "ppl's": "people's",
    "govt": "government", "yr": "year", "yrs": "years", "min": "minute", "mins": "minutes", "sec": "second",
    "secs": "seconds", "hr": "hour", "hrs": "hours", "wk": "week", "wks": "weeks", "info": "information",
    "thru": "through", "tho": "though", "altho": "although", "nd": "and", "wen": "when", "wher": "where",
    "hw": "how", "r u": "are you", "cud": "could", "wud": "would", "shud": "should", "evry": "every",
    "evryone": "everyone", "sumthin": "something", "nothin": "nothing", "somethin": "something",
    "goin": "going", "doin": "doing", "nuthin": "nothing", "comin": "coming", "lookin": "looking",
    "feelin": "feeling", "talkin": "talking", "sayin": "saying", "tryin": "trying", "gettin": "getting",
    "ok": "okay", "okey": "okay", "kk": "okay", "yea": "yeah", "yep": "yes", "nope": "no", "ofc": "of course",
    "2gether": "together", "4ever": "forever", "some1": "someone", "any1": "anyone",
    "no1": "no one", "every1": "everyone", "bcs": "because", "jus": "just",
    "jst": "just", "frnd": "friend", "frnds": "friends", "hapy": "happy", "neva": "never", "eva": "ever",
    "ova": "over", "betta": "better", "wassup": "what is up", "sup": "what is up",
    # many-to-one (matched across a single space)
    "to morrow": "tomorrow", "to day": "today", "to night": "tonight", "every one": "everyone",
    "some one": "someone", "any one": "anyone", "every body": "everybody", "some body": "somebody",
    "no body": "nobody", "any body": "anybody", "some thing": "something", "any thing": "anything",
    "every thing": "everything", "with out": "without", "in side": "inside", "out side": "outside",
    "some times": "sometimes", "can not": "cannot", "c u": "see you", "c ya": "see you", "l o l": "laughing out loud",
}

# Short lookup keys that are also ordinary words in some contexts are only applied in lower case
# (so "U" in "U.S." or "N" as an initial stay as they are).
LOWERCASE_ONLY = frozenset({"u", "r", "y", "n", "b", "c", "k", "def", "sec", "min", "cos", "da", "yo", "sup", "prob"})

# Abbreviations people write on purpose and a reader knows: kept as typed unless the lookup list maps them.
ABBREVIATIONS = frozenset({
    "img", "imgs", "jpg", "jpeg", "png", "gif", "pdf", "svg", "src", "dst", "tmp", "var", "env", "cfg", "config",
    "repo", "repos", "cmd", "args", "kwargs", "regex", "html", "css", "json", "yaml", "url", "urls", "api", "apis",
    "etc", "eg", "ie", "vs", "approx", "dept", "corp", "inc", "ltd", "mr", "mrs", "ms", "dr", "st", "ave",
    "faq", "diy", "asap", "fyi", "aka", "tba", "tbd", "eta", "wifi", "app", "apps", "admin", "demo", "memo",
})
