from django.db import migrations

# Memories are embedded without their line's speaker ("Marco: …", memories/sentences.embedding_text). Those
# embedded with it are embedded again by the scheduled retry (tasks.embed_pending_memories); meanwhile their
# old vectors keep serving search.
REEMBED_SPOKEN_LINES = r"""
UPDATE memories_memory SET embedding_status = 'pending'
WHERE embedding_status = 'ready' AND content ~ '^[A-Z][\w .''’-]{0,40}: '
"""


class Migration(migrations.Migration):

    dependencies = [
        ('memories', '0011_memory_sentences'),
    ]

    operations = [
        migrations.RunSQL(REEMBED_SPOKEN_LINES, reverse_sql=migrations.RunSQL.noop),
    ]
