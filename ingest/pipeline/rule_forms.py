"""What the rule-based extractor's modules share: the patterns of a name and a role, and the candidates they
build (a fact, a relation, a preference about its subject) in the words a memory is written in."""
import re

from ingest.pipeline.base import (
    Candidate,
    Mention,
    Message,
    RelationSpec,
    default_confidence,
    default_importance,
    first_person,
)
from ingest.pipeline.names_in_text import NODE_AT_ONCE_ROLES, ROLE_WORDS, same_role_words
from recall_site.config import recall_setting

CI = re.IGNORECASE
NAME = r"(?P<{}>(?:(?:Dr|Mr|Mrs|Ms|Prof|St|Mt)\.? )?[A-Z][\w'’\-]*(?: [A-Z][\w'’\-]*){{0,2}})"  # "Mrs. Kim"
ROLE = "(?P<role>" + "|".join(sorted(map(re.escape, ROLE_WORDS), key=len, reverse=True)) + ")"
BIOGRAPHICAL = {"residence", "employer", "name", "called", "birthday", "occupation", "hometown"}
# Roles one person holds at a time: a new holder supersedes the old relation memory.
EXCLUSIVE_ROLES = {"manager_of", "partner_of", "spouse_of"}
# The last word of a job title ("senior engineer", "firefighter").
JOB_HEADS = (r"engineer|developer|dev|manager|director|designer|analyst|scientist|architect|lead|consultant|officer|"
             r"president|vp|head of [a-z]+|associate|accountant|lawyer|attorney|nurse|teacher|professor|"
             r"editor|writer|producer|specialist|coordinator|administrator|supervisor|technician|researcher|"
             r"principal|intern|chef|founder|ceo|cto|cfo|coo|doctor|surgeon|physician|pharmacist|paramedic|"
             r"firefighter|pilot|electrician|plumber|mechanic|carpenter|programmer|photographer|journalist|"
             r"librarian|veterinarian|vet|dentist|realtor|banker|barista|bartender|cashier|waiter|waitress|"
             r"counselor|counsellor|social worker|police officer|cop|detective|soldier|judge|farmer|pastor")


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def relation_candidate(content: str, subject: Mention, predicate: str, obj: Mention) -> Candidate:
    return Candidate(
        type="relation", content=content, confidence=default_confidence("fact"),
        importance=default_importance("relation"), mentions=[subject, obj], subject=subject,
        relation=RelationSpec(subject, predicate, obj), details={"predicate": predicate},
    )


def fact_candidate(content, attribute, mentions, *, domain="", importance=None) -> Candidate:
    """A stated fact about its first mention (a named person, the speaker or the user)."""
    half_life = recall_setting("decay.biographical_fact_half_life_days") if attribute in BIOGRAPHICAL else None
    return Candidate(
        type="fact", content=content, confidence=default_confidence("fact"),
        importance=importance if importance is not None else default_importance("fact"), mentions=mentions,
        subject=mentions[0], attribute=attribute, half_life_days=half_life, domain=domain,
    )


def preference_candidate(content, attribute, message: Message, *, mentions=(), domain="") -> Candidate:
    me = first_person(message)
    return Candidate(
        type="preference", content=content, confidence=default_confidence("preference"),
        importance=default_importance("preference"), mentions=[me, *mentions], subject=me if attribute else None,
        attribute=attribute[:64], domain=domain,
    )


def role_mention(message: Message, role: str, as_role: str = "mention") -> Mention:
    """Someone known only by a role of the message's "I" ("my sister"): an unnamed node of its own."""
    return Mention(role_node_name(message, role), role=as_role, owner=first_person(message, "object"),
                   role_predicate=ROLE_WORDS.get(role, ""), node_at_once=role in NODE_AT_ONCE_ROLES,
                   role_forms=tuple(sorted(role_node_name(message, word) for word in same_role_words(role))))


def pet_mention(message: Message, pet: str) -> Mention:
    """One's own pet said without a name ("my dog", "my turtles"): an unnamed pet node of its own, which takes
    the pet's name when it is given ("my dog Rex")."""
    singular = pet.removesuffix("s") if pet.endswith(("dogs", "cats", "turtles", "kittens", "rabbits")) else pet
    forms = {role_node_name(message, singular), role_node_name(message, f"{singular}s"),
             role_node_name(message, pet)}
    return Mention(role_node_name(message, pet), kind="pet", owner=first_person(message, "object"),
                   role_predicate="pet_of", node_at_once=True, role_forms=tuple(sorted(forms)))


def possessive(message: Message) -> str:
    return f"{message.speaker}'s" if message.speaker else "the user's"


def role_node_name(message: Message, role: str) -> str:
    """What an unnamed person holding this role of the message's "I" is called: "my mom", "Caroline's mom"."""
    return f"{message.speaker}'s {role}" if message.speaker else f"my {role}"


def about(message: Message, content: str, link: str = " ") -> str:
    """A typed memory's words: "Prefers tea" about the user, "Caroline prefers tea" about a speaker."""
    return f"{message.speaker}{link}{content[:1].lower()}{content[1:]}" if message.speaker else content


# Where the thing liked ends and the reason or another clause begins: "aisle seats because of my knee",
# "raw fish, so no more sushi for me", "Vue than React, I know it better".
_CLAUSE_TAIL = re.compile(r"(?:,\s*|\s+)(?:so|because|since|cause|cuz)\b.*$|,\s*(?:as|but|which|i|i'm|i've|it|it's|"
                          r"that's|we|we're)\b.*$", CI)


def clean_object(text: str) -> str:
    text = re.sub(r"\b(please|thanks|thank you|a lot|so much|very much|really|any ?more|these days|now|at all)\b",
                  "", text, flags=CI)
    text = _CLAUSE_TAIL.sub("", re.sub(r"\s+", " ", text))
    return re.sub(r"\s+", " ", text).strip(" ,.!?;:-")
