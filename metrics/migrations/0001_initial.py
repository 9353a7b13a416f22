"""MetricSnapshot moves here from the audit app. Its table (audit_metricsnapshot) stays where it is: this
migration only takes over the model's state, audit's 0003 lets go of it."""
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("audit", "0002_grants_move_to_access"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="MetricSnapshot",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                                   verbose_name="ID")),
                        ("user_id", models.CharField(max_length=128)),
                        ("week_start", models.DateField()),
                        ("values", models.JSONField(default=dict)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                    ],
                    options={
                        "db_table": "audit_metricsnapshot",
                        "ordering": ["user_id", "week_start"],
                        "constraints": [models.UniqueConstraint(fields=("user_id", "week_start"),
                                                                name="unique_weekly_snapshot")],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
