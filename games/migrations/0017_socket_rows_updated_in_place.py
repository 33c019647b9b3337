"""A socket row's heartbeat update is HOT (docs/performance.md, "Socket rows updated
in place"): no index on ``seen_at`` (what the beat writes), none of the table's own
(the (table, user) index serves it), the channel unique by a constraint (no LIKE
index), and half of each page left free, so the new version of a row fits beside the
old one. The beat updated its socket rows with seven index entries each."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0016_socket_process'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='tablesocket',
            name='channel',
            field=models.CharField(max_length=200, verbose_name='通道'),
        ),
        migrations.AlterField(
            model_name='tablesocket',
            name='seen_at',
            field=models.DateTimeField(default=django.utils.timezone.now, verbose_name='最近确认'),
        ),
        migrations.AlterField(
            model_name='tablesocket',
            name='table',
            field=models.ForeignKey(db_index=False,
                                    on_delete=django.db.models.deletion.CASCADE,
                                    related_name='sockets', to='games.table',
                                    verbose_name='牌桌'),
        ),
        migrations.AddConstraint(
            model_name='tablesocket',
            constraint=models.UniqueConstraint(fields=('channel',),
                                               name='one_row_per_socket_channel'),
        ),
        migrations.RunSQL("ALTER TABLE games_tablesocket SET (fillfactor = 50)",
                          "ALTER TABLE games_tablesocket RESET (fillfactor)"),
    ]
