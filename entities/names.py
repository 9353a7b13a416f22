"""Normalising how people are referred to: case, punctuation, titles and role phrases."""
import re
import unicodedata

# Different words for the same role resolve to one alias ("my boss" = "my manager").
ROLE_SYNONYMS = {
    "boss": "manager",
    "supervisor": "manager",
    "line manager": "manager",
    "mom": "mother",
    "mum": "mother",
    "mommy": "mother",
    "mama": "mother",
    "dad": "father",
    "daddy": "father",
    "papa": "father",
    "hubby": "husband",
    "missus": "wife",
    "sis": "sister",
    "bro": "brother",
    "gf": "girlfriend",
    "bf": "boyfriend",
}
# Bare family words mean "my …" ("mom" = "my mother").
IMPLICIT_POSSESSIVE = {"mother", "father", "manager"}
# Roles the user names with "the" and means their own: "the client" = "my client", "the wife" = "my wife".
# Not "the manager" or "the doctor": a shop's manager or any doctor is as likely.
DEFINITE_ROLES = {"client", "boss", "landlord", "wife", "husband", "hubby", "missus"}
TITLES = {"dr", "mr", "mrs", "ms", "miss", "prof", "sir"}
# Pronouns, question words and sentence starters: capitalised at the start of a sentence, never a name
# ("What", "Hey", "Thanks", "That's"). Contraction tails ("s", "m", "re") cover normalized "that s", "i m".
NOT_NAME_WORDS = frozenset("""
i me my mine we us our you your yours he him his she her hers they them their it its this that these those
there here who whom whose what when where why how which whatever whenever
hey hi hello yo hiya dear bye goodbye cheers welcome
wow woah whoa oh ooh ah aw aww awww um uh hmm mm mmm ugh oops omg lol haha hahaha hehe ha
yay yum yummy phew oof woo woohoo hooray yikes gosh geez jeez dang darn bummer whew meh psst
yeah yes yep yup yah no nope nah ok okay sure alright right true exactly absolutely definitely totally indeed
thanks thank thx congrats congratulations sorry please
good great nice cool awesome amazing wonderful fantastic lovely sweet glad happy sounds sound seems looks
so well just also and but or then anyway anyways btw fyi actually honestly really basically
let let's same agreed wait look see
s m re ve ll d t
""".split())
_PUNCTUATION = re.compile(r"[^\w\s]")
_SPACES = re.compile(r"\s+")


def normalize_name(text: str) -> str:
    """Lowercase, strip punctuation and accents' combining marks, canonicalise role phrases.

    "Sarah C." → "sarah c"; "My Boss" → "my manager"; "mom" → "my mother"; "the client" → "my client".
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _PUNCTUATION.sub(" ", text)
    text = _SPACES.sub(" ", text).strip()
    words = text.split(" ")
    possessive = words[:1] == ["my"] or (words[:1] == ["the"] and " ".join(words[1:]) in DEFINITE_ROLES)
    role = " ".join(words[1:]) if possessive else text
    role = ROLE_SYNONYMS.get(role, role)
    if possessive or role in IMPLICIT_POSSESSIVE:
        return f"my {role}"
    return role


def strip_accents(text: str) -> str:
    if text.isascii():  # most names: nothing to strip, and the resolver calls this once per known name
        return text
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def without_title(normalized: str) -> str:
    words = normalized.split(" ")
    return " ".join(words[1:]) if len(words) > 1 and words[0] in TITLES else normalized


def is_not_a_name(text: str) -> bool:
    """True when every word of `text` is a pronoun, question word or sentence starter ("What", "Hey there")."""
    words = re.findall(r"\w+", text.casefold())
    return all(word in NOT_NAME_WORDS for word in words)


def is_role_phrase(normalized: str) -> bool:
    return normalized.startswith("my ")
