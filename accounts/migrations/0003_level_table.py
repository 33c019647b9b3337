"""The title ladder of RULES §7 as data."""

from django.db import migrations

LADDER = [
    (1, "包身工", 0), (2, "短工", 60), (3, "长工", 140), (4, "佃户", 300), (5, "贫农", 720),
    (6, "渔夫", 1400), (7, "猎人", 2000), (8, "中农", 3000), (9, "富农", 4500),
    (10, "掌柜", 6200), (11, "商人", 8000), (12, "衙役", 12000), (13, "小财主", 17000),
    (14, "大财主", 22000), (15, "小地主", 28000), (16, "大地主", 40000), (17, "知县", 60000),
    (18, "通判", 90000), (19, "知府", 140000), (20, "总督", 300000), (21, "巡抚", 450000),
    (22, "丞相", 600000), (23, "帝王", 1000000),
]


def load(apps, schema_editor) -> None:
    Level = apps.get_model("accounts", "Level")
    for number, title, min_points in LADDER:
        Level.objects.update_or_create(number=number,
                                       defaults={"title": title, "min_points": min_points})


def unload(apps, schema_editor) -> None:
    apps.get_model("accounts", "Level").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_level")]

    operations = [migrations.RunPython(load, unload)]
