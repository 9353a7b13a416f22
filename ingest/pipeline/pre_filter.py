"""Stage 1, pre_filter: a deterministic relevance score in 0..1; below `memory.relevance_threshold` is rejected.

The score starts from a neutral base, adds weight for cues of storable signal
(first-person statements, preferences, life events, people and roles, plans with
a time, what someone in the user's life thinks or did — "Alex thinks…" — and
chat about one's own doings and feelings) and subtracts for junk:
laughter and small talk, task confirmations ("ok done"), motivational quotes,
jokes, trivia, ambient weather, requests addressed to the assistant and chat
pleasantries ("No worries! Let me know how it goes."). In a dialogue it also
reads each message against the one before it (in the batch, or the session's
last one: dialogue.py): an answer to the other person's question usually tells
something, a message that asks tells less, and one whose every sentence is
thanks, cheering, a farewell or a platitude tells nothing. A transcript line is
scored without its "Name: " (ingest splits the speaker off). Pure regular
expressions and one small read per ingest call, no model call: microseconds
per message.
"""
import re

from entities.vocabulary import AT_WORK, CARERS, CLOSE_FAMILY, PARTNERS, alternatives
from ingest.pipeline.assistant_turns import ASSISTANT, assistant_relevance
from ingest.pipeline.base import Rejected, Stage, WorkItem
from ingest.pipeline.dialogue import SPEAKING_ROLES, replies_in_batch
from ingest.pipeline.names_in_text import ANIMAL_DOINGS, person_statement
from ingest.pipeline.rule_forms import JOB_HEADS
from recall_site.config import recall_setting

BASE_SCORE = 0.35
CI = re.IGNORECASE
# "I" left unsaid at a sentence's start, as chat does ("Been busy volunteering.", "Just got a puppy!", "Gave up on
# Spanish, switched to Italian").
UNSAID_I = (r"(^|[.!?]\s+)((also|just|still|finally|recently|then|anyway|so|and),? )*(been|got|started|finished|went|"
            r"made|bought|tried|working on|gave up|switched|sold|quit|joined|signed up|booked|adopted|took|picked up|"
            r"decided|moved|stopped|upgraded|replaced|changed|lost|ordered|deleted|cancell?ed|walked|fed|visited|"
            r"texted|called|met|opened|hired|planted)\b")

NAME_CUE = re.compile(r"(?<=[a-z,;:'] )[A-Z][a-z]+\b")
# (pattern, weight): each matching cue adds its weight once.
CUES = [
    (re.compile(r"\b(i|i'm|i've|i'd|i'll|me|my|mine|we|we're|our)\b|" + UNSAID_I, CI), 0.12),
    (re.compile(r"\b(prefer|preferably|rather|favou?rite|love|enjoy|hate|dislike|can't stand|cannot stand|"
                r"don't like|avoid|allergic|vegetarian|vegan|pescatarian|gluten|lactose)\b|"
                r"\b(i|we|they)( really| also| totally| do)? like\b", CI), 0.3),
    (re.compile(r"\b(moved|relocat\w*|live|living|based in|works? (at|for|from home|remotely)|"
                r"working (at|for|from home|remotely)|job|started at|joined|"
                r"hired|promoted|quit|retired|graduated|married|engaged|divorced|pregnant|born|birthday|"
                r"my name is|call me|diagnosed|medication|take \w+ (daily|every)|"
                r"i'm an? |i am an? )\b", CI), 0.3),
    (re.compile(rf"\b({alternatives(PARTNERS, CLOSE_FAMILY, AT_WORK, CARERS)}|fianc\w*|kids?|children|"
                r"roommate|flatmate|friend|neighbou?r|cousin|aunt|uncle|grandma|grandpa|coach|teacher|tutor|mentor|"
                r"nanny|babysitter|landlord|trainer|vet)\b", CI), 0.25),
    (re.compile(r"\b(lunch|dinner|breakfast|brunch|coffee with|meeting|call with|appointment|interview|flight|"
                r"trip|party|wedding|conference|visit\w*|check-?up|drinks|concert|review|standup|1:1|"
                r"one-on-one|deadline|demo|presentation|class|lesson|vacation|holiday|rescheduled?|"
                r"postponed|cancell?ed|moved my|booked|dentist|gym|offsite|retreat|reunion|graduation|recital|"
                r"ceremony|funeral)\b", CI), 0.25),
    (re.compile(r"\b(today|tonight|tomorrow|yesterday|(next|last) (week|weekend|month|year|summer|winter|night)|"
                r"this (weekend|week)|\w+ (years?|months?|weeks?) ago|recently|when i was( a kid)?|"
                r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
                r"\d{1,2}(:\d{2})?\s*(am|pm)|january|february|march|april|june|july|august|september|"
                r"october|november|december|may \d{1,2}(st|nd|rd|th)?)\b", CI), 0.2),  # not "may" alone
    # A pet's doings and care: "Biscuit barked at the mailman all morning", "took Luna to the vet".
    (re.compile(rf"\b({ANIMAL_DOINGS}|vet|groomer|dog park|leash|litter box|kibble|scratching post)\b", CI), 0.25),
    # What someone just spoken of is: "He's a beagle mix", "Yeah she's a marketing lead there".
    (re.compile(r"^\W*(?:(?:yeah|yep|yes|oh|well|so),? )?(?:he|she|they)(?:'s| is| are| was) (?:an? )?(?:\w+ )?"
                rf"(?:\w+(?:er|or|ist|ian|ant|ent|al|ic)|mix|breed|student|{JOB_HEADS})\b", CI),
     0.25),
    (NAME_CUE, 0.08),  # a capitalised name mid-sentence
    (re.compile(r"\b(remember|don't forget|note that|fyi|for future reference)\b", CI), 0.2),
    # A request that tells the user's own plans: "can you help me plan a trip to Lisbon in May?"
    (re.compile(r"\b(plan|planning|book|booking|organi[sz]e|organi[sz]ing|prepare for|pack for) (a|an|my|our|the) "
                r"(\w+ )?(trip|vacation|holiday|honeymoon|party|wedding|move|visit|birthday|anniversary|surprise)\b",
                CI), 0.2),
    (re.compile(r"\b(always|never|usually|every (day|week|morning|monday|tuesday|wednesday|thursday|friday))\b", CI),
     0.1),
    (re.compile(r"\b(the user|user)\b", CI), 0.1),
    (re.compile(r"\b(allerg\w*|asthma|diabet\w*|migraines?|surgery|pregnan\w*|diagnos\w*|medication|"
                r"sleeping badly|insomnia|broke up|break up|divorc\w*|(works|working) (at|for)|"
                # someone's job: "Alex is a software engineer at Spotify", "she got a new job at Netflix"
                r"(is|was|works as) an? ([\w\-]+ ){0,3}(at|for) (?=(?-i:[A-Z]))|job (at|with) (?=(?-i:[A-Z]))|"
                r"(don't|do not|never) (eat|drink)|i'm (not )?an? \w+ person)\b", CI), 0.25),
    (re.compile(r"\b(always|never|don't|do not) (reply|answer|use|write|call|remind|book|schedule|text|send)\b", CI),
     0.2),
    (re.compile(r"^\W*i(?:'m| am) \d{1,2}\W*$", CI), 0.4),  # one's age, answered in two words: "I'm 32."
    # A first-person declarative sentence of some length usually tells something about the user.
    (re.compile(r"^\W*(i|we|i'm|i've|we're|we've|i'd|my|our)\b(\W+\w+){3,}[^?]*$", CI), 0.1),
    # So does a long chat message that speaks in the first person anywhere.
    (re.compile(r"^(?=.*\b(i|i'm|i've|me|my|we|our)\b)(\W*\w+){12,}", CI), 0.08),
    (re.compile(r"\b(saving|planning|learning|training|trying to|going to|gonna|want to|wanna|hoping to|worried|"
                r"can't wait|looking forward|i'll|we'll)\b", CI), 0.1),
    (re.compile(r"\b(stressed|anxious|worried|tired|exhausted|overwhelmed|upset|sad|lonely|seem(s|ed)?)\b", CI), 0.15),
    # The user's own doings, past or ongoing: "I went…", "we've been…", "I'm volunteering…".
    (re.compile(r"\b(i|we)('ve| have)?( just| finally| recently| also| usually| often| always)? (been|went|did|"
                r"made|got|had|took|tried|started|finished|bought|found|learned|wrote|won|joined|saw|met|spent|ran|"
                r"read|\w+ed|use|play|practi[cs]e|paint|write|cook|swim|dance|volunteer|teach|study|train|collect)\b|"
                r"\b(i'm|i am|we're|we are)( still| currently| now| really| also)? \w+ing\b|" + UNSAID_I, CI), 0.12),
    # What matters to the user: feelings about their life, their own people, pets, places and pursuits.
    (re.compile(r"\b((made|makes|helps|helped|keeps|kept|reminds|lets|gives|gave|inspires|motivates) me|"
                r"(i|it) (feel|felt|feels)|means a lot|(important|special|everything|speaks) to me|thankful|"
                r"passionate|proud|grateful|(i|we) (have|own|'ve got) (a|an|two|three|some)|excited|inspired|hooked|"
                r"(my|our) (own|hometown|family|kids|dog|cat|pets?|home|house|business|"
                r"studio|band|garden|career|dream|goal|passion|hobby|art|work))\b", CI), 0.12),
]
# "Alex thinks…", "Emma is planning…": the people in the user's life count as much as the user.
PERSON_STATEMENT_WEIGHT = 0.25
# The user's own project, figures, code or decision (ours): never small talk, whatever else it sounds like —
# a dashboard calling a weather API is no weather remark, "Good news: the build now takes 4 minutes" no reaction.
SUBSTANCE = re.compile(
    r"\d+(?:[.,]\d+)?\s*(?:%|ms\b|seconds?\b|minutes?\b|hours?\b|users?\b|customers?\b|requests?\b|"
    r"(?:[kmg]b|tb)\b|lines?\b|tests?\b|tables?\b|rows?\b|pages?\b|words?\b|items?\b|units?\b|subscribers?\b|"
    r"members?\b|signups?\b|sales\b|orders?\b|euros?\b|dollars?\b|k\b|days?\b|nights?\b|weeks?\b|months?\b|"
    r"guests?\b|people\b|kids\b|kgs?\b|kilos?\b|lbs?\b|pounds?\b|km\b|miles?\b)|[$€£]\s?\d|```|"
    r"\b(?:the|our|my|a|an) (?:[\w\-]+ )?(?:build|deploy\w*|release|sprint|repo|api|database|server|backend|frontend|app|codebase|"
    r"pipeline|prototype|mvp|launch|roadmap|budget|schema|dashboard|project|thesis|manuscript)\b|"
    r"\b(?:we|i)(?:'ll| will| have| 've)? (?:decided|settled on|switched to|went with|go with|chose)\b|"
    r"\blet's (?:go with|use|try|stick with|switch to|pick|do)\b|"
    # A choice said in two words: "Going with GitHub Actions", "Board voted to use QuickBooks", "discord.py it is".
    r"(?:^|[.!?]\s+)(?:\w+ ?){0,2},? ?(?:going|went) with\b|"
    r"\b(?:voted|agreed|decided) to (?:use|go with|switch|hire|buy)\b|"
    r"\S it is[.!]*$|\bwill be (?-i:[A-Z])", CI)
SUBSTANCE_WEIGHT = 0.3
SOFT_JUNK = {"weather", "question", "pleasantry", "reaction", "no_news"}  # what substance outweighs
RESCORED_AFTER_FIRST = {"request_to_assistant", "laughter"}  # junk of the first sentence only

# (pattern, penalty, reason): the strongest matching junk pattern is subtracted.
JUNK = [
    (re.compile(r"^\W*((ha)+|lol|lmao|rofl|hehe|haha\w*)\b|\b(that's|thats|so) (funny|hilarious)\b", CI), 0.6, "laughter"),
    (re.compile(r"^\W*(ok(ay)?|k|done|sure|yes|yep|yeah|no|nope|thanks?|thank you|thx|ty|got it|great|cool|"
                r"nice|perfect|sounds good|will do|noted|alright|all good|np|no worries)"
                r"([\s,!.]+(ok(ay)?|done|thanks?|thank you|it's done|that's done|great|cool|perfect|"
                r"sounds good|got it|bye|!+))*\W*$", CI), 0.7, "acknowledgement"),
    (re.compile(r"\b(task|it|that|this|email|message|file)('s| is| was)? (done|sent|finished|completed)\b\W*$", CI),
     0.45, "task_confirmation"),
    (re.compile(r"[\"“].{8,}[\"”]\s*[-—–~]\s*(?-i:[A-Z])[\w. ]*$|"
                r"\b(as \w+( \w+)? (once )?said|quote of the day|(here's|here is) (an? |your )?"
                r"(motivational|inspirational)|words to live by)\b", CI), 0.6, "quote"),
    (re.compile(r"\b(why did the|knock,? knock|what do you call a|here's a joke|tell you a joke|"
                r"walks into a bar|pun intended|dad joke)\b", CI), 0.6, "joke"),
    (re.compile(r"\b(did you know|fun fact|^\W*trivia|the capital of|is the (largest|tallest|oldest|smallest|longest)|"
                r"light-?years?|degrees (fahrenheit|celsius) at which)\b", CI), 0.55, "trivia"),
    (re.compile(r"\b(weather|it's (so )?(raining|snowing|sunny|cold|hot|windy|humid|cloudy|freezing|warm)|"
                r"(such|what) a (nice|lovely|beautiful|gloomy|grey|gray) day|it's (so |really |very )?(rainy|snowy|sunny|foggy|"
                r"chilly|muggy|stormy|grim|dreary)( \w+)?$|it's pouring|"
                r"(rain|snow)(ing)? (again|outside)|sun is out|so (hot|cold|windy) (today|outside))\b", CI),
     0.45, "weather"),
    (re.compile(r"^\W*(can|could|would|will) you\b|^\W*(please )?(write|draft|summari[sz]e|translate|explain|"
                r"show|give|find|search|list|calculate|convert|fix|help|describe|generate|tell (me|us|a|the))\b", CI),
     0.4, "request_to_assistant"),
    (re.compile(r"^\W*(what|who|when|where|why|how|which|is|are|does|do)\b[^.!]*\?\s*$", CI), 0.35, "question"),
    (re.compile(r"^\W*(hi|hello|hey|good (morning|night|evening)|bye|goodbye|see you|brb)\b\W*\w*\W*$", CI),
     0.6, "greeting"),
    # Chat pleasantries around nothing new ("No worries! Let me know how it goes.").
    (re.compile(r"\b(let me know|talk (to you )?(soon|later)|take care|appreciate (it|the|your)|happy to help|"
                r"keep (it up|going|pushing)|you got this|we can do (it|this)|let's (keep|continue)|glad you|"
                r"thanks for|no worries|no problem|tell me more|"
                r"(what|how) about you|sounds (cool|awesome|great|good|fun|amazing))\b", CI), 0.1, "pleasantry"),
]


# Chat balance: who a message is about. A reply that opens with a reaction and talks about "you"
# more than about "I" is a reaction to the other person's news, not news of the speaker's own.
FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|i'll|me|my|mine|myself)\b", CI)
THIRD_PERSON = re.compile(r"\b(he|she|he's|she's|his|her|him)\b", CI)  # "Yeah he's a sommelier": news of him
SECOND_PERSON = re.compile(r"\b(you|your|you're|you've|you'll|you'd|yours|yourself|ya)\b", CI)
_REACTION_WORDS = (r"wow|whoa|woah|aw+|oh|omg|yay|congrats|congratulations|thanks|thank you|that's|that is|"
                   r"that was|that sounds|sounds|looks|what an?|so|glad|sorry|great|nice|cool|awesome|amazing|yeah|"
                   r"yes|yep|yup|totally|definitely|sure|agreed?|right|true|good|hey|hi")
REACTION_OPENER = re.compile(rf"^\W*({_REACTION_WORDS})\b", CI)
REACTION_PENALTY = 0.2
# A name used to address the other person ("Thanks, Mel!", "Hey Jon!", "…, John.") is not content.
VOCATIVE = re.compile(rf"^\W*(?:(?:{_REACTION_WORDS})[\s,!.]+){{1,2}}(?-i:[A-Z][a-z]+)(?=\s*[!,.])|"
                      r",\s*(?-i:[A-Z][a-z]+)\s*[!.?]*$", CI)
# A question handed back at the end ("…What about you?") neither adds to nor cancels what came before.
TRAILING_QUESTIONS = re.compile(r"(?<=[.!])(\s+[^.!?]*\?[?!\s]*)+$")
# Information density: a long message usually carries specifics (what, where, who, when) —
# unless it is one of the strong junk kinds above (a long quote or trivia stays junk).
STRONG_JUNK = 0.3
LONG_MESSAGE_WORDS, LONG_MESSAGE_WEIGHT = 15, 0.25
VERY_LONG_MESSAGE_WORDS, VERY_LONG_MESSAGE_WEIGHT = 25, 0.05
# Platitudes and cheering carry no fact ("It's so important to…", "Keep it up!", "You got this").
PLATITUDE = re.compile(
    r"\b(make (a|the) difference|means? (so much|a lot)|(i'll|i will) let you know|(you|we)('ve)? got this|"
    r"keep it up|keep (going|pushing)|"
    r"here for you|proud of you|(is|are) key\b|it's (so |really |super )?(important|great|awesome|amazing|"
    r"incredible|inspiring|nice|cool) (to|how|that|when|what)|(we|you) can (do|make|really))", CI)
PLATITUDE_PENALTY = 0.05
# "Cool! Who's your favourite team?": an opener and a question handed back tell nothing (ours).
QUESTION_BACK_MAX_WORDS = 3
QUESTION_BACK_PENALTY = 0.3
# Dialogue: an answer to the other person's question carries news more often than not; a message that asks
# is partly about the other person.
ANSWER_WEIGHT = 0.25
ASKS_PENALTY = 0.1
# A sentence with no news of its own: thanks, praise of the other's support, cheering, a farewell, a platitude,
# a reaction to what the other person showed, a question about the other person, or a few words with no strong
# cue ("So cool!", not "I have asthma"). A message made only of them is filler.
NO_NEWS_SENTENCE = re.compile(
    r"^\W*(thanks|thank you|appreciate)|"
    r"\b(your (support|encouragement|kind words|belief|words)|means? (so much|a lot|everything)|here for you|"
    r"(have|got) (my|your) back|appreciate (you|it|your)|"
    r"keep (it up|going|pushing|shining|at it)|you got this|you'?ll (get there|do great|make it|nail it)|"
    r"don'?t (give up|quit)|never give up|good luck|i believe in you|proud of you|you can do it|"
    r"talk (to you )?(soon|later)|see (you|ya)( soon| later)?|take care|"
    r"^\W*(have|enjoy) (a|an|the|your) (great|good|nice|lovely|wonderful|awesome) (day|night|one|time|weekend|"
    r"trip|evening)|bye|catch (you|ya) later|"
    r"it'?s (so |really |super )?(important|vital|key|essential)|(is|are) (so )?(key|important|essential|vital)\b|"
    r"^\W*life is|we all (need|deserve|have|can|should)|let'?s keep|"
    r"(looks|sounds) (so |really )?(great|amazing|awesome|fun|cool|beautiful|stunning|lovely|nice|delicious|"
    r"incredible)|glad (to hear|you|it)|happy (to hear|for you))\b", CI)
NO_NEWS_MAX_WORDS = 3
NEWS_CUES = [pattern for pattern, weight in CUES if weight >= 0.2]
NO_NEWS_PENALTY = 0.2
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def tells_no_news(text: str) -> bool:
    """Every sentence is filler (`NO_NEWS_SENTENCE`), a question about the other person (no "I", "me" or "my":
    "I'm allergic to penicillin, is ibuprofen safe?" tells something), or a few words with no strong cue."""
    return all(NO_NEWS_SENTENCE.search(sentence)
               or (sentence.rstrip().endswith("?") and not FIRST_PERSON.search(sentence))
               or (len(sentence.split()) <= NO_NEWS_MAX_WORDS and not any(cue.search(sentence) for cue in NEWS_CUES))
               for sentence in SENTENCE_END.split(text.strip()))


def chat_balance(text: str, junk: bool) -> tuple[float, str]:
    """(adjustment, junk reason) for who a chat message is about and how much it tells."""
    body = TRAILING_QUESTIONS.sub("", text) or text
    first, second, words = len(FIRST_PERSON.findall(body)), len(SECOND_PERSON.findall(body)), len(body.split())
    adjustment, reason = 0.0, ""
    if REACTION_OPENER.search(body) and first <= second and (second or not THIRD_PERSON.search(body)):
        adjustment, reason = -REACTION_PENALTY, "reaction"
    if not junk:
        adjustment += LONG_MESSAGE_WEIGHT * (words >= LONG_MESSAGE_WORDS)
        adjustment += VERY_LONG_MESSAGE_WEIGHT * (words >= VERY_LONG_MESSAGE_WORDS)
    if PLATITUDE.search(body):
        adjustment -= PLATITUDE_PENALTY
    if body != text and words <= QUESTION_BACK_MAX_WORDS:
        adjustment, reason = adjustment - QUESTION_BACK_PENALTY, reason or "question"
    return adjustment, reason


def dialogue_adjustment(text: str, answers: bool) -> tuple[float, str]:
    """(adjustment, junk reason) for a message's place in a dialogue; `answers`: it replies to a question."""
    asks = ASKS_PENALTY * ("?" in text)
    if tells_no_news(text):  # even as an answer ("Thanks, you too!")
        return -asks - NO_NEWS_PENALTY, "no_news"
    return ANSWER_WEIGHT * answers - asks, ""


def relevance_score(text: str, *, answers: bool = False) -> tuple[float, str]:
    """(score in 0..1, the junk reason that lowered it or ""); `answers`: the message replies to the other
    person's question."""
    text = text.strip()
    if not text:
        return 0.0, "empty"
    content = VOCATIVE.sub("", text).strip() or text  # cues look past the name the speaker addresses
    score = BASE_SCORE + sum(weight for pattern, weight in CUES if pattern.search(content))
    if person_statement(content):
        score += PERSON_STATEMENT_WEIGHT
    penalty, reason = max(((p, r) for pattern, p, r in JUNK if pattern.search(text)), default=(0.0, ""))
    adjustment, balance_reason = chat_balance(text, junk=penalty >= STRONG_JUNK)
    dialogue, dialogue_reason = dialogue_adjustment(text, answers)
    reason = reason or balance_reason or dialogue_reason
    if SUBSTANCE.search(content):
        score += SUBSTANCE_WEIGHT
        if reason in SOFT_JUNK:
            penalty, adjustment, dialogue, reason = 0.0, max(adjustment, 0.0), max(dialogue, 0.0), ""
    score += adjustment + dialogue
    if len(text.split()) < 3 and not penalty:
        penalty, reason = 0.15, "too_short"
    scored = round(min(max(score - penalty, 0.0), 1.0), 3), reason
    if reason in RESCORED_AFTER_FIRST and len(sentences := SENTENCE_END.split(text, maxsplit=1)) == 2:
        # "Can you help me budget? I make $4,200 a month after tax", "Haha, good girl Pepper! I've been training
        # for the Chicago marathon": what the message goes on to tell counts.
        return max(scored, relevance_score(sentences[1], answers=answers))
    return scored


class PreFilter(Stage):
    name = "pre_filter"
    in_transaction = False

    def applies(self, context) -> bool:
        return not context.explicit  # remember_memory's candidate is given, not extracted

    def run_batch(self, items: list[WorkItem], context) -> None:
        if items:
            answered = replies_in_batch(context.user_id, context.session_id, [item.message for item in items])
            for item, answers in zip(items, answered):
                item.answers = answers
        super().run_batch(items, context)

    def run(self, item: WorkItem, context) -> None:
        if item.message.role not in SPEAKING_ROLES:
            raise Rejected(self.name, "not_a_user_message")  # a system prompt, a tool's output
        if item.message.role == ASSISTANT:
            score, reason = assistant_relevance(item.message.content)
        else:
            score, reason = relevance_score(item.message.content, answers=item.answers)
        item.relevance = score
        if score < recall_setting("memory.relevance_threshold"):
            raise Rejected(self.name, f"low_relevance:{reason}" if reason else "low_relevance", score)
