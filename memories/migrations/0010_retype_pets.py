"""Entities kind `pet` (entities 0004): a person whose memories call it someone's pet ("my dog Rex", "Luna, our
cat", "a puppy named Scout") becomes a pet. Nothing is deleted; an entity whose name a live pet already has
keeps its kind (the console's merge suggestions offer the pair)."""
import re

from django.db import migrations

PETS = (r"(?:dogs?|pupp(?:y|ies)|pups?|cats?|kittens?|kitty|bunny|rabbit|hamster|guinea pigs?|parrot|bird|"
        r"turtles?|tortoise|horse|pony|goldfish|fish|snake|lizard|gecko|ferret|german shepherd|labrador|"
        r"retriever|poodle|beagle|terrier|husky|corgi|pug|dachshund|chihuahua|bulldog|spaniel|collie)")


def pet_pattern(name: str) -> re.Pattern:
    name = re.escape(name)
    return re.compile(rf"\b(?:my|our|his|her|their|a|an|the) (?:\w+ ){{0,2}}{PETS},? (?:named |called )?{name}\b|"
                      rf"\b{name},? (?:is |was )?(?:my|our|his|her|their) (?:\w+ ){{0,2}}{PETS}\b", re.IGNORECASE)


def retype_pets(apps, schema_editor):
    Entity = apps.get_model("entities", "Entity")
    MemoryEntity = apps.get_model("memories", "MemoryEntity")
    for entity in Entity.objects.filter(kind="person", deleted_at__isnull=True).exclude(canonical_name="").iterator():
        contents = MemoryEntity.objects.filter(entity=entity).values_list("memory__content", flat=True)
        pattern = pet_pattern(entity.canonical_name)
        if not any(pattern.search(content) for content in contents):
            continue
        taken = Entity.objects.filter(user_id=entity.user_id, kind="pet", normalized_name=entity.normalized_name,
                                      deleted_at__isnull=True)
        if not taken.exists():
            Entity.objects.filter(pk=entity.pk).update(kind="pet")


class Migration(migrations.Migration):

    dependencies = [
        ("memories", "0009_session_dialogue"),
        ("entities", "0004_pet_kind"),
    ]

    operations = [migrations.RunPython(retype_pets, migrations.RunPython.noop)]
