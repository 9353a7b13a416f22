"""The rules for what the speaker says of themselves: where they live, work and study, where they come from,
their job, name, age and birthday, allergies, medicines, conditions and diet; and what they take back ("I'm not
allergic to shellfish", "I don't work at Stripe anymore", "Emma and I broke up"), a fact with the attribute of the
one it takes back, which reconcile supersedes."""
import re

from ingest.pipeline.base import Candidate, Mention, Message, RelationSpec, default_importance, first_person
from ingest.pipeline.dates import TIME_WORD
from ingest.pipeline.names_in_text import CAR_MAKES, is_name, named_mentions
from ingest.pipeline.rule_forms import (
    CI,
    JOB_HEADS,
    NAME,
    about,
    article,
    clean_object,
    fact_candidate,
    preference_candidate,
)

# Where the speaker studies or studied: "I graduated from MIT", "I study computer science at Stanford".
_SCHOOL = re.compile(r"(?i:\bi (?:just |recently )?(?:graduated from|(?:study|studied|am studying|'m studying)"
                     r"(?: [a-z]+){0,3} at|attend|attended) )" + NAME.format("org")
                     + r"(?=\W|$)")
# The end of the speaker's partnership: "Emma and I broke up", "I broke up with Emma", "we split up", "I got
# divorced". Its memory takes back the partner (or spouse) relation.
_BROKE_UP = re.compile(
    r"(?i:\b(?:i|we)(?: just| finally| recently)? (?:broke up|split up|separated|divorced|got divorced)"
    r"(?: with)?|\band i (?:just |finally |recently )?(?:broke up|split up|separated|got divorced)|"
    r"\b(?:broke|breaking) up with me)\b")
# Where the speaker comes from: "I'm from Sweden", "I grew up in Porto", "my home country, Sweden", "Being from
# Toronto, I'm used to the cold".
_ORIGIN = re.compile(r"(?i:\bi(?:'m| am) (?:originally )?from |\bi grew up in |\bi was born (?:and raised )?in |"
                     r"^\W*(?:being|as someone) (?:originally )?from |"
                     r"\bmy home ?(?:country|town),? )"
                     + NAME.format("place"))
_OCCUPATION = re.compile(r"\bi(?: now| currently)? (?:work|am working|'m working)(?: (?:at|for) [\w&'’. \-]{2,40}?)?"
                         # "I work night shifts as a paramedic"
                         r"(?: (?:(?:night|day|early|late|weekend|long|\d+-hour) )?shifts)? "
                         r"as (?P<job>an? [a-z][a-z \-]{2,40}?)"
                         r"(?= at\b| for\b| in\b| and\b|[.,;!?]|$)", CI)
# What the speaker teaches or runs for a living: "I teach 8th grade science at Lincoln Middle", "I manage a small
# bakery in Austin", "I run my own design studio".
_TEACHES_OR_RUNS = re.compile(
    r"\bi (?:now |currently |still )?(?P<verb>teach|manage|run|own) (?P<what>(?:(?:an?|the|my own|my|our) )?"
    r"(?:[\w\-]+ ){0,3}?(?:grade|class(?:es)?|school|science|math|english|history|music|art|yoga|"
    r"bakery|cafe|café|restaurant|shop|store|business|company|startup|agency|studio|salon|clinic|practice|team|"
    r"department|gym|bar|firm|farm|nonprofit|charity|franchise|warehouse|hotel|kitchen|lab)(?: [a-z]+){0,2}?)"
    r"(?P<where>(?: (?:at|in) (?-i:[A-Z])[\w'’\-]*(?: (?-i:[A-Z])[\w'’\-]*){0,3}))?"
    r"(?= (?:and|for|with|since|because|but|so)\b|[.,;!?]|$)", CI)
_RESIDENCE = re.compile(
    # "Just moved to Berlin" at a sentence's start is the speaker; "My sister Ana just moved to Porto" is not.
    r"(?i:(?:^|\b(?:i|we)(?:'ve| have)? )(?:just |recently |finally |now )?(?:moved|relocated)(?: back)?"
    r"(?: from (?-i:[A-Z])[\w'’\-]*(?: (?-i:[A-Z])[\w'’\-]*){0,2})? to |"  # "I moved from Chicago to Denver"
    r"\b(?:(?:i|we)(?: now| still)? live|i(?:'m| am)(?: now| still)? living|we(?:'re| are)(?: now| still)? living) in |"
    r"\bi'?m (?:now )?based in |"
    r"\bi am (?:now )?based in )"
    + NAME.format("place"))
_EMPLOYER = re.compile(
    r"(?i:\bi(?: now| currently)? (?:work|am working|'m working) (?:at|for) |"
    r"\bi (?:just )?(?:started|joined)(?: (?:a new job|working))?(?: at)? |\bmy new job at |"
    # "Today was my last day at Microsoft! Starting at Amazon on Monday."
    r"(?:^\W*|\bi(?:'m| am) )(?:now )?starting (?:a new job |my new job |work )?at |"
    # "I left Stripe, now I'm at Databricks": the new employer, where leaving the old one says it is a job.
    r"\bi (?:left|quit) (?:my (?:job|role|position)(?: at| with)? )?(?-i:[A-Z])[^.!?]*?\b(?:now )?(?:i'?m|i am) "
    r"(?:now )?(?:at|with) |"
    r"\bi'?m an? [a-z ]{3,30} at |\bi am an? [a-z ]{3,30} at |\bi(?:'ve| have) been an? [a-z ]{3,30} at |"
    r"\bi (?:now |currently )?work as an? [a-z ]{3,30} "
    r"(?:at|for) )" + NAME.format("org"))
# A job title said as news: "I got promoted to senior engineer", "I'm a staff engineer now".
_PROMOTED = re.compile(
    r"(?:(?:\bi (?:just )?|^\W*(?:just |finally )?)(?:got|was|have been|'ve been|am being|'m being) promoted to|"
    r"\bi(?:'m| am)(?: now)?|"
    # "I've been a software engineer at Shopify for 3 years", "As a nurse, 12-hour shifts are normal for me"
    r"\bi(?:'ve| have) been|^\W*(?:as|being))"
    r" (?:an? )?(?P<job>(?:[a-z\-]+ ){0,3}?(?:" + JOB_HEADS + r"))"
    r"(?= (?:now|at|for|in|on|today|yesterday|recently|again|this|last)\b|[.,;!?]|$)", CI)
_NAME = re.compile(r"(?i:\bmy name is )" + NAME.format("a"))
_CALL_ME = re.compile(r"(?i:\b(?:call me|i go by|everyone calls me|people call me) )" + NAME.format("a"))
_BIRTHDAY = re.compile(r"\bmy birthday is (?:actually |really )?(?:on )?(?P<date>[\w ]+)", CI)
# The speaker's age: "I'm 34 years old", "I just turned 35".
_AGE = re.compile(r"\bi(?:'m| am) (?P<age>\d{1,3})(?: years? old| yrs? old| y/?o)\b|"
                  # "I'm 32.", "I'm 42, I have a bad knee"
                  r"^\W*i(?:'m| am) (?P<bare>\d{1,2})(?:\W*$|,(?= i\b| and\b| so\b| but\b))|"
                  r"(?:\bi |^\W*)(?:just |recently )?turned "
                  r"(?P<turned>\d{1,3})\b", CI)  # "I just turned 35", "Just turned 35 today!"
_DIETS = r"vegetarian|vegan|pescatarian|keto|gluten[- ]free|dairy[- ]free|teetotal|sober"
_DIET = re.compile(rf"\bi(?:'m| am|'ve been| have been)(?: now| a| now a)? (?P<diet>{_DIETS})\b|"
                   rf"(?:\bi |\bi'm |\bi am |^\W*)(?:just |recently |finally )?(?:went|going|have gone|'ve gone|turned|"
                   rf"became|switched to being)(?: fully| full| completely| totally| 100%)? (?P<became>{_DIETS})\b|"
                   rf"^\W*(?:as|being) an? (?P<as_one>{_DIETS})\b", CI)  # "As a vegetarian, I always struggle…"
# An intolerance is a health matter, not a taste: "I'm lactose intolerant", "I have a gluten intolerance".
_INTOLERANCE = re.compile(r"\bi(?:'m| am)(?: very| severely| slightly| a bit| mildly)? "
                          r"(?P<what>[a-z]+)[- ]intolerant\b|"
                          r"\bi have (?:an? )?(?:mild |severe |slight )?(?P<what_b>[a-z]+) intolerance\b", CI)
_ALLERGY = re.compile(r"\bi(?:'m| am|(?P<hedge> might be| may be| could be))(?: severely| very)? allergic to "
                      r"(?P<what>[\w \-]+(?:, (?!(?:it|it's|that|which|so|but|i|i'm|not|no|maybe|probably|though|just|"
                      r"really|because|since|sadly|unfortunately|apparently)\b)[\w \-]+)*)", CI)
# The allergen said before it: "turns out it's actually tree nuts I'm allergic to, not peanuts".
_ALLERGEN_FIRST = re.compile(r"\bit(?:'s| is| was) (?:actually |really |just |only )?(?P<what>[a-z][\w\- ]{1,30}?) "
                             r"(?:that )?i(?:'m| am) allergic to\b", CI)
# What a corrected allergy is not: "…allergic to, not peanuts", "I'm allergic to cashews, not peanuts".
_NOT_THAT_ONE = re.compile(r"\ballergic to(?: [\w\- ]{1,30}?)?,? not (?:to )?(?!(?:sure|certain|really|much|that|so|too|"
                           r"yet|entirely|exactly|confirmed|a|an|the|as|very|serious|severe|bad)\b)"
                           r"(?P<what>[a-z][\w\- ]{1,30}?)(?=[,.;!?]|$)", CI)
# Where what one is allergic to ends: "peanuts so I always have to ask…".
_ALLERGEN_END = re.compile(r"\s+(?:so|but|because|since|which|that|when|if|though|as|and i|i|too|as well|not)\b.*$",
                           CI)
# "I have a peanut allergy", "a severe shellfish allergy".
_HAS_ALLERGY = re.compile(r"\bi have (?:a |an )?(?:severe |mild |bad |serious )?"
                          r"(?P<what>[a-z][\w\-]*(?: [a-z][\w\-]*)?)"
                          r" allergy\b", CI)
_ON_A_DIET = re.compile(r"\bi(?:'m| am) (?:now )?on an? (?P<diet>[a-z][\w\-]*(?: [a-z][\w\-]*)?) diet\b", CI)
_DIET_DROPPED = re.compile(rf"\bi(?:'m| am) (?:not|no longer) (?:a )?(?P<diet>{_DIETS})(?: any ?more)?\b|"
                           rf"\bi (?:stopped|quit) being (?:a )?(?P<diet_b>{_DIETS})\b", CI)
# What the speaker does not eat or drink: "I don't eat pork", "I can't eat gluten".
_DOES_NOT_EAT = re.compile(r"\bi (?:don't|do not|can't|cannot|never) (?P<verb>eat|drink) (?P<what>[a-z][a-z \-]{1,30}?)"
                           r"(?=[.,;!?]|$| any ?more\b| because\b)", CI)
# Foods one may not have: "I can't have dairy, so no cheese for me".
_CANNOT_HAVE = re.compile(r"\bi (?:can't|cannot|can not|shouldn't|am not allowed to|'m not allowed to) have (?P<what>"
                          r"dairy|gluten|sugar|caffeine|alcohol|nuts|peanuts|tree nuts|shellfish|eggs|meat|red meat|"
                          r"pork|beef|fish|soy|wheat|lactose|spicy food|carbs|salt|sodium|garlic|onions?)\b", CI)
_NOT_ALLERGIC = re.compile(r"\bi(?:'m| am) (?:not|no longer) (?:actually )?allergic to (?P<what>[\w \-]+?)"
                           r"(?: any ?more)?(?=[,.;!?]|$| but\b| it's\b)", CI)
_NO_LONGER = re.compile(r"(?i:\bi (?:no longer|don't|do not) (?P<verb>live in|work at|work for) )"
                        + NAME.format("what"))
# A medicine and its dose: "I take 20mg of lisinopril every morning", "I'm on 50 mg sertraline".
_MEDICATION = re.compile(r"\bi(?:'m| am)? (?:take|taking|on|was prescribed|got prescribed) (?P<dose>\d+(?:\.\d+)? ?"
                         r"(?:mg|mcg|µg|g|ml|iu|units?)) (?:of )?(?P<drug>[a-z][\w\-]{2,})"
                         r"(?: (?P<when>(?:every|each) (?:day|morning|evening|night)|daily|twice a day|once a day|"
                         r"at night|in the morning))?", CI)
# A diagnosis names its condition whatever it is: "I was diagnosed with type 2 diabetes last month".
_DIAGNOSED = re.compile(r"\bi(?: was|'ve been| have been| got| just got)(?: just| recently)? diagnosed with "
                        r"(?P<what>[a-z0-9][\w'\- ]{1,40}?)(?=[.,;!?]|$| (?:last|this|a few|in|on|at|when|after|"
                        r"yesterday|today|recently|back|and|but|so|which|two|three|several)\b)", CI)
_CONDITION = re.compile(r"\bi (?:have|was diagnosed with|suffer from|take|'m taking|am taking) (?P<what>"
                        r"(?:asthma|diabetes|migraines?|adhd|anxiety|depression|insomnia|high blood pressure|"
                        r"celiac disease|eczema|arthritis|a bad back|back pain)|\w+ (?:daily|every (?:day|morning|night))"
                        r")\b", CI)


# Traits said in passing, each a fact with its own attribute (a later one supersedes): the languages one speaks,
# handedness, a night owl or an early bird, a shoe size.
_LANGUAGES = re.compile(r"\bi (?:also )?speak (?P<what>(?-i:[A-Z])[a-z]+(?:(?:,| and| &)(?: (?:a (?:little|bit) of|"
                        r"some|basic|decent|fluent|conversational))? (?-i:[A-Z])[a-z]+)*)", CI)
_HANDED = re.compile(r"\bi(?:'m| am) (?P<what>left|right)[- ]handed\b", CI)
_CHRONOTYPE = re.compile(r"\bi(?:'m| am) (?:(?:such|totally|definitely|more of|really) )*an? (?P<what>night owl|"
                         r"early bird|morning person|night person|evening person)\b", CI)
_DEGREE = re.compile(r"\bi (?:have|hold|got|earned|finished|completed) (?:a|an|my) (?P<degree>phd|ph\.d\.?|doctorate|"
                     r"master'?s|bachelor'?s|mba|md|law degree|degree)(?: degree)? in (?P<field>[a-z][a-z \-]{2,40}?)"
                     r"(?= from\b| at\b|[.,;!?]|$)", CI)
_STATUS = re.compile(r"\bi(?:'m| am) (?:now |currently |recently )?(?P<status>single|divorced|widowed|separated)\b", CI)
_DRIVES = re.compile(r"\b(?:i (?:drive|own)|my (?:new |current )?car is) an? "
                     r"(?P<car>(?:\d{4} )?(?-i:[A-Z])[\w\-]*(?: (?-i:[A-Z0-9])[\w\-]*){0,2})", CI)
# A car bought, by its make or by what it is: "Bought a used RAV4 hybrid", "we just got a 2021 Honda Civic".
_BOUGHT_CAR = re.compile(
    r"(?:\b(?:i|we) |^\W*)(?:just |finally )?(?:bought|got|leased|picked up) (?:a|an|my|our) (?:new |used )?"
    r"(?P<car>(?:\d{4} )?(?:(?i:" + "|".join(sorted(CAR_MAKES)) + r")\b(?: (?-i:[A-Z0-9])[\w\-]*){0,2}|"
    r"(?-i:[A-Z])[\w\-]*(?: (?-i:[A-Z0-9])[\w\-]*)? (?:hybrid|sedan|suv|truck|pickup|minivan|van|wagon|coupe|"
    r"convertible|ev)\b))", CI)
_PLAYS = re.compile(r"\bi (?:play|have played|'ve played) the (?P<instrument>guitar|piano|violin|cello|drums|bass|"
                    r"ukulele|"
                    r"saxophone|sax|flute|trumpet|clarinet|harp|banjo|keyboard|viola|trombone|harmonica)\b", CI)
_SHOE_SIZE = re.compile(r"\bi (?:wear|take) (?:a )?(?:size|us|uk|eu)? ?(?P<what>\d{1,2}(?:\.5)?) (?:in )?shoes\b|"
                        r"\bmy shoe size is (?P<what_b>\d{1,2}(?:\.5)?)\b", CI)


def _traits(sentence: str, message: Message) -> list[Candidate]:
    me, found = first_person(message), []
    if match := _LANGUAGES.search(sentence):
        languages = re.findall(r"(?-i:[A-Z])[a-z]+", match.group("what"))
        found.append(fact_candidate(about(message, "Speaks " + " and ".join(languages)), "languages", [me],
                                    domain="personal"))
    if match := _HANDED.search(sentence):
        found.append(fact_candidate(about(message, f"Is {match.group('what').lower()}-handed"), "handedness", [me],
                                    domain="personal"))
    if match := _CHRONOTYPE.search(sentence):
        found.append(fact_candidate(about(message, f"Is a {match.group('what').lower()}"), "chronotype", [me],
                                    domain="personal"))
    if match := _DEGREE.search(sentence):
        degree = {"phd": "PhD", "ph.d": "PhD", "ph.d.": "PhD", "md": "MD", "mba": "MBA"}.get(
            match.group("degree").lower(), match.group("degree").lower())
        found.append(fact_candidate(about(message, f"Has {article(degree)} {degree} in {match.group('field')}"),
                                    f"degree:{degree.lower()}", [me], domain="personal"))
    if match := _STATUS.search(sentence):
        found.append(fact_candidate(about(message, f"Is {match.group('status').lower()}"), "relationship_status", [me],
                                    domain="relationship"))
    if match := _DRIVES.search(sentence) or _BOUGHT_CAR.search(sentence):
        car = Mention(re.sub(r"^\d{4} ", "", match.group("car")), "thing", "object")  # the model, not its year
        found.append(fact_candidate(about(message, f"Drives a {match.group('car')}"), "car", [me, car],
                                    domain="personal"))
    if match := _PLAYS.search(sentence):
        instrument = match.group("instrument").lower()
        found.append(fact_candidate(about(message, f"Plays the {instrument}"), f"plays:{instrument}", [me],
                                    domain="personal"))
    if match := _SHOE_SIZE.search(sentence):
        found.append(fact_candidate(about(message, f"Wears size {match.group('what') or match.group('what_b')} shoes"),
                                    "shoe_size", [me], domain="personal"))
    return found


def self_fact_candidates(sentence: str, message: Message) -> list[Candidate]:
    found, me = _traits(sentence, message), first_person(message)
    if match := _RESIDENCE.search(sentence):
        place = Mention(match.group("place"), "place", "object")
        fact = fact_candidate(about(message, f"Lives in {place.text}"), "residence", [me, place])
        fact.relation, fact.domain = RelationSpec(me, "lives_in", place), "personal"
        found.append(fact)
    if match := _EMPLOYER.search(sentence):
        org = Mention(match.group("org"), "org", "object")
        fact = fact_candidate(about(message, f"Works at {org.text}"), "employer", [me, org])
        fact.relation, fact.domain = RelationSpec(me, "works_at", org), "professional"
        found.append(fact)
    if (match := _SCHOOL.search(sentence)) and is_name(match.group("org")) and not TIME_WORD.match(match.group("org")):
        school = Mention(match.group("org"), "org", "object")
        studies = re.search(r"\bstud|attend\b", match.group(0), CI)
        fact = fact_candidate(about(message, f"{'Studies' if studies else 'Studied'} at {school.text}"), "school",
                              [me, school], domain="personal")
        fact.relation = RelationSpec(me, "studies_at", school)
        found.append(fact)
    if match := _ORIGIN.search(sentence):
        place = Mention(match.group("place"), "place", "object")
        fact = fact_candidate(about(message, f"Is from {place.text}"), "hometown", [me, place], domain="personal")
        fact.relation = RelationSpec(me, "from", place)
        found.append(fact)
    if match := _OCCUPATION.search(sentence):
        found.append(fact_candidate(about(message, f"Works as {match.group('job').strip()}"), "occupation", [me],
                                    domain="professional"))
    elif match := _TEACHES_OR_RUNS.search(sentence):
        verb = {"teach": "Teaches", "manage": "Manages", "run": "Runs", "own": "Owns"}[match.group("verb").lower()]
        what = re.sub(r"^(?:my|our) ", "their ", match.group("what"), flags=CI)  # "Runs their own design studio"
        found.append(fact_candidate(about(message, f"{verb} {what}{match.group('where') or ''}"),
                                    "occupation", [me], domain="professional"))
    elif match := _PROMOTED.search(sentence):
        job = match.group("job").strip()
        found.append(fact_candidate(about(message, f"Works as {article(job)} {job}"), "occupation", [me],
                                    domain="professional"))
    if match := _NAME.search(sentence):
        found.append(fact_candidate(about(message, f"Name is {match.group('a')}", "'s "), "name", [me],
                                    domain="personal"))
    if match := _CALL_ME.search(sentence):  # "My name is David but call me Dave": both
        found.append(fact_candidate(about(message, f"Wants to be called {match.group('a')}"), "called", [me],
                                    domain="personal"))
    if match := _AGE.search(sentence):
        age = match.group("age") or match.group("turned") or match.group("bare")
        found.append(fact_candidate(about(message, f"Is {age} years old"), "age", [me], domain="personal"))
    if match := _BIRTHDAY.search(sentence):
        found.append(fact_candidate(about(message, f"Birthday is {match.group('date').strip()}", "'s "), "birthday",
                                    [me], domain="personal"))
    allergy = _ALLERGY.search(sentence) or _HAS_ALLERGY.search(sentence) or _ALLERGEN_FIRST.search(sentence)
    allergens = _ALLERGEN_END.sub("", allergy.group("what").strip()) if allergy else ""
    for what in re.split(r",? and |, ", allergens) if allergens else ():  # one fact per thing
        hedged = allergy.groupdict().get("hedge")
        said = f"Might be allergic to {what} (unsure)" if hedged else f"Allergic to {what}"
        found.append(fact_candidate(about(message, said, " " if hedged else " is "), _allergy(what), [me],
                                    domain="health", importance=default_importance("health_fact")))
    found += _taken_back(sentence, message)
    if match := _MEDICATION.search(sentence):
        drug, dose = match.group("drug").lower(), match.group("dose").replace(" ", "")
        when = match.group("when")
        found.append(fact_candidate(about(message, f"Takes {dose} of {drug}" + (f" {when.lower()}" if when else "")),
                                    f"medication:{drug}", [me], domain="health",
                                    importance=default_importance("health_fact")))
    elif match := _DIAGNOSED.search(sentence):
        found.append(fact_candidate(about(message, f"Has {clean_object(match.group('what'))}"),
                                    "", [me], domain="health", importance=default_importance("health_fact")))
    elif match := _CONDITION.search(sentence):
        verb = "Takes" if re.search(r"\btak", match.group(0), CI) else "Has"
        found.append(fact_candidate(about(message, f"{verb} {match.group('what').lower()}"), "", [me], domain="health",
                                    importance=default_importance("health_fact")))
    if match := _INTOLERANCE.search(sentence):
        what = (match.group("what") or match.group("what_b")).lower()
        found.append(fact_candidate(about(message, f"Is {what} intolerant"), f"intolerance:{what}"[:64], [me],
                                    domain="health", importance=default_importance("health_fact")))
    if match := _DIET.search(sentence):
        diet = (match.group("diet") or match.group("became") or match.group("as_one")).lower()
        found.append(preference_candidate(about(message, f"Is {diet}"), "diet", message, domain="personal"))
    elif match := _ON_A_DIET.search(sentence):
        found.append(preference_candidate(about(message, f"Is on a {match.group('diet').lower()} diet"), "diet",
                                          message, domain="personal"))
    elif match := _DIET_DROPPED.search(sentence):
        diet = (match.group("diet") or match.group("diet_b")).lower()
        found.append(preference_candidate(about(message, f"No longer {diet}"), "diet", message, domain="personal"))
    if match := _DOES_NOT_EAT.search(sentence):
        what = clean_object(match.group("what"))
        verb = match.group("verb").lower()
        found.append(preference_candidate(about(message, f"Does not {verb} {what}"), f"taste:{what.lower()}"[:64],
                                          message, domain="personal"))
    elif match := _CANNOT_HAVE.search(sentence):
        what = match.group("what").lower()
        found.append(preference_candidate(about(message, f"Can't have {what}"), f"taste:{what}"[:64], message,
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
    if match := _NOT_ALLERGIC.search(sentence) or _NOT_THAT_ONE.search(sentence):
        what = match.group("what").strip()
        taken_back.append(fact_candidate(about(message, f"Not allergic to {what}", " is "), _allergy(what), [me],
                                         domain="health", importance=default_importance("health_fact")))
    elif match := _BROKE_UP.search(sentence):
        divorce = re.search(r"divorc|separat", match.group(0), CI)
        partner = next((m for m in named_mentions(sentence) if m.kind == "person"), None)
        said = ("Got divorced" if divorce else "Broke up") + (f" with {partner.text}" if partner else "")
        mentions = [me] + ([Mention(partner.text, role="object")] if partner else [])
        taken_back.append(fact_candidate(about(message, said), "role:spouse_of" if divorce else "role:partner_of",
                                         mentions, domain="relationship"))
    elif (match := _NO_LONGER.search(sentence)) and is_name(match.group("what")):
        attribute = "residence" if match.group("verb").lower().startswith("live") else "employer"
        said = f"No longer {'lives in' if attribute == 'residence' else 'works at'} {match.group('what')}"
        taken_back.append(fact_candidate(about(message, said), attribute, [me],
                                         domain="personal" if attribute == "residence" else "professional"))
    for fact in taken_back:
        fact.details["takes_back"] = True
    return taken_back
