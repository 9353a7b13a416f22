from django.db import migrations

# 0012 re-embedded every line starting "Label: " without its label; only a speaker's name is cut now
# (memories/sentences.embedding_text: the name of a person the memory is linked to). Lines whose label is
# words of the memory ("Redis memory usage: …") are embedded again with it.
REEMBED_LABELLED_LINES = r"""
UPDATE memories_memory m SET embedding_status = 'pending'
WHERE m.embedding_status = 'ready' AND m.content ~ '^[A-Z][\w .''’-]{0,40}: '
  AND NOT EXISTS (
    SELECT 1 FROM memories_memoryentity link JOIN entities_entity e ON e.id = link.entity_id
    WHERE link.memory_id = m.id AND e.kind = 'person'
      AND lower(left(m.content, length(e.canonical_name) + 2)) = lower(e.canonical_name) || ': ')
"""


class Migration(migrations.Migration):

    dependencies = [
        ('memories', '0012_reembed_without_speaker'),
        ('entities', '0005_relation_source_messages'),
    ]

    operations = [
        migrations.RunSQL(REEMBED_LABELLED_LINES, reverse_sql=migrations.RunSQL.noop),
    ]
