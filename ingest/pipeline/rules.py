"""The rule-based extractor (the default): offline, deterministic regular expressions.

It knows the common forms: plans with a time ("lunch with Sarah Thursday" → event
with valid_from), preferences ("I prefer morning meetings" → "prefers morning
meetings"), relations ("Alex is Sarah's partner", "Sarah is my manager", "my sister
Emma"), biographical facts with an attribute (residence, employer, name, diet…),
health facts, and hedged inferences ("user seemed stressed"), which only ever become
low-confidence preference candidates sent to review — never facts.

A relevant message that matches no pattern is NOT dropped: it is kept as an
episodic event holding the user's own words (`details.episodic`), at low
importance, linked to any names it mentions, with `details.kind` saying what it
is (experience, opinion, plan or statement) and its own half-life
(`decay.episodic_half_life_days`: what was said, not an appointment). Dropping
it would silently lose what the user chose to tell us. A message whose typed
candidates leave much of it unsaid ("My sister Emma is visiting. She just got
engaged and …") keeps the episodic copy of its whole text as well.

Hedged sentences ("I think", "maybe", "probably") give every candidate at most
`memory.hedged_confidence`, under the sensitive gate. In a transcript line
("Caroline: I prefer tea", `Message.speaker`) "I" and "my" are the speaker, a
person, never the user: "Caroline prefers tea", and her words keep her name.
"""
import re

from ingest.pipeline.base import (
    Candidate,
    Mention,
    Message,
    RelationSpec,
    as_said,
    default_confidence,
    default_importance,
    first_person,
)
from ingest.pipeline.dates import TIME_WORD, resolve_when
from ingest.pipeline.name_answers import CHILD
from ingest.pipeline.names_in_text import (
    NODE_AT_ONCE_ROLES,
    ORG_ROLE_WORDS,
    PET_WORDS,
    ROLE_WORDS,
    is_name,
    named_mentions,
    named_org_roles,
    org_role_mentions,
    person_statement,
    pet_role_mentions,
    role_mentions,
    same_role_words,
)
from recall_site.config import recall_setting

CI = re.IGNORECASE
NAME = r"(?P<{}>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?[A-Z][\w'’\-]*(?: [A-Z][\w'’\-]*){{0,2}})"  # "Mrs. Kim"
ROLE = "(?P<role>" + "|".join(sorted(map(re.escape, ROLE_WORDS), key=len, reverse=True)) + ")"
BIOGRAPHICAL = {"residence", "employer", "name", "called", "birthday", "occupation", "hometown"}
# Roles one person holds at a time: a new holder supersedes the old relation memory.
EXCLUSIVE_ROLES = {"manager_of", "partner_of", "spouse_of"}
# A message with this many words that no typed candidate holds (a clause or more) is kept whole as well, and
# so is one with this many content words unsaid: "My manager Tom wants the quarterly report by Friday" gives
# the relation "Tom is the user's manager", and "wants quarterly report Friday" must not be lost with "my" and "by".
EPISODIC_COPY_MIN_WORDS = 7
EPISODIC_COPY_MIN_CONTENT_WORDS = 2
# Words that say nothing on their own (articles, pronouns, auxiliaries, common prepositions and fillers).
_FUNCTION_WORDS = frozenset(
    "a an the my your his her its our their i i'm i've i'd i'll me we we're you he she it it's they them this that "
    "these those is are was were be been am do does did has have had to of in on at by for with from and or but so "
    "as if about just really very too also then there here now still even again oh ok okay yeah yes no not well "
    "lot much many some any all more most get got gotta think know guess mean way thing things stuff might may "
    "maybe perhaps probably sure yet named called don't doesn't didn't can't cannot won't isn't aren't wasn't never "
    "like likes love loves enjoy enjoys prefer prefers hate hates dislike dislikes name".split())
ORG_RELATION_WORDS = {"member_of": "Is a member of", "works_at": "Works at", "studies_at": "Studies at"}

_PREFIX = re.compile(r"^\W*(remember( that)?|fyi|btw|by the way|just so you know|note that|for the record|"
                     r"oh|so|well|also|and|actually|anyway)\b[\s,:]*", CI)
_SENTENCES = re.compile(r"(?<=[.!?;])(?<!\b[DM]r\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bProf\.)\s+")  # not "Mrs. Kim"

_INFERENCE = re.compile(
    r"\b(?:(?:the user|user|you)\s+(?:seem(?:s|ed)?|appear(?:s|ed)?|look(?:s|ed)?|sound(?:s|ed)?|"
    r"might be|may be|must be|was probably|is probably)|i\s+(?:seem(?:ed)?|appear(?:ed)?|look(?:ed)?|sound(?:ed)?))"
    r"\s+(?:to be\s+|really\s+|very\s+|a bit\s+|kind of\s+|"
    r"quite\s+|pretty\s+|a little\s+)*(?!(?:able|going|getting|trying|doing|having|like|right|the|an?)\b)"
    r"(?P<state>[a-z]+)", CI)
_RELATION_OF = re.compile(NAME.format("a") + r" is " + NAME.format("b") + r"(?:'s|’s) " + ROLE)
# A word before the role that leaves it the current one ("my running coach", "my new girlfriend"), not "my ex".
_ROLE_MODIFIER = r"(?:(?!(?:ex|former|late|old|previous|first|future|dead|other)\b)[a-z]+ )?"
_MY_ROLE_IS = re.compile(r"(?i:\bmy " + _ROLE_MODIFIER + ")" + ROLE + r"(?i:(?:'s|’s) name is| is(?: called| named)?) "
                         + NAME.format("a"))
_IS_MY_ROLE = re.compile(NAME.format("a") + r" (?i:is|was|has been|became) (?i:my(?: new)?) " + ROLE + r"\b")
_MY_ROLE_NAME = re.compile(r"(?i:\bmy " + _ROLE_MODIFIER + r"|\b(?:i|we) (?:have|'ve got|got) a new )" + ROLE + r",? "
                           + NAME.format("a"))
_THEIR_ROLE_IS = re.compile(NAME.format("b") + r"(?:'s|’s) " + ROLE + r" (?:is|was)(?: called| named)? "
                            + NAME.format("a"))
# The speaker's own family named: "I have a sister named Anna", "I have two daughters, Mia and Zoe", "we have a son
# named Leo".
_I_HAVE_FAMILY = re.compile(r"(?i:\b(?:i|we) (?:have|'ve got|got|had) (?:a|an|one|two|three|four|\d) (?:\w+ )?"
                            r"(?P<family>sisters?|brothers?|sons?|daughters?|kids?|children|child)(?:,| named| called|:)) "
                            + NAME.format("a") + r"(?P<more>(?:,? (?:and|&) [A-Z][\w'’\-]*|, [A-Z][\w'’\-]*)*)")
_FAMILY_ROLE = {"sisters": "sister", "brothers": "brother", "sons": "son", "daughters": "daughter", "kids": "kid",
                "children": "child"}
# Married or engaged: "I'm married to Tom", "Tom and I have been married for 10 years", "I'm engaged to Sam".
_MARRIED = re.compile(r"(?i:\b(?:i'm|i am|i've been|i have been|i got|we got) (?P<state>married|engaged) to )"
                      + NAME.format("a") + "|" + NAME.format("b")
                      + r"(?i: and i (?:are|have been|got|just got) (?P<state_b>married|engaged))\b")
# Where the speaker studies or studied: "I graduated from MIT", "I study computer science at Stanford".
_SCHOOL = re.compile(r"(?i:\bi (?:just |recently )?(?:graduated from|(?:study|studied|am studying|'m studying)"
                     r"(?: [a-z]+){0,3} at|attend|attended) )" + NAME.format("org")
                     + r"(?=\W|$)")
# Someone's children named: "My brother Mike has two kids, Ella and Sam", "Jen has a son named Leo".
_THEIR_CHILDREN = re.compile(NAME.format("b") + r"(?i: (?:has|had|have) (?:a|an|one|two|three|four|\d) (?:\w+ )?"
                             r"(?:kids?|children|child|sons?|daughters?|boys?|girls?)(?:,| named| called|:)) "
                             + NAME.format("a") + r"(?P<more>(?:,? (?:and|&) [A-Z][\w'’\-]*|, [A-Z][\w'’\-]*)*)")
_THEIR_ROLE_NAME = re.compile(NAME.format("b") + r"(?:'s|’s) " + ROLE + r",? " + NAME.format("a"))  # Mark's mom Susan
PET = "(?P<pet>" + "|".join(sorted(map(re.escape, PET_WORDS), key=len, reverse=True)) + ")"
# "I report to Karen": Karen manages the speaker.
_REPORTS_TO = re.compile(r"(?i:\bi (?:now |still |directly )?(?:report|am reporting|'m reporting) (?:directly )?to )"
                         + NAME.format("a"))
# A new partner, named: "I'm seeing someone new, her name is Sofia", "I started dating Sofia", "Sofia and I are
# dating". "I'm seeing Dana on Tuesday" is a meeting, so "seeing" needs "someone".
_DATING = re.compile(
    r"(?i:\b(?:i'm|i am) (?:now )?(?:seeing|dating) (?:someone|somebody|a (?:guy|girl|man|woman))(?: new)?"
    r"(?: now)?,? (?P<pronoun>her|his|their) name(?:'s| is) |"
    r"\b(?:i'm|i am|i've been|i have been|i (?:just )?started|we (?:just )?started) dating )" + NAME.format("a")
    + r"|" + NAME.format("b") + r"(?i: and i (?:are|have been|started|just started) dating| and i got together)\b")
# The end of the speaker's partnership: "Emma and I broke up", "I broke up with Emma", "we split up", "I got
# divorced". Its memory takes back the partner (or spouse) relation.
_BROKE_UP = re.compile(
    r"(?i:\b(?:i|we)(?: just| finally| recently)? (?:broke up|split up|separated|divorced|got divorced)"
    r"(?: with)?|\band i (?:just |finally |recently )?(?:broke up|split up|separated|got divorced)|"
    r"\b(?:broke|breaking) up with me)\b")
_PET_NAMES = re.compile(
    r"(?i:\b(?P<whose>my|our|his|her|their|a|an|the|another|one|two|three|four|\d) (?:(?:new|little|old|sweet|"
    r"adopted|rescued?|baby|two|three|other|furry|fur|first|second) )*)(?i:" + PET + r"),? "
    r"(?i:(?:who is |who's )?(?:named|called) )?" + NAME.format("names")
    + r"(?P<more>(?:,? (?:and|&) [A-Z][\w'’\-]*|, [A-Z][\w'’\-]*)*)")
_NAME_IS_PET = re.compile(NAME.format("names") + r"(?P<more>)(?i:,? (?:is |was )?(?P<whose>my|our) (?:\w+ ){0,2}"
                          + PET + r")\b")
# A pet named in the next breath ("I got a puppy! Her name's Coco"), or walked ("took Max for a walk").
_GOT_A_PET = re.compile(r"\b(?:i|we)(?:'ve| have)? (?:just |finally |recently )?(?:got|adopted|have|rescued|"
                        r"brought home|welcomed)(?: \w+){0,2} " + PET + r"\b", re.IGNORECASE)
_PET_NAME_IS = re.compile(r"(?i:\b(?:his|her|its|their) names?(?:'s|’s| is| are)) " + NAME.format("names")
                          + r"(?P<more>(?: (?:and|&) [A-Z][\w'’\-]*)*)")
# An answer that is the names alone: "Luna and Oliver!", "Kyle."
_ANSWER_NAMES = re.compile(NAME.format("names") + r"(?P<more>(?:,? (?:and|&) [A-Z][\w'’\-]*|, [A-Z][\w'’\-]*)*)"
                           r"[!.]")
_WALKED = re.compile(r"(?i:\b(?:took|take|taking|walk|walked|walking) )" + NAME.format("names")
                     + r"(?P<more>)(?i: (?:out )?for (?:a|his|her|their) walks?)\b")
_OWNING = re.compile(r"\b(?:have|has|got|own|adopted|rescued)\b", re.IGNORECASE)
_NAMED_OWNER = re.compile(NAME.format("owner") + r"(?: (?:just |also |finally |recently |now |still ))?(?: and (?:his|her|"
                          r"their) \w+)? (?:has|had|owns|got|adopted|rescued|(?:has|have) got) $")
_WE_HAVE = re.compile(r"\b(?:i|we)\b(?:'ve| have)?(?: \w+){0,3} $", re.IGNORECASE)
_WORKS_AT = re.compile(NAME.format("a") + r" (?i:works|is working|(?:is|works as) an? (?P<job>[a-z][a-z \-]{2,30}?)) "
                       r"(?i:at|for) " + NAME.format("org"))
# Someone else's home: "Ana just moved to Porto", "my sister Emma lives in Toronto".
# Not "the meeting with Dana moved to Thursday": the one who moves is no preposition's object, a place no day.
_LIVES_IN = re.compile(r"(?<!with )" + NAME.format("a")
                       + r"(?i: (?:just |recently |finally |now )?(?:moved|relocated)(?: back)? to "
                       r"| (?:now )?(?:lives|is living|is based) in )" + NAME.format("place"))
# Where someone known by a role lives or works: "my sister lives in Toronto", "my wife works at Google".
_ROLE_HOME_OR_WORK = re.compile(
    r"(?i:\bmy " + _ROLE_MODIFIER + ")" + ROLE + r"(?i: (?:just |recently |now |still |finally )?(?P<verb>lives in|"
    r"is living in|is based in|moved to|relocated to|works at|works for|is working at|got a job at|started at) )"
    + NAME.format("place"))
# Where the speaker comes from: "I'm from Sweden", "I grew up in Porto", "my home country, Sweden".
_ORIGIN = re.compile(r"(?i:\bi(?:'m| am) (?:originally )?from |\bi grew up in |\bmy home ?(?:country|town),? )"
                     + NAME.format("place"))
# Friendship said to the other person: "Thanks for being a great friend", "Appreciate your friendship".
_OUR_FRIENDSHIP = re.compile(r"\b(?:for being (?:such )?(?:a|an|my) (?:\w+ )?friend|to have you as (?:a|my) friend|"
                             r"(?:your|our) friendship|you(?:'re| are) (?:such )?(?:a|an|my) (?:\w+ )?friend)\b", CI)
_VOCATIVE = re.compile(r"^\W*(?i:(?:thanks|thank you|hey|hi|hello|aw+|wow|yeah|congrats|oh|so)\W+)*"
                       r"(?P<name>[A-Z][\w'’\-]+)[!,.?]")
_OCCUPATION = re.compile(r"\bi(?: now| currently)? (?:work|am working|'m working) as (?P<job>an? [a-z][a-z \-]{2,40}?)"
                         r"(?= at\b| for\b| in\b|[.,;!?]|$)", CI)
_RESIDENCE = re.compile(
    # "Just moved to Berlin" at a sentence's start is the speaker; "My sister Ana just moved to Porto" is not.
    r"(?i:(?:^|\b(?:i|we)(?:'ve| have)? )(?:just |recently |finally |now )?(?:moved|relocated)(?: back)? to |"
    r"\bi(?: now)? (?:live|am living|'m living) in |\bi'?m (?:now )?based in |\bi am (?:now )?based in )"
    + NAME.format("place"))
_EMPLOYER = re.compile(
    r"(?i:\bi(?: now| currently)? (?:work|am working|'m working) (?:at|for) |"
    r"\bi (?:just )?(?:started|joined)(?: (?:a new job|working))?(?: at)? |\bmy new job at |"
    # "I left Stripe, now I'm at Databricks": the new employer, where leaving the old one says it is a job.
    r"\bi (?:left|quit) (?:my (?:job|role|position)(?: at| with)? )?(?-i:[A-Z])[^.!?]*?\b(?:now )?(?:i'?m|i am) "
    r"(?:now )?(?:at|with) |"
    r"\bi'?m an? [a-z ]{3,30} at |\bi am an? [a-z ]{3,30} at )" + NAME.format("org"))
# A job title said as news: "I got promoted to senior engineer", "I'm a staff engineer now".
JOB_HEADS = (r"engineer|developer|manager|director|designer|analyst|scientist|architect|lead|consultant|officer|"
             r"president|vp|head of [a-z]+|associate|accountant|lawyer|attorney|nurse|teacher|professor|"
             r"editor|writer|producer|specialist|coordinator|administrator|supervisor|technician|researcher|"
             r"principal|intern|chef|founder|ceo|cto|cfo|coo")
_PROMOTED = re.compile(
    r"\b(?:i (?:just )?(?:got|was|have been|'ve been|am being|'m being) promoted to|i(?:'m| am)(?: now)?)"
    r" (?:an? )?(?P<job>(?:[a-z\-]+ ){0,3}?(?:" + JOB_HEADS + r"))"
    r"(?= (?:now|at|for|in|on|today|yesterday|recently|again|this|last)\b|[.,;!?]|$)", CI)
_NAME = re.compile(r"(?i:\bmy name is )" + NAME.format("a"))
_CALL_ME = re.compile(r"(?i:\b(?:call me|i go by|everyone calls me|people call me) )" + NAME.format("a"))
_BIRTHDAY = re.compile(r"\bmy birthday is (?:actually |really )?(?:on )?(?P<date>[\w ]+)", CI)
# The speaker's age: "I'm 34 years old", "I just turned 35".
_AGE = re.compile(r"\bi(?:'m| am) (?P<age>\d{1,3})(?: years? old| yrs? old| y/?o)\b|\bi (?:just |recently )?turned "
                  r"(?P<turned>\d{1,3})\b", CI)
_DIET = re.compile(r"\bi(?:'m| am)(?: now| a| now a)? (?P<diet>vegetarian|vegan|pescatarian|keto|gluten[- ]free|"
                   r"lactose intolerant|dairy[- ]free|teetotal|sober)\b", CI)
_ALLERGY = re.compile(r"\bi(?:'m| am|(?P<hedge> might be| may be| could be))(?: severely| very)? allergic to "
                      r"(?P<what>[\w \-]+(?:, (?!(?:it|it's|that|which|so|but|i|i'm|not|no|maybe|probably|though|just|"
                      r"really|because|since|sadly|unfortunately|apparently)\b)[\w \-]+)*)", CI)
# "I have a peanut allergy", "a severe shellfish allergy".
_HAS_ALLERGY = re.compile(r"\bi have (?:a |an )?(?:severe |mild |bad |serious )?(?P<what>[a-z][\w\-]*(?: [a-z][\w\-]*)?)"
                          r" allergy\b", CI)
_DIETS = r"vegetarian|vegan|pescatarian|keto|gluten[- ]free|dairy[- ]free|teetotal|sober"
_ON_A_DIET = re.compile(r"\bi(?:'m| am) (?:now )?on an? (?P<diet>[a-z][\w\-]*(?: [a-z][\w\-]*)?) diet\b", CI)
_DIET_DROPPED = re.compile(rf"\bi(?:'m| am) (?:not|no longer) (?:a )?(?P<diet>{_DIETS})(?: any ?more)?\b|"
                           rf"\bi (?:stopped|quit) being (?:a )?(?P<diet_b>{_DIETS})\b", CI)
# What the speaker does not eat or drink: "I don't eat pork", "I can't eat gluten".
_DOES_NOT_EAT = re.compile(r"\bi (?:don't|do not|can't|cannot|never) (?:eat|drink) (?P<what>[a-z][a-z \-]{1,30}?)"
                           r"(?=[.,;!?]|$| any ?more\b| because\b)", CI)
_NOT_ALLERGIC = re.compile(r"\bi(?:'m| am) (?:not|no longer) (?:actually )?allergic to (?P<what>[\w \-]+?)"
                           r"(?: any ?more)?(?=[,.;!?]|$| but\b| it's\b)", CI)
_NO_LONGER = re.compile(r"(?i:\bi (?:no longer|don't|do not) (?P<verb>live in|work at|work for) )"
                        + NAME.format("what"))
# A medicine and its dose: "I take 20mg of lisinopril every morning", "I'm on 50 mg sertraline".
_MEDICATION = re.compile(r"\bi(?:'m| am)? (?:take|taking|on|was prescribed|got prescribed) (?P<dose>\d+(?:\.\d+)? ?"
                         r"(?:mg|mcg|µg|g|ml|iu|units?)) (?:of )?(?P<drug>[a-z][\w\-]{2,})"
                         r"(?: (?P<when>(?:every|each) (?:day|morning|evening|night)|daily|twice a day|once a day|"
                         r"at night|in the morning))?", CI)
_CONDITION = re.compile(r"\bi (?:have|was diagnosed with|suffer from|take|'m taking|am taking) (?P<what>"
                        r"(?:asthma|diabetes|migraines?|adhd|anxiety|depression|insomnia|high blood pressure|"
                        r"celiac disease|eczema|arthritis|a bad back|back pain)|\w+ (?:daily|every (?:day|morning|night))"
                        r")\b", CI)
_PREFERENCE = re.compile(
    r"\bi(?: really| much| generally| usually| always| strongly| definitely)?(?: |(?=['’]d rather))"
    r"(?P<verb>prefer|would rather|'d rather|’d rather|"
    r"like|love|enjoy|hate|dislike|can't stand|cannot stand|don't like|do not like|don't enjoy)\s+(?P<what>[^.!?;]+)", CI)
# A taste given up: "no more sushi for me", "I quit coffee", "I've stopped eating meat" (a taste of its own, so it
# supersedes "Loves sushi").
_GAVE_UP = re.compile(r"\b(?:no more (?P<what>[a-z][a-z \-]{1,30}?) for me|i(?:'ve| have)? (?:stopped|quit|gave up|given up)"
                      r" (?:eating |drinking |having )?(?!(?:my|the|a|an|his|her|their|our|by|at|to|in|for|on|with|"
                      r"work|working|it|that|this|being)\b)(?P<what2>[a-z][a-z \-]{1,30}?))(?=[.,;!?]|$| any ?more\b| now\b)",
                      CI)
_FAVORITE = re.compile(r"\bmy (?:new |current |latest |all-time |absolute )?fav(?:ou?rite)? (?P<thing>[a-z ]{2,30}?)"
                       r" is (?P<what>[^.!?;]+)", CI)
_STANDING = re.compile(r"\b(?:please )?(?P<when>always|never|don't|do not) (?P<what>(?:use|reply|answer|write|send|"
                       r"call|book|schedule|remind|suggest|give|keep|include|mention|bring up)\b[^.!?;]*)", CI)
_EVENT_WORDS = re.compile(
    r"\b(lunch|dinner|breakfast|brunch|coffee|meeting|call|appointment|interview|flight|trip|party|wedding|"
    r"conference|visit(?:ing)?|check-?up|drinks|concert|review|standup|1:1|one-on-one|deadline|demo|"
    r"presentation|class|lesson|vacation|holiday|date night|game|match|recital|surgery|exam|workout|"
    r"coming over|flying|seeing|meeting up)\b", CI)
_HEDGE = re.compile(r"\bi (?:think|guess|suppose)\b(?! (?:about|of)\b)|\b(?:maybe|perhaps|probably|possibly|might|"
                    r"not (?:sure|certain))\b", CI)
# What an episodic memory is, checked in this order: a plan, an opinion, a past experience, else a statement.
EPISODIC_KINDS = [
    ("plan", re.compile(r"\b(going to|gonna|plan(?:s|ning)? (?:to|on)|want(?:s)? to|hop(?:e|es|ing) to|will|"
                        r"(?:i|we|you|he|she|they)'ll|next (?:week|weekend|month|year|time)|someday|one day)\b", CI)),
    ("opinion", re.compile(r"\b(think|thinks|believe|believes|feel|feels|love|loves|hate|hates|favou?rite|"
                           r"opinion|prefer|prefers|(?:is|was) (?:a )?(?:mistake|great|amazing|awful|terrible))\b",
                           CI)),
    ("experience", re.compile(r"\b(went|did|was|were|had|visited|saw|met|made|took|got|tried|started|finished|"
                              r"bought|found|learned|wrote|won|lost|joined|left|ran|spent|felt|loved|thought|"
                              r"yesterday|last (?:week|weekend|month|year|night|time)|ago|used to)\b|"
                              r"\b(?:i|we|he|she|they)(?: \w+ly)? \w+ed\b|\b(?:i|we|they)(?:'ve| have) been\b", CI)),
]
_RESCHEDULE = re.compile(r"\b(moved|rescheduled|pushed( back)?|postponed|cancell?ed|shifted|declined|skipped)\b.*"
                         r"\b(meeting|call|commitment|standup|1:1|appointment|session|sync)s?\b", CI)
# "I love that you …", "I love it", "love your turtles": a reaction to what was just said, not a taste.
_VAGUE_OBJECT = re.compile(r"(?:it|them|that|this|these|those|how|what|when|you|your|yours|is|was|the thought)\b",
                           CI)
# "Yeah, I love to.", "I like to hear": the taste is in the sentence before; "I love hiking too" is a taste.
_NO_OBJECT = re.compile(r"to(?: (?:hear|see|know|say|think|do|be))?", CI)
_TOO = re.compile(r",?\s+(?:too|as well|also)$", CI)
PREFERENCE_VERBS = {
    "prefer": "prefers", "would rather": "prefers", "'d rather": "prefers", "’d rather": "prefers", "like": "likes", "love": "loves",
    "enjoy": "enjoys", "hate": "dislikes", "dislike": "dislikes", "can't stand": "dislikes",
    "cannot stand": "dislikes", "don't like": "dislikes", "do not like": "dislikes", "don't enjoy": "dislikes",
}


def extract_candidates(message: Message) -> list[Candidate]:
    """Every candidate memory in one user message (at least one: see the module docstring)."""
    text = _PREFIX.sub("", message.content.strip()).strip()
    candidates, said = [], []
    for sentence in filter(None, (s.strip() for s in _SENTENCES.split(text))):
        found = _sentence_candidates(_PREFIX.sub("", sentence), message)
        candidates += found
        if not any(candidate.details.get("inferred") for candidate in found):
            said.append(sentence)  # an inference's sentence must not come back as a plain statement
    candidates += _answered_names(text, message)
    given = {c.attribute for c in candidates if c.attribute and not c.details.get("takes_back")}
    candidates = [c for c in candidates if not (c.details.get("takes_back") and c.attribute in given)]
    rest = " ".join(said)
    if rest and _needs_episodic(rest, candidates):
        candidates.append(_episodic(rest, message))
    return candidates


def _sentence_candidates(sentence: str, message: Message) -> list[Candidate]:
    if match := _INFERENCE.search(sentence):
        return [_inference(sentence, match, message)]
    found = (_pets(sentence, message) + _relations(sentence, message) + _self_facts(sentence, message)
             + _preferences(sentence, message))
    event = _event(sentence, message)
    return _hedged(sentence, found + ([event] if event else []))


def _hedged(text: str, candidates: list[Candidate]) -> list[Candidate]:
    """"I think I'm allergic to cats" is not a stated fact: its candidates stay under the sensitive gate."""
    if _HEDGE.search(text):
        for candidate in candidates:
            candidate.confidence = min(candidate.confidence, recall_setting("memory.hedged_confidence"))
    return candidates


def _needs_episodic(text: str, candidates: list[Candidate]) -> bool:
    """True when no candidate was found, or the typed ones leave a clause or more of the message unsaid."""
    held = {word for c in candidates for word in _words(f"{c.content} {c.details.get('text', '')}")}
    unsaid = [word for word in _words(text) if word not in held]
    return (not candidates or len(unsaid) >= EPISODIC_COPY_MIN_WORDS
            or sum(word not in _FUNCTION_WORDS for word in unsaid) >= EPISODIC_COPY_MIN_CONTENT_WORDS
            or any(char.isdigit() for word in unsaid for char in word))  # "… and he's 4": a number is news


def _words(text: str) -> list[str]:
    """The words of `text`, lower case, without a possessive 's ("wife's" is "wife")."""
    return [re.sub(r"['’]s$", "", word) for word in re.findall(r"[\w'’]+", text.lower())]


def _inference(sentence: str, match, message: Message) -> Candidate:
    """Hedged observations are never facts: a preference candidate at inference confidence, for review."""
    return Candidate(
        type="preference", content=_about(message, f"Seemed {match.group('state').lower()} (unconfirmed inference)"),
        confidence=recall_setting("memory.inference_confidence"), importance=default_importance("inferred"),
        mentions=[first_person(message)], subject=None, needs_review=True, review_reason="inferred",
        details={"inferred": True, "text": sentence},
    )


def _relations(sentence: str, message: Message) -> list[Candidate]:
    found = []
    for pattern in (_RELATION_OF, _THEIR_ROLE_IS, _THEIR_ROLE_NAME):
        if (match := pattern.search(sentence)) and is_name(match.group("a")) and is_name(match.group("b")):
            predicate = ROLE_WORDS[match.group("role").lower()]
            a, b = Mention(match.group("a"), role="subject"), Mention(match.group("b"), role="object")
            found.append(_relation(f"{a.text} is {b.text}'s {match.group('role').lower()}", a, predicate, b))
            break
    if match := _I_HAVE_FAMILY.search(sentence):
        role = _FAMILY_ROLE.get(match.group("family").lower(), match.group("family").lower())
        for name in [match.group("a")] + re.findall(r"[A-Z][\w'’\-]*", match.group("more")):
            if is_name(name):
                found.append(_role_of_mine(name, role, message))
    if (match := _MARRIED.search(sentence)) and is_name(name := match.group("a") or match.group("b")):
        found.append(_role_of_mine(name, "spouse" if (match.group("state") or match.group("state_b")).lower()
                                   == "married" else "fiancé", message))
    if (match := _THEIR_CHILDREN.search(sentence)) and is_name(parent := match.group("b")):
        for name in [match.group("a")] + re.findall(r"[A-Z][\w'’\-]*", match.group("more")):
            if is_name(name):
                found.append(_relation(f"{name} is {parent}'s child", Mention(name, role="subject"), "child_of",
                                       Mention(parent, role="object")))
    for pattern in (_IS_MY_ROLE, _MY_ROLE_IS, _MY_ROLE_NAME):
        if (match := pattern.search(sentence)) and is_name(match.group("a")):
            found.append(_role_of_mine(match.group("a"), match.group("role").lower(), message))
            break
    if (match := _REPORTS_TO.search(sentence)) and is_name(match.group("a")):
        found.append(_role_of_mine(match.group("a"), "manager", message))
    if (match := _DATING.search(sentence)) and is_name(name := match.group("a") or match.group("b")):
        role = {"her": "girlfriend", "his": "boyfriend"}.get((match.group("pronoun") or "").lower(), "partner")
        found.append(_role_of_mine(name, role, message))
    if ((match := _LIVES_IN.search(sentence)) and is_name(match.group("a"))
            and not TIME_WORD.match(match.group("place"))):
        person, place = Mention(match.group("a"), role="subject"), Mention(match.group("place"), "place", "object")
        fact = _fact(f"{person.text} lives in {place.text}", "residence", [person, place], domain="personal")
        fact.relation = RelationSpec(person, "lives_in", place)
        found.append(fact)
    if (match := _ROLE_HOME_OR_WORK.search(sentence)) and is_name(match.group("place")) and not TIME_WORD.match(
            match.group("place")):
        role, works = match.group("role").lower(), bool(re.search(r"work|job|started", match.group("verb"), CI))
        person = _role_mention(message, role, "subject")
        where = Mention(match.group("place"), "org" if works else "place", "object")
        said = "works at" if works else "lives in"
        fact = _fact(f"{_whose(message).capitalize()} {role} {said} {where.text}", "employer" if works else "residence",
                     [person, where], domain="professional" if works else "personal")
        fact.relation = RelationSpec(person, "works_at" if works else "lives_in", where)
        found.append(fact)
    if _OUR_FRIENDSHIP.search(sentence) and (friend := _addressee(message)):
        me = first_person(message, "subject")
        found.append(_relation(f"{message.speaker or 'The user'} and {friend} are friends", me, "friend_of",
                               Mention(friend, role="object")))
    for name, word in named_org_roles(sentence):
        predicate = ORG_ROLE_WORDS[word]
        org = Mention(name, kind="org", role="object", names_role=_role_node_name(message, word))
        found.append(_relation(_about(message, f"{ORG_RELATION_WORDS[predicate]} {name}"),
                               first_person(message, "subject"), predicate, org))
    if match := _WORKS_AT.search(sentence):
        if is_name(match.group("a")) and is_name(match.group("org")):
            person, org = Mention(match.group("a"), role="subject"), Mention(match.group("org"), "org", "object")
            job = match.group("job")
            said = f"is {_article(job)} {job} at" if job else "works at"  # "Meera is a doctor at Mass General"
            fact = _fact(f"{person.text} {said} {org.text}", "employer", [person, org])
            fact.relation, fact.domain = RelationSpec(person, "works_at", org), "professional"
            found.append(fact)
    return found


def _role_of_mine(name: str, role: str, message: Message) -> Candidate:
    """"Priya is my wife", "my sister Emma", "I report to Karen": the named person holds the role for the
    message's "I"; a role one person holds at a time is an attribute of the speaker, so a new holder supersedes."""
    name = name.removesuffix("'s").removesuffix("’s")
    # "my sister" is the user's role alias only when the user says it.
    person = Mention(name, role="subject", role_phrase="" if message.speaker else f"my {role}",
                     names_role=_role_node_name(message, role))
    me, whose = first_person(message, "object"), f"{message.speaker}'s" if message.speaker else "the user's"
    relation = _relation(f"{person.text} is {whose} {role}", person, ROLE_WORDS[role], me)
    if ROLE_WORDS[role] in EXCLUSIVE_ROLES:
        relation.subject, relation.attribute = me, f"role:{ROLE_WORDS[role]}"
    return relation


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def _pets(sentence: str, message: Message) -> list[Candidate]:
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
            kind = (groups.get("pet") or (got.group("pet") if got else "pet")).lower()
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
                    relation = _relation(f"{name} is {named_owner}'s {kind.removesuffix('s')}", pet, "pet_of",
                                         Mention(named_owner, role="object"))
                    relation.domain = "personal"
                    found.append(relation)
                elif not mine:
                    found.append(_fact(f"{name} is a {kind.removesuffix('s')}", "", [pet], domain="personal"))
                else:
                    owner, whose_name = first_person(message, "object"), message.speaker or "the user"
                    # "my dog Rex" after "my dog" is one pet, and the user's "my dog" after it is Rex (a speaker's
                    # "Caroline's dog" as an alias would match Caroline herself).
                    pet.names_role = _role_node_name(message, kind)
                    pet.role_phrase = "" if message.speaker else f"my {kind}"
                    relation = _relation(f"{name} is {whose_name}'s {kind.removesuffix('s')}", pet, "pet_of", owner)
                    relation.domain = "personal"
                    found.append(relation)
        if found:
            break
    return found


def _answered_names(text: str, message: Message) -> list[Candidate]:
    """"Luna and Oliver!" asked for the names of the speaker's pup and kitty, "Her name is Shadow!", "his name
    is Kyle" of "our one-year-old": pets or children of the speaker (`Message.names_answer`)."""
    if not message.names_answer:
        return []
    match = _PET_NAME_IS.search(text) or _ANSWER_NAMES.match(text)
    names = [match.group("names")] + re.findall(r"[A-Z][\w'’\-]*", match.group("more")) if match else []
    found, me, whose = [], first_person(message, "object"), message.speaker or "the user"
    for name in filter(is_name, names):
        if message.names_answer == CHILD:
            found.append(_relation(f"{name} is {whose}'s child", Mention(name, role="subject"), "child_of", me))
        else:
            pet = Mention(name, kind="pet", role="subject")
            found.append(_relation(f"{name} is {whose}'s {message.names_answer}", pet, "pet_of", me))
            found[-1].domain = "personal"
    return found


def _addressee(message: Message) -> str:
    """Whom the message speaks to: a name it opens with ("Thanks, Gina!"), else the speaker it answers."""
    match = _VOCATIVE.match(message.content)
    named = match.group("name") if match and is_name(match.group("name")) else ""
    return named if named and named != message.speaker else message.addressee


def _relation(content: str, subject: Mention, predicate: str, obj: Mention) -> Candidate:
    return Candidate(
        type="relation", content=content, confidence=default_confidence("fact"),
        importance=default_importance("relation"), mentions=[subject, obj], subject=subject,
        relation=RelationSpec(subject, predicate, obj), details={"predicate": predicate},
    )


def _self_facts(sentence: str, message: Message) -> list[Candidate]:
    found, me = [], first_person(message)
    if match := _RESIDENCE.search(sentence):
        place = Mention(match.group("place"), "place", "object")
        fact = _fact(_about(message, f"Lives in {place.text}"), "residence", [me, place])
        fact.relation, fact.domain = RelationSpec(me, "lives_in", place), "personal"
        found.append(fact)
    if match := _EMPLOYER.search(sentence):
        org = Mention(match.group("org"), "org", "object")
        fact = _fact(_about(message, f"Works at {org.text}"), "employer", [me, org])
        fact.relation, fact.domain = RelationSpec(me, "works_at", org), "professional"
        found.append(fact)
    if (match := _SCHOOL.search(sentence)) and is_name(match.group("org")) and not TIME_WORD.match(match.group("org")):
        school = Mention(match.group("org"), "org", "object")
        fact = _fact(_about(message, f"Studies at {school.text}" if re.search(r"\bstud|attend\b", match.group(0), CI)
                            else f"Studied at {school.text}"), "school", [me, school], domain="personal")
        fact.relation = RelationSpec(me, "studies_at", school)
        found.append(fact)
    if match := _ORIGIN.search(sentence):
        place = Mention(match.group("place"), "place", "object")
        fact = _fact(_about(message, f"Is from {place.text}"), "hometown", [me, place], domain="personal")
        fact.relation = RelationSpec(me, "from", place)
        found.append(fact)
    if match := _OCCUPATION.search(sentence):
        found.append(_fact(_about(message, f"Works as {match.group('job').strip()}"), "occupation", [me],
                           domain="professional"))
    elif match := _PROMOTED.search(sentence):
        job = match.group("job").strip()
        found.append(_fact(_about(message, f"Works as {_article(job)} {job}"), "occupation", [me],
                           domain="professional"))
    if match := _NAME.search(sentence):
        found.append(_fact(_about(message, f"Name is {match.group('a')}", "'s "), "name", [me], domain="personal"))
    if match := _CALL_ME.search(sentence):  # "My name is David but call me Dave": both
        found.append(_fact(_about(message, f"Wants to be called {match.group('a')}"), "called", [me],
                           domain="personal"))
    if match := _AGE.search(sentence):
        found.append(_fact(_about(message, f"Is {match.group('age') or match.group('turned')} years old"), "age",
                           [me], domain="personal"))
    if match := _BIRTHDAY.search(sentence):
        found.append(_fact(_about(message, f"Birthday is {match.group('date').strip()}", "'s "), "birthday", [me],
                           domain="personal"))
    allergy = _ALLERGY.search(sentence) or _HAS_ALLERGY.search(sentence)
    for what in re.split(r",? and |, ", allergy.group("what").strip()) if allergy else ():  # one fact per thing
        hedged = allergy.groupdict().get("hedge")
        said = f"Might be allergic to {what} (unsure)" if hedged else f"Allergic to {what}"
        found.append(_fact(_about(message, said, " " if hedged else " is "), _allergy(what), [me], domain="health",
                           importance=default_importance("health_fact")))
    found += _taken_back(sentence, message)
    if match := _MEDICATION.search(sentence):
        drug, dose = match.group("drug").lower(), match.group("dose").replace(" ", "")
        when = match.group("when")
        found.append(_fact(_about(message, f"Takes {dose} of {drug}" + (f" {when.lower()}" if when else "")),
                           f"medication:{drug}", [me], domain="health", importance=default_importance("health_fact")))
    elif match := _CONDITION.search(sentence):
        verb = "Takes" if re.search(r"\btak", match.group(0), CI) else "Has"
        found.append(_fact(_about(message, f"{verb} {match.group('what').lower()}"), "", [me], domain="health",
                           importance=default_importance("health_fact")))
    if match := _DIET.search(sentence):
        found.append(_preference(_about(message, f"Is {match.group('diet').lower()}"), "diet", message,
                                 domain="personal"))
    elif match := _ON_A_DIET.search(sentence):
        found.append(_preference(_about(message, f"Is on a {match.group('diet').lower()} diet"), "diet", message,
                                 domain="personal"))
    elif match := _DIET_DROPPED.search(sentence):
        diet = (match.group("diet") or match.group("diet_b")).lower()
        found.append(_preference(_about(message, f"No longer {diet}"), "diet", message, domain="personal"))
    if match := _DOES_NOT_EAT.search(sentence):
        what = _clean_object(match.group("what"))
        found.append(_preference(_about(message, f"Does not eat {what}"), f"taste:{what.lower()}"[:64], message,
                                 domain="personal"))
    return found


def _allergy(what: str) -> str:
    """The attribute of an allergy: one per thing, so a second allergy is not a new value for the first."""
    return f"allergy:{what.lower()}"[:64]


def _taken_back(sentence: str, message: Message) -> list[Candidate]:
    """"I'm not allergic to shellfish", "I don't work at Stripe anymore": a fact with the same attribute as
    the one it takes back, so reconcile supersedes that one (extract_candidates drops it when the message
    gives the new value itself: "I no longer live in Boston; I moved to Denver")."""
    me, taken_back = first_person(message), []
    if match := _NOT_ALLERGIC.search(sentence):
        what = match.group("what").strip()
        taken_back.append(_fact(_about(message, f"Not allergic to {what}", " is "), _allergy(what), [me],
                                domain="health", importance=default_importance("health_fact")))
    elif match := _BROKE_UP.search(sentence):
        divorce = re.search(r"divorc|separat", match.group(0), CI)
        partner = next((m for m in named_mentions(sentence) if m.kind == "person"), None)
        said = ("Got divorced" if divorce else "Broke up") + (f" with {partner.text}" if partner else "")
        mentions = [me] + ([Mention(partner.text, role="object")] if partner else [])
        taken_back.append(_fact(_about(message, said), "role:spouse_of" if divorce else "role:partner_of", mentions,
                                domain="relationship"))
    elif (match := _NO_LONGER.search(sentence)) and is_name(match.group("what")):
        attribute = "residence" if match.group("verb").lower().startswith("live") else "employer"
        said = f"No longer {'lives in' if attribute == 'residence' else 'works at'} {match.group('what')}"
        taken_back.append(_fact(_about(message, said), attribute, [me],
                                domain="personal" if attribute == "residence" else "professional"))
    for fact in taken_back:
        fact.details["takes_back"] = True
    return taken_back


def _fact(content, attribute, mentions, *, domain="", importance=None) -> Candidate:
    """A stated fact about its first mention (a named person, the speaker or the user)."""
    half_life = recall_setting("decay.biographical_fact_half_life_days") if attribute in BIOGRAPHICAL else None
    return Candidate(
        type="fact", content=content, confidence=default_confidence("fact"),
        importance=importance if importance is not None else default_importance("fact"), mentions=mentions,
        subject=mentions[0], attribute=attribute, half_life_days=half_life, domain=domain,
    )


def _preferences(sentence: str, message: Message) -> list[Candidate]:
    found = []
    if match := _PREFERENCE.search(sentence):
        verb = PREFERENCE_VERBS[match.group("verb").lower()]
        what = _TOO.sub("", _clean_object(match.group("what")))
        if verb == "prefers":  # "I'd rather use Vue than React" → "Prefers Vue over React"
            what = re.sub(r"\bthan\b", "over", re.sub(r"^(?:to )?(?:use|using|go with|going with|stick with|have)\s+",
                                                       "", what, flags=CI), flags=CI)
        if what and not _VAGUE_OBJECT.match(what) and not _NO_OBJECT.fullmatch(what):
            attribute = f"prefers:{_head(what)}" if verb == "prefers" else f"taste:{what.lower()}"[:64]
            found.append(_preference(_about(message, f"{verb.capitalize()} {what}"), attribute, message,
                                     mentions=named_mentions(what)))
    if match := _GAVE_UP.search(sentence):
        what = _clean_object(match.group("what") or match.group("what2"))
        attribute = f"taste:{what.lower()}"[:64]
        if what and attribute not in {candidate.attribute for candidate in found}:
            found.append(_preference(_about(message, f"Gave up {what}"), attribute, message))
    if match := _FAVORITE.search(sentence):
        thing = match.group("thing").strip().lower()
        content = _about(message, f"Favourite {thing} is {_clean_object(match.group('what'))}", "'s ")
        found.append(_preference(content, f"favourite:{thing}", message))
    if not message.speaker and (match := _STANDING.search(sentence)):  # said to the assistant, not in a chat
        when = "always" if match.group("when").lower() == "always" else "never"
        found.append(_preference(_about(message, f"Wants the assistant to {when} "
                                                 f"{_clean_object(match.group('what'))}"), "", message))
    return found


def _preference(content, attribute, message: Message, *, mentions=(), domain="") -> Candidate:
    me = first_person(message)
    return Candidate(
        type="preference", content=content, confidence=default_confidence("preference"),
        importance=default_importance("preference"), mentions=[me, *mentions], subject=me if attribute else None,
        attribute=attribute[:64], domain=domain,
    )


def _event(sentence: str, message: Message) -> Candidate | None:
    when = resolve_when(sentence, message.timestamp)
    if not (_EVENT_WORDS.search(sentence) and (when.at or when.phrase)) and not _RESCHEDULE.search(sentence):
        return None
    candidate = Candidate(
        type="event", content=as_said(message, _sentence_content(sentence)),
        confidence=default_confidence("fact"),
        importance=default_importance("event"), mentions=_mentions(sentence, message), valid_from=when.at,
        details={"when": when.phrase} if when.phrase else {},
    )
    if _RESCHEDULE.search(sentence) and when.weekday and when.daypart:
        candidate.details["pattern_key"] = f"avoid:{when.weekday}:{when.daypart}"
    elif when.at and when.at.date() < message.timestamp.date():
        # "Went to a concert last Friday": it happened, an experience told, not an appointment to keep.
        candidate.half_life_days = recall_setting("decay.episodic_half_life_days")
        candidate.details["kind"] = "experience"
    return candidate


def _episodic(text: str, message: Message) -> Candidate:
    when = resolve_when(text, message.timestamp)
    mentions, subject = _mentions(text, message), person_statement(text)
    for mention in mentions:
        if mention.text == subject:  # "Alex thinks…": the memory is about Alex
            mention.kind, mention.role = "person", "subject"
    kind = next((kind for kind, pattern in EPISODIC_KINDS if pattern.search(text)), "statement")
    candidate = Candidate(
        type="event", content=as_said(message, _sentence_content(text)),
        confidence=default_confidence("fact"),
        importance=default_importance("episodic"), mentions=mentions, valid_from=when.at or message.timestamp,
        half_life_days=recall_setting("decay.episodic_half_life_days"), details={"episodic": True, "kind": kind},
    )
    _hedged(text, [candidate])
    return candidate


def _mentions(text: str, message: Message) -> list[Mention]:
    """Names in the text, and role phrases ("my boss"): the user's, or a speaker's as "Caroline's boss" (a
    speaker's "my boss" is not the user's). Each may become an unnamed node of its own (resolve_refs)."""
    found = named_mentions(text)
    for mention in role_mentions(text):
        found.append(_role_mention(message, mention.text.removeprefix("my ")))
    for pet in pet_role_mentions(text):
        found.append(_pet_mention(message, pet))
    named = {word for _, word in named_org_roles(text)}  # "The Wolves are my team": the team has a name
    for org in org_role_mentions(text):
        if org.word in named:
            continue
        name, bare = _role_node_name(message, org.words), _role_node_name(message, org.word)
        found.append(Mention(name, kind="org", owner=first_person(message, "subject"),
                             role_predicate=ORG_ROLE_WORDS[org.word], owner_is_subject=True,
                             node_at_once=org.at_once, node_aliases=(bare,) if bare != name else ()))
    return found


def _role_mention(message: Message, role: str, as_role: str = "mention") -> Mention:
    """Someone known only by a role of the message's "I" ("my sister"): an unnamed node of its own."""
    return Mention(_role_node_name(message, role), role=as_role, owner=first_person(message, "object"),
                   role_predicate=ROLE_WORDS.get(role, ""), node_at_once=role in NODE_AT_ONCE_ROLES,
                   role_forms=tuple(sorted(_role_node_name(message, word) for word in same_role_words(role))))


def _pet_mention(message: Message, pet: str) -> Mention:
    """One's own pet said without a name ("my dog", "my turtles"): an unnamed pet node of its own, which takes
    the pet's name when it is given ("my dog Rex")."""
    singular = pet.removesuffix("s") if pet.endswith(("dogs", "cats", "turtles", "kittens", "rabbits")) else pet
    forms = {_role_node_name(message, singular), _role_node_name(message, f"{singular}s"),
             _role_node_name(message, pet)}
    return Mention(_role_node_name(message, pet), kind="pet", owner=first_person(message, "object"),
                   role_predicate="pet_of", node_at_once=True, role_forms=tuple(sorted(forms)))


def _whose(message: Message) -> str:
    return f"{message.speaker}'s" if message.speaker else "the user's"


def _role_node_name(message: Message, role: str) -> str:
    """What an unnamed person holding this role of the message's "I" is called: "my mom", "Caroline's mom"."""
    return f"{message.speaker}'s {role}" if message.speaker else f"my {role}"


def _about(message: Message, content: str, link: str = " ") -> str:
    """A typed memory's words: "Prefers tea" about the user, "Caroline prefers tea" about a speaker."""
    return f"{message.speaker}{link}{content[:1].lower()}{content[1:]}" if message.speaker else content


# Where the thing liked ends and the reason or another clause begins: "aisle seats because of my knee",
# "raw fish, so no more sushi for me", "Vue than React, I know it better".
_CLAUSE_TAIL = re.compile(r"(?:,\s*|\s+)(?:so|because|since|cause|cuz)\b.*$|,\s*(?:as|but|which|i|i'm|i've|it|it's|"
                          r"that's|we|we're)\b.*$", CI)


def _clean_object(text: str) -> str:
    text = re.sub(r"\b(please|thanks|thank you|a lot|so much|very much|really|any ?more|these days|now|at all)\b",
                  "", text, flags=CI)
    text = _CLAUSE_TAIL.sub("", re.sub(r"\s+", " ", text))
    return re.sub(r"\s+", " ", text).strip(" ,.!?;:-")


def _head(what: str) -> str:
    """The thing a preference is about: "morning meetings over afternoon ones" → "meetings"."""
    core = re.split(r"\b(over|to|rather than|instead of|than|when|if|because|but|at|in|on|for|with)\b", what, flags=CI)[0]
    words = re.findall(r"[a-z]+", core.lower()) or re.findall(r"[a-z]+", what.lower())
    return words[-1] if words else what.lower()


def _sentence_content(sentence: str) -> str:
    sentence = re.sub(r"\s+", " ", sentence).strip()
    return sentence[:1].upper() + sentence[1:]
