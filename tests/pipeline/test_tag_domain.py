"""tag_domain: accuracy on a labelled fixture, and the sensitive flag."""
from pathlib import Path

import yaml

from ingest.pipeline.tag_domain import classify_domains, is_sensitive
from memories.models import Memory
from search.retrieval.gating import query_gate

FIXTURE = Path(__file__).parents[1] / "fixtures" / "pipeline" / "domains.yaml"


def test_domain_accuracy_on_the_labelled_fixture():
    labelled = yaml.safe_load(FIXTURE.read_text())
    texts = [text for domain in labelled for text in labelled[domain]]
    expected = [domain for domain in labelled for _ in labelled[domain]]
    assert len(texts) >= 100
    predicted = classify_domains(texts)
    accuracy = sum(p == e for p, e in zip(predicted, expected)) / len(texts)
    print(f"\ntag_domain accuracy on {len(texts)} labelled memories: {accuracy:.3f}")
    assert accuracy >= 0.85


def test_a_health_appointment_is_health_where_a_health_question_reads_it():
    """Health questions read health memories alone (the seed's gate): an appointment with a health word is
    health however many time words it has; one without stays scheduling."""
    assert classify_domains(["My dentist appointment is on Dec 12 at 3pm", "Lunch with Sarah on Friday at 1pm"]) == [
        "health", "scheduling"]
    assert query_gate("when is my dentist appointment?").domains == ["health"]


def test_pets_in_the_plural_are_personal():
    assert classify_domains(["We have two cats, Miso and Tofu", "Walked the dogs by the river"]) == [
        "personal", "personal"]


def test_health_relationship_and_emotional_content_is_sensitive():
    assert is_sensitive("health", "Allergic to penicillin")
    assert is_sensitive("relationship", "Alex is Sarah's partner")
    assert is_sensitive("professional", "Is stressed about the deadline")
    assert not is_sensitive("scheduling", "Lunch with Sarah Thursday")


def test_every_stored_memory_gets_a_domain(run):
    trace = run("I'm allergic to penicillin", "lunch with Sarah Thursday", "I work at Volkswagen",
                "Alex is Sarah's partner", "I love hiking in the Alps")
    rows = {m.content: (m.domain, m.sensitive) for m in Memory.objects.filter(pk__in=trace.memory_ids)}
    assert rows == {
        "Allergic to penicillin": ("health", True),
        "Lunch with Sarah Thursday": ("scheduling", False),
        "Works at Volkswagen": ("professional", False),
        "Alex is Sarah's partner": ("relationship", True),
        "Loves hiking in the Alps": ("personal", False),
    }


def test_a_model_failure_still_stores_the_memory(run, monkeypatch):
    def model_down(texts, *args, **kwargs):
        raise RuntimeError("model unavailable")

    monkeypatch.setattr("ingest.pipeline.tag_domain.embed_texts", model_down)
    trace = run("I'm learning Spanish", "lunch with Sarah Thursday")
    rows = dict(Memory.objects.filter(pk__in=trace.memory_ids).values_list("content", "domain"))
    assert rows == {"I'm learning Spanish": "personal", "Lunch with Sarah Thursday": "scheduling"}


def test_a_dose_and_the_bodys_measures_are_health_and_rent_is_personal():
    """"I take 20mg of lisinopril every morning" was filed scheduling ("morning"), which a health question never
    reads; a health question about weight or a dose reads health."""
    assert classify_domains(["I take 20mg of lisinopril every morning.", "I'm down to 78 kg now!",
                             "Our rent went up to $2,300."]) == ["health", "health", "personal"]
    assert query_gate("how much do I weigh").domains == ["health"]
    assert query_gate("what dose of lisinopril do I take").domains == ["health"]
    assert classify_domains(["Can you remind me to call mom on Sunday?"]) == ["scheduling"]  # a task, not family


def test_asking_what_the_assistant_suggested_reads_where_its_replies_were_filed():
    """Not a work question by its words: it also reads relationship (a reply to "my wife is vegan…" is filed
    there); a work question stays narrow, and health memories stay behind the health gate."""
    assert query_gate("which book did you recommend?").domains == ["professional", "personal", "relationship",
                                                                    "scheduling"]
    assert query_gate("what did you suggest for the client presentation?").domains == ["professional", "scheduling"]
    assert "health" not in query_gate("which book did you recommend?").domains
