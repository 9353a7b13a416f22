"""How alike two person names are, and when two names clearly belong to different people.

Used by merge suggestions ("Sarah Chen" ~ "Sarah C.") and by the contacts import
(a contact "Sarah Miller" must not be matched to an entity called "Sarah Chen").
Names are compared as normalized forms (see `entities.names.normalize_name`).
"""
from rapidfuzz import fuzz

from entities.names import TITLES, is_role_phrase, strip_accents

# Scores (0..1) for the structured cases; everything else is rapidfuzz's ratio.
INITIAL_MATCH = 0.9      # "sarah c" ~ "sarah chen"
FIRST_NAME_ONLY = 0.8    # "sarah" ~ "sarah chen"; "dr chen" ~ "sarah chen"
SURNAME_ONLY = 0.75      # "chen" ~ "sarah chen"
# Two surnames (or first names) whose ratio is below this are different names.
SAME_TOKEN_MIN_RATIO = 80


def name_tokens(normalized: str) -> tuple[list[str], bool]:
    """Accent-free tokens without a leading title, and whether there was a title."""
    tokens = strip_accents(normalized).split()
    if len(tokens) > 1 and tokens[0] in TITLES:
        return tokens[1:], True
    return tokens, False


def _same_token(a: str, b: str) -> bool:
    """The same word, or a typo of it ("jon" ~ "john"); a word with a digit in it only as itself."""
    if a == b:
        return True
    if _has_digit(a) or _has_digit(b):
        return False
    return len(a) >= 3 and len(b) >= 3 and fuzz.ratio(a, b) >= SAME_TOKEN_MIN_RATIO


def _has_digit(token: str) -> bool:
    return any(char.isdigit() for char in token)


def _initial_of(a: str, b: str) -> bool:
    """"c" is the initial of "chen" (either way round); "1" is no initial of "12"."""
    if _has_digit(a) or _has_digit(b):
        return False
    return (len(a) == 1 and b.startswith(a)) or (len(b) == 1 and a.startswith(b))


def names_conflict(a: str, b: str) -> bool:
    """Two full names that cannot be the same person: a different first name or surname ("sarah chen" vs
    "sarah miller"), as many words with one of them different ("person 1 test" vs "person 2 test"), or a
    number only one of them has ("anna 2 lee" vs "anna lee"). A typo of a word is the same word."""
    ta, _ = name_tokens(a)
    tb, _ = name_tokens(b)
    if len(ta) < 2 or len(tb) < 2:
        return False
    if len(ta) != len(tb):
        pairs = [(ta[0], tb[0]), (ta[-1], tb[-1])]
        if {t for t in ta if _has_digit(t)} != {t for t in tb if _has_digit(t)}:
            return True
    else:
        pairs = list(zip(ta, tb))
    return not all(_same_token(x, y) or _initial_of(x, y) for x, y in pairs)


def name_likeness(a: str, b: str) -> float:
    """0..1: how likely two normalized names refer to the same person."""
    if not a or not b or is_role_phrase(a) or is_role_phrase(b):
        return 0.0
    ta, titled_a = name_tokens(a)
    tb, titled_b = name_tokens(b)
    if ta == tb:
        # The same first name alone ("sarah" ~ "sarah") says no more than a first-name match.
        return 1.0 if len(ta) > 1 else FIRST_NAME_ONLY
    if names_conflict(a, b):
        return 0.0
    if len(ta) > 1 and len(tb) > 1 and ta[0] == tb[0] and _initial_of(ta[-1], tb[-1]):
        return INITIAL_MATCH
    short, long_, titled = (ta, tb, titled_a) if len(ta) < len(tb) else (tb, ta, titled_b)
    if len(short) == 1 and len(long_) > 1:
        if titled and short[0] == long_[-1]:
            return FIRST_NAME_ONLY
        if short[0] == long_[0]:
            return FIRST_NAME_ONLY
        if short[0] == long_[-1]:
            return SURNAME_ONLY
    return fuzz.token_sort_ratio(" ".join(ta), " ".join(tb)) / 100


def best_likeness(names_a, names_b) -> tuple[float, str, str]:
    """The most alike pair across two sets of names: (score, name from a, name from b).

    Among equal scores the fullest names win, so the pair reads "sarah chen" ~ "sarah c", not "sarah" ~ "sarah".
    """
    best, best_length = (0.0, "", ""), 0
    for a in names_a:
        for b in names_b:
            score = name_likeness(a, b)
            if score > best[0] or (score == best[0] and score > 0 and len(a) + len(b) > best_length):
                best, best_length = (score, a, b), len(a) + len(b)
    return best


def full_names_conflict(names_a, names_b) -> bool:
    """True when every full name of one conflicts with every full name of the other."""
    full_a = [n for n in names_a if len(name_tokens(n)[0]) > 1 and not is_role_phrase(n)]
    full_b = [n for n in names_b if len(name_tokens(n)[0]) > 1 and not is_role_phrase(n)]
    if not full_a or not full_b:
        return False
    return all(names_conflict(a, b) for a in full_a for b in full_b)
