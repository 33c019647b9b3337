# A player chooses whether others see their stats page; public by default.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0004_remove_user_level'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='stats_public',
            field=models.BooleanField(default=True, verbose_name='公开统计'),
        ),
    ]
