"""UserIdGrant moves here from the audit app. Its table (audit_useridgrant) stays where it is: this
migration only takes over the model's state, audit's 0002 lets go of it."""
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("audit", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="UserIdGrant",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False,
                                                   verbose_name="ID")),
                        ("user_id", models.CharField(max_length=128)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("account", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                      related_name="user_id_grants", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={"db_table": "audit_useridgrant"},
                ),
                migrations.AddConstraint(
                    model_name="useridgrant",
                    constraint=models.UniqueConstraint(fields=("account", "user_id"), name="unique_grant"),
                ),
            ],
            database_operations=[],
        ),
    ]
