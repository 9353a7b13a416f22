"""Synthetic but varied memories for the search benchmark: one user's people, orgs, places and life.

Deterministic for a given size (seeded), so the embeddings cached under var/bench/ stay valid.
Each memory is (type, domain, sensitive, content, [entity names]).
"""
import random

FIRST_NAMES = [
    "Sarah", "Alex", "Priya", "Tom", "Lena", "Marco", "Yuki", "Omar", "Hannah", "Diego", "Ines", "Jonas",
    "Chloe", "Ravi", "Mia", "Lukas", "Amara", "Felix", "Zoe", "Karim", "Elena", "Noah", "Freya", "Mateo",
    "Aisha", "Ben", "Clara", "Dev", "Emma", "Finn", "Grace", "Hugo", "Isla", "Jack", "Kira", "Leo", "Maya",
    "Nina", "Oscar", "Paula", "Quinn", "Rosa", "Sam", "Tara", "Uma", "Victor", "Wendy", "Xavier", "Yara",
]
LAST_NAMES = [
    "Chen", "Novak", "Patel", "Berg", "Rossi", "Tanaka", "Haddad", "Schmidt", "Garcia", "Silva", "Weber",
    "Dubois", "Kumar", "Fischer", "Okafor", "Larsen", "Moreau", "Costa", "Ivanova", "Murphy",
]
ORGS = [
    "Volkswagen", "Acme Corp", "Siemens", "Zalando", "Bosch", "SAP", "Lufthansa", "Deutsche Bahn",
    "Charite", "Spotify", "Delivery Hero", "N26", "Allianz", "BASF", "Adidas", "Bayer", "Henkel",
    "Infineon", "Celonis", "Personio",
]
PLACES = [
    "Berlin", "Hamburg", "Munich", "Lisbon", "Vienna", "Prague", "Copenhagen", "Amsterdam", "Barcelona",
    "Zurich", "Kyoto", "Oslo", "Porto", "Krakow", "Dublin", "Milan", "Tallinn", "Seville", "Lyon", "Riga",
]
TOPICS = [
    "the quarterly roadmap", "the budget review", "the hiring plan", "the product launch", "the data migration",
    "the security audit", "the pricing model", "the onboarding flow", "the vendor contract", "the API redesign",
    "the marketing campaign", "the sales forecast", "the office relocation", "the annual report",
    "the customer survey", "the board presentation", "the cloud costs", "the mobile release",
]
FOODS = [
    "ramen", "sourdough bread", "flat white coffee", "green tea", "spicy curry", "oat milk", "dark chocolate",
    "sushi", "falafel", "pasta carbonara", "vegan burgers", "matcha", "espresso", "dumplings", "tapas",
]
HOBBIES = [
    "bouldering", "trail running", "watercolour painting", "sailing", "chess", "jazz piano", "birdwatching",
    "pottery", "cycling", "yoga", "photography", "gardening", "salsa dancing", "kayaking", "woodworking",
]
CONDITIONS = [
    "a penicillin allergy", "hay fever", "a knee injury", "migraines", "a pollen allergy", "lower back pain",
    "high blood pressure", "asthma", "a lactose intolerance", "insomnia", "a sprained ankle", "a shellfish allergy",
]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
FEELINGS = ["excited", "worried", "unsure", "thrilled", "nervous", "relieved", "frustrated", "hopeful"]
LIFE_EVENTS = [
    "the apartment move", "the wedding", "a trip to {place}", "buying a house", "adopting a dog",
    "the birthday party", "the baby shower", "a new job", "the garden renovation", "the anniversary dinner",
]
PREDICATES = ["partner_of", "sibling_of", "friend_of", "roommate_of", "manager_of", "colleague_of"]

TEMPLATES = [
    # (type, domain, sensitive, template)
    ("event", "scheduling", False, "Lunch with {person} at a cafe in {place} on {weekday}"),
    ("event", "scheduling", False, "Call with {person} on {weekday} morning about {topic}"),
    ("event", "scheduling", False, "Dentist appointment moved to {weekday} afternoon"),
    ("event", "professional", False, "Presented {topic} to {person} and the team at {org}"),
    ("event", "professional", False, "{person} asked for feedback on {topic} before {weekday}"),
    ("fact", "professional", False, "{person} leads {topic} at {org}"),
    ("fact", "professional", False, "{person} works at {org} in {place}"),
    ("fact", "professional", False, "The deadline for {topic} is next {weekday}"),
    ("preference", "professional", False, "Prefers written updates on {topic} instead of meetings"),
    ("preference", "scheduling", False, "Prefers no meetings on {weekday} mornings"),
    ("preference", "personal", False, "Loves {food} from the market in {place}"),
    ("preference", "personal", False, "Enjoys {hobby} on weekends, usually with {person}"),
    ("preference", "personal", False, "Dislikes {food} but {person} keeps recommending it"),
    ("fact", "personal", False, "{person} lives in {place} and is into {hobby}"),
    ("fact", "personal", False, "Is planning {life_event} with {person}"),
    ("event", "personal", False, "Went {hobby} with {person} near {place} last {weekday}"),
    ("event", "personal", False, "{person} is {feeling} about {life_event}"),
    ("event", "personal", False, "Dinner with {person} in {place}, they recommended {food}"),
    ("fact", "health", True, "Has {condition} and avoids {food}"),
    ("event", "health", True, "{person} mentioned {condition} after {hobby}"),
    ("fact", "health", True, "Takes medication for {condition} every {weekday}"),
    ("event", "relationship", True, "{person} and {person2} argued about {life_event}"),
    ("fact", "relationship", True, "{person} is {person2}'s partner and they live in {place}"),
    ("event", "relationship", True, "{person} feels {feeling} about their relationship with {person2}"),
]


def people(count: int = 300) -> list[str]:
    rng = random.Random(7)
    names = []
    while len(names) < count:
        name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
        if name not in names:
            names.append(name)
    return names


def relations(names: list[str], per_person: int = 2) -> list[tuple[str, str, str]]:
    """(subject name, predicate, object name) edges plus works_at / lives_in edges."""
    rng = random.Random(11)
    edges = set()
    for name in names:
        for _ in range(per_person):
            other = rng.choice(names)
            if other != name:
                edges.add((name, rng.choice(PREDICATES), other))
        edges.add((name, "works_at", rng.choice(ORGS)))
        edges.add((name, "lives_in", rng.choice(PLACES)))
    return sorted(edges)


def memories(count: int) -> list[tuple[str, str, bool, str, list[str]]]:
    """`count` memories; the first N of a larger corpus equal the corpus of size N."""
    rng = random.Random(1234)
    names = people()
    rows = []
    for _ in range(count):
        memory_type, domain, sensitive, template = rng.choice(TEMPLATES)
        person, person2 = rng.sample(names, 2)
        place = rng.choice(PLACES)
        org = rng.choice(ORGS)
        slots = {
            "person": person, "person2": person2, "place": place, "org": org, "topic": rng.choice(TOPICS),
            "food": rng.choice(FOODS), "hobby": rng.choice(HOBBIES), "condition": rng.choice(CONDITIONS),
            "weekday": rng.choice(WEEKDAYS), "feeling": rng.choice(FEELINGS),
            "life_event": rng.choice(LIFE_EVENTS).format(place=rng.choice(PLACES)),
        }
        content = template.format(**slots)
        linked = [name for name in (person, person2, org, place) if name in content]
        rows.append((memory_type, domain, sensitive, content, linked))
    return rows
