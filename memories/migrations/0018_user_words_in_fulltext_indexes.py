"""The full-text GIN indexes hold each memory's words with its user's token (memories/user_words.py).

They replace the indexes over `search_vector` alone, whose postings listed every tenant of a partition under
a word. Built in the migration's transaction with the memory the HNSW rebuilds get (memories/partitions.py),
then each partition's copy named after its index, as the others are.
"""
import django.contrib.postgres.indexes
from django.db import migrations, models

import memories.user_words
from memories.partitions import INDEX_BUILD_MEMORY, name_partition_indexes


def more_build_memory(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT set_config('maintenance_work_mem', %s, true)", [INDEX_BUILD_MEMORY])


def name_partitions_indexes(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        name_partition_indexes(cursor, "memories_memory")


class Migration(migrations.Migration):

    dependencies = [
        ('entities', '0005_relation_source_messages'),
        ('memories', '0017_sixty_four_partitions'),
    ]

    operations = [
        migrations.RunPython(more_build_memory, name_partitions_indexes),
        migrations.RemoveIndex(
            model_name='memory',
            name='memory_search_vector_gin',
        ),
        migrations.RemoveIndex(
            model_name='memory',
            name='memory_fts_professional',
        ),
        migrations.RemoveIndex(
            model_name='memory',
            name='memory_fts_health',
        ),
        migrations.RemoveIndex(
            model_name='memory',
            name='memory_fts_relationship',
        ),
        migrations.AddIndex(
            model_name='memory',
            index=django.contrib.postgres.indexes.GinIndex(memories.user_words.UserWords(), name='memory_words'),
        ),
        migrations.AddIndex(
            model_name='memory',
            index=django.contrib.postgres.indexes.GinIndex(memories.user_words.UserWords(), condition=models.Q(('domain__in', ['professional', 'scheduling'])), name='memory_words_professional'),
        ),
        migrations.AddIndex(
            model_name='memory',
            index=django.contrib.postgres.indexes.GinIndex(memories.user_words.UserWords(), condition=models.Q(('domain__in', ['health'])), name='memory_words_health'),
        ),
        migrations.AddIndex(
            model_name='memory',
            index=django.contrib.postgres.indexes.GinIndex(memories.user_words.UserWords(), condition=models.Q(('domain__in', ['relationship', 'personal'])), name='memory_words_relationship'),
        ),
        migrations.RunPython(name_partitions_indexes, more_build_memory),
    ]
