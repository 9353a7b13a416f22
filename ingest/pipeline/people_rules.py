"""The rules for the people, pets and places in someone's life: relations ("Alex is Sarah's partner", "my sister
Emma", "I report to Karen", "Mark's mom Susan"), family named in passing ("my brother Mike has two kids, Ella and
Sam"), the homes and workplaces of people named or known by a role ("Anna moved to Munich", "my sister lives in
Toronto"), and pets with whoever has them ("Carlos has a dog called Pepper", "we have two cats, Miso and Tofu")."""
import re

from ingest.pipeline.base import Candidate, Mention, Message, RelationSpec, first_person
from ingest.pipeline.dates import TIME_WORD
from ingest.pipeline.name_answers import CHILD
from ingest.pipeline.names_in_text import (
    ORG_ROLE_WORDS,
    PET_WORDS,
    ROLE_WORDS,
    WORK_TEAMS,
    is_name,
    named_mentions,
    named_org_roles,
)
from ingest.pipeline.rule_forms import (
    CI,
    EXCLUSIVE_ROLES,
    JOB_HEADS,
    NAME,
    ROLE,
    about,
    article,
    fact_candidate,
    possessive,
    relation_candidate,
    role_mention,
    role_node_name,
)

ORG_RELATION_WORDS = {"member_of": "Is a member of", "works_at": "Works at", "studies_at": "Studies at"}
_RELATION_OF = re.compile(NAME.format("a") + r" is " + NAME.format("b") + r"(?:'s|’s) " + ROLE)
# A word before the role that leaves it the current one ("my running coach", "my new girlfriend"), not "my ex".
_ROLE_MODIFIER = r"(?:(?!(?:ex|former|late|old|previous|first|future|dead|other)\b)[a-z]+ )?"
_MY_ROLE_IS = re.compile(r"(?i:\b(?:my|our) " + _ROLE_MODIFIER + ")" + ROLE
                         # "my manager at Globex is Raj"
                         + r"(?: (?i:at|from) (?-i:[A-Z])[\w&'’\-]*(?: (?-i:[A-Z])[\w'’\-]*){0,2})?"
                         + r"(?i:(?:'s|’s) name is| is(?: now| actually)?(?: called| named)?) " + NAME.format("a"))
_IS_MY_ROLE = re.compile(NAME.format("a") + r" (?i:is|was|has been|became) (?i:(?:my|our)(?: new)?) " + ROLE + r"\b")
_MY_ROLE_NAME = re.compile(r"(?i:\b(?:my|our) " + _ROLE_MODIFIER + r"|\b(?:i|we) (?:have|'ve got|got) a new )"
                           + ROLE + r",? " + NAME.format("a"))
# The one person the sentence names, then as "he" or "she": "Marcus is moving to Denver, he's been my best friend
# since high school".
_PRONOUN_MY_ROLE = re.compile(r"(?i:\b(?:he|she)(?:'s| is|'s been| has been| was| became) (?:my|our) "
                              + _ROLE_MODIFIER + ")" + ROLE + r"\b")
# A colleague said by their team: "Had lunch with Priya from accounting", "Dana from work".
_FROM_WORK = re.compile(NAME.format("a") + r"(?i: from (?:work|the office|" + WORK_TEAMS + r"))")
_THEIR_ROLE_IS = re.compile(NAME.format("b") + r"(?:'s|’s) " + ROLE + r" (?:is|was)(?: called| named)? "
                            + NAME.format("a"))
# The speaker's own family named: "I have a sister named Anna", "I have two daughters, Mia and Zoe", "we have a son
# named Leo".
_I_HAVE_FAMILY = re.compile(r"(?i:\b(?:i|we) (?:have|'ve got|got|had) (?:a|an|one|two|three|four|\d) (?:\w+ )?"
                            r"(?P<family>sisters?|brothers?|sons?|daughters?|kids?|children|child)"
                            r"(?:,| named| called|:)) "
                            + NAME.format("a") + r"(?P<more>(?:,? (?:and|&) [A-Z][\w'’\-]*|, [A-Z][\w'’\-]*)*)")
_FAMILY_ROLE = {"sisters": "sister", "brothers": "brother", "sons": "son", "daughters": "daughter", "kids": "kid",
                "children": "child", "parents": "parent", "grandparents": "grandparent", "cousins": "cousin"}
# The speaker's family named in a list: "my kids, Ethan and Sophie,", "my two sons Jake and Sam", "my parents, Linda
# and Mark, are visiting".
_MY_FAMILY_NAMED = re.compile(r"(?i:\b(?:my|our) (?:two |three |four |\d |little |younger |older |grown )?"
                              r"(?P<family>sisters|brothers|sons|daughters|kids|children|parents|grandparents|cousins)"
                              r",? (?:are |named |called )?)" + NAME.format("a")
                              + r"(?P<more>(?:,? (?:and|&) [A-Z][\w'’\-]*|, [A-Z][\w'’\-]*)+)")
# Married or engaged: "I'm married to Tom", "Tom and I have been married for 10 years", "I'm engaged to Sam".
_MARRIED = re.compile(r"(?i:\b(?:i'm|i am|i've been|i have been|i got|we got) (?P<state>married|engaged) to )"
                      + NAME.format("a") + "|" + NAME.format("b")
                      + r"(?i: and i (?:are|have been|got|just got) (?P<state_b>married|engaged))\b")
# Two others engaged or married: "My best friend Jess just got engaged to Mark!", "Jess and Mark got married".
_THEY_MARRIED = re.compile(NAME.format("a") + r"(?i: (?:just |recently |finally )?(?:got|is|was|has been) "
                           r"(?P<state>married|engaged) to )" + NAME.format("b") + "|" + NAME.format("a2")
                           + r"(?i: and )" + NAME.format("b2") + r"(?i: (?:just |recently |finally )?(?:got|are|were) "
                           r"(?P<state2>married|engaged))\b")
# Someone's person named after them: "my coworker Priya and her husband Raj", "my sister Emma lives in Denver with
# her husband Jake". Between the two, lower-case words and places only: another name there could be whose "her" is.
_AND_THEIR_ROLE = re.compile(NAME.format("b") + r"(?: (?:[a-z]+|(?<=in |to |at )[A-Z][\w'’\-]*)){0,6}?"
                             r"(?i: (?:and|with) (?:his|her|their) )" + ROLE + r",? " + NAME.format("a"))
# Someone's children named: "My brother Mike has two kids, Ella and Sam", "Jen has a son named Leo".
_THEIR_CHILDREN = re.compile(NAME.format("b") + r"(?i: (?:has|had|have) (?:a|an|one|two|three|four|\d) (?:\w+ )?"
                             r"(?:kids?|children|child|sons?|daughters?|boys?|girls?)(?:,| named| called|:)) "
                             + NAME.format("a") + r"(?P<more>(?:,? (?:and|&) [A-Z][\w'’\-]*|, [A-Z][\w'’\-]*)*)")
_THEIR_ROLE_NAME = re.compile(NAME.format("b") + r"(?:'s|’s) " + ROLE + r",? " + NAME.format("a"))  # Mark's mom Susan
PET = "(?P<pet>" + "|".join(sorted(map(re.escape, PET_WORDS), key=len, reverse=True)) + ")"
# "I report to Karen": Karen manages the speaker.
_REPORTS_TO = re.compile(r"(?i:\bi (?:now |still |directly )?(?:report|am reporting|'m reporting) (?:directly )?to )"
                         + NAME.format("a"))
# A partner, named: "I'm seeing someone new, her name is Sofia", "Been seeing someone, her name is Dana", "I'm dating a
# guy named Jake", "I started dating Sofia", "Sofia and I are dating", "Jess and I have been together 3 years". "I'm
# seeing Dana on Tuesday" is a meeting, so "seeing" needs "someone".
_DATING = re.compile(
    r"(?i:\b(?:(?:i'm|i am|i've been|i have been) |(?<![\w'’])(?=been ))(?:now |been )?(?:seeing|dating) "
    r"(?:someone|somebody|a (?:guy|girl|man|woman))(?: new)?"
    r"(?: now)?(?:,? (?P<pronoun>her|his|their) name(?:'s| is) | (?:named|called) )|"
    r"\b(?:i'm|i am|i've been|i have been|i (?:just )?started|we (?:just )?started) dating )" + NAME.format("a")
    + r"|" + NAME.format("b") + r"(?i: and i (?:are|have been|'ve been|started|just started) (?:dating|together)|"
    r" and i got together)\b")
# The speaker's children by their ages: "My kids are driving me nuts, Ethan is 7 and Lily is 4".
_MY_KIDS = re.compile(r"\b(?:my|our) (?:two |three |\d )?(?P<family>kids|children|boys|girls|sons|daughters)\b", CI)
_AGED = re.compile(NAME.format("a") + r"(?: is|'s|’s| just turned| turns| turned)? (?:\d{1,2}|(?i:one|two|three|four|"
                   r"five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen))\b"
                   r"(?! ?(?:am|pm|%|percent|dollars|bucks|minutes|hours|days|weeks|times|pages))")
_PET_NAMES = re.compile(
    r"(?i:\b(?P<whose>my|our|his|her|their|a|an|the|another|one|two|three|four|\d) (?:(?:new|little|old|sweet|"
    r"adopted|rescued?|baby|two|three|other|furry|fur|first|second) )*)(?i:" + PET + r"),? "
    r"(?i:(?:who is |who's )?(?:named|called) )?" + NAME.format("names")
    + r"(?P<more>(?:,? (?:and|&) [A-Z][\w'’\-]*|, [A-Z][\w'’\-]*)*)")
_NAME_IS_PET = re.compile(NAME.format("names") + r"(?P<more>)(?i:,? (?:is |was )?(?P<whose>my|our) (?:\w+ ){0,2}"
                          + PET + r"|, (?:he|she)(?:'s| is) an? (?:\w+ )?" + PET.replace("?P<pet>", "?P<species>")
                          + r")\b")  # "Biscotti, he's a corgi"
# A pet named in the next breath ("I got a puppy! Her name's Coco"), walked ("took Max for a walk") or taken to the
# vet ("took Biscuit to the vet").
_GOT_A_PET = re.compile(r"\b(?:i|we)(?:'ve| have)? (?:just |finally |recently )?(?:got|adopted|have|rescued|"
                        r"brought home|welcomed)(?: \w+){0,2} " + PET + r"\b", re.IGNORECASE)
_PET_NAME_IS = re.compile(r"(?i:\b(?:his|her|its|their) names?(?:'s|’s| is| are)) " + NAME.format("names")
                          + r"(?P<more>(?: (?:and|&) [A-Z][\w'’\-]*)*)")
# An answer that is the names alone: "Luna and Oliver!", "Kyle."
_ANSWER_NAMES = re.compile(NAME.format("names") + r"(?P<more>(?:,? (?:and|&) [A-Z][\w'’\-]*|, [A-Z][\w'’\-]*)*)"
                           r"[!.]")
_WALKED = re.compile(r"(?i:\b(?:took|take|taking|walk|walked|walking) )" + NAME.format("names")
                     + r"(?P<more>)(?i: (?:out )?for (?:a|his|her|their) walks?| to the (?:vet|groomer|dog park|"
                     r"kennel|animal hospital))\b")
_OWNING = re.compile(r"\b(?:have|has|got|own|adopted|rescued)\b", re.IGNORECASE)
_NAMED_OWNER = re.compile(NAME.format("owner") + r"(?: (?:just |also |finally |recently |now |still ))?"
                          r"(?: and (?:his|her|their) \w+)? (?:has|had|owns|got|adopted|rescued|(?:has|have) got) $")
_WE_HAVE = re.compile(r"\b(?:i|we)\b(?:'ve| have)?(?: \w+){0,3} $", re.IGNORECASE)
_WORKS_AT = re.compile(NAME.format("a") + r"(?i: (?:lives|is living) in (?-i:[A-Z])[\w'’\-]*"
                       r"(?: (?-i:[A-Z])[\w'’\-]*)? and)?"
                       r" (?i:works|is working|(?:is|works as) an? (?P<job>[a-z][a-z \-]{2,30}?)|"
                       r"(?:just |recently |finally )?(?:got|landed|started|accepted) (?:a|an|the) (?:new )?job) "
                       r"(?i:at|for|with) " + NAME.format("org"))  # "Sam got a new job at Netflix"
# Someone else's job, no employer said: "my brother-in-law Dave is a firefighter in Seattle".
_THEIR_JOB = re.compile(NAME.format("a") + r"(?i: (?:is|works as|has been) an? (?P<job>(?:[a-z\-]+ ){0,2}?(?:"
                        + JOB_HEADS + r")))(?=(?i: (?:in|now|too|and|for|who)\b)|[.,;!?]|$)")
# Someone else's home: "Ana just moved to Porto", "my sister Emma lives in Toronto".
# Not "the meeting with Dana moved to Thursday": the one who moves is no preposition's object, a place no day.
_LIVES_IN = re.compile(r"(?<!with )" + NAME.format("a")
                       + r"(?i: (?:just |recently |finally |now )?(?:moved|relocated)(?: back)? to "
                       r"| (?:now )?(?:lives|is living|is based) in )" + NAME.format("place"))
# Where someone known by a role lives or works: "my sister lives in Toronto", "my wife works at Google".
_ROLE_HOME_OR_WORK = re.compile(
    r"(?i:\bmy " + _ROLE_MODIFIER + ")" + ROLE + r"(?i: (?:just |recently |now |still |finally )?(?P<verb>lives in|"
    r"is living in|is based in|moved to|relocated to|works at|works for|is working at|got a (?:new )?job at|"
    r"started at) )"
    + NAME.format("place"))
# Friendship said to the other person: "Thanks for being a great friend", "Appreciate your friendship".
_OUR_FRIENDSHIP = re.compile(r"\b(?:for being (?:such )?(?:a|an|my) (?:\w+ )?friend|to have you as (?:a|my) friend|"
                             r"(?:your|our) friendship|you(?:'re| are) (?:such )?(?:a|an|my) (?:\w+ )?friend)\b", CI)
_VOCATIVE = re.compile(r"^\W*(?i:(?:thanks|thank you|hey|hi|hello|aw+|wow|yeah|congrats|oh|so)\W+)*"
                       r"(?P<name>[A-Z][\w'’\-]+)[!,.?]")


def relation_candidates(sentence: str, message: Message) -> list[Candidate]:
    found = []
    for pattern in (_RELATION_OF, _THEIR_ROLE_IS, _THEIR_ROLE_NAME, _AND_THEIR_ROLE):
        if (match := pattern.search(sentence)) and is_name(match.group("a")) and is_name(match.group("b")):
            predicate = ROLE_WORDS[match.group("role").lower()]
            a, b = Mention(match.group("a"), role="subject"), Mention(match.group("b"), role="object")
            found.append(relation_candidate(f"{a.text} is {b.text}'s {match.group('role').lower()}", a, predicate, b))
            break
    if match := _I_HAVE_FAMILY.search(sentence) or _MY_FAMILY_NAMED.search(sentence):
        role = _FAMILY_ROLE.get(match.group("family").lower(), match.group("family").lower())
        for name in [match.group("a")] + re.findall(r"[A-Z][\w'’\-]*", match.group("more")):
            if is_name(name):
                found.append(_role_of_mine(name, role, message))
    elif kids := _MY_KIDS.search(sentence):
        role = {"boys": "son", "girls": "daughter"}.get(kids.group("family").lower(), "child")
        for aged in _AGED.finditer(sentence, kids.end()):
            if is_name(aged.group("a")):
                found.append(_role_of_mine(aged.group("a"), role, message))
    if (match := _MARRIED.search(sentence)) and is_name(name := match.group("a") or match.group("b")):
        found.append(_role_of_mine(name, "spouse" if (match.group("state") or match.group("state_b")).lower()
                                   == "married" else "fiancé", message))
    if (match := _THEY_MARRIED.search(sentence)) and match.group(0)[:2].lower() not in ("i ", "we"):
        a, b = match.group("a") or match.group("a2"), match.group("b") or match.group("b2")
        if is_name(a) and is_name(b):
            married = (match.group("state") or match.group("state2")).lower() == "married"
            found.append(relation_candidate(f"{a} is {'married' if married else 'engaged'} to {b}",
                                            Mention(a, role="subject"), "spouse_of" if married else "partner_of",
                                            Mention(b, role="object")))
    if (match := _THEIR_CHILDREN.search(sentence)) and is_name(parent := match.group("b")):
        for name in [match.group("a")] + re.findall(r"[A-Z][\w'’\-]*", match.group("more")):
            if is_name(name):
                found.append(relation_candidate(f"{name} is {parent}'s child", Mention(name, role="subject"),
                                                "child_of", Mention(parent, role="object")))
    for pattern in (_IS_MY_ROLE, _MY_ROLE_IS, _MY_ROLE_NAME):
        if (match := pattern.search(sentence)) and is_name(match.group("a")):
            found.append(_role_of_mine(match.group("a"), match.group("role").lower(), message))
            break
    if (match := _PRONOUN_MY_ROLE.search(sentence)) and not any(
            pattern.search(sentence) for pattern in (_IS_MY_ROLE, _MY_ROLE_IS, _MY_ROLE_NAME)):
        people = [m.text for m in named_mentions(sentence[:match.start()]) if m.kind == "person"]
        if len(people) == 1:
            found.append(_role_of_mine(people[0], match.group("role").lower(), message))
    if (match := _FROM_WORK.search(sentence)) and is_name(match.group("a")):
        found.append(_role_of_mine(match.group("a"), "colleague", message))
    if (match := _SWITCHED_ROLE.search(sentence)) and is_name(match.group("a")):
        found.append(_role_of_mine(match.group("a"), match.group("role").lower(), message))
    if (match := _REPORTS_TO.search(sentence)) and is_name(match.group("a")):
        found.append(_role_of_mine(match.group("a"), "manager", message))
    if (match := _DATING.search(sentence)) and is_name(name := match.group("a") or match.group("b")):
        role = {"her": "girlfriend", "his": "boyfriend"}.get((match.group("pronoun") or "").lower(), "partner")
        found.append(_role_of_mine(name, role, message))
    if ((match := _LIVES_IN.search(sentence)) and is_name(match.group("a"))
            and not TIME_WORD.match(match.group("place"))):
        person, place = Mention(match.group("a"), role="subject"), Mention(match.group("place"), "place", "object")
        fact = fact_candidate(f"{person.text} lives in {place.text}", "residence", [person, place], domain="personal")
        fact.relation = RelationSpec(person, "lives_in", place)
        found.append(fact)
    if (match := _ROLE_HOME_OR_WORK.search(sentence)) and is_name(match.group("place")) and not TIME_WORD.match(
            match.group("place")):
        role, works = match.group("role").lower(), bool(re.search(r"work|job|started", match.group("verb"), CI))
        person = role_mention(message, role, "subject")
        where = Mention(match.group("place"), "org" if works else "place", "object")
        said = "works at" if works else "lives in"
        fact = fact_candidate(f"{possessive(message).capitalize()} {role} {said} {where.text}",
                              "employer" if works else "residence", [person, where],
                              domain="professional" if works else "personal")
        fact.relation = RelationSpec(person, "works_at" if works else "lives_in", where)
        found.append(fact)
    if _OUR_FRIENDSHIP.search(sentence) and (friend := _addressee(message)):
        me = first_person(message, "subject")
        found.append(relation_candidate(f"{message.speaker or 'The user'} and {friend} are friends", me, "friend_of",
                                        Mention(friend, role="object")))
    for name, word in named_org_roles(sentence):
        predicate = ORG_ROLE_WORDS[word]
        org = Mention(name, kind="org", role="object", names_role=role_node_name(message, word))
        found.append(relation_candidate(about(message, f"{ORG_RELATION_WORDS[predicate]} {name}"),
                                        first_person(message, "subject"), predicate, org))
    if match := _WORKS_AT.search(sentence):
        if is_name(match.group("a")) and is_name(match.group("org")):
            person, org = Mention(match.group("a"), role="subject"), Mention(match.group("org"), "org", "object")
            job = match.group("job")
            said = f"is {article(job)} {job} at" if job else "works at"  # "Meera is a doctor at Mass General"
            fact = fact_candidate(f"{person.text} {said} {org.text}", "employer", [person, org])
            fact.relation, fact.domain = RelationSpec(person, "works_at", org), "professional"
            found.append(fact)
    elif (match := _THEIR_JOB.search(sentence)) and is_name(match.group("a")):
        job = match.group("job")
        found.append(fact_candidate(f"{match.group('a')} is {article(job)} {job}", "occupation",
                                    [Mention(match.group("a"), role="subject")], domain="professional"))
    return found


# Who one sees for something, one at a time: a new one takes the old one's place.
ONE_AT_A_TIME = {"dentist", "therapist", "landlord"}
# "I switched dentists, now I see Dr. Patel".
_SWITCHED_ROLE = re.compile(r"(?i:\b(?:switched|changed|found a new|got a new) (?P<role>"
                            + "|".join(sorted(ONE_AT_A_TIME)) + r")s?\b[^.!?]*?\b(?:now (?:i )?(?:see|go to|have)|"
                            r"(?:my )?new one is|it's now|now it's)) " + NAME.format("a"))


def _role_of_mine(name: str, role: str, message: Message) -> Candidate:
    """"Priya is my wife", "my sister Emma", "I report to Karen": the named person holds the role for the
    message's "I"; a role one person holds at a time is an attribute of the speaker, so a new holder supersedes."""
    name = name.removesuffix("'s").removesuffix("’s")
    # "my sister" is the user's role alias only when the user says it.
    person = Mention(name, role="subject", role_phrase="" if message.speaker else f"my {role}",
                     names_role=role_node_name(message, role))
    me, whose = first_person(message, "object"), f"{message.speaker}'s" if message.speaker else "the user's"
    relation = relation_candidate(f"{person.text} is {whose} {role}", person, ROLE_WORDS[role], me)
    if ROLE_WORDS[role] in EXCLUSIVE_ROLES:
        relation.subject, relation.attribute = me, f"role:{ROLE_WORDS[role]}"
    elif role in ONE_AT_A_TIME:  # "my new dentist is Dr. Patel": Dr. Lee is no longer
        relation.subject, relation.attribute = me, f"role:{role}"
    return relation


def pet_candidates(sentence: str, message: Message) -> list[Candidate]:
    """"my dogs Biscuit and Juniper", "we adopted a cat named Luna", "Rex, my German Shepherd": pets, and whose
    they are when the speaker says so (a pet of "his" or "her" is a pet of nobody named here)."""
    found = []
    got = _GOT_A_PET.search(message.content)
    for pattern in (_PET_NAMES, _NAME_IS_PET, _PET_NAME_IS, _WALKED):
        if pattern is _PET_NAME_IS and not got:
            continue
        for match in pattern.finditer(sentence):
            names = [match.group("names")] + re.findall(r"[A-Z][\w'’\-]*", match.group("more"))
            groups = match.groupdict()
            whose = (groups.get("whose") or ("my" if pattern is _PET_NAME_IS else "a")).lower()
            kind = (groups.get("pet") or groups.get("species") or (got.group("pet") if got else "pet")).lower()
            before = sentence[:match.start()]
            counted = whose in ("two", "three", "four") or whose.isdigit()  # "we have two cats, Miso and Tofu"
            mine = whose in ("my", "our") or (
                whose in ("a", "an", "the", "another", "one") and _WE_HAVE.search(before)) or (
                counted and _WE_HAVE.search(before) and _OWNING.search(before))
            has = _NAMED_OWNER.search(before) if not mine and whose in ("a", "an", "two", "three") else None
            named_owner = has.group("owner") if has and is_name(has.group("owner")) else ""
            for name in filter(is_name, names):
                pet = Mention(name, kind="pet", role="subject")
                if named_owner:  # "Carlos has a dog called Pepper"
                    relation = relation_candidate(f"{name} is {named_owner}'s {kind.removesuffix('s')}", pet, "pet_of",
                                                  Mention(named_owner, role="object"))
                    relation.domain = "personal"
                    found.append(relation)
                elif not mine:
                    found.append(fact_candidate(f"{name} is a {kind.removesuffix('s')}", "", [pet], domain="personal"))
                else:
                    owner, whose_name = first_person(message, "object"), message.speaker or "the user"
                    # "my dog Rex" after "my dog" is one pet, and the user's "my dog" after it is Rex (a speaker's
                    # "Caroline's dog" as an alias would match Caroline herself).
                    pet.names_role = role_node_name(message, kind)
                    pet.role_phrase = "" if message.speaker else f"my {kind}"
                    relation = relation_candidate(f"{name} is {whose_name}'s {kind.removesuffix('s')}", pet, "pet_of",
                                                  owner)
                    relation.domain = "personal"
                    found.append(relation)
        if found:
            break
    return found


# The speaker's own animal, named without "my dog": "… part of our family for 10 years", "Max and I had a blast".
_OURS = (r"\b(?:part of (?:our|the) family|our (?:family|boy|girl|baby|buddy|furry)|(?:my|our) {name}|"
         r"{name} and (?:i|me)|(?:(?:i|we) (?:named|call(?:ed)?)|and named) (?:her|him|it) {name}|"
         r"(?:i|we) (?:lost|had to (?:say goodbye to|put down|let go of)|miss(?:ed)?) {name})\b")


def owned_pets(text: str, message: Message, found: list[Candidate]) -> list[Candidate]:
    """A pet the message names (its kind from the words around it: "wagging that tail") that the speaker says
    is theirs ("we had to say goodbye to Max. He was part of our family"), when no owner was said."""
    owned = {c.relation.subject.text for c in found if c.relation and c.relation.predicate == "pet_of"}
    pets = [m.text for m in named_mentions(text) if m.kind == "pet" and m.text not in owned]
    if len(pets) != 1:
        return []
    name = pets[0]
    if not re.search(_OURS.format(name=re.escape(name)), text, re.IGNORECASE):
        return []
    whose = message.speaker or "the user"
    relation = relation_candidate(f"{name} is {whose}'s pet", Mention(name, kind="pet", role="subject"), "pet_of",
                                  first_person(message, "object"))
    relation.domain = "personal"
    return [relation]


def answered_names(text: str, message: Message) -> list[Candidate]:
    """"Luna and Oliver!" asked for the names of the speaker's pup and kitty, "Her name is Shadow!", "his name
    is Kyle" of "our one-year-old": pets or children of the speaker (`Message.names_answer`)."""
    if not message.names_answer:
        return []
    match = _PET_NAME_IS.search(text) or _ANSWER_NAMES.match(text)
    names = [match.group("names")] + re.findall(r"[A-Z][\w'’\-]*", match.group("more")) if match else []
    found, me, whose = [], first_person(message, "object"), message.speaker or "the user"
    for name in filter(is_name, names):
        if message.names_answer == CHILD:
            found.append(relation_candidate(f"{name} is {whose}'s child", Mention(name, role="subject"), "child_of",
                                            me))
        else:
            pet = Mention(name, kind="pet", role="subject")
            found.append(relation_candidate(f"{name} is {whose}'s {message.names_answer}", pet, "pet_of", me))
            found[-1].domain = "personal"
    return found


def _addressee(message: Message) -> str:
    """Whom the message speaks to: a name it opens with ("Thanks, Gina!"), else the speaker it answers."""
    match = _VOCATIVE.match(message.content)
    named = match.group("name") if match and is_name(match.group("name")) else ""
    return named if named and named != message.speaker else message.addressee


# A name said wrong and put right: "Sorry, I meant Anna, not Anne", "her name is Anna, not Anne", "not Anne, Anna".
_ONE_NAME = r"[A-Z][\w'’\-]+"
_NAME_CORRECTED = re.compile(
    r"(?i:\b(?:i meant|i mean|it's|it is|(?:her|his|their|the) name is|sorry,?|correction:?|oops,?)) "
    rf"(?P<right>{_ONE_NAME}),? (?i:not) (?P<wrong>{_ONE_NAME})\b|"
    rf"^\W*(?i:(?:sorry|correction|oops)\W+)?(?i:not) (?P<wrong_b>{_ONE_NAME}),? (?i:(?:it's |it is |but )?)"
    rf"(?P<right_b>{_ONE_NAME})\W*$")


def corrected_name(text: str) -> tuple[str, str] | None:
    """(wrong, right) when the text puts a name right, else None; both must be names, neither a day."""
    match = _NAME_CORRECTED.search(text)
    if match is None:
        return None
    wrong, right = match.group("wrong") or match.group("wrong_b"), match.group("right") or match.group("right_b")
    if wrong.lower() == right.lower() or not (is_name(wrong) and is_name(right)) or any(
            TIME_WORD.fullmatch(name) for name in (wrong, right)):
        return None
    return wrong, right
