"""The graph on ordinary talk: words are no people, pets are pets, someone else's news stays theirs."""
from datetime import timedelta

from entities.models import Entity, Relation
from ingest.pipeline import ingest_messages
from ingest.pipeline.extract import candidates_for
from memories.models import Memory
from tests.pipeline.conftest import MONDAY, message


def ingest(*contents, user_id="alice", session_id="s1"):
    """Through the API's parsing: a leading "Caroline: " makes Caroline the speaker."""
    messages = [{"role": "user", "content": text, "timestamp": MONDAY + timedelta(seconds=i)}
                for i, text in enumerate(contents)]
    return ingest_messages(user_id=user_id, session_id=session_id, source="import", actor="test", messages=messages)


def entities(user_id="alice"):
    return {(e.canonical_name, e.kind) for e in Entity.objects.live().filter(user_id=user_id).exclude(kind="self")}


def edges(user_id="alice"):
    return {(r.subject.canonical_name, r.predicate, r.object.canonical_name)
            for r in Relation.objects.filter(user_id=user_id).select_related("subject", "object")}


def test_sentence_start_words_are_not_people(db):
    ingest("Super excited about the trip! Gotta pack tonight.",
           "Luckily the rain stopped. Hiking with my dog Rex was great.",
           "Speaking of which, Wow, Woohoo! Thankfully, my son is fine.")
    assert entities() == {("Rex", "pet"), ("My son", "person")}  # a close relative is someone at first mention
    assert edges() == {("Rex", "pet_of", "me"), ("My son", "child_of", "me")}


def test_a_name_the_history_knows_may_start_a_sentence(db):
    ingest("I had dinner with Priya yesterday")
    ingest("Priya loved the new place", session_id="s2")
    priya = Entity.objects.get(canonical_name="Priya")
    assert priya.kind == "person" and priya.memories.count() == 2
    # The same sentence from a user who never named Priya in mid-sentence names nobody.
    ingest("Priya loved the new place", user_id="bob")
    assert entities("bob") == set()


def test_context_makes_a_first_word_a_person_and_quotes_make_a_title():
    said = candidates_for(message('Priya said I should read "Becoming Nicole" next.'))
    mentions = {(m.text, m.kind) for c in said for m in c.mentions if m.kind != "self"}
    assert mentions == {("Priya", "person"), ("Becoming Nicole", "thing")}


def test_pets_are_pets_and_belong_to_whoever_said_my(db):
    ingest("We adopted a cat named Luna yesterday.", "My dogs Biscuit and Juniper love the park near my house.")
    ingest("Caroline: And yup, I do- Oscar, my guinea pig. He's been great.", session_id="s2")
    assert entities() >= {("Luna", "pet"), ("Biscuit", "pet"), ("Juniper", "pet"), ("Oscar", "pet")}
    assert edges() >= {("Luna", "pet_of", "me"), ("Biscuit", "pet_of", "me"), ("Juniper", "pet_of", "me"),
                       ("Oscar", "pet_of", "Caroline")}


def test_a_person_later_called_a_pet_becomes_one(db):
    ingest("I took Bolt to the beach")
    assert entities() == {("Bolt", "person")}  # nothing said otherwise yet
    ingest("Bolt, my beagle, is getting old", session_id="s2")
    assert entities() == {("Bolt", "pet")}


def test_someone_elses_move_never_touches_the_users_home(db):
    ingest("I live in Berlin")
    trace = ingest("My sister Ana just moved to Porto with her dog Bolt.", session_id="s2")
    assert trace.entries[0].outcome == "stored"
    home = Memory.objects.get(content="Lives in Berlin")
    assert home.status == "active"  # not superseded by Ana's move
    assert Memory.objects.filter(content="Ana lives in Porto", status="active").exists()
    assert edges() >= {("me", "lives_in", "Berlin"), ("Ana", "sibling_of", "me"), ("Ana", "lives_in", "Porto")}
    assert ("Bolt", "pet") in entities()
    assert not Relation.objects.filter(subject__canonical_name="Bolt", object__kind="self").exists()


def test_a_speakers_job_is_a_fact_about_the_speaker(db):
    ingest("Marco: I work as a data analyst at a bank in Lisbon.")
    fact = Memory.objects.get(type="fact", attribute="occupation")
    assert fact.content == "Marco works as a data analyst" and fact.subject.canonical_name == "Marco"


def test_a_hedged_claim_keeps_its_object_under_the_sensitive_gate():
    [claim] = candidates_for(message("I think I might be allergic to cats, not sure yet."))
    assert (claim.type, claim.content) == ("fact", "Might be allergic to cats (unsure)")
    assert claim.confidence < 0.8


def test_a_role_said_in_two_sessions_becomes_a_person_until_a_name_arrives(db):
    ingest("Melanie: I'm lucky to have my colleague and kids.")
    assert ("Melanie's colleague", "person") not in entities()  # said once: a mention, not yet a node
    ingest("Melanie: My colleague and I went camping last weekend.", session_id="s2")
    assert ("Melanie's colleague", "colleague_of", "Melanie") in edges()
    ingest("Melanie: My husband and I went camping last weekend.", session_id="s2")
    assert ("Melanie's husband", "person") in entities()
    assert ("Melanie's husband", "spouse_of", "Melanie") in edges()
    ingest("Melanie: My husband Tom loved the lake.", session_id="s3")
    assert ("Melanie's husband", "person") not in entities() and ("Tom", "person") in entities()
    tom = Entity.objects.get(canonical_name="Tom")
    assert "Melanie's husband" in {alias.alias for alias in tom.aliases.all()}  # the node's name kept
    assert ("Tom", "spouse_of", "Melanie") in edges()
    assert Memory.objects.filter(entities=tom, content__contains="camping").exists()  # its memories moved


def test_the_users_own_unnamed_mom_is_a_node_at_once(db):
    ingest("Had coffee with my mom today.")
    assert ("My mom", "parent_of", "me") in edges()  # one person holds the role: a node at once
    ingest("Had coffee with my friend today.")
    assert ("My friend", "person") not in entities()  # anyone of several: not after one session


def test_a_friendship_said_to_the_other_speaker_is_an_edge_between_them(db):
    ingest("Caroline: I finished the mural for the youth center yesterday.",
           "Melanie: Wow! Our friendship started with art and I still remember our first pottery class together.")
    assert ("Melanie", "friend_of", "Caroline") in edges()


def test_ones_own_unnamed_studio_is_an_org_one_works_at_under_its_short_name_too(db):
    ingest("Jon: I finally opened my dance studio downtown last week.")
    ingest("Jon: My studio had its first recital and the kids loved it.", session_id="s2")
    assert ("Jon", "works_at", "Jon's dance studio") in edges()  # "dance studio" singles it out: at once
    studio = Entity.objects.get(canonical_name="Jon's dance studio")
    assert studio.kind == "org" and "Jon's studio" in {alias.alias for alias in studio.aliases.all()}
    assert Memory.objects.filter(entities=studio, content__contains="recital").exists()
    assert len(Relation.objects.get(predicate="works_at").source_message_ids) == 1  # the message that made it


def test_a_bare_club_waits_for_a_second_session_but_a_joined_one_is_a_node_at_once(db):
    ingest("Tim: My club meets on Fridays.")
    assert not Entity.objects.filter(kind="org").exists()
    ingest("Tim: Last night I joined a fantasy literature forum and had a great talk.",
           "Maria: Just yesterday I joined a nearby church. So far it's been really great!",
           "John: I'm now part of the fire-fighting brigade.", "Nate: I love my favourite band.")
    assert {("Tim", "member_of", "Tim's fantasy literature forum"), ("Maria", "member_of", "Maria's church"),
            ("John", "member_of", "John's fire-fighting brigade")} <= edges()
    assert not Entity.objects.filter(canonical_name__contains="band").exists()  # a taste, no membership


def test_a_group_named_later_takes_the_place_of_its_unnamed_node(db):
    ingest("Caroline: I just joined a new LGBTQ activist group last Tues.")
    assert ("Caroline", "member_of", "Caroline's LGBTQ activist group") in edges()
    ingest("Caroline: Our group, 'Connected LGBTQ Activists', is made of all kinds of people.")
    group = Entity.objects.get(canonical_name="Connected LGBTQ Activists")
    assert group.kind == "org" and ("Caroline", "member_of", "Connected LGBTQ Activists") in edges()
    assert not Entity.objects.filter(canonical_name="Caroline's LGBTQ activist group").exists()  # merged
    ingest("John: The Wolves are my team for sure.")
    assert ("John", "member_of", "Wolves") in edges() and ("Wolves", "org") in entities()


def test_titles_in_single_quotes_are_things():
    said = candidates_for(message("I finished a painting I call 'Embracing Identity' last night."))
    assert ("Embracing Identity", "thing") in {(m.text, m.kind) for c in said for m in c.mentions}


def test_names_given_when_asked_for_are_the_speakers_pets_or_children(db):
    ingest("Melanie: We've got a pup and a kitty. They brighten up our day!",
           "Caroline: Ah, they're adorable! What are their names?",
           "Melanie: Luna and Oliver! They are so sweet and playful.",
           "Maria: I just adopted this cute pup from a shelter last week.",
           "John: Wow, Maria, how cute! What's her name?",
           "Maria: Her name is Shadow! She's full of energy.",
           "John: Our one-year-old is so cute, his name is Kyle!")
    assert {("Luna", "pet_of", "Melanie"), ("Oliver", "pet_of", "Melanie"), ("Shadow", "pet_of", "Maria"),
            ("Kyle", "child_of", "John")} <= edges()
    assert {("Luna", "pet"), ("Oliver", "pet"), ("Shadow", "pet"), ("Kyle", "person")} <= entities()


def test_names_given_unasked_stay_what_they_are(db):
    ingest("Melanie: We've got a pup and a kitty.", "Caroline: Cool! How was the trip?",
           "Melanie: Sarah and Tom loved it.")
    assert not {("Sarah", "pet"), ("Tom", "pet")} & entities()
    assert not Relation.objects.filter(predicate="pet_of").exists()


def test_a_name_after_the_is_a_place_a_team_or_a_title_not_a_person(db):
    ingest("Tim: Two hikers trekked through the Himalayas last year.",
           "John: The Wolves are my team for sure. The Hobbit is one of my favorites too.")
    assert {("Himalayas", "place"), ("Wolves", "org"), ("Hobbit", "thing")} <= entities()


def test_someone_wagging_a_tail_is_a_pet_unless_an_animal_is_named_beside(db):
    ingest("John: Hey Maria! We had to say goodbye to Max. He was part of our family for 10 years, always wagging that tail.",
           "Sarah: My puppy was wagging his tail when Tom came home.")
    assert ("Max", "pet") in entities() and ("Tom", "person") in entities()


def test_the_apps_and_sites_everyone_uses_are_things(db):
    ingest("Gina: Instagram and TikTok can help you reach a younger crowd. I make gaming content for YouTube.")
    assert {("Instagram", "thing"), ("TikTok", "thing"), ("YouTube", "thing")} <= entities()


def test_work_neighbours_coaches_and_other_peoples_pets_make_edges(db):
    """Forms of ordinary talk that made no edge: a manager one reports to, someone else's job and pet, a
    neighbour and a coach with a title."""
    ingest("I report to Karen, she's the VP of engineering.", "Raj's wife Meera is a doctor at Mass General.",
           "Carlos has a dog called Pepper.", "My neighbor Mrs. Kim waters my plants when I travel.",
           "Jake's coach is Mr. Brown.", "Our biggest client is Acme Corp and their contact is Linda Park.")
    assert edges() >= {("Karen", "manager_of", "me"), ("Meera", "spouse_of", "Raj"),
                       ("Meera", "works_at", "Mass General"), ("Pepper", "pet_of", "Carlos"),
                       ("Mrs. Kim", "neighbour_of", "me"), ("Mr. Brown", "coach_of", "Jake")}
    assert {("Linda Park", "person"), ("Pepper", "pet"), ("Mass General", "org")} <= entities()
    assert not {name for name, _ in entities()} & {"VP", "Park"}  # a title is nobody
    assert Memory.objects.get(content="Meera is a doctor at Mass General").domain == "professional"


def test_a_role_said_before_a_name_makes_it_a_person_whatever_the_gazetteer_says(db):
    ingest("My new girlfriend Sofia is great.")
    assert ("Sofia", "person") in entities()  # Sofia is also Bulgaria's capital
    assert edges() == {("Sofia", "partner_of", "me")}


def test_someone_elses_children_and_spouse_named_in_passing_make_edges(db):
    ingest("My brother Mike has two kids, Ella and Sam.", "Mike's wife is called Jen.", "Ella just turned 5.")
    assert edges() >= {("Mike", "sibling_of", "me"), ("Ella", "child_of", "Mike"), ("Sam", "child_of", "Mike"),
                       ("Jen", "spouse_of", "Mike")}
    ella = Entity.objects.get(user_id="alice", canonical_name="Ella")
    assert ella.memories.filter(content="Ella just turned 5.").exists()  # kept, and about her


def test_where_someone_known_by_a_role_lives_and_works_and_names_first_in_a_sentence(db):
    """"My sister lives in Toronto" is an edge from the sister's node; "at Google" is the company, not the app;
    a first word followed by what only a person does or has ("Sarah is allergic", "Priya's birthday") is someone."""
    ingest("My sister lives in Toronto.", "My wife works at Google.", "Sarah is allergic to nuts.",
           "Priya's birthday is June 5.", "Dana works from home on Fridays.")
    assert edges() >= {("My sister", "lives_in", "Toronto"), ("My wife", "works_at", "Google")}
    assert {("Google", "org"), ("Sarah", "person"), ("Priya", "person"), ("Dana", "person")} <= entities()
    assert "Fridays" not in {name for name, _ in entities()}
    assert Memory.objects.filter(content="The user's sister lives in Toronto", attribute="residence").exists()


def test_a_pet_said_without_its_name_is_a_node_that_takes_the_name_when_given(db):
    ingest("I took my dog to the vet today.")
    assert entities() == {("My dog", "pet")} and edges() == {("My dog", "pet_of", "me")}
    ingest("My dog Rex loves the beach.", session_id="s2")
    assert entities() == {("Rex", "pet")} and edges() == {("Rex", "pet_of", "me")}
    ingest("My dog chewed my shoes again.", "Here's a photo of my horse painting.", session_id="s3")
    rex = Entity.objects.get(user_id="alice", canonical_name="Rex")
    assert entities() == {("Rex", "pet")} and rex.memories.filter(content__contains="chewed").exists()


def test_the_users_own_family_school_and_marriage_said_plainly_make_edges(db):
    ingest("I'm married to Tom.", "I have two daughters, Mia and Zoe.", "I have a sister named Anna.",
           "I graduated from MIT in 2015.", "I went to Paris last week.")
    assert edges() >= {("Tom", "spouse_of", "me"), ("Mia", "child_of", "me"), ("Zoe", "child_of", "me"),
                       ("Anna", "sibling_of", "me"), ("me", "studies_at", "MIT")}
    assert not any(predicate == "studies_at" and place == "Paris" for _, predicate, place in edges())


def test_software_cars_and_a_business_by_its_name_are_no_people(db):
    """A capital inside a word is a product's ("FastAPI", "SQLAlchemy"); a car maker's model is a car; a switch
    *from* something is no trip there; "my bakery is called Sweet Crumbs" names the user's business."""
    ingest("I'm building an app with PostgreSQL and SQLAlchemy, hosted on DigitalOcean.",
           "We decided to switch from Flask to FastAPI.", "I drive a 2018 Honda Civic.",
           "My bakery is called Sweet Crumbs, it's in Portland.", "I had lunch with McKenzie and DeShawn.")
    kinds = dict(entities())
    products = ("PostgreSQL", "SQLAlchemy", "DigitalOcean", "Flask", "FastAPI", "Honda Civic")
    assert {kinds[name] for name in products} == {"thing"}
    assert kinds["Sweet Crumbs"] == "org" and ("me", "works_at", "Sweet Crumbs") in edges()
    assert kinds["McKenzie"] == kinds["DeShawn"] == "person" and "Crumbs" not in kinds


def test_in_laws_are_family_of_their_own(db):
    ingest("Tom is my brother-in-law.", "My mother-in-law Linda is visiting next week.")
    assert edges() >= {("Tom", "relative_of", "me"), ("Linda", "relative_of", "me")}
    assert Memory.objects.filter(content="Tom is the user's brother-in-law").exists()


def test_a_new_job_and_a_hotel_by_name(db):
    ingest("Sam got a new job at Netflix.", "We booked a hotel in Shinjuku called Hotel Gracery.")
    assert ("Sam", "works_at", "Netflix") in edges()
    assert dict(entities())["Hotel Gracery"] == "org"


def test_characters_and_things_named_after_someone_are_no_people(db):
    """"Iron Man", "Spider-Man" are characters; "my Gryffindor scarf" is a scarf; "Middle-earth" is no one's name;
    "my Uncle Bob tonight" and "my Jake yesterday" are still people."""
    ingest("Iron Man is my top pick, I love his humor.", "I noticed a pin on your purse. Is Spider-Man your favorite?",
           "I wore my Gryffindor scarf to the premiere.", "I bought a map of Middle-earth for my study.",
           "Dinner with my Uncle Bob tonight.", "I met my Jake yesterday at the park.")
    kinds = dict(entities())
    assert kinds["Iron Man"] == kinds["Spider-Man"] == kinds["Gryffindor"] == "thing"
    assert kinds["Middle-earth"] == "place"
    assert kinds["Uncle Bob"] == kinds["Jake"] == "person"


def test_a_pet_the_speaker_calls_family_or_named_is_theirs(db):
    ingest("We had to say goodbye to Max. He was part of our family for 10 years, and he's not here wagging that "
           "tail anymore.", "I still have that stuffed animal dog you gave me! I named her Tilly.",
           "We had a baby girl last week and we named her Lily.")
    assert edges() >= {("Max", "pet_of", "me"), ("Tilly", "pet_of", "me")}
    kinds = dict(entities())
    assert kinds["Max"] == kinds["Tilly"] == "pet" and kinds.get("Lily") != "pet"


def test_others_engaged_a_partner_named_after_them_even_past_a_place_and_a_saints_hospital(db):
    ingest("My best friend Jess just got engaged to Mark!", "My cousin Dan lives in Austin and works at Dell.",
           "Chris's girlfriend Amy is a nurse at St. Luke's.",
           "I went climbing with my coworker Priya and her husband Raj on Saturday.",
           "My sister Emma lives in Denver with her husband Jake.", "I met Nina and Sofia with her mom Carla.")
    assert edges() >= {("Jess", "partner_of", "Mark"), ("Dan", "works_at", "Dell"), ("Dan", "lives_in", "Austin"),
                       ("Amy", "works_at", "St. Luke's"), ("Raj", "spouse_of", "Priya"), ("Jake", "spouse_of", "Emma"),
                       ("Carla", "parent_of", "Sofia")}
    assert ("Carla", "parent_of", "Nina") not in edges()  # "her" is the nearest one's
    assert dict(entities())["St. Luke's"] == "org"


def test_family_named_in_a_list_a_kitten_named_and_a_school_got_into(db):
    ingest("My kids, Ethan and Sophie, start school on Monday.", "My parents, Linda and Mark, are visiting us.",
           "We adopted a kitten last weekend and named her Luna.", "My daughter Emma got into Stanford!!",
           "Honestly these days my favorite band is Arctic Monkeys.", "Our son Leo just started kindergarten.")
    assert entities() >= {("Ethan", "person"), ("Sophie", "person"), ("Linda", "person"), ("Mark", "person"),
                          ("Luna", "pet"), ("Stanford", "org"), ("Arctic Monkeys", "org")}
    assert edges() >= {("Ethan", "child_of", "me"), ("Sophie", "child_of", "me"), ("Linda", "parent_of", "me"),
                       ("Mark", "parent_of", "me"), ("Luna", "pet_of", "me"), ("Emma", "child_of", "me"),
                       ("Leo", "child_of", "me")}


def test_someones_job_without_an_employer_is_a_fact_of_theirs(db):
    ingest("My brother-in-law Dave is a firefighter in Seattle.")
    assert Memory.objects.filter(user_id="alice", content="Dave is a firefighter", domain="professional").exists()


def test_where_one_commutes_or_takes_a_train_to_is_a_place(db):
    ingest("Ugh, traffic on I-5 again, this commute to Redmond is killing me.",
           "Booked the train to Kingsbury for Saturday.")
    kinds = dict(entities())
    assert kinds["Redmond"] == kinds["Kingsbury"] == "place"


def test_someone_taken_to_the_vet_is_a_pet(db):
    ingest("Took Biscuit to the vet this morning, he's fine.")
    assert dict(entities())["Biscuit"] == "pet"


def test_colleagues_by_their_team_friends_said_as_he_or_she_and_things_lent_or_sold(db):
    ingest("Had lunch with Priya from accounting, she's super nice",
           "Can't believe Marcus is moving to Denver, he's been my best friend since high school",
           "Jen from my book club lent me Circe", "Sold the Civic and bought a Tesla Model 3 last week",
           "My doctor upped my Lexapro to 30mg",
           "I'm dating a guy named Jake, he's a firefighter")
    assert {("Priya", "colleague_of", "me"), ("Marcus", "friend_of", "me"), ("Jake", "partner_of", "me")} <= edges()
    assert {("Jen", "person"), ("Circe", "thing"), ("Civic", "thing"), ("Lexapro", "thing"),
            ("Denver", "place")} <= entities()
    assert not {name for name, _ in entities()} & {"Sold the Civic", "Sold"}


def test_nephews_buddies_and_step_family_are_relations(db):
    ingest("Marco: Pretty good! My nephew Theo stayed with us, he's obsessed with trains.",
           "Dana: I've been training for the Chicago marathon with my running buddy Kai.",
           "Dana: My stepdad Frank is driving up for the race.")
    assert {("Theo", "relative_of", "Marco"), ("Kai", "friend_of", "Dana"), ("Frank", "parent_of", "Dana")} <= edges()


def test_a_pet_at_a_sentence_start_is_known_by_what_it_does(db):
    """No "my dog": walked, scratching the sofa, "such a cat", molting are what an animal does."""
    ingest("Took Rocky for a walk, he chased a rabbit across the field.",
           "Cleo keeps scratching the sofa, she's such a cat.", "Kiwi's been molting all month, feathers everywhere.",
           "Walked Daisy twice today, she's finally getting used to the leash.")
    assert entities() == {("Rocky", "pet"), ("Cleo", "pet"), ("Kiwi", "pet"), ("Daisy", "pet")}


def test_a_verb_in_the_past_before_a_name_is_no_part_of_it(db):
    ingest("Texted Jared about the game tonight.", "Fred said he'd bring the chips.")
    assert entities() == {("Jared", "person"), ("Fred", "person")}


def test_partners_and_children_said_in_passing(db):
    ingest("Sam and I have been together five years now!", "My kids are wild today, Mia is 9 and Leo is 6.")
    ingest("Been seeing someone new, his name is Theo.", user_id="bob")
    assert edges() == {("Sam", "partner_of", "me"), ("Mia", "child_of", "me"), ("Leo", "child_of", "me")}
    assert edges("bob") == {("Theo", "partner_of", "me")}


def test_cities_tools_games_and_brands_are_not_people(db):
    ingest("Concert tickets for Denver went on sale and I got two!", "I'm learning Rust on weekends.",
           "My nephew does love Minecraft.", "We use Square for the register at the shop.")
    assert {("Denver", "place"), ("Rust", "thing"), ("Minecraft", "thing"), ("Square", "thing")} <= entities()
    assert not {name for name, kind in entities() if kind == "person"} - {"My nephew"}


def test_streets_shops_phones_and_starters_are_not_people(db):
    ingest("It's called Rye & Honey, opening on Oak Street next month.", "My new address is 9 Willow Creek Drive.",
           "Switched from iPhone to Pixel for the Android widgets.", "Joined a climbing gym called Stone Garden.",
           "My sourdough starter is named Bubbles.", "Got a quote from Ortega Builders for the deck.")
    assert {("Rye & Honey", "org"), ("Oak Street", "place"), ("Willow Creek Drive", "place"), ("Pixel", "thing"),
            ("Android", "thing"), ("Stone Garden", "org"), ("Bubbles", "thing"),
            ("Ortega Builders", "org")} <= entities()
    assert not {name for name, kind in entities() if kind == "person"}


def test_a_new_manager_said_with_now_replaces_the_old_one(db):
    ingest("My manager is Steve, he's pretty hands off.")
    ingest("Reorg happened, my manager is now Priya.", session_id="s2")
    current = {(r.subject.canonical_name, r.predicate) for r in Relation.objects.filter(user_id="alice",
                                                                                       valid_to__isnull=True)}
    assert current == {("Priya", "manager_of")}


def test_a_pet_named_in_answer_and_its_breed(db):
    ingest("Biscotti, he's a corgi and he already chewed up my shoes.")
    assert ("Biscotti", "pet") in entities()
    assert Memory.objects.filter(content="Biscotti is a corgi").exists()


def test_the_place_someone_rules_is_a_place(db):
    ingest("Loved the book, he goes from a farm boy to king of Eldoria by the end.")
    assert ("Eldoria", "place") in entities()
