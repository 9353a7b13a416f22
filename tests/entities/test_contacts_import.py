"""Contacts import: every rule of alias bootstrapping, on the committed fixtures."""
from pathlib import Path

import pytest

from audit.models import AuditEvent
from entities.contacts import ContactsFormatError, import_contacts
from entities.models import Alias, Entity, EntityReview, Relation
from entities.resolver import resolve_mention
from entities.services import self_entity
from tests import factories

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "contacts"
VCARDS = FIXTURES / "contacts_200.vcf"
PEOPLE = FIXTURES / "people.vcf"  # the 12 hand-written cards of contacts_200.vcf


def run_import(path=PEOPLE, user_id="alice", **options):
    return import_contacts(user_id=user_id, data=path.read_bytes(), filename=path.name, actor="alice", **options)


def person(name, user_id="alice"):
    return Entity.objects.live().get(user_id=user_id, canonical_name=name)


def aliases(entity):
    return {a.normalized: a.origin for a in Alias.objects.filter(entity=entity)}


def edges(user_id="alice"):
    return {(r.subject.canonical_name, r.predicate, r.object.canonical_name)
            for r in Relation.objects.filter(user_id=user_id).select_related("subject", "object")}


def test_200_vcards_become_people_with_aliases_and_nothing_private_is_kept(db):
    summary = run_import(VCARDS)
    assert summary.cards == 200 and summary.format == "vcard"
    assert summary.duplicate_cards == 2          # Sarah Chen and Robert Smith exported twice
    assert summary.people_created == 198         # without a self card, Mark Jensen is a person too
    sarah = person("Sarah Chen")
    assert aliases(sarah) == dict.fromkeys({"sarah chen", "sally", "sarah", "dr chen"}, "contacts")
    assert set(aliases(person("Robert Smith"))) == {"robert smith", "bob", "rob", "robert"}
    assert person("Zoë Müller") and person("José Ángel Ruiz")
    assert Entity.objects.filter(user_id="alice", canonical_name="Sarah Chen").count() == 1
    assert summary.skipped_fields == {"phone": 196, "email": 194, "address": 41, "birthday": 43, "photo": 10,
                                      "other": 1}
    stored = " ".join(list(Alias.objects.values_list("alias", flat=True))
                      + list(Entity.objects.values_list("canonical_name", flat=True))
                      + [str(e.counts) + str(e.target_ids) + e.reason for e in AuditEvent.objects.all()])
    for private in ("@", "+49", "Torstraße", "1988-04-12", "/9j/"):
        assert private not in stored


def test_imported_aliases_resolve_nicknames_titles_and_roles(db):
    run_import(self_card="Mark Jensen")
    expected = {"Sally": "Sarah Chen", "Dr. Chen": "Sarah Chen", "Bob": "Robert Smith", "Pepe": "José Ángel Ruiz",
                "zoe": "Zoë Müller", "José": "José Ángel Ruiz", "my boss": "Priya Patel", "Mom": "Linda Jensen"}
    resolved = {mention: getattr(resolve_mention("alice", mention).entity, "canonical_name", None)
                for mention in expected}
    assert resolved == expected


def test_a_conversation_entity_is_enriched_not_duplicated(db):
    alex = factories.person(name="Alex")
    factories.memory(content="Alex is worried about the move", entities=[alex])
    summary = run_import()
    alex.refresh_from_db()
    assert alex.canonical_name == "Alex Kim"
    assert Entity.objects.filter(user_id="alice", normalized_name__startswith="alex").count() == 1
    assert aliases(alex) == {"alex": "user_mention", "alex kim": "contacts"}
    assert summary.people_matched == 1
    assert ("Alex Kim", "spouse_of", "Sarah Chen") in edges()


def test_two_sarahs_go_to_the_review_queue_instead_of_being_merged(db):
    sarah = factories.person(name="Sarah")
    summary = run_import()
    sarah.refresh_from_db()
    assert sarah.canonical_name == "Sarah" and aliases(sarah) == {"sarah": "user_mention"}
    reviews = {(r.entity.canonical_name, r.candidate.canonical_name) for r in EntityReview.objects.all()}
    assert reviews == {("Sarah", "Sarah Chen"), ("Sarah", "Sarah Miller")}
    assert summary.ambiguous == 2
    assert all(r.kind == "ambiguous_match" and r.resolved_at is None for r in EntityReview.objects.all())


def test_a_different_full_name_is_never_matched(db):
    chen = factories.person(name="Sarah Chen")
    run_import()
    assert aliases(chen).keys() >= {"sally"}
    assert "sarah miller" not in aliases(chen)
    assert not EntityReview.objects.exists()


def test_organisations_become_works_at_relations(db):
    acme = factories.person(name="Acme Corp", kind="org")
    summary = run_import(self_card="Mark Jensen")
    assert {("Sarah Chen", "works_at", "Acme Corp"), ("Priya Patel", "works_at", "Volkswagen"),
            ("Tom Becker", "works_at", "Volkswagen"), ("me", "works_at", "Volkswagen")} <= edges()
    assert Entity.objects.filter(user_id="alice", kind="org", canonical_name="Acme Corp").get() == acme
    assert Entity.objects.filter(user_id="alice", kind="org", canonical_name="Volkswagen").count() == 1
    assert summary.organisations_created == 2    # Volkswagen and Zalando; Acme Corp existed


def test_related_names_and_apple_labels_become_typed_relations(db):
    run_import(self_card="Mark Jensen")
    assert {("Alex Kim", "spouse_of", "Sarah Chen"),         # vCard 4.0 RELATED;TYPE=spouse
            ("Priya Patel", "manager_of", "Tom Becker"),     # RELATED by urn:uuid
            ("Priya Patel", "manager_of", "me"),             # Apple _$!<Manager>!$_ on the self card
            ("Linda Jensen", "parent_of", "me"),
            ("Alex Kim", "friend_of", "me")} <= edges()
    assert aliases(person("Priya Patel"))["my manager"] == "contacts"
    assert "my friend" not in aliases(person("Alex Kim"))


def test_the_self_card_enriches_the_self_entity(db):
    summary = run_import(self_card="mark jensen")
    me = self_entity("alice")
    assert summary.self_card_used
    assert {"mark jensen", "marky", "mark"} <= set(aliases(me))
    assert not Entity.objects.filter(user_id="alice", kind="person", canonical_name="Mark Jensen").exists()


def test_an_unknown_self_card_is_an_error(db):
    with pytest.raises(ContactsFormatError, match="No card in this file is named 'Nobody'"):
        run_import(self_card="Nobody")
    assert not Entity.objects.exists()


def test_reimporting_the_same_file_changes_nothing(db):
    factories.person(name="Sarah")
    run_import(self_card="Mark Jensen")
    tables = (Entity, Alias, Relation, EntityReview)
    before = [model.objects.count() for model in tables]
    again = run_import(self_card="Mark Jensen")
    assert [model.objects.count() for model in tables] == before
    assert (again.people_created, again.aliases_added, again.relations_added, again.ambiguous,
            again.organisations_created) == (0, 0, 0, 0, 0)


def test_a_malformed_card_is_named_and_nothing_is_imported(db):
    with pytest.raises(ContactsFormatError) as error:
        run_import(FIXTURES / "malformed.vcf")
    assert str(error.value) == (
        "Line 16 in card 3 ('Card Broken'), starting at line 12: cannot read 'TEL this line has no colon'.")
    assert not Entity.objects.exists() and not AuditEvent.objects.exists()


def test_an_unclosed_card_is_named(db):
    text = "BEGIN:VCARD\nVERSION:3.0\nFN:Ann Lee\nEND:VCARD\nBEGIN:VCARD\nVERSION:3.0\nFN:Open Card\n"
    with pytest.raises(ContactsFormatError, match=r"card 2 \('Open Card'\), starting at line 5 has no END:VCARD"):
        import_contacts(user_id="alice", data=text, filename="x.vcf", actor="alice")


def test_google_csv(db):
    summary = run_import(FIXTURES / "google.csv")
    assert (summary.format, summary.cards, summary.people_created) == ("csv", 7, 8)  # + Nina Gross (a relation)
    assert set(aliases(person("Robert Smith"))) == {"robert smith", "bob", "rob", "robert"}
    assert set(aliases(person("Sarah Chen"))) == {"sarah chen", "sally", "sarah", "dr chen"}
    assert {("Alex Kim", "spouse_of", "Sarah Chen"), ("Nina Gross", "assistant_of", "Priya Patel"),
            ("Sarah Chen", "works_at", "Acme Corp"), ("José Ángel Ruiz", "works_at", "Zalando")} <= edges()
    assert summary.skipped_fields == {"phone": 5, "email": 4, "address": 1, "birthday": 2, "photo": 1, "other": 2}


def test_outlook_csv_relation_columns(db):
    text = ("First Name,Middle Name,Last Name,Title,Suffix,Nickname,E-mail Address,Business Phone,Company,"
            "Manager's Name,Spouse,Children,Birthday\r\n"
            "Sarah,,Chen,Dr.,,Sally,s@acme.example,+49 30 1,Acme Corp,Priya Patel,Alex Kim,\"Mia Chen; Leo Chen\","
            "1987-03-02\r\n")
    summary = import_contacts(user_id="alice", data=text.encode("cp1252"), filename="outlook.csv", actor="alice")
    assert {("Priya Patel", "manager_of", "Sarah Chen"), ("Alex Kim", "spouse_of", "Sarah Chen"),
            ("Mia Chen", "child_of", "Sarah Chen"), ("Leo Chen", "child_of", "Sarah Chen")} <= edges()
    assert summary.skipped_fields["email"] == 1 and summary.skipped_fields["phone"] == 1


def test_csv_errors_name_the_line(db):
    with pytest.raises(ContactsFormatError, match="Line 1: no name columns"):
        import_contacts(user_id="alice", data="Phone,Email\r\n1,2\r\n", filename="c.csv", actor="alice")
    with pytest.raises(ContactsFormatError, match="Line 3: 4 fields but the header has 3"):
        import_contacts(user_id="alice", data="First Name,Last Name,Nickname\r\nAnn,Lee,\r\nBo,Ek,x,y\r\n",
                        filename="c.csv", actor="alice")
    assert not Entity.objects.exists()


def test_an_unrecognised_file_is_refused(db):
    with pytest.raises(ContactsFormatError, match="expected a vCard"):
        import_contacts(user_id="alice", data=b"just some notes", filename="notes.txt", actor="alice")


def test_the_import_is_audited_without_names(db):
    run_import(self_card="Mark Jensen")
    event = AuditEvent.objects.get(action="contacts_import")
    assert event.user_id == "alice" and event.counts["cards"] == 12
    assert "Sarah" not in str(event.counts) + str(event.target_ids)


def test_imports_never_touch_another_user(db):
    bobs_sarah = factories.person(user_id="bob", name="Sarah")
    run_import()
    assert Entity.objects.filter(user_id="bob").get() == bobs_sarah
    assert not EntityReview.objects.filter(user_id="bob").exists()


def test_a_first_name_entity_is_not_taken_when_another_person_could_be_meant(db):
    factories.person(name="Sarah Chen")
    sarah = factories.person(name="Sarah")
    run_import()
    sarah.refresh_from_db()
    assert sarah.canonical_name == "Sarah"
    reviews = {(r.entity.canonical_name, r.candidate.canonical_name) for r in EntityReview.objects.all()}
    assert reviews == {("Sarah", "Sarah Miller")}


def test_vcard_variants_organisation_cards_quoted_printable_and_links(db):
    text = "\r\n".join([
        "BEGIN:VCARD", "VERSION:2.1", "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=BCrgen;;;",
        "FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:J=C3=BCrgen M=C3=BCller", "TEL;CELL:+49 1", "END:VCARD",
        "BEGIN:VCARD", "VERSION:3.0", "FN:Acme Plumbing", "ORG:Acme Plumbing", "X-ABShowAs:COMPANY", "END:VCARD",
        "BEGIN:VCARD", "VERSION:4.0", "KIND:org", "FN:Charité", "END:VCARD",
        "BEGIN:VCARD", "VERSION:4.0", "FN:Ana Lima", "RELATED;TYPE=friend;VALUE=uri:mailto:x@example.org",
        "RELATED;TYPE=muse;VALUE=text:Someone", "END:VCARD",
        "BEGIN:VCARD", "VERSION:3.0", "TEL:+49 2", "END:VCARD", "",
    ])
    summary = import_contacts(user_id="alice", data=text.encode(), filename="mixed.vcf", actor="alice")
    assert person("Jürgen Müller").kind == "person"
    orgs = set(Entity.objects.filter(user_id="alice", kind="org").values_list("canonical_name", flat=True))
    assert orgs == {"Acme Plumbing", "Charité"}
    assert (summary.cards_without_name, summary.skipped_fields["other"], summary.skipped_fields["phone"]) == (1, 2, 2)
    assert not Relation.objects.exists() and "x@example.org" not in str(list(Alias.objects.values_list("alias")))


def numbered_cards(count: int, *, first: int = 1) -> bytes:
    return "".join(f"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person {n} Test\r\nN:Test;Person {n};;;\r\nEND:VCARD\r\n"
                   for n in range(first, first + count)).encode()


def test_full_names_that_differ_in_a_token_stay_different_people(db):
    summary = import_contacts(user_id="alice", data=numbered_cards(30), filename="people.vcf", actor="alice")
    assert (summary.people_created, summary.duplicate_cards, summary.ambiguous) == (30, 0, 0)
    assert aliases(person("Person 1 Test")) == dict.fromkeys({"person 1 test", "person 1"}, "contacts")
    assert aliases(person("Person 12 Test")) == dict.fromkeys({"person 12 test", "person 12"}, "contacts")


def test_a_numbered_name_known_before_is_not_taken_by_the_next_number(db):
    one = factories.person(name="Person 1 Test")
    summary = import_contacts(user_id="alice", data=numbered_cards(1, first=2), filename="p.vcf", actor="alice")
    assert (summary.people_created, summary.people_matched) == (1, 0)
    assert set(aliases(one)) == {"person 1 test"}


def test_a_genuine_duplicate_card_still_merges(db):
    cards = numbered_cards(1) + numbered_cards(1) + b"BEGIN:VCARD\r\nVERSION:3.0\r\nFN:person 1 test\r\nEND:VCARD\r\n"
    summary = import_contacts(user_id="alice", data=cards, filename="dup.vcf", actor="alice")
    assert (summary.people_created, summary.duplicate_cards) == (1, 2)


def test_a_typo_of_a_known_name_is_still_matched(db):
    chen = factories.person(name="Sarah Chenn")
    text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Sarah Chen\r\nNICKNAME:Sally\r\nEND:VCARD\r\n"
    summary = import_contacts(user_id="alice", data=text, filename="c.vcf", actor="alice")
    assert summary.people_matched == 1 and "sally" in aliases(chen)


def test_an_import_takes_time_linear_in_its_cards(db):
    """Reads and writes are batched: the statements an import runs do not grow with its cards."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    factories.person(name="Someone Known")
    counts = []
    for first, count in ((1, 50), (1000, 500)):
        with CaptureQueriesContext(connection) as queries:
            import_contacts(user_id="alice", data=numbered_cards(count, first=first), filename="p.vcf", actor="alice")
        counts.append(len(queries))
    assert counts[1] <= counts[0] + 2, counts
