"""The Celery app: configured from Django settings (CELERY_* names), tasks autodiscovered."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shuangkou_site.settings.dev")

app = Celery("shuangkou_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
