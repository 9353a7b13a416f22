"""MetricSnapshot now belongs to the metrics app (metrics 0001); its table stays, only the state moves."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("audit", "0002_grants_move_to_access"),
        ("metrics", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="MetricSnapshot")],
            database_operations=[],
        ),
    ]
