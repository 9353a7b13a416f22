from django.db import migrations

# A later value kept beside an earlier one names it in `details.updates`; since this release the earlier one
# also names the later in `details.updated_by`, which search reads to put the later first. Links made before
# get the same back-reference here (same user only, each id once, in id order).
BACKFILL_UPDATED_BY = r"""
UPDATE memories_memory earlier SET details = jsonb_set(earlier.details, '{updated_by}', later.ids)
FROM (
    SELECT named.id AS earlier_id, newer.user_id, jsonb_agg(DISTINCT newer.id) AS ids
    FROM memories_memory newer
    CROSS JOIN LATERAL jsonb_array_elements_text(newer.details -> 'updates') AS named(id)
    WHERE jsonb_typeof(newer.details -> 'updates') = 'array'
    GROUP BY named.id, newer.user_id
) later
WHERE earlier.id = later.earlier_id::bigint AND earlier.user_id = later.user_id
  AND NOT earlier.details ? 'updated_by'
"""


class Migration(migrations.Migration):

    dependencies = [
        ('memories', '0014_user_domain_index'),
    ]

    operations = [
        migrations.RunSQL(BACKFILL_UPDATED_BY, reverse_sql=migrations.RunSQL.noop),
    ]
